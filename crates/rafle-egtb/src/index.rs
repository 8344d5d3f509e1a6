//! From positions to table indices and back.
//!
//! A table holds the positions of one [`Material`] slice with White to
//! move: a position with Black to move is first turned half a turn with the
//! colours swapped (every variant's rules are the same for both colours), so
//! "own" pieces are White's and move up. Squares are counted in reading
//! order (row by row from the top, 0-based), whatever the variant's
//! numbering. An index is a mixed-radix number, most significant first:
//!
//! ```text
//! own men    k-subset of the squares off the top row   (own men are never on their crowning row)
//! opp men    k-subset of the squares off the bottom row
//! own kings  k-subset of the squares no man stands on
//! opp kings  k-subset of the squares no man or own king stands on
//! runs       (frisian) the king-move run of each side: 0, or 1 + L*j + (c-1)
//!            for its j-th king (reading order) having made c of L quiet moves
//! ```
//!
//! A k-subset p_0 < ... < p_(k-1) of positions 0..n ranks as
//! sum C(p_i, i+1) (the combinatorial number system). The two men groups are
//! ranked independently, so an index may put an own and an opposing man on
//! one square: that index is no position (code [`crate::Code::NONE`]). The
//! kings' ranks are exact. A run is counted only for a side with men and
//! kings (the limit binds no other side), so other sides have one state.

use crate::material::Material;
use rafle_core::rng::Rng;
use rafle_core::{Bitboard, Color, KingRun, Position, Variant};

/// Largest number of one kind of piece a table holds (C(n, k) for k up to
/// this fits 64 bits on every board).
pub const MAX_GROUP: usize = 12;

/// The index arithmetic of one variant's board.
#[derive(Clone, Debug)]
pub struct Indexer {
    pub variant: Variant,
    /// Playable squares.
    squares: usize,
    /// Playable squares per row.
    row: usize,
    /// Bit of each reading-order square.
    bit_of: Vec<u8>,
    /// Reading-order square of each bit (0xFF: ghost bit).
    square_of: [u8; 128],
    /// Reading-order square of each bit once the board is turned half a
    /// turn (0xFF: ghost bit).
    turned: [u8; 128],
    /// C(n, k) for n <= squares, k <= MAX_GROUP.
    binom: Vec<[u64; MAX_GROUP + 1]>,
    /// The king-move limit (0: runs are not part of the state).
    limit: u8,
}

/// The sizes of one slice's index fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceIndex {
    pub material: Material,
    radix: [u64; 6],
    /// Number of indices.
    pub size: u64,
}

impl Indexer {
    pub fn new(variant: Variant) -> Indexer {
        let g = variant.geometry();
        let bit_of: Vec<u8> = (0..g.squares)
            .map(|k| g.bit_of(g.square_of_index(k)) as u8)
            .collect();
        let mut square_of = [0xFF; 128];
        let mut turned = [0xFF; 128];
        for (k, &b) in bit_of.iter().enumerate() {
            square_of[b as usize] = k as u8;
            turned[b as usize] = (g.squares - 1 - k) as u8;
        }
        let mut binom = vec![[0u64; MAX_GROUP + 1]; g.squares + 1];
        for n in 0..=g.squares {
            binom[n][0] = 1;
            for k in 1..=MAX_GROUP {
                binom[n][k] = if n == 0 {
                    0
                } else {
                    binom[n - 1][k - 1] + binom[n - 1][k]
                };
            }
        }
        Indexer {
            variant,
            squares: g.squares,
            row: g.h,
            bit_of,
            square_of,
            turned,
            binom,
            limit: variant.rules().king_move_limit,
        }
    }

    #[inline]
    fn choose(&self, n: usize, k: usize) -> u64 {
        self.binom[n][k]
    }

    /// Run states of a side with these men and kings.
    fn run_states(&self, men: u8, kings: u8) -> u64 {
        if self.limit > 0 && men > 0 && kings > 0 {
            1 + self.limit as u64 * kings as u64
        } else {
            1
        }
    }

    /// The index fields of slice `m`. Fails when a group is larger than a
    /// table holds or the men do not fit.
    pub fn slice(&self, m: Material) -> Result<SliceIndex, String> {
        let men_squares = self.squares - self.row;
        let groups = [m.own_men, m.opp_men, m.own_kings, m.opp_kings];
        if groups.iter().any(|&k| k as usize > MAX_GROUP)
            || m.own_men as usize > men_squares
            || m.opp_men as usize > men_squares
            || m.pieces() as usize > self.squares
        {
            return Err(format!(
                "slice {m} does not fit a table of {}",
                self.variant
            ));
        }
        let men = m.men() as usize;
        let radix = [
            self.choose(men_squares, m.own_men as usize),
            self.choose(men_squares, m.opp_men as usize),
            self.choose(self.squares - men, m.own_kings as usize),
            self.choose(
                self.squares - men - m.own_kings as usize,
                m.opp_kings as usize,
            ),
            self.run_states(m.own_men, m.own_kings),
            self.run_states(m.opp_men, m.opp_kings),
        ];
        let size = radix
            .iter()
            .try_fold(1u64, |a, &r| a.checked_mul(r))
            .filter(|&s| s < u32::MAX as u64)
            .ok_or_else(|| format!("slice {m} of {} has too many positions", self.variant))?;
        Ok(SliceIndex {
            material: m,
            radix,
            size,
        })
    }

    /// The number of positions of slice `s`: its indices less those that
    /// put two men on one square (counted over the men's fields alone).
    pub fn positions(&self, s: &SliceIndex) -> u64 {
        let m = s.material;
        let men_squares = self.squares - self.row;
        let [own, opp, ..] = s.radix;
        let rest: u64 = s.radix[2..].iter().product();
        let mut apart = 0;
        for a in 0..own {
            let own_men = self.unrank(a, m.own_men as usize, men_squares) << self.row;
            for b in 0..opp {
                let opp_men = self.unrank(b, m.opp_men as usize, men_squares);
                apart += (own_men & opp_men == 0) as u64;
            }
        }
        apart * rest
    }

    /// Turns a bitboard half a turn.
    fn rotate_bits(&self, b: Bitboard) -> Bitboard {
        let mut out = 0;
        for i in rafle_core::Bits(b) {
            let k = self.square_of[i as usize] as usize;
            out |= 1 << self.bit_of[self.squares - 1 - k];
        }
        out
    }

    /// `pos` with White to move: turned half a turn with the colours
    /// swapped when Black is to move. Runs of a side without men are
    /// dropped (they can never bind again).
    pub fn normalize(&self, pos: &Position) -> Position {
        let mut p = *pos;
        if p.side == Color::Black {
            let rot_run = |r: KingRun| KingRun {
                bit: if r.moves > 0 {
                    self.bit_of[self.squares - 1 - self.square_of[r.bit as usize] as usize]
                } else {
                    0
                },
                moves: r.moves,
            };
            p = Position {
                white: self.rotate_bits(pos.black),
                black: self.rotate_bits(pos.white),
                kings: self.rotate_bits(pos.kings),
                side: Color::White,
                king_runs: [rot_run(pos.king_runs[1]), rot_run(pos.king_runs[0])],
            };
        }
        for c in [Color::White, Color::Black] {
            if self.limit == 0 || p.men(c) == 0 || p.king_runs[c.index()].moves == 0 {
                p.king_runs[c.index()] = KingRun::default();
            }
        }
        p
    }

    /// Reading-order squares of a bitboard, as a mask, through `table`
    /// (`square_of`, or `turned` for the board turned half a turn).
    #[inline(always)]
    fn reading_in(table: &[u8; 128], b: Bitboard) -> u128 {
        let mut out = 0u128;
        let (mut lo, mut hi) = (b as u64, (b >> 64) as u64);
        while lo != 0 {
            out |= 1u128 << table[lo.trailing_zeros() as usize];
            lo &= lo - 1;
        }
        while hi != 0 {
            out |= 1u128 << table[64 + hi.trailing_zeros() as usize];
            hi &= hi - 1;
        }
        out
    }

    /// Rank of the set `mask` (positions below 128) as a k-subset.
    #[inline]
    fn rank(&self, mut mask: u128) -> u64 {
        let mut r = 0;
        let mut i = 1;
        while mask != 0 {
            let p = mask.trailing_zeros() as usize;
            r += self.choose(p, i);
            mask &= mask - 1;
            i += 1;
        }
        r
    }

    /// The k-subset of rank `r` (inverse of `rank`).
    #[inline]
    fn unrank(&self, mut r: u64, k: usize, n: usize) -> u128 {
        let mut mask = 0u128;
        let mut top = n;
        for i in (1..=k).rev() {
            // The largest p < top with C(p, i) <= r (C grows with p).
            let (mut lo, mut hi) = (i - 1, top - 1);
            while lo < hi {
                let mid = (lo + hi).div_ceil(2);
                if self.choose(mid, i) <= r {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            let p = lo;
            r -= self.choose(p, i);
            mask |= 1u128 << p;
            top = p;
        }
        mask
    }

    /// `mask`'s squares counted among the squares not in `taken`: each
    /// square moves down by the taken squares below it.
    #[inline]
    fn compress(mask: u128, taken: u128) -> u128 {
        let mut out = 0;
        let mut m = mask;
        while m != 0 {
            let p = m.trailing_zeros();
            let below = (taken & ((1u128 << p) - 1)).count_ones();
            out |= 1u128 << (p - below);
            m &= m - 1;
        }
        out
    }

    /// Inverse of `compress`: the `j`-th square not in `taken` for each bit j.
    #[inline]
    fn expand(mask: u128, taken: u128) -> u128 {
        let mut out = 0;
        let mut m = mask;
        let mut free = !taken;
        let mut j = 0;
        while m != 0 {
            let want = m.trailing_zeros();
            while j < want {
                free &= free - 1;
                j += 1;
            }
            out |= 1u128 << free.trailing_zeros();
            m &= m - 1;
        }
        out
    }

    /// The run state of a side (see the module): its run and its kings,
    /// in reading order of the frame the index is taken in.
    #[inline]
    fn run_state(&self, table: &[u8; 128], run: KingRun, men: u128, kings: u128) -> u64 {
        if self.limit == 0 || run.moves == 0 || men == 0 {
            return 0;
        }
        let k = table[run.bit as usize];
        let j = (kings & ((1u128 << k) - 1)).count_ones() as u64;
        1 + self.limit as u64 * j + (run.moves as u64 - 1)
    }

    fn run_of(&self, state: u64, kings: u128) -> KingRun {
        if state == 0 {
            return KingRun::default();
        }
        let (j, c) = (
            (state - 1) / self.limit as u64,
            (state - 1) % self.limit as u64,
        );
        let mut m = kings;
        for _ in 0..j {
            m &= m - 1;
        }
        KingRun {
            bit: self.bit_of[m.trailing_zeros() as usize],
            moves: c as u8 + 1,
        }
    }

    /// The index of `p` in slice `s` (which must be `p`'s material): with
    /// Black to move the squares are read on the board turned half a turn,
    /// as [`Indexer::normalize`] would turn it.
    #[inline]
    pub fn index(&self, s: &SliceIndex, p: &Position) -> u64 {
        let (own, opp, table) = match p.side {
            Color::White => (Color::White, Color::Black, &self.square_of),
            Color::Black => (Color::Black, Color::White, &self.turned),
        };
        let row = self.row as u32;
        let own_men = Self::reading_in(table, p.men(own));
        let opp_men = Self::reading_in(table, p.men(opp));
        let men = own_men | opp_men;
        let own_kings = Self::reading_in(table, p.kings_of(own));
        let opp_kings = Self::reading_in(table, p.kings_of(opp));
        let mut i = self.rank(own_men >> row);
        i = i * s.radix[1] + self.rank(opp_men);
        i = i * s.radix[2] + self.rank(Self::compress(own_kings, men));
        i = i * s.radix[3] + self.rank(Self::compress(opp_kings, men | own_kings));
        if self.limit > 0 {
            i = i * s.radix[4]
                + self.run_state(table, p.king_runs[own.index()], own_men, own_kings);
            i = i * s.radix[5]
                + self.run_state(table, p.king_runs[opp.index()], opp_men, opp_kings);
        }
        i
    }

    /// The position (White to move) of index `i` of slice `s`; `None` when
    /// the index puts two men on one square.
    pub fn position(&self, s: &SliceIndex, i: u64) -> Option<Position> {
        Decoder::new(self, *s).position(i)
    }

    /// A uniformly random position (White to move) of slice `s`, for
    /// sampling a slice in tests and analysis.
    pub fn random_position(&self, s: &SliceIndex, rng: &mut Rng) -> Position {
        loop {
            let i = ((rng.next_u64() as u128 * s.size as u128) >> 64) as u64;
            if let Some(p) = self.position(s, i) {
                return p;
            }
        }
    }
}

/// Decodes indices of one slice, keeping the squares of the fields that did
/// not change since the last index (consecutive indices differ mostly in
/// the last fields), for the builder's passes over whole slices.
#[derive(Debug)]
pub struct Decoder<'a> {
    ix: &'a Indexer,
    s: SliceIndex,
    fields: [u64; 4],
    /// Own men, opp men, own kings, opp kings, in reading order.
    masks: [u128; 4],
}

impl<'a> Decoder<'a> {
    pub fn new(ix: &'a Indexer, s: SliceIndex) -> Decoder<'a> {
        Decoder {
            ix,
            s,
            fields: [u64::MAX; 4],
            masks: [0; 4],
        }
    }

    /// The position (White to move) of index `i`; `None` when the index
    /// puts two men on one square.
    pub fn position(&mut self, mut i: u64) -> Option<Position> {
        let ix = self.ix;
        let r = &self.s.radix;
        let opp_run = i % r[5];
        i /= r[5];
        let own_run = i % r[4];
        i /= r[4];
        let mut f = [0u64; 4];
        for k in (0..4).rev() {
            f[k] = i % r[k];
            i /= r[k];
        }
        let m = self.s.material;
        let men_squares = ix.squares - ix.row;
        let mut changed = false;
        if f[0] != self.fields[0] {
            self.masks[0] = ix.unrank(f[0], m.own_men as usize, men_squares) << ix.row;
            changed = true;
        }
        if f[1] != self.fields[1] {
            self.masks[1] = ix.unrank(f[1], m.opp_men as usize, men_squares);
            changed = true;
        }
        let men = self.masks[0] | self.masks[1];
        let free = ix.squares - men.count_ones() as usize;
        if changed || f[2] != self.fields[2] {
            self.masks[2] = Indexer::expand(ix.unrank(f[2], m.own_kings as usize, free), men);
            changed = true;
        }
        if changed || f[3] != self.fields[3] {
            self.masks[3] = Indexer::expand(
                ix.unrank(f[3], m.opp_kings as usize, free - m.own_kings as usize),
                men | self.masks[2],
            );
        }
        self.fields = f;
        let [own_men, opp_men, own_kings, opp_kings] = self.masks;
        if own_men & opp_men != 0 {
            return None;
        }
        let bits = |mask: u128| -> Bitboard {
            let mut out = 0;
            let mut m = mask;
            while m != 0 {
                out |= 1 << ix.bit_of[m.trailing_zeros() as usize];
                m &= m - 1;
            }
            out
        };
        Some(Position {
            white: bits(own_men | own_kings),
            black: bits(opp_men | opp_kings),
            kings: bits(own_kings | opp_kings),
            side: Color::White,
            king_runs: [ix.run_of(own_run, own_kings), ix.run_of(opp_run, opp_kings)],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rafle_core::rng::Rng;
    use rafle_core::Game;

    #[test]
    fn every_index_decodes_to_a_position_that_encodes_back() {
        for v in Variant::ALL {
            let ix = Indexer::new(v);
            for m in Material::all_up_to(v, 3) {
                let s = ix.slice(m).unwrap();
                let mut valid = 0;
                for i in 0..s.size {
                    if let Some(p) = ix.position(&s, i) {
                        assert_eq!(Material::of(&p), m, "{v} {m} {i}");
                        assert_eq!(ix.index(&s, &p), i, "{v} {m}");
                        valid += 1;
                    }
                }
                assert!(valid > 0, "{v} {m}");
            }
        }
    }

    #[test]
    fn positions_of_games_normalize_to_their_slice_and_back() {
        for v in Variant::ALL {
            let ix = Indexer::new(v);
            let mut rng = Rng::new(5);
            let mut g = Game::new(v);
            while !g.is_over() && g.ply() < 300 {
                let p = ix.normalize(g.position());
                let m = Material::of(&p);
                assert_eq!(m, Material::of(g.position()), "{v}");
                if m.pieces() <= 12 && m.own_men as usize <= MAX_GROUP {
                    if let Ok(s) = ix.slice(m) {
                        let i = ix.index(&s, &p);
                        assert_eq!(ix.position(&s, i), Some(p), "{v} {}", g.fen());
                    }
                }
                let legal = g.legal_moves();
                let mv = legal[rng.below(legal.len())];
                g.play(&mv).unwrap();
            }
        }
    }
}
