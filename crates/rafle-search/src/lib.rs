//! rafle-search: every way of choosing a move. Players that need no network,
//! the network search driven by any leaf evaluator ([`network`]: Gumbel and
//! PUCT, the lockstep driver that batches the leaves of many games, a
//! network player). No tch, no Python: the evaluator is whatever the caller
//! brings (rafle-zero's tch network, a Python callable). The arena that pits
//! players against each other is rafle-arena.
//!
//! Every player implements [`Player`]; the arena builds a fresh one per game
//! through a [`PlayerFactory`], so parallel games never share state. Players
//! are named by spec strings (see [`parse_player`]):
//!
//! ```text
//! random            uniform over the legal full moves
//! greedy            one ply, best material after the move, random tie-break
//! alphabeta:6       iterative deepening alpha-beta to depth 6
//! alphabeta:t=0.5s  the same, 0.5 s per move (also t=200ms)
//! uct:400           plain UCT with random rollouts, 400 simulations per move
//!                   (`mcts:400` is accepted as an alias)
//! ```
//!
//! Modules: the players ([`random`], [`greedy`], [`alphabeta`] with its
//! [`eval`] and [`tt`], [`uct`]), [`spec`] (spec strings), [`network`]
//! (search over an evaluator, its settings).

pub mod alphabeta;
pub mod eval;
pub mod greedy;
pub mod network;
pub mod random;
pub mod spec;
pub mod tt;
pub mod uct;

pub use spec::{parse_player, SpecError};

use rafle_core::{Game, Move};
use std::sync::Arc;

/// A draughts player.
pub trait Player: Send {
    /// The name shown in tables and PDN headers (usually the spec string).
    fn name(&self) -> String;

    /// A legal move for the side to move of `game` (the game is not over).
    fn choose(&mut self, game: &Game) -> Move;

    /// Search nodes visited so far by this player (0 when it does not search).
    fn nodes(&self) -> u64 {
        0
    }
}

/// Builds a fresh player for one game (each parallel game gets its own), from
/// a per-game seed.
pub type PlayerFactory = Arc<dyn Fn(u64) -> Box<dyn Player> + Send + Sync>;
