//! Rebuilding an env from the steps it took since its episode began. A
//! batch keeps each env's steps, so that a saved env comes back exactly (its
//! draw counters and repetition come from replaying real moves, not from
//! stored numbers) and so that an episode can be read as a game of moves.

use crate::env::Env;
use crate::error::EnvError;
use rafle_core::{Move, MAX_JUMPS};
use smallvec::SmallVec;

/// Plays `steps` on `env`, which stands at its episode start, and returns the
/// full moves they completed (a loss by an illegal action completes none).
/// Refused steps are errors (`env` is then part-way).
pub fn replay(env: &mut Env, steps: &[u16]) -> Result<Vec<Move>, EnvError> {
    let mut moves = Vec::new();
    // The steps of the move under way (at most MAX_JUMPS).
    let mut chain: SmallVec<[u16; MAX_JUMPS]> = SmallVec::new();
    for &a in steps {
        chain.push(a);
        // Asked before the step: once the move is done the env has moved on.
        let m = env.move_of_chain(&chain);
        let info = env.step(a as usize)?;
        if !info.move_done {
            continue;
        }
        if !env.lost_by_illegal_action() {
            moves.push(m.ok_or(EnvError::IllegalAction { action: a as usize })?);
        }
        chain.clear();
    }
    Ok(moves)
}
