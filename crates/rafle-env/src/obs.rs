//! Observations: float32 `[NUM_PLANES, N, N]`, in the frame of the player to
//! act (see `action` for the frame: row 0 is the far side, the player's men
//! move up; Black's board is turned half a turn). Plane by plane:
//!
//! ```text
//!  plane  holds (1.0 on a square, else 0.0)
//!    0    own men        the acting player's men
//!    1    own kings      the acting player's kings
//!    2    opp men        the opponent's men
//!    3    opp kings      the opponent's kings
//!    4    captured       pieces jumped so far by the unfinished capture chain;
//!                        they stay on the board (also in planes 2/3) until the
//!                        chain ends, as the rules say; where captured pieces
//!                        leave at once (turkish) planes 2/3 no longer show
//!                        them and this plane marks the squares they left
//!    5    chain piece    the piece that must continue the chain (empty when
//!                        no chain is pending); during a chain planes 0/1 show
//!                        it on its current square, not on its start square
//!    6    no progress    constant plane: plies since the last capture or man
//!                        move / the variant's no-progress limit
//!                        (`RuleSet::no_progress_plies`), in [0, 1]; 0 in a
//!                        variant without that rule
//!    7    repetition     constant plane: (occurrences of the current position
//!                        - 1) / (the variant's repetition count - 1): with
//!                        threefold repetition 0, 0.5 (seen twice) or 1
//! ```
//!
//! Planes 0-5 are non-zero only on playable squares (the light squares of
//! the N x N grid are never used, except on turkish's full board); keeping the full grid lets a convolution see
//! the board's real geometry. The constant planes 6 and 7 fill every cell,
//! light squares included, so they read the same wherever a filter looks.
//! A chain piece that is a man stays a man in plane 0 until its move ends
//! (crowning happens when the move is over), except where the variant crowns
//! a man reaching the far row during its capture (russian, rule R4): from
//! that step on it shows in plane 1.

use crate::action::Tables;
use rafle_core::{BitWord, Bitboard, Bits, Color, Variant, MAX_BITS};

/// Number of observation planes (see the table above).
pub const NUM_PLANES: usize = 8;

/// Index of the first constant plane (no progress); the repetition plane follows.
pub const CONSTANT_PLANES: usize = 6;

/// Calls `f` with each set bit of `bb`, masked below `MAX_BITS` so that a
/// lookup in a table of that size needs no bounds check.
#[inline(always)]
fn for_each_bit<W: BitWord>(bb: W, mut f: impl FnMut(usize)) {
    for b in Bits(bb) {
        f(b as usize & (MAX_BITS - 1));
    }
}

/// Shape `[NUM_PLANES, N, N]` of one observation.
pub(crate) fn observation_shape(v: Variant) -> [usize; 3] {
    let n = v.board_size();
    [NUM_PLANES, n, n]
}

/// Floats in one observation, `NUM_PLANES * N * N`.
pub(crate) fn observation_len(v: Variant) -> usize {
    let n = v.board_size();
    NUM_PLANES * n * n
}

/// Everything an observation shows, packed exactly (no hashing, so no
/// collisions), and the one rule state that changes the legal steps without
/// showing in it: the king a king-move limit holds (frisian, rule book F6).
/// Two envs with equal keys write the same observation and have the same
/// legal steps, so an evaluator answers them alike. Used to reuse network
/// answers across searches (`rafle_search::network::cache`), which keep the
/// logits of the legal steps only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ObsKey {
    planes: [Bitboard; 6],
    constants: [u32; 2],
    side: Color,
    /// `Position::restricted_king`: the king that may not move quietly.
    restricted: Bitboard,
}

/// What an observation shows, as bitboards of the real board (bit layout of
/// rafle_core::board) plus the two constants; `side` picks the frame. The
/// env's steps hold it in the variant's own word `W` (`Rules::Word`), so
/// boards up to 10x10 never compute in 128 bits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ObsBoard<W = Bitboard> {
    pub side: Color,
    /// Bitboards of planes 0..=5, in plane order.
    pub planes: [W; 6],
    /// Values of the constant planes 6 and 7.
    pub constants: [f32; 2],
}

impl<W: BitWord> ObsBoard<W> {
    /// Calls `f` with the flat index of every 1.0 of planes 0..=5.
    #[inline(always)]
    fn for_each_one(&self, t: &Tables, nn: usize, mut f: impl FnMut(usize)) {
        let cell = &t.cell[self.side.index()];
        for (p, &bb) in self.planes.iter().enumerate() {
            for_each_bit(bb, |b| f(p * nn + cell[b] as usize));
        }
    }

    /// Writes the whole observation into `out` (length NUM_PLANES * nn).
    pub fn write(&self, t: &Tables, nn: usize, out: &mut [f32]) {
        out[..CONSTANT_PLANES * nn].fill(0.0);
        self.for_each_one(t, nn, |i| out[i] = 1.0);
        for (k, &c) in self.constants.iter().enumerate() {
            let p = CONSTANT_PLANES + k;
            out[p * nn..(p + 1) * nn].fill(c);
        }
    }

    /// Rewrites `out`, which holds the observation `prev` (`ObsBoard::ZERO`
    /// for a zeroed buffer), touching only the cells that may change: the 1.0s
    /// of planes 0..=5 that go (cleared) and come (set), and a constant plane
    /// only when its value changed.
    #[inline]
    pub fn write_over(&self, t: &Tables, nn: usize, out: &mut [f32], prev: &ObsBoard<W>) {
        let cell_new = &t.cell[self.side.index()];
        let cell_old = &t.cell[prev.side.index()];
        let same_frame = self.side == prev.side;
        for p in 0..CONSTANT_PLANES {
            let (old, new) = (prev.planes[p], self.planes[p]);
            // In the same frame only the differences move; otherwise every
            // cell maps elsewhere.
            let (gone, come) = if same_frame {
                (old & !new, new & !old)
            } else {
                (old, new)
            };
            let plane = &mut out[p * nn..(p + 1) * nn];
            for_each_bit(gone, |b| plane[cell_old[b] as usize] = 0.0);
            for_each_bit(come, |b| plane[cell_new[b] as usize] = 1.0);
        }
        for (k, &c) in self.constants.iter().enumerate() {
            if prev.constants[k].to_bits() != c.to_bits() {
                let p = CONSTANT_PLANES + k;
                out[p * nn..(p + 1) * nn].fill(c);
            }
        }
    }

    /// The same state in the frame of `viewer`: for the player not to act,
    /// own and opponent planes change places and the board turns with the
    /// frame; the chain planes and the constants stay as they are.
    pub fn seen_by(self, viewer: Color) -> ObsBoard<W> {
        if viewer == self.side {
            return self;
        }
        let [own_men, own_kings, opp_men, opp_kings, captured, chain] = self.planes;
        ObsBoard {
            side: viewer,
            planes: [opp_men, opp_kings, own_men, own_kings, captured, chain],
            constants: self.constants,
        }
    }

    /// The same board in full-width bitboards.
    pub fn widen(self) -> ObsBoard {
        ObsBoard {
            side: self.side,
            planes: self.planes.map(W::widen),
            constants: self.constants,
        }
    }

    /// The board in the word `V` (which must hold every bit of it).
    pub fn narrow<V: BitWord>(self) -> ObsBoard<V> {
        ObsBoard {
            side: self.side,
            planes: self.planes.map(|p| V::narrow(p.widen())),
            constants: self.constants,
        }
    }

    /// The board of an all-zero buffer.
    pub const ZERO: ObsBoard<W> = ObsBoard {
        side: Color::White,
        planes: [W::ZERO; 6],
        constants: [0.0; 2],
    };
}

impl ObsBoard {
    /// The exact key of this observation in a state whose restricted king
    /// (see [`ObsKey`]) is `restricted`.
    pub fn key(&self, restricted: Bitboard) -> ObsKey {
        ObsKey {
            planes: self.planes,
            constants: self.constants.map(f32::to_bits),
            side: self.side,
            restricted,
        }
    }
}
