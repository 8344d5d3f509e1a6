//! Square numbering and the bit layout of the bitboards.
//!
//! Squares are numbered the PDN way, 1..=N*N/2, row by row from the top (Black's
//! side). Bitboards have one *ghost* bit after every two rows, so that each
//! diagonal step is one constant shift (H = N/2 squares per row):
//!
//! ```text
//!  8x8 (H = 4, stride 9)          bit index of squares
//!     b8 d8 f8 h8    1  2  3  4    ->  0  1  2  3
//!   a7 c7 e7 g7      5  6  7  8    ->  4  5  6  7     (8 = ghost)
//!     b6 d6 f6 h6    9 10 11 12    ->  9 10 11 12
//!   ...
//!  up-left = >> (H+1)   up-right = >> H   down-left = << H   down-right = << (H+1)
//! ```
//!
//! A step off the left or right edge lands on a ghost bit, one off the top or
//! bottom leaves the board; masking with `valid` removes both.
//!
//! A *mirrored* board (italian, spanish: rule book B1) has its dark squares
//! where the plain board has light ones, a8 instead of b8 in the top row. It
//! is the same layout started one row later: the ghost bit comes after the
//! first row and then after every two rows (square 1 = a8 -> bit 0, 5 = b7
//! -> bit 5), which keeps the four shifts above. Numbering (B2) stays row by
//! row from the top, left to right as White sees the board, unless the
//! board is *numbered from White's side* (spanish: square 1 is h1, numbered
//! right to left and upwards, so square s is the other numbering's
//! N*N/2 + 1 - s); the bit layout is the same either way.
//!
//! A 12x12 board has 72 squares and 5 ghost bits, 77 bits in all: more than
//! a `u64`. Positions, moves and geometry masks therefore hold a
//! [`Bitboard`] (`u128`), wide enough for every board; the hot loops of a
//! variant (move generation, perft) narrow it to the variant's own
//! [`BitWord`] (`Rules::Word`: `u64` up to 10x10), so the 8x8 and 10x10
//! boards keep 64-bit arithmetic.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr, Sub};

/// A bitboard of any board in the layout above: bit i is set for the square
/// of bit index i.
pub type Bitboard = u128;

/// The bitboard of the one bit index `i`.
#[inline(always)]
pub fn bit(i: impl Into<u32>) -> Bitboard {
    Bitboard::bit(i.into())
}

/// Bit indices any board uses are below this (12x12: 77 bits).
pub const MAX_BITS: usize = 128;

/// The integer a variant's hot loops hold bitboards in: `u64` where the
/// board's bits fit, [`Bitboard`] itself otherwise.
pub trait BitWord:
    Copy
    + Eq
    + Default
    + Debug
    + Hash
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Sub<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    /// Number of bits.
    const BITS: u32;
    /// The low bits of a bitboard (all of them when `Self` is [`Bitboard`]).
    fn narrow(b: Bitboard) -> Self;
    fn widen(self) -> Bitboard;
    fn trailing_zeros(self) -> u32;
    fn count_ones(self) -> u32;
    /// The word with only bit `i` set.
    #[inline(always)]
    fn bit(i: u32) -> Self {
        Self::ONE << i
    }
    #[inline(always)]
    fn any(self) -> bool {
        self != Self::ZERO
    }
}

macro_rules! bit_word {
    ($t:ty) => {
        impl BitWord for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn narrow(b: Bitboard) -> Self {
                b as $t
            }
            #[inline(always)]
            fn widen(self) -> Bitboard {
                self as Bitboard
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
        }
    };
}
bit_word!(u64);
bit_word!(u128);

/// Directions as White sees the board ("up" is towards square 1): the four
/// diagonal ones every variant uses, then the four orthogonal ones along
/// which frisian pieces also capture. An orthogonal step goes from a dark
/// square to the next dark square of its row or column, two files or two
/// ranks away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    UpLeft = 0,
    UpRight = 1,
    DownLeft = 2,
    DownRight = 3,
    Up = 4,
    Down = 5,
    Left = 6,
    Right = 7,
}

impl Dir {
    /// The diagonal directions, in index order.
    pub const DIAGONAL: [Dir; 4] = [Dir::UpLeft, Dir::UpRight, Dir::DownLeft, Dir::DownRight];
    /// The orthogonal directions, in index order.
    pub const ORTHOGONAL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];
    /// All eight, in index order: the diagonal ones first.
    pub const EVERY: [Dir; 8] = [
        Dir::UpLeft,
        Dir::UpRight,
        Dir::DownLeft,
        Dir::DownRight,
        Dir::Up,
        Dir::Down,
        Dir::Left,
        Dir::Right,
    ];

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The opposite direction on the same line. It is also what a
    /// direction becomes when the board is turned half a turn (the RL frame
    /// of the player moving down, with [`Geometry::rotate_square`]).
    #[inline]
    pub const fn reverse(self) -> Dir {
        match self {
            Dir::UpLeft => Dir::DownRight,
            Dir::UpRight => Dir::DownLeft,
            Dir::DownLeft => Dir::UpRight,
            Dir::DownRight => Dir::UpLeft,
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }

    /// (rows, files) of one step: a diagonal step moves one of each, an
    /// orthogonal one two of one.
    pub const fn delta(self) -> (isize, isize) {
        match self {
            Dir::UpLeft => (-1, -1),
            Dir::UpRight => (-1, 1),
            Dir::DownLeft => (1, -1),
            Dir::DownRight => (1, 1),
            Dir::Up => (-2, 0),
            Dir::Down => (2, 0),
            Dir::Left => (0, -2),
            Dir::Right => (0, 2),
        }
    }
}

/// Geometry of an N x N board with the ghost-bit layout above.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// Board side length N (8, 10 or 12).
    pub n: usize,
    /// Dark squares in a8 (8x8) rather than b8: the mirrored board.
    pub mirrored: bool,
    /// Square 1 in White's right-hand corner, numbered right to left and
    /// upwards (rather than from the top-left corner, rightwards and down).
    pub from_white: bool,
    /// Every square is playable (turkish), not only the dark ones.
    pub full: bool,
    /// Playable squares per row: N/2, or N on a full board.
    pub h: usize,
    /// Number of playable squares: N*N/2, or N*N on a full board.
    pub squares: usize,
    /// Bits of real squares.
    pub valid: Bitboard,
    /// Top row (squares 1..=H): where White men are crowned.
    pub top_row: Bitboard,
    /// Bottom row: where Black men are crowned.
    pub bottom_row: Bitboard,
    /// The leftmost dark square of each row (no orthogonal step left).
    pub left_file: Bitboard,
    /// The rightmost dark square of each row (no orthogonal step right).
    pub right_file: Bitboard,
}

impl Geometry {
    /// The plain board: a dark square at each player's left-hand corner.
    pub const fn new(n: usize) -> Geometry {
        Geometry::with(n, false, false)
    }

    /// The mirrored board: a light square at each player's left-hand corner.
    pub const fn mirrored(n: usize) -> Geometry {
        Geometry::with(n, true, false)
    }

    /// The full board: every square playable (N*N <= 64).
    pub const fn full(n: usize) -> Geometry {
        Geometry::with(n, false, true)
    }

    const fn with(n: usize, mirrored: bool, full: bool) -> Geometry {
        let h = if full { n } else { n / 2 };
        let squares = n * h;
        let mut valid: Bitboard = 0;
        let mut top: Bitboard = 0;
        let mut bottom: Bitboard = 0;
        let (mut left, mut right): (Bitboard, Bitboard) = (0, 0);
        let mut s = 0;
        while s < squares {
            let bit = Geometry::bit_in(h, mirrored, full, s);
            valid |= 1 << bit;
            if s % h == 0 {
                left |= 1 << bit;
            }
            if s % h == h - 1 {
                right |= 1 << bit;
            }
            if s < h {
                top |= 1 << bit;
            }
            if s >= squares - h {
                bottom |= 1 << bit;
            }
            s += 1;
        }
        Geometry {
            n,
            mirrored,
            from_white: false,
            full,
            h,
            squares,
            valid,
            top_row: top,
            bottom_row: bottom,
            left_file: left,
            right_file: right,
        }
    }

    /// Number of bit indices the layout spans: the highest square's bit + 1.
    pub const fn span(&self) -> usize {
        (Bitboard::BITS - self.valid.leading_zeros()) as usize
    }

    /// The same board numbered from White's side (square 1 at White's
    /// right-hand corner).
    pub const fn numbered_from_white(self) -> Geometry {
        Geometry {
            from_white: true,
            ..self
        }
    }

    /// 0-based index of 1-based square `s` in reading order: row by row
    /// from the top, left to right as White sees the board (the bit layout's
    /// order). It is `s - 1` unless the board is numbered from White's side.
    #[inline(always)]
    pub const fn index(&self, s: usize) -> usize {
        if self.from_white {
            self.squares - s
        } else {
            s - 1
        }
    }

    /// 1-based square of a 0-based index (inverse of [`Geometry::index`]).
    #[inline(always)]
    pub const fn square_of_index(&self, k: usize) -> usize {
        if self.from_white {
            self.squares - k
        } else {
            k + 1
        }
    }

    /// Bit of 0-based square `k`: one ghost bit per two rows, the first
    /// after row 0 on a mirrored board, after row 1 on a plain one; none on
    /// a full board.
    #[inline(always)]
    const fn bit_in(h: usize, mirrored: bool, full: bool, k: usize) -> usize {
        if full {
            k
        } else {
            k + (k / h + mirrored as usize) / 2
        }
    }

    /// Bit index of 1-based square `s` (caller guarantees 1 <= s <= squares).
    #[inline]
    pub const fn bit_of(&self, s: usize) -> u32 {
        Geometry::bit_in(self.h, self.mirrored, self.full, self.index(s)) as u32
    }

    /// 1-based square of a bit index of a real square.
    #[inline]
    pub const fn square_of(&self, bit: u32) -> usize {
        if self.full {
            return self.square_of_index(bit as usize);
        }
        // Shift the mirrored layout by one (ghost) bit so both read as plain.
        let b = bit as usize + self.mirrored as usize * self.h;
        self.square_of_index(b - b / (2 * self.h + 1) - self.mirrored as usize * self.h)
    }

    /// 0-based row (from the top) and column (0..N, as White sees it) of a square.
    #[inline]
    pub const fn row_col(&self, s: usize) -> (usize, usize) {
        let k = self.index(s);
        let row = k / self.h;
        let i = k % self.h;
        if self.full {
            return (row, i);
        }
        let col = if (row + self.mirrored as usize).is_multiple_of(2) {
            2 * i + 1
        } else {
            2 * i
        };
        (row, col)
    }

    /// The square at (row, col), if that is a dark square on the board.
    pub const fn square_at(&self, row: usize, col: usize) -> Option<usize> {
        if row >= self.n || col >= self.n {
            return None;
        }
        if self.full {
            return Some(self.square_of_index(row * self.n + col));
        }
        if (row + col + self.mirrored as usize).is_multiple_of(2) {
            return None;
        }
        Some(self.square_of_index(row * self.h + col / 2))
    }

    /// The square seen after turning the board half a turn: s -> N*N/2 + 1 - s.
    #[inline]
    pub const fn rotate_square(&self, s: usize) -> usize {
        self.squares + 1 - s
    }

    /// Shift of one step: a diagonal step is one row (H or H+1 bits), an
    /// orthogonal one two rows (2H+1 bits, a ghost bit included) or the
    /// next bit of the row. On a full board a row is N bits: N+1 and N-1
    /// for the diagonals, N for a column step.
    #[inline]
    pub const fn shift(&self, d: Dir) -> u32 {
        if self.full {
            return match d {
                Dir::UpLeft | Dir::DownRight => self.n as u32 + 1,
                Dir::UpRight | Dir::DownLeft => self.n as u32 - 1,
                Dir::Up | Dir::Down => self.n as u32,
                Dir::Left | Dir::Right => 1,
            };
        }
        match d {
            Dir::UpLeft | Dir::DownRight => (self.h + 1) as u32,
            Dir::UpRight | Dir::DownLeft => self.h as u32,
            Dir::Up | Dir::Down => (2 * self.h + 1) as u32,
            Dir::Left | Dir::Right => 1,
        }
    }

    /// (rows, files) of one step of `d` on this board: an orthogonal step
    /// goes to the next playable square, two away on a dark-square board.
    pub const fn delta(&self, d: Dir) -> (isize, isize) {
        let (dr, dc) = d.delta();
        if self.full {
            (dr.signum(), dc.signum())
        } else {
            (dr, dc)
        }
    }

    /// All squares of `bb` moved one step in direction `d`, off-board ones
    /// dropped, in any [`BitWord`] that holds the board's bits. Sideways
    /// steps first drop the squares at the row's end, whose neighbour bit is
    /// the next row's first square. Written without a branch on `d`, for the
    /// loops that run over a list of directions; with a constant geometry
    /// and direction it folds to a mask, a shift and a mask.
    #[inline(always)]
    pub fn step<B: BitWord>(&self, bb: B, d: Dir) -> B {
        let moved = if self.shifts_left(d) {
            (bb & B::narrow(self.keep_before(d))) << self.shift(d)
        } else {
            (bb & B::narrow(self.keep_before(d))) >> self.shift(d)
        };
        moved & B::narrow(self.valid)
    }

    /// Down, down-left, down-right and right steps shift towards higher bits.
    #[inline(always)]
    const fn shifts_left(&self, d: Dir) -> bool {
        (0b1010_1100u8 >> d as u8) & 1 == 1
    }

    /// The squares that may step in direction `d` without wrapping to
    /// another row.
    #[inline(always)]
    const fn keep_before(&self, d: Dir) -> Bitboard {
        match d {
            Dir::Left => !self.left_file,
            Dir::Right => !self.right_file,
            // Without ghost bits a diagonal step off the edge would wrap.
            Dir::UpLeft | Dir::DownLeft if self.full => !self.left_file,
            Dir::UpRight | Dir::DownRight if self.full => !self.right_file,
            _ => !0,
        }
    }

    /// Crowning row of a colour's men.
    #[inline]
    pub const fn promotion_row(&self, c: crate::Color) -> Bitboard {
        match c {
            crate::Color::White => self.top_row,
            crate::Color::Black => self.bottom_row,
        }
    }

    /// Squares of the first `rows` rows from the top (Black's start) or bottom.
    pub fn rows_from_top(&self, rows: usize) -> Bitboard {
        (0..rows * self.h).fold(0, |acc, k| {
            acc | 1 << Geometry::bit_in(self.h, self.mirrored, self.full, k)
        })
    }

    pub fn rows_from_bottom(&self, rows: usize) -> Bitboard {
        (self.squares - rows * self.h..self.squares).fold(0, |acc, k| {
            acc | 1 << Geometry::bit_in(self.h, self.mirrored, self.full, k)
        })
    }

    /// The 1-based squares of a bitboard, ascending.
    pub fn squares_of(&self, bb: Bitboard) -> Vec<usize> {
        let mut out: Vec<usize> = Bits(bb).map(|b| self.square_of(b)).collect();
        if self.from_white {
            out.reverse();
        }
        out
    }
}

/// Iterator over the set bits of a bitboard, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Bits<B = Bitboard>(pub B);

impl<B: BitWord> Iterator for Bits<B> {
    type Item = u32;
    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0 == B::ZERO {
            None
        } else {
            let b = self.0.trailing_zeros();
            self.0 &= self.0 - B::ONE;
            Some(b)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_round_trips_and_steps_match_rows_and_columns() {
        for g in [8, 10, 12]
            .into_iter()
            .flat_map(|n| [Geometry::new(n), Geometry::mirrored(n)])
            .chain([Geometry::full(8)])
        {
            let n = g.n;
            assert_eq!(g.valid.count_ones() as usize, g.squares);
            for s in 1..=g.squares {
                let b = g.bit_of(s);
                assert_eq!(g.square_of(b), s);
                let (r, c) = g.row_col(s);
                assert_eq!(g.square_at(r, c), Some(s));
                for d in Dir::EVERY {
                    let (dr, dc) = g.delta(d);
                    let (nr, nc) = (r as isize + dr, c as isize + dc);
                    assert_eq!(d.reverse().reverse(), d);
                    assert_eq!(g.delta(d.reverse()), (-dr, -dc));
                    let expect = if nr < 0 || nc < 0 {
                        None
                    } else {
                        g.square_at(nr as usize, nc as usize)
                    };
                    let got = g.step(Bitboard::bit(b), d);
                    if g.span() <= 64 {
                        // The narrow word steps alike.
                        assert_eq!(g.step(u64::bit(b), d).widen(), got, "n={n} s={s} {d:?}");
                    }
                    let got = if got == 0 {
                        None
                    } else {
                        Some(g.square_of(got.trailing_zeros()))
                    };
                    assert_eq!(got, expect, "n={n} s={s} {d:?}");
                }
            }
        }
    }

    #[test]
    fn pdn_corners() {
        let g = Geometry::full(8);
        assert_eq!(g.row_col(1), (0, 0)); // a8
        assert_eq!(g.row_col(57), (7, 0)); // a1
        assert_eq!(g.row_col(64), (7, 7)); // h1
        assert_eq!(g.valid, u64::MAX as Bitboard);
        let g = Geometry::new(8);
        assert_eq!(g.row_col(1), (0, 1)); // b8
        assert_eq!(g.row_col(29), (7, 0)); // a1
        let g = Geometry::new(10);
        assert_eq!(g.row_col(46), (9, 0)); // a1
        assert_eq!(g.row_col(5), (0, 9)); // j10
        let g = Geometry::mirrored(8);
        assert_eq!(g.row_col(1), (0, 0)); // a8
        assert_eq!(g.row_col(4), (0, 6)); // g8
        assert_eq!(g.row_col(29), (7, 1)); // b1
        assert_eq!(g.row_col(32), (7, 7)); // h1
        let g = Geometry::mirrored(8).numbered_from_white();
        assert_eq!(g.row_col(1), (7, 7)); // h1
        assert_eq!(g.row_col(4), (7, 1)); // b1
        assert_eq!(g.row_col(5), (6, 6)); // g2
        assert_eq!(g.row_col(32), (0, 0)); // a8
    }
}
