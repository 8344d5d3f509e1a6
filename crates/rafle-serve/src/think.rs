//! A player's move for the page: its search with the page's budget, under
//! a [`SearchControl`] that the request's handler stops when the request
//! is dropped, and what the search reports (score, depth, nodes, PV).

use crate::error::{ApiError, ApiResult};
use rafle_arena::Side;
use rafle_core::{Game, Move};
use rafle_search::{Budget, SearchControl, SearchInfo};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest thinking time the page may ask for.
pub const MAX_TIME: f64 = 120.0;
/// The most simulations (UCT, network search) the page may ask for.
pub const MAX_NODES: u64 = 1_000_000;

/// A budget as the page sends it: one of the three.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BudgetSpec {
    #[serde(default)]
    pub depth: Option<u32>,
    #[serde(default)]
    pub nodes: Option<u64>,
    /// Seconds.
    #[serde(default)]
    pub time: Option<f64>,
}

impl BudgetSpec {
    /// The budget, checked: one limit, within bounds.
    pub fn budget(&self) -> ApiResult<Option<Budget>> {
        match (self.depth, self.nodes, self.time) {
            (None, None, None) => Ok(None),
            (Some(d), None, None) if (1..=64).contains(&d) => Ok(Some(Budget::Depth(d))),
            (Some(d), None, None) => Err(ApiError::bad(format!("depth {d} must be in 1..=64"))),
            (None, Some(n), None) if (1..=MAX_NODES).contains(&n) => Ok(Some(Budget::Nodes(n))),
            (None, Some(n), None) => Err(ApiError::bad(format!(
                "nodes {n} must be in 1..={MAX_NODES}"
            ))),
            (None, None, Some(t)) if t > 0.0 && t <= MAX_TIME => {
                Ok(Some(Budget::Time(Duration::from_secs_f64(t))))
            }
            (None, None, Some(t)) => Err(ApiError::bad(format!(
                "time {t} must be in (0, {MAX_TIME}] seconds"
            ))),
            _ => Err(ApiError::bad(
                "a budget is one of {\"depth\": D}, {\"nodes\": N}, {\"time\": seconds}",
            )),
        }
    }
}

/// What one search found.
#[derive(Clone, Debug)]
pub struct Thought {
    pub best: Move,
    pub info: SearchInfo,
    pub seconds: f64,
}

/// `side`'s move at `game` (not over) within `budget`, stopped early when
/// `control` says so. A time budget also sets the control's deadline, so
/// a player that only counts nodes stops in time too.
pub fn think(
    side: &Side,
    game: &Game,
    budget: Option<Budget>,
    seed: u64,
    control: Arc<SearchControl>,
) -> ApiResult<Thought> {
    if game.is_over() {
        return Err(ApiError::bad(
            "the game is over: there is no move to search",
        ));
    }
    let mut player = side.factory()(seed);
    if let Some(b) = budget {
        player.set_budget(b);
    }
    let t = Instant::now();
    // A hard end for every search, whatever its budget says.
    let hard = match budget {
        Some(Budget::Time(d)) => d + Duration::from_millis(50),
        _ => Duration::from_secs_f64(MAX_TIME),
    };
    control.stop_at(t + hard);
    player.set_control(Some(control.clone()));
    let best = player
        .choose(game)
        .map_err(|f| ApiError::internal(format!("{} gave up: {f}", player.name())))?;
    if !game.legal_moves().contains(&best) {
        return Err(ApiError::internal(format!(
            "{} chose a move that is not legal here",
            player.name()
        )));
    }
    Ok(Thought {
        best,
        info: player.info(),
        seconds: t.elapsed().as_secs_f64(),
    })
}

/// A search's report for the page: the move, its score (alpha-beta in
/// men, a network in [-1, 1], for the side to move), depth, nodes, PV.
pub fn thought_json(game: &Game, t: &Thought) -> Value {
    let mut pv_game = game.clone();
    let mut pv = Vec::new();
    for m in &t.info.pv {
        if pv_game.play(m).is_err() {
            break;
        }
        pv.push(game.move_string(m));
    }
    json!({
        "move": game.move_string(&t.best),
        "score": t.info.score,
        "depth": t.info.depth,
        "nodes": t.info.nodes,
        "pv": pv,
        "seconds": t.seconds,
    })
}
