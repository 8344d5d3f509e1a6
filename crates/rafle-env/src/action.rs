//! The action codec: one action is one step of a move (a quiet move, or one
//! jump of a capture); a multi-capture is a chain of steps by the same player.
//!
//! ```text
//!   a = (sq * D + dir) * R + (dist - 1)          R = N - 1
//!
//!   sq    0-based square, in the mover's frame, of the piece that steps
//!   dir   0 up-left, 1 up-right, 2 down-left, 3 down-right (mover's frame);
//!         where pieces also capture along rows and columns (frisian),
//!         4 up, 5 down, 6 left, 7 right; where they move along rows and
//!         columns only (turkish, all 64 squares), 0 up, 1 down, 2 left,
//!         3 right
//!   D     directions of the variant: 4, or 8 with rows and columns
//!   dist  dark squares travelled along the line, 1..=R
//!
//!   num_actions = S * D * R  (S playable squares: N*N/2, or N*N for turkish)
//!               ->  32*4*7 = 896 on 8x8, 50*4*9 = 1800 on 10x10,
//!                   50*8*9 = 3600 for frisian, 64*4*7 = 1792 for turkish,
//!                   72*4*11 = 3168 on 12x12 (canadian)
//!
//!   Mover's frame, 8x8 (sq = PDN square - 1, after the half turn for Black):
//!
//!        far side (row 0)           0 up-left  1 up-right
//!       .  0  .  1  .  2  .  3            \   /
//!       4  .  5  .  6  .  7  .             sq
//!       .  8  .  9  . 10  . 11            /   \
//!      ...                          2 down-left  3 down-right
//!      28  . 29  . 30  . 31  .
//!        own side (row 7)
//!
//!   Rows and columns, 10x10 (frisian): a step goes to the next dark square
//!   of the row or column, two files or two ranks away.
//!
//!                 4 up
//!                  |                 sq 27 (PDN 28), right, dist 2:
//!        6 left - sq - 7 right       over 29 to 30 ... (row 5: 26-30)
//!                  |                 sq 27, up, dist 1: to PDN 18
//!                5 down
//! ```
//!
//! White moves up the board, so White's frame is the board as printed (PDN
//! square s is sq = s - 1; `sq` always counts in reading order from the
//! top-left, so on spanish's board, numbered from White's side, it is
//! N*N/2 - s: `Geometry::index`). Black moves down, so Black's frame is the board
//! turned half a turn: PDN square s becomes N*N/2 + 1 - s and every direction
//! turns too (up-left <-> down-right, up-right <-> down-left, up <-> down,
//! left <-> right). In its own frame every player's men move up. Example,
//! 8x8: White 22-18 is sq 21, up-right, dist 1: a = (21*4 + 1)*7 + 0 = 595.
//! Black 11-15 is, turned, 22-18: also 595.
//!
//! Ids whose step would leave the board exist but are never legal.
//!
//! The codec is used through [`Env`](crate::Env)'s methods (`num_actions`,
//! `actions_of`, `move_of_chain`, `play_move`, `step_squares`, `step_action`;
//! codec.rs); this module holds the formula and the lookup tables.

use rafle_core::{bit, Bitboard, Color, Dir, Geometry, Variant, MAX_BITS};
use std::sync::LazyLock;

/// The step directions of a variant, in codec order (`dir` is the index in
/// this list): the diagonals, then rows and columns where pieces capture
/// along them (frisian); only rows and columns where pieces move along them
/// (turkish).
pub(crate) fn directions(v: Variant) -> &'static [Dir] {
    let rules = v.rules();
    if rules.orthogonal_moves {
        &Dir::ORTHOGONAL
    } else if rules.orthogonal_captures {
        &Dir::EVERY
    } else {
        &Dir::DIAGONAL
    }
}

/// Number of action ids of a variant: 896 on 8x8, 1800 on 10x10, 3600 for
/// frisian, 1792 for turkish ([`Env::num_actions`](crate::Env::num_actions)
/// asks this).
pub(crate) fn num_actions(v: Variant) -> usize {
    let g = v.geometry();
    g.squares * directions(v).len() * (g.n - 1)
}

/// The action id of a step, from its parts in the mover's frame (`sq0`
/// 0-based square, `dir` 0..D, `dist` 1..=N-1; the caller keeps them in
/// range) on board `g` with `d` directions.
pub(crate) fn encode(g: &Geometry, d: usize, sq0: usize, dir: usize, dist: usize) -> usize {
    let r = g.n - 1;
    (sq0 * d + dir) * r + (dist - 1)
}

/// The parts `(sq0, dir, dist)` of an action id, or `None` when out of range.
pub(crate) fn decode(v: Variant, a: usize) -> Option<(usize, usize, usize)> {
    if a >= num_actions(v) {
        return None;
    }
    let (r, d) = (v.board_size() - 1, directions(v).len());
    Some((a / (d * r), (a / r) % d, a % r + 1))
}

/// Marks a pair of bits that are not on one diagonal.
pub(crate) const NO_ACTION: u16 = u16::MAX;

/// Precomputed lookups of one board, indexed by bit (see rafle_core::board);
/// a table over bits is `span` = [`Geometry::span`] entries a side.
#[derive(Debug)]
pub(crate) struct Tables {
    span: usize,
    /// `[side][from bit][to bit]` -> action id, or NO_ACTION.
    action: Vec<u16>,
    /// `[from bit][to bit]` -> squares strictly between them on their line.
    between: Vec<Bitboard>,
    /// `[side][bit]` -> row * N + col of that square in the side's frame
    /// (a fixed size, so that a bit masked to `MAX_BITS - 1` needs no
    /// bounds check).
    pub(crate) cell: [[u16; MAX_BITS]; 2],
}

impl Tables {
    fn new((g, dirs): Board) -> Tables {
        let r = g.n - 1;
        let span = g.span();
        let mut action = vec![NO_ACTION; 2 * span * span];
        let mut between = vec![0; span * span];
        let mut cell = [[0u16; MAX_BITS]; 2];
        for s in 1..=g.squares {
            let f = g.bit_of(s) as usize;
            for (side, frame_sq) in [(0, s), (1, g.rotate_square(s))] {
                let (row, col) = g.row_col(frame_sq);
                cell[side][f] = (row * g.n + col) as u16;
            }
            for &d in dirs {
                let mut bb = bit(f as u32);
                let mut ray: Bitboard = 0;
                for dist in 1..=r {
                    bb = g.step(bb, d);
                    if bb == 0 {
                        break;
                    }
                    let t = bb.trailing_zeros() as usize;
                    between[f * span + t] = ray;
                    ray |= bb;
                    let nd = dirs.len();
                    let index = |d: Dir| dirs.iter().position(|&x| x == d).unwrap_or(0);
                    action[f * span + t] = encode(&g, nd, g.index(s), index(d), dist) as u16;
                    let turned = g.index(g.rotate_square(s));
                    action[(span + f) * span + t] =
                        encode(&g, nd, turned, index(d.reverse()), dist) as u16;
                }
            }
        }
        Tables {
            span,
            action,
            between,
            cell,
        }
    }

    /// Action id of the step `from -> to` (bits) for `side`, or NO_ACTION.
    #[inline(always)]
    pub(crate) fn action(&self, side: Color, from: u8, to: u8) -> u16 {
        self.action[(side.index() * self.span + from as usize) * self.span + to as usize]
    }

    /// Squares strictly between two bits of one line.
    #[inline(always)]
    pub(crate) fn between(&self, from: u8, to: u8) -> Bitboard {
        self.between[from as usize * self.span + to as usize]
    }
}

/// A board and the directions its pieces step in: what the tables depend on.
type Board = (Geometry, &'static [Dir]);

/// Every board of the variant list: its layout, its numbering or its
/// directions differ, and so do its tables.
const BOARDS: [Board; 7] = [
    (Geometry::new(8), &Dir::DIAGONAL),
    (Geometry::mirrored(8), &Dir::DIAGONAL),
    (Geometry::mirrored(8).numbered_from_white(), &Dir::DIAGONAL),
    (Geometry::new(10), &Dir::DIAGONAL),
    (Geometry::new(10), &Dir::EVERY),
    (Geometry::full(8), &Dir::ORTHOGONAL),
    (Geometry::new(12), &Dir::DIAGONAL),
];
static TABLES: [LazyLock<Tables>; 7] = [
    LazyLock::new(|| Tables::new(BOARDS[0])),
    LazyLock::new(|| Tables::new(BOARDS[1])),
    LazyLock::new(|| Tables::new(BOARDS[2])),
    LazyLock::new(|| Tables::new(BOARDS[3])),
    LazyLock::new(|| Tables::new(BOARDS[4])),
    LazyLock::new(|| Tables::new(BOARDS[5])),
    LazyLock::new(|| Tables::new(BOARDS[6])),
];

/// The lookup tables of a variant's board.
pub(crate) fn tables(v: Variant) -> &'static Tables {
    let board = (v.geometry(), directions(v));
    match BOARDS.iter().position(|b| *b == board) {
        Some(i) => &TABLES[i],
        None => unreachable!("{v}: its board is missing from action::BOARDS"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_decode_round_trip() {
        for v in Variant::ALL {
            let (g, na, nd) = (v.geometry(), num_actions(v), directions(v).len());
            assert!(
                BOARDS.contains(&(g, directions(v))),
                "{v}: its board is missing from BOARDS"
            );
            for a in 0..na {
                let (sq, dir, dist) = decode(v, a).unwrap();
                assert!(sq < g.squares && dir < nd && (1..g.n).contains(&dist));
                assert_eq!(encode(&g, nd, sq, dir, dist), a);
            }
            assert_eq!(decode(v, na), None);
        }
        // The module's example: White 22-18 on 8x8 is sq 21, up-right, one square.
        // (Every variant found its board's tables above: `tables` panics otherwise.)
        assert_eq!(encode(&Variant::Checkers.geometry(), 4, 21, 1, 1), 595);
        // Frisian: PDN 28 right two squares, to 30: (27*8 + 7)*9 + 1.
        let t = tables(Variant::Frisian);
        let g = Variant::Frisian.geometry();
        let a = t.action(Color::White, g.bit_of(28) as u8, g.bit_of(30) as u8);
        assert_eq!(a as usize, (27 * 8 + 7) * 9 + 1);
    }
}
