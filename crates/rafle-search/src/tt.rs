//! Transposition table for alpha-beta: one entry per slot, indexed by the low
//! bits of the Zobrist hash ([`rafle_core::Position::zobrist`]) and checked
//! against the full key.
//!
//! Replacement: an entry from an older search (generation) or a shallower
//! one is overwritten; a deeper entry of the current search is kept.

use rafle_core::Move;

/// What the stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    #[default]
    Exact,
    /// The true score is at least the stored one (a beta cut-off).
    Lower,
    /// The true score is at most the stored one (no move raised alpha).
    Upper,
}

/// The best move is stored by its identity (from, to, captured set as
/// [`Move::captured_key`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    pub key: u64,
    pub captured: u64,
    pub score: i16,
    pub depth: i8,
    pub bound: Bound,
    pub from: u8,
    pub to: u8,
    generation: u8,
    /// false for an empty slot.
    pub has_move: bool,
}

#[derive(Debug)]
pub struct TransTable {
    entries: Vec<Entry>,
    mask: u64,
    generation: u8,
}

impl TransTable {
    /// A table of 2^`log2` entries (24 bytes each).
    pub fn new(log2: u32) -> TransTable {
        let n = 1usize << log2;
        TransTable {
            entries: vec![Entry::default(); n],
            mask: n as u64 - 1,
            generation: 0,
        }
    }

    /// Starts a new search: older entries become replaceable.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<&Entry> {
        let e = &self.entries[(key & self.mask) as usize];
        (e.key == key).then_some(e)
    }

    #[inline]
    pub fn store(&mut self, key: u64, depth: i32, score: i32, bound: Bound, best: Option<&Move>) {
        let generation = self.generation;
        let e = &mut self.entries[(key & self.mask) as usize];
        if e.key == key || e.generation != generation || depth >= e.depth as i32 {
            let keep_move = e.key == key && best.is_none();
            *e = Entry {
                key,
                captured: if keep_move {
                    e.captured
                } else {
                    best.map_or(0, |m| m.captured_key())
                },
                score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                depth: depth.clamp(0, i8::MAX as i32) as i8,
                bound,
                from: if keep_move {
                    e.from
                } else {
                    best.map_or(0, |m| m.from)
                },
                to: if keep_move {
                    e.to
                } else {
                    best.map_or(0, |m| m.to())
                },
                generation,
                has_move: if keep_move {
                    e.has_move
                } else {
                    best.is_some()
                },
            };
        }
    }
}
