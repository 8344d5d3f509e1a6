//! Perft: the number of leaf nodes of the legal-move tree, counted with bulk
//! counting at the last ply. Duplicate capture paths are counted once.

use crate::movegen::{count, generate};
use crate::moves::MoveList;
use crate::position::Position;
use crate::variant::{Rules, Variant};

/// Leaf count at `depth` plies from `pos`.
pub fn perft<R: Rules>(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count::<R>(pos) as u64,
        _ => {
            let mut moves = MoveList::new();
            generate::<R>(pos, &mut moves);
            let mut n = 0;
            for m in &moves {
                let mut next = *pos;
                next.apply::<R>(m);
                n += perft::<R>(&next, depth - 1);
            }
            n
        }
    }
}

/// Perft for a variant chosen at run time.
pub fn perft_variant(v: Variant, pos: &Position, depth: u32) -> u64 {
    with_rules!(v, R => perft::<R>(pos, depth))
}

/// Perft split by root move: (move, leaf count) pairs.
pub fn divide<R: Rules>(pos: &Position, depth: u32) -> Vec<(crate::Move, u64)> {
    let mut moves = MoveList::new();
    generate::<R>(pos, &mut moves);
    moves
        .iter()
        .map(|m| {
            let mut next = *pos;
            next.apply::<R>(m);
            (*m, perft::<R>(&next, depth.saturating_sub(1)))
        })
        .collect()
}
