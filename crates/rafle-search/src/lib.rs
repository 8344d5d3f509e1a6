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
pub mod learned;
pub mod network;
pub mod random;
pub mod spec;
pub mod tables;
pub mod tt;
pub mod uct;

pub use spec::{
    parse_player, parse_player_with, Checkpoint, EngineSpec, PlayerOptions, PlayerSpec, SpecError,
};

use rafle_core::{Color, EndReason, Game, Move};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

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

    /// Hands the next searches a [`SearchControl`] (None: none): a player
    /// that can be interrupted checks it while searching and returns its
    /// best move so far once [`SearchControl::should_stop`] says so, and
    /// reports its progress there (alpha-beta per iteration). Players that
    /// ignore it search to their budget. rafle as a Hub engine (`stop`,
    /// `ponder-hit`, `info` lines) is the caller.
    fn set_control(&mut self, _control: Option<Arc<SearchControl>>) {}

    /// Asks the next searches to score every root move exactly (`on`), for
    /// [`Player::root_scores`]: a teacher's soft policy targets. Alpha-beta
    /// then searches each root move with a full window, which costs nodes;
    /// players without such scores ignore it.
    fn set_root_scores(&mut self, _on: bool) {}

    /// Every root move of the last search with its score for the side to
    /// move (the unit of [`SearchInfo::score`]), best first; empty where
    /// not asked for ([`Player::set_root_scores`]), where the player has
    /// none, and where the last move was not searched (forced, or a table's).
    fn root_scores(&self) -> Vec<(Move, f64)> {
        Vec::new()
    }

    /// The game is over, `winner` as the arena records it (None: a draw).
    /// A player that speaks to an engine tells it (DXP's GAMEEND) and
    /// returns what the engine said about the result when that differs
    /// from `winner`, a note for the game's record.
    fn game_over(&mut self, _game: &Game, _winner: Option<Color>) -> Option<String> {
        None
    }
}

/// Outside control of a running search, shared with the thread that runs
/// it: a stop flag and a deadline that another thread may set at any time
/// (Hub's `stop` and `ponder-hit`), and a callback that receives progress
/// reports (Hub's `info` lines). Players check [`SearchControl::should_stop`]
/// every few hundred nodes or every simulation, so a stop is obeyed within
/// about a millisecond (a network player: within one evaluator call).
pub struct SearchControl {
    origin: Instant,
    stop: AtomicBool,
    /// Nanoseconds after `origin` at which to stop; 0: no deadline.
    deadline: AtomicU64,
    progress: Option<Box<ProgressFn>>,
}

/// Receives a search's progress (see [`SearchControl::report`]).
pub type ProgressFn = dyn Fn(&SearchInfo) + Send + Sync;

impl SearchControl {
    pub fn new() -> SearchControl {
        SearchControl {
            origin: Instant::now(),
            stop: AtomicBool::new(false),
            deadline: AtomicU64::new(0),
            progress: None,
        }
    }

    /// A control whose progress reports go to `f` (called on the searching
    /// thread).
    pub fn with_progress(f: impl Fn(&SearchInfo) + Send + Sync + 'static) -> SearchControl {
        SearchControl {
            progress: Some(Box::new(f)),
            ..SearchControl::new()
        }
    }

    /// Asks the search to end now.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Asks the search to end at `when` (replacing an earlier deadline).
    pub fn stop_at(&self, when: Instant) {
        let ns = when.saturating_duration_since(self.origin).as_nanos();
        self.deadline
            .store(ns.clamp(1, u64::MAX as u128) as u64, Ordering::Relaxed);
    }

    /// Whether the search should end now: stopped, or past its deadline.
    pub fn should_stop(&self) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        let d = self.deadline.load(Ordering::Relaxed);
        d != 0 && self.origin.elapsed().as_nanos() >= d as u128
    }

    /// Reports progress (a no-op without a callback).
    pub fn report(&self, info: &SearchInfo) {
        if let Some(f) = &self.progress {
            f(info);
        }
    }
}

impl Default for SearchControl {
    fn default() -> Self {
        SearchControl::new()
    }
}

impl std::fmt::Debug for SearchControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchControl")
            .field("should_stop", &self.should_stop())
            .finish_non_exhaustive()
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
    /// network player and for UCT (its chosen move's mean result).
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
