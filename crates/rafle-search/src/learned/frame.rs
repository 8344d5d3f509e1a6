//! The side to move's frame, shared by both designs: squares by their
//! reading index (0-based, row by row from the top as White sees the board),
//! turned half a turn for Black (index k -> S - 1 - k, as the RL view does)
//! so that the mover's men always walk up.

use rafle_core::{Bitboard, Color, Position, Variant, MAX_BITS};

/// No square: a ghost bit.
const NONE: u8 = u8::MAX;

/// Where each bit of a variant's board is in each side's frame.
#[derive(Clone, Debug)]
pub struct Frame {
    pub variant: Variant,
    /// Board side N.
    pub n: usize,
    /// Playable squares per row (N/2, or N on turkish's full board).
    pub h: usize,
    /// Playable squares S.
    pub squares: usize,
    /// Pieces on the board at the start, both sides.
    pub start_pieces: u32,
    /// `index[side][bit]`: the square's index in `side`'s frame ([`NONE`] off the board).
    index: [[u8; MAX_BITS]; 2],
    /// `bit[side][k]`: the bit of index `k` of `side`'s frame.
    bit: [Vec<u8>; 2],
}

impl Frame {
    pub fn new(variant: Variant) -> Frame {
        let g = variant.geometry();
        let squares = g.squares;
        let mut index = [[NONE; MAX_BITS]; 2];
        let mut bit = [vec![0u8; squares], vec![0u8; squares]];
        for k in 0..squares {
            // Reading order is bit order: the k-th square by reading index.
            let b = g.bit_of(g.square_of_index(k)) as usize;
            index[0][b] = k as u8;
            index[1][b] = (squares - 1 - k) as u8;
            bit[0][k] = b as u8;
            bit[1][squares - 1 - k] = b as u8;
        }
        Frame {
            variant,
            n: g.n,
            h: g.h,
            squares,
            start_pieces: Position::start(variant).occupied().count_ones(),
            index,
            bit,
        }
    }

    /// Index of `bit` in `side`'s frame.
    #[inline(always)]
    pub fn index_of(&self, side: Color, bit: u32) -> usize {
        self.index[side.index()][bit as usize] as usize
    }

    /// Bit of index `k` of `side`'s frame.
    #[inline(always)]
    pub fn bit_of(&self, side: Color, k: usize) -> u32 {
        self.bit[side.index()][k] as u32
    }

    /// Row (0 = the far row, where the mover's men are crowned) of index `k`.
    #[inline(always)]
    pub fn row(&self, k: usize) -> usize {
        k / self.h
    }

    /// Column (0..N, left to right in the frame) of index `k`.
    pub fn col(&self, k: usize) -> usize {
        let (row, i) = (k / self.h, k % self.h);
        if self.h == self.n {
            return i;
        }
        // Which columns a row's dark squares take: those of the geometry's
        // reading order (turning the board half a turn keeps them).
        let g = self.variant.geometry();
        g.row_col(g.square_of_index(row * self.h + i)).1
    }

    /// Rows a man of the mover on index `k` has walked from its first row.
    #[inline(always)]
    pub fn advance(&self, k: usize) -> u32 {
        (self.n - 1 - self.row(k)) as u32
    }

    /// Sum of [`Frame::advance`] over the men of `men` in `side`'s frame.
    #[inline]
    pub fn tempo(&self, side: Color, men: Bitboard) -> u32 {
        rafle_core::Bits(men)
            .map(|b| self.advance(self.index_of(side, b)))
            .sum()
    }

    /// Game phase in [0, 1]: the share of the starting pieces still on the board.
    pub fn phase(&self, pos: &Position) -> f32 {
        (pos.occupied().count_ones() as f32 / self.start_pieces as f32).min(1.0)
    }

    /// [`Frame::phase`] as (pieces on the board, capped at the start's; the start's).
    #[inline(always)]
    pub fn phase_parts(&self, pos: &Position) -> (i64, i64) {
        let all = self.start_pieces as i64;
        ((pos.occupied().count_ones() as i64).min(all), all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frames_are_the_board_turned_half_a_turn() {
        for v in Variant::ALL {
            let f = Frame::new(v);
            let g = v.geometry();
            for s in 1..=g.squares {
                let b = g.bit_of(s);
                let k = f.index_of(Color::White, b);
                assert_eq!(f.bit_of(Color::White, k), b, "{v}");
                let kb = f.index_of(Color::Black, b);
                assert_eq!(kb, f.squares - 1 - k, "{v}");
                assert_eq!(f.bit_of(Color::Black, kb), b, "{v}");
                // Rows and columns turn with the board.
                let (r, c) = g.row_col(g.square_of_index(k));
                assert_eq!((f.row(k), f.col(k)), (r, c), "{v}: {s}");
                assert_eq!(
                    (f.row(kb), f.col(kb)),
                    (g.n - 1 - r, g.n - 1 - c),
                    "{v}: {s}"
                );
            }
            // The start is the same from both sides.
            let p = Position::start(v);
            assert_eq!(
                f.tempo(Color::White, p.men(Color::White)),
                f.tempo(Color::Black, p.men(Color::Black)),
                "{v}"
            );
        }
    }
}
