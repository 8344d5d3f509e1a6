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
//! egtb              perfect inside the endgame tables, alphabeta:4 outside
//!                   (needs tables: `PlayerOptions::egtb`)
//! ```
//!
//! With endgame tables ([`PlayerOptions::egtb`], [`tables`]) alpha-beta and
//! UCT take the tables' value at every node they cover and play the tables'
//! move at a covered root; the network search does the same through
//! [`network::Search::with_tables`].
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
pub mod tables;
pub mod tt;
pub mod uct;

pub use spec::{parse_player, parse_player_with, PlayerOptions, SpecError};

use rafle_core::{EndReason, Game, Move};
use std::sync::Arc;
use std::time::Duration;

/// A draughts player.
pub trait Player: Send {
    /// The name shown in tables and PDN headers (usually the spec string).
    fn name(&self) -> String;

    /// A legal move for the side to move of `game` (the game is not over),
    /// or the reason the player gives the game up. rafle's own players
    /// always move; an engine behind a protocol (rafle-engine) forfeits when
    /// it crashes, stalls, sends garbage or a move that is not legal.
    fn choose(&mut self, game: &Game) -> Result<Move, Forfeit>;

    /// Search nodes visited so far by this player (0 when it does not search).
    fn nodes(&self) -> u64 {
        0
    }

    /// Limits the next searches (a Hub `level`, a DXP clock). A player
    /// ignores a budget it cannot honour and keeps its spec's limits:
    /// alpha-beta takes a depth or a time, UCT and network players a node
    /// count (simulations), network players also a time (see
    /// [`network::NetworkPlayer`]).
    fn set_budget(&mut self, _budget: Budget) {}

    /// What the last search found, as far as the player knows it.
    fn info(&self) -> SearchInfo {
        SearchInfo::default()
    }
}

/// A player's search limit for one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Plies of full-width search.
    Depth(u32),
    /// Search nodes (simulations for UCT and the network search).
    Nodes(u64),
    /// Thinking time for this move.
    Time(Duration),
}

/// What a search reports (Hub `info`): each field where the player has it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchInfo {
    pub depth: Option<u32>,
    /// For the side to move: men for alpha-beta, the value in [-1, 1] for a
    /// network player.
    pub score: Option<f64>,
    pub nodes: u64,
    /// Principal variation, the chosen move first.
    pub pv: Vec<Move>,
}

/// Why a player gave up a game instead of moving: the reason recorded in the
/// arena's table and PDN, and the detail (the engine's last words, the move
/// and position) shown with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    pub reason: EndReason,
    pub detail: String,
}

impl Forfeit {
    pub fn new(reason: EndReason, detail: impl Into<String>) -> Forfeit {
        Forfeit {
            reason,
            detail: detail.into(),
        }
    }
}

impl std::fmt::Display for Forfeit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.reason, self.detail)
    }
}

impl std::error::Error for Forfeit {}

/// Builds a fresh player for one game (each parallel game gets its own), from
/// a per-game seed.
pub type PlayerFactory = Arc<dyn Fn(u64) -> Box<dyn Player> + Send + Sync>;
