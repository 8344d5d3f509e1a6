//! The steps of one full move by a network side. A move is a chain of env
//! steps; each step with a real choice gets a [`Search`] (no root noise),
//! a step with one legal action is played at once (no evaluator call). The
//! per-game [`NetworkPlayer`](super::NetworkPlayer) and the lockstep arena
//! both move through this, so they play the same games for the same seed.
//! A side's searches hand an [`EvalCache`] on to the next one (the evaluator
//! stays the same for the life of a `MoveMaker`: one game).

use crate::tables::Tables;
use rafle_core::rng::Rng;
use rafle_env::Env;
use std::sync::Arc;

use super::{EvalCache, LeafSlots, Pick, Search, SearchParams};

/// What [`MoveMaker::step`] needs next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// This many leaves were written; hand their answers to [`MoveMaker::receive`].
    Leaves(usize),
    /// The step action to play.
    Action(u16),
}

/// Chooses step actions with a search of `simulations` per step (0: the
/// policy's best legal action).
#[derive(Debug)]
pub struct MoveMaker {
    params: SearchParams,
    simulations: usize,
    rng: Rng,
    search: Option<Search>,
    /// Between searches: the last one's cache.
    cache: EvalCache,
    nodes: u64,
    /// Endgame tables for every search (see [`Search::with_tables`]).
    tables: Option<Arc<Tables>>,
}

impl MoveMaker {
    pub fn new(params: SearchParams, simulations: usize, seed: u64) -> MoveMaker {
        MoveMaker {
            params,
            simulations,
            rng: Rng::new(seed),
            search: None,
            cache: EvalCache::new(),
            nodes: 0,
            tables: None,
        }
    }

    /// Searches with endgame tables (when given).
    pub fn with_tables(mut self, tables: Option<Arc<Tables>>) -> MoveMaker {
        self.tables = tables;
        self
    }

    /// Most leaves one step writes.
    pub fn max_leaves(&self) -> usize {
        self.params.leaves_per_round.max(1)
    }

    /// Works on the step at `env` (a game in progress, this side to act):
    /// writes leaves into `out`, or returns the action once chosen.
    pub fn step(&mut self, env: &Env, out: &mut LeafSlots) -> Step {
        let search = match &mut self.search {
            Some(s) => s,
            None => {
                if let &[only] = env.legal_action_ids() {
                    return Step::Action(only);
                }
                let rng = Rng::new(self.rng.next_u64());
                let s = Search::new(
                    env.clone(),
                    self.simulations,
                    self.params.clone(),
                    Pick::Best,
                    rng,
                )
                .with_cache(std::mem::take(&mut self.cache))
                .with_tables(self.tables.clone());
                self.search.insert(s)
            }
        };
        match search.advance(out) {
            0 => {
                let action = search.result().action;
                self.nodes += search.tree_size() as u64;
                self.cache = search.take_cache().unwrap_or_default();
                self.search = None;
                Step::Action(action)
            }
            n => Step::Leaves(n),
        }
    }

    /// The answers for the leaves of the last [`Step::Leaves`].
    pub fn receive(&mut self, logits: &[f32], values: &[f32]) {
        if let Some(s) = &mut self.search {
            s.receive(logits, values);
        }
    }

    /// Forgets the leaves of the last step (their evaluation failed).
    pub fn abandon(&mut self) {
        if let Some(s) = &mut self.search {
            s.abandon();
        }
    }

    /// Leaves answered from the cache so far.
    pub fn cache_hits(&self) -> u64 {
        let current = self.search.as_ref().map_or(0, |s| s.cache_hits());
        self.cache.hits + current
    }

    /// Search nodes created so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Ends the search of the current step early (see [`Search::cut_short`]).
    pub fn cut_short(&mut self) {
        if let Some(s) = &mut self.search {
            s.cut_short();
        }
    }

    /// Simulations per step from the next search on.
    pub fn set_simulations(&mut self, simulations: usize) {
        self.simulations = simulations;
    }
}
