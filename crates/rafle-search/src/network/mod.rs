//! The network search: Gumbel AlphaZero and PUCT over env step actions,
//! driven by whoever evaluates the leaves. Nothing here knows tch or Python:
//! an [`Evaluator`] is anything that maps a batch of observations to policy
//! logits and values (the tch network in rafle-zero, a Python callable in
//! rafle-py, a fixed function in the tests).
//!
//! ```text
//! SearchParams (params.rs) the settings: the [search] table, Python's keywords
//! Search (search.rs)      one tree; advance() writes leaves, receive() takes answers
//!   EvalCache (cache.rs)  answers kept from a game's last search for its next one
//!   Tree (tree.rs)        nodes over step actions; sign flips only where the player changes
//!   gumbel.rs, puct.rs    selection rules and policy targets
//! MoveMaker (mover.rs)    the steps of one full move: forced steps free, a Search per real choice
//! Lockstep (lockstep.rs)  many clients, one evaluator call per round for all their leaves
//! NetworkPlayer           a `Player` that evaluates its own leaves (one game at a time)
//! ```
//!
//! Shapes, for a variant with observation `[C, N, N]` and `A` step actions
//! (`Env::observation_shape`, `Env::num_actions`), `K` leaves:
//!
//! ```text
//! evaluator input   obs  [K, C, N, N] f32 (rafle-env planes, mover's frame)
//!                   mask [K, A] bool  (legal next steps; evaluators may ignore it)
//! evaluator output  logits [K, A] f32 raw (rafle masks the illegal ones)
//!                   values [K] f32 in [-1, 1] for the player to act
//! ```

pub mod cache;
pub mod evaluator;
pub mod gumbel;
pub mod lockstep;
pub mod mover;
pub mod params;
pub mod player;
pub mod puct;
pub mod search;
pub mod stand_in;
pub mod tree;

pub use cache::EvalCache;
pub use evaluator::{shared, EvalError, Evaluator, Leaves, SharedEvaluator};
pub use lockstep::{run_searches, Client, EvalStats, Lockstep, Request};
pub use mover::{MoveMaker, Step};
pub use params::{Algorithm, SearchParams};
pub use player::NetworkPlayer;
pub use search::{Pick, RootEdge, Search, SearchOutcome};

use rafle_env::Env;

/// Room for the leaves of one client in one round: observations and legal
/// masks, leaf after leaf.
#[derive(Debug)]
pub struct LeafSlots<'a> {
    pub obs: &'a mut [f32],
    pub mask: &'a mut [bool],
}

impl LeafSlots<'_> {
    /// Writes leaf `k`: `env`'s observation and legal mask.
    pub fn write(&mut self, k: usize, env: &Env) {
        let (len, na) = (env.observation_len(), env.num_actions());
        env.write_obs(&mut self.obs[k * len..(k + 1) * len]);
        env.write_legal_mask(&mut self.mask[k * na..(k + 1) * na]);
    }
}
