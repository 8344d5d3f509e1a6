//! Endgame tables in the searches: exact values where the tables cover a
//! position (rafle-egtb), for alpha-beta, UCT, the network search and the
//! `egtb` player.

use rafle_core::rng::Rng;
use rafle_core::{Game, Move, Position, Rules};
use rafle_egtb::{Tablebase, Value};
use rafle_env::Env;

pub use rafle_egtb::Tablebase as Tables;

/// The value of `pos` for its side to move, where the tables cover it and
/// their file reads.
#[inline]
pub fn probe(tb: &Tablebase, pos: &Position) -> Option<Value> {
    if !tb.covers(pos) {
        return None;
    }
    tb.probe(pos).ok()
}

/// One of the moves the tables rank best in `game` (the one `rng` picks
/// among equals), when they cover its position.
pub fn best_move(tb: &Tablebase, game: &Game, rng: &mut Rng) -> Option<Move> {
    if game.is_over() || !tb.covers(game.position()) {
        return None;
    }
    let best = tb.best_moves(game.position()).ok()?;
    (!best.is_empty()).then(|| best[rng.below(best.len())].0)
}

/// A value as a network search's value: 1 a win, 0 a draw, -1 a loss.
pub fn unit(v: Value) -> f32 {
    match v {
        Value::Win(_) => 1.0,
        Value::Draw => 0.0,
        Value::Loss(_) => -1.0,
    }
}

/// The exact value of an env's position for the player to act and the best
/// full move there, where the tables cover it. In the middle of a
/// multi-capture the value is the best of the full moves still open, each
/// judged by the position it leaves.
pub fn exact(tb: &Tablebase, env: &Env) -> Option<(Value, Move)> {
    let pos = env.position();
    if env.is_done() || !tb.covers(pos) {
        return None;
    }
    rafle_core::with_rules!(env.variant(), R => exact_of::<R>(tb, pos, env.legal_moves()))
}

fn exact_of<R: Rules>(tb: &Tablebase, pos: &Position, moves: &[Move]) -> Option<(Value, Move)> {
    let mut best: Option<(Value, Move)> = None;
    for m in moves {
        let mut next = *pos;
        next.apply::<R>(m);
        let v = tb.probe(&next).ok()?.before();
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, *m));
        }
    }
    best
}

/// The [`crate::Player`] of the spec `egtb`: the tables' best move inside
/// the tables, `fallback`'s move outside them.
pub struct TablePlayer {
    tb: std::sync::Arc<Tablebase>,
    fallback: Box<dyn crate::Player>,
    rng: Rng,
}

impl std::fmt::Debug for TablePlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TablePlayer").finish_non_exhaustive()
    }
}

impl TablePlayer {
    pub fn new(tb: std::sync::Arc<Tablebase>, fallback: Box<dyn crate::Player>, seed: u64) -> Self {
        TablePlayer {
            tb,
            fallback,
            rng: Rng::new(seed ^ 0x7461_626C_6573),
        }
    }
}

impl crate::Player for TablePlayer {
    fn name(&self) -> String {
        "egtb".into()
    }

    fn choose(&mut self, game: &Game) -> Result<Move, crate::Forfeit> {
        match best_move(&self.tb, game, &mut self.rng) {
            Some(m) => Ok(m),
            None => self.fallback.choose(game),
        }
    }

    fn nodes(&self) -> u64 {
        self.fallback.nodes()
    }

    fn set_budget(&mut self, budget: crate::Budget) {
        self.fallback.set_budget(budget);
    }

    fn info(&self) -> crate::SearchInfo {
        self.fallback.info()
    }

    fn set_control(&mut self, control: Option<std::sync::Arc<crate::SearchControl>>) {
        self.fallback.set_control(control);
    }
}
