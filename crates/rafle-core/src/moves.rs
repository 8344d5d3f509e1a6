//! Moves: small `Copy` values carrying the full path and the captured squares.

use crate::board::{BitWord, Bitboard, Bits, Geometry};
use smallvec::SmallVec;

/// Most jumps in one move: a side has at most 30 pieces (canadian), so a
/// sequence captures at most 30 of them.
pub const MAX_JUMPS: usize = 30;

/// One legal full move. Squares are stored as bit indices (see `board`); use
/// the `*_square` methods for PDN square numbers.
///
/// Identity (equality, hashing) is (from, to, captured set), as rule B7 of
/// the rule book says: two capture paths with the same identity are one move.
///
/// 48 bytes: the captured set, the start square, the path length with the
/// crowned flag, and the landing squares (the last one is `to`). Move lists
/// are copied and scanned in every hot loop, so the size matters.
#[derive(Clone, Copy, Debug)]
pub struct Move {
    /// Bitboard of the captured pieces (0 for a quiet move).
    pub captured: Bitboard,
    pub from: u8,
    /// Number of landing squares in `path` (1 for a quiet move), and
    /// [`Move::CROWNED`].
    len: u8,
    /// Landing squares in order; `path[len - 1]` is where the move ends.
    path: [u8; MAX_JUMPS],
}

impl PartialEq for Move {
    fn eq(&self, o: &Move) -> bool {
        self.from == o.from && self.to() == o.to() && self.captured == o.captured
    }
}
impl Eq for Move {}
impl std::hash::Hash for Move {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (self.from, self.to(), self.captured).hash(h)
    }
}

impl Move {
    /// The bit of `len` that marks a man crowned mid-capture.
    const CROWNED: u8 = 0x80;

    /// A quiet (non-capturing) move between two bit indices.
    #[inline]
    pub fn quiet(from: u32, to: u32) -> Move {
        let mut path = [0; MAX_JUMPS];
        path[0] = to as u8;
        Move {
            captured: 0,
            from: from as u8,
            len: 1,
            path,
        }
    }

    /// A capture with the given landing squares (bit indices).
    #[inline]
    pub fn capture(from: u32, landings: &[u8], captured: Bitboard) -> Move {
        let mut path = [0; MAX_JUMPS];
        path[..landings.len()].copy_from_slice(landings);
        Move {
            captured,
            from: from as u8,
            len: landings.len() as u8,
            path,
        }
    }

    /// The square (bit index) where the move ends.
    #[inline(always)]
    pub fn to(&self) -> u8 {
        self.path[self.num_landings() - 1]
    }

    #[inline(always)]
    fn num_landings(&self) -> usize {
        (self.len & !Move::CROWNED) as usize
    }

    /// A man crowned on the far row during its capture, which it went on as
    /// a king (russian, rule R4); it ends the move a king wherever it lands.
    #[inline(always)]
    pub fn crowned(&self) -> bool {
        self.len & Move::CROWNED != 0
    }

    /// Marks the move as [`Move::crowned`] (or not).
    #[inline]
    pub fn set_crowned(&mut self, crowned: bool) {
        self.len = self.len & !Move::CROWNED | if crowned { Move::CROWNED } else { 0 };
    }

    /// The captured set folded into 64 bits, for tables that keep a move's
    /// identity small (a search's best and killer moves): exact up to 10x10,
    /// where every bit is below 64; on 12x12 it stays a legal move's key, at
    /// worst shared with another capture of the same from and to.
    #[inline]
    pub fn captured_key(&self) -> u64 {
        self.captured as u64 ^ (self.captured >> 64) as u64
    }

    #[inline]
    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }

    #[inline]
    pub fn num_captured(&self) -> u32 {
        self.captured.count_ones()
    }

    /// Landing squares (bit indices), the last one being `to`.
    #[inline]
    pub fn landings(&self) -> &[u8] {
        &self.path[..self.num_landings()]
    }

    pub fn from_square(&self, g: &Geometry) -> usize {
        g.square_of(self.from as u32)
    }

    pub fn to_square(&self, g: &Geometry) -> usize {
        g.square_of(self.to() as u32)
    }

    /// Captured squares, ascending.
    pub fn captured_squares(&self, g: &Geometry) -> Vec<usize> {
        Bits(self.captured).map(|b| g.square_of(b)).collect()
    }

    /// Full path as PDN squares: from, then every landing square.
    pub fn path_squares(&self, g: &Geometry) -> Vec<usize> {
        std::iter::once(self.from)
            .chain(self.landings().iter().copied())
            .map(|b| g.square_of(b as u32))
            .collect()
    }

    /// The piece each jump of the path takes, in order (one bit each; empty
    /// for a quiet move). Where captured pieces leave at once (turkish) a
    /// later jump may pass an earlier victim's square, so each jump's victim
    /// is the captured square on its line that no earlier jump took.
    pub fn jump_victims(&self, g: &Geometry) -> SmallVec<[Bitboard; MAX_JUMPS]> {
        let mut out = SmallVec::new();
        if !self.is_capture() {
            return out;
        }
        let (mut at, mut taken): (u8, Bitboard) = (self.from, 0);
        for &land in self.landings() {
            let d = crate::movegen::direction_between(g, at as u32, land as u32);
            let mut sq = g.step(Bitboard::bit(at as u32), d);
            let mut victim = 0;
            while sq != 0 && sq != Bitboard::bit(land as u32) {
                if sq & self.captured & !taken != 0 {
                    victim = sq;
                }
                sq = g.step(sq, d);
            }
            taken |= victim;
            out.push(victim);
            at = land;
        }
        out
    }

    /// The one captured piece between consecutive path points `a` and `b`
    /// (bit indices on one line), or 0 for a quiet step; where captured
    /// pieces leave at once, see [`Move::jump_victims`] instead.
    pub fn captured_between(&self, g: &Geometry, a: u8, b: u8) -> Bitboard {
        let d = crate::movegen::direction_between(g, a as u32, b as u32);
        let mut sq = g.step(Bitboard::bit(a as u32), d);
        while sq != 0 && sq != Bitboard::bit(b as u32) {
            if sq & self.captured != 0 {
                return sq;
            }
            sq = g.step(sq, d);
        }
        0
    }
}

/// A list of moves. Inline room for 64 moves covers nearly every position
/// (the start positions have 7 and 9); it spills to the heap beyond that. The
/// worst cases are king-rich 10x10 positions: up to 20 kings x 17 squares = 340
/// quiet moves (more on 12x12), and captures whose count is bounded only by
/// the board.
pub type MoveList = SmallVec<[Move; 64]>;
