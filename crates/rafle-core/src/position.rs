//! Positions: three bitboards and the side to move.

use crate::board::{bit, BitWord, Bitboard, Bits, Geometry, MAX_BITS};
use crate::moves::Move;
use crate::types::Color;
use crate::variant::{Rules, Variant};

/// A position. Bitboards use the ghost-bit layout of `board`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub white: Bitboard,
    pub black: Bitboard,
    /// Which pieces (of either colour) are kings.
    pub kings: Bitboard,
    pub side: Color,
    /// Per colour (`Color::index`), the run of quiet moves of one king that
    /// the king-move limit counts (frisian, rule book F6); always empty in
    /// the variants without that limit.
    pub king_runs: [KingRun; 2],
}

/// The quiet moves one king made in a row: its square (bit) after the last
/// of them and how many (0: no run).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KingRun {
    pub bit: u8,
    pub moves: u8,
}

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    Man(Color),
    King(Color),
}

impl Piece {
    pub fn color(self) -> Color {
        match self {
            Piece::Man(c) | Piece::King(c) => c,
        }
    }
    pub fn is_king(self) -> bool {
        matches!(self, Piece::King(_))
    }
}

impl Position {
    pub const EMPTY: Position = Position {
        white: 0,
        black: 0,
        kings: 0,
        side: Color::White,
        king_runs: [KingRun { bit: 0, moves: 0 }; 2],
    };

    /// The start position of rules `R`.
    pub fn start_of<R: Rules>() -> Position {
        let g = R::GEO;
        let (rows, gap) = (
            R::START_ROWS + R::SET.empty_back_rows,
            R::SET.empty_back_rows,
        );
        Position {
            white: g.rows_from_bottom(rows) & !g.rows_from_bottom(gap),
            black: g.rows_from_top(rows) & !g.rows_from_top(gap),
            kings: 0,
            side: R::FIRST,
            king_runs: [KingRun::default(); 2],
        }
    }

    pub fn start(v: Variant) -> Position {
        with_rules!(v, R => Position::start_of::<R>())
    }

    #[inline(always)]
    pub fn pieces(&self, c: Color) -> Bitboard {
        match c {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    #[inline(always)]
    pub fn own(&self) -> Bitboard {
        self.pieces(self.side)
    }

    #[inline(always)]
    pub fn opp(&self) -> Bitboard {
        self.pieces(self.side.opponent())
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.white | self.black
    }

    pub fn men(&self, c: Color) -> Bitboard {
        self.pieces(c) & !self.kings
    }

    pub fn kings_of(&self, c: Color) -> Bitboard {
        self.pieces(c) & self.kings
    }

    /// The piece on 1-based square `s`, if any.
    pub fn piece_at(&self, g: &Geometry, s: usize) -> Option<Piece> {
        let b = bit(g.bit_of(s));
        let king = self.kings & b != 0;
        let color = if self.white & b != 0 {
            Color::White
        } else if self.black & b != 0 {
            Color::Black
        } else {
            return None;
        };
        Some(if king {
            Piece::King(color)
        } else {
            Piece::Man(color)
        })
    }

    /// Puts `p` on square `s` (replacing what was there).
    pub fn set(&mut self, g: &Geometry, s: usize, p: Option<Piece>) {
        let b = bit(g.bit_of(s));
        self.white &= !b;
        self.black &= !b;
        self.kings &= !b;
        if let Some(p) = p {
            match p.color() {
                Color::White => self.white |= b,
                Color::Black => self.black |= b,
            }
            if p.is_king() {
                self.kings |= b;
            }
        }
    }

    /// Plays a legal move of the side to move under rules `R`. Captured
    /// pieces leave the board, a man ending on its crowning row (or crowned
    /// on the way, R4) becomes a king, the king-move run is counted where the
    /// variant limits it, the turn passes.
    #[inline]
    pub fn apply<R: Rules>(&mut self, m: &Move) {
        // In the variant's own word (`Rules::Word`), like the move generator.
        let w = R::Word::narrow;
        let from = R::Word::bit(m.from as u32);
        let to = R::Word::bit(m.to() as u32);
        let captured = w(m.captured);
        let mut kings = w(self.kings);
        let was_king = (kings & from).any();
        let side = self.side;
        let (own, opp) = match side {
            Color::White => (&mut self.white, &mut self.black),
            Color::Black => (&mut self.black, &mut self.white),
        };
        // `from == to` happens when a king's capture loop returns home.
        let own_now = (w(*own) & !from) | to;
        let opp_now = w(*opp) & !captured;
        *own = own_now.widen();
        *opp = opp_now.widen();
        kings &= !(captured | from);
        if was_king || m.crowned() || (to & w(R::GEO.promotion_row(side))).any() {
            kings |= to;
        }
        self.kings = kings.widen();
        if R::KING_MOVE_LIMIT > 0 {
            // Counted up to the limit, and only while the side has men (the
            // limit holds no king of a side of kings alone).
            let has_men = (own_now & !kings).any();
            let run = &mut self.king_runs[side.index()];
            *run = if was_king && !m.is_capture() && has_men {
                let before = if run.moves > 0 && run.bit == m.from {
                    run.moves
                } else {
                    0
                };
                KingRun {
                    bit: m.to(),
                    moves: (before + 1).min(R::KING_MOVE_LIMIT),
                }
            } else {
                KingRun::default()
            };
            // A run ends with its king, or with the last man of its side.
            let opp = side.opponent();
            let run = self.king_runs[opp.index()];
            let king_taken = (captured & R::Word::bit(run.bit as u32)).any();
            let men_left = (opp_now & !kings).any();
            if run.moves > 0 && (king_taken || !men_left) {
                self.king_runs[opp.index()] = KingRun::default();
            }
        }
        self.side = side.opponent();
    }

    /// [`Position::apply`] for a variant chosen at run time.
    pub fn apply_in(&mut self, v: Variant, m: &Move) {
        with_rules!(v, R => self.apply::<R>(m))
    }

    /// The king of the side to move that may not make a quiet move now
    /// (its run reached the limit while its side has men), as a bitboard.
    #[inline(always)]
    pub fn restricted_king<R: Rules>(&self) -> Bitboard {
        if R::KING_MOVE_LIMIT == 0 {
            return 0;
        }
        let run = self.king_runs[self.side.index()];
        if run.moves >= R::KING_MOVE_LIMIT && self.own() & !self.kings != 0 {
            bit(run.bit)
        } else {
            0
        }
    }

    /// Zobrist hash of pieces and side to move (for repetition and tables).
    pub fn zobrist(&self) -> u64 {
        let mut h = if self.side == Color::Black {
            ZOBRIST_SIDE
        } else {
            0
        };
        for b in Bits(self.white & !self.kings) {
            h ^= ZOBRIST[0][b as usize];
        }
        for b in Bits(self.white & self.kings) {
            h ^= ZOBRIST[1][b as usize];
        }
        for b in Bits(self.black & !self.kings) {
            h ^= ZOBRIST[2][b as usize];
        }
        for b in Bits(self.black & self.kings) {
            h ^= ZOBRIST[3][b as usize];
        }
        h
    }

    /// Number of (men, kings) of colour `c`.
    pub fn material(&self, c: Color) -> (u32, u32) {
        let p = self.pieces(c);
        (
            (p & !self.kings).count_ones(),
            (p & self.kings).count_ones(),
        )
    }
}

/// Zobrist key of `after` (`before` with `m` played) from the key `key` of
/// `before`, changing only the squares the move touches; equal to
/// [`Position::zobrist`] of `after`. Computed in the variant's own word
/// (`Rules::Word`), like the move generator.
#[inline]
pub fn zobrist_after<R: Rules>(mut key: u64, before: &Position, m: &Move, after: &Position) -> u64 {
    let w = R::Word::narrow;
    let own = match before.side {
        Color::White => 0,
        Color::Black => 2,
    };
    let kings = w(before.kings);
    let is_king = |b: u32| (kings & R::Word::bit(b)).any() as usize;
    let to_king = (w(after.kings) & R::Word::bit(m.to() as u32)).any() as usize;
    key ^= ZOBRIST[own + is_king(m.from as u32)][m.from as usize];
    key ^= ZOBRIST[own + to_king][m.to() as usize];
    for b in Bits(w(m.captured)) {
        key ^= ZOBRIST[2 - own + is_king(b)][b as usize];
    }
    key ^ ZOBRIST_SIDE
}

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// The keys of bits 0..64 and the side key come first, in the order they
/// had when every board fitted 64 bits, so those keys did not change; the
/// keys of the higher bits (12x12) follow.
const fn zobrist_tables() -> ([[u64; MAX_BITS]; 4], u64) {
    let mut t = [[0u64; MAX_BITS]; 4];
    let mut state = 0x5241_464C_455F_5A4Fu64; // "RAFLE_ZO"
    let mut k = 0;
    while k < 4 {
        let mut i = 0;
        while i < 64 {
            let (s, v) = splitmix(state);
            state = s;
            t[k][i] = v;
            i += 1;
        }
        k += 1;
    }
    let (s, side) = splitmix(state);
    state = s;
    k = 0;
    while k < 4 {
        let mut i = 64;
        while i < MAX_BITS {
            let (s, v) = splitmix(state);
            state = s;
            t[k][i] = v;
            i += 1;
        }
        k += 1;
    }
    (t, side)
}

const ZOBRIST_ALL: ([[u64; MAX_BITS]; 4], u64) = zobrist_tables();
/// Zobrist keys indexed `[white man, white king, black man, black king][bit]`.
pub const ZOBRIST: [[u64; MAX_BITS]; 4] = ZOBRIST_ALL.0;
/// Zobrist key of "Black to move".
pub const ZOBRIST_SIDE: u64 = ZOBRIST_ALL.1;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::{Game, Variant};

    #[test]
    fn incremental_zobrist_matches_the_full_key() {
        for v in Variant::ALL {
            let mut rng = Rng::new(11);
            for _ in 0..20 {
                let mut g = Game::new(v);
                while !g.is_over() && g.ply() < 200 {
                    let before = *g.position();
                    let legal = g.legal_moves();
                    let m = legal[rng.below(legal.len())];
                    g.play(&m).unwrap();
                    let after = *g.position();
                    let key = with_rules!(v, R => zobrist_after::<R>(before.zobrist(), &before, &m, &after));
                    assert_eq!(key, after.zobrist(), "{v} {}", g.fen());
                }
            }
        }
    }
}
