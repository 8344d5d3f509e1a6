//! A network side as an ordinary [`Player`]: it evaluates its own leaves,
//! one search at a time. The arena batches network sides across games
//! instead (see [`crate::arena`]); this player is for one game at a time
//! (Python's `Player.choose`, tests that compare the two arenas).

use rafle_core::{Game, Move};
use rafle_env::{Chain, Env, EnvConfig};

use super::{EvalError, Evaluator, LeafSlots, Leaves, MoveMaker, SearchParams, Step};
use crate::{Budget, Forfeit, Player, SearchControl, SearchInfo};
use std::sync::Arc;
use std::time::Instant;

/// Plays with an evaluator and a search of `simulations` per step.
pub struct NetworkPlayer<E: Evaluator> {
    name: String,
    evaluator: E,
    mover: MoveMaker,
    obs: Vec<f32>,
    mask: Vec<bool>,
    logits: Vec<f32>,
    values: Vec<f32>,
    /// The first evaluator failure (the move is then the first legal one).
    pub error: Option<EvalError>,
    /// The spec's simulations per step (a time budget never exceeds it).
    spec_simulations: usize,
    /// Nodes and seconds of every move so far, for a time budget.
    spent: (u64, f64),
    last_nodes: u64,
    /// Cuts the searches short (checked between evaluator calls).
    control: Option<Arc<SearchControl>>,
}

impl<E: Evaluator> std::fmt::Debug for NetworkPlayer<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetworkPlayer")
            .field("name", &self.name)
            .field("mover", &self.mover)
            .finish_non_exhaustive()
    }
}

impl<E: Evaluator> NetworkPlayer<E> {
    pub fn new(
        name: String,
        evaluator: E,
        params: SearchParams,
        simulations: usize,
        seed: u64,
    ) -> Self {
        NetworkPlayer {
            name,
            evaluator,
            mover: MoveMaker::new(params, simulations, seed),
            obs: Vec::new(),
            mask: Vec::new(),
            logits: Vec::new(),
            values: Vec::new(),
            error: None,
            spec_simulations: simulations,
            spent: (0, 0.0),
            last_nodes: 0,
            control: None,
        }
    }

    /// Searches with endgame tables (when given): their move at a covered
    /// position, their value at covered leaves.
    pub fn with_tables(mut self, tables: Option<std::sync::Arc<crate::tables::Tables>>) -> Self {
        let mover = std::mem::replace(
            &mut self.mover,
            MoveMaker::new(SearchParams::default(), 0, 0),
        );
        self.mover = mover.with_tables(tables);
        self
    }

    /// The move for `game` (in progress), or the evaluator's error.
    pub fn try_choose(&mut self, game: &Game) -> Result<Move, EvalError> {
        let start = Env::from_game(game, EnvConfig::default())
            .expect("a game's own moves replay into its env");
        let (len, na) = (start.observation_len(), start.num_actions());
        let l = self.mover.max_leaves();
        self.obs.resize(l * len, 0.0);
        self.mask.resize(l * na, false);
        let mut env = start.clone();
        let mut chain = Chain::new();
        loop {
            if self
                .control
                .as_deref()
                .is_some_and(SearchControl::should_stop)
            {
                self.mover.cut_short();
            }
            let mut out = LeafSlots {
                obs: &mut self.obs,
                mask: &mut self.mask,
            };
            match self.mover.step(&env, &mut out) {
                Step::Leaves(n) => {
                    self.logits.resize(n * na, 0.0);
                    self.values.resize(n, 0.0);
                    let leaves = Leaves {
                        obs: &self.obs[..n * len],
                        mask: &self.mask[..n * na],
                        n,
                    };
                    if let Err(e) =
                        self.evaluator
                            .evaluate(&leaves, &mut self.logits, &mut self.values)
                    {
                        self.mover.abandon();
                        return Err(e);
                    }
                    self.mover.receive(&self.logits, &self.values);
                }
                Step::Action(a) => {
                    chain.push(a);
                    match env.step(a as usize) {
                        Ok(info) if !info.move_done => {}
                        _ => break,
                    }
                }
            }
        }
        Ok(start.move_of_chain(&chain).unwrap_or_else(|| {
            debug_assert!(false, "a chain of legal steps is a legal move");
            game.legal_moves()[0]
        }))
    }
}

impl<E: Evaluator> Player for NetworkPlayer<E> {
    fn name(&self) -> String {
        self.name.clone()
    }

    /// On an evaluator failure the first legal move, the error kept in
    /// [`NetworkPlayer::error`] (callers that can fail use `try_choose`).
    fn choose(&mut self, game: &Game) -> Result<Move, Forfeit> {
        let (nodes0, t) = (self.mover.nodes(), Instant::now());
        let m = match self.try_choose(game) {
            Ok(m) => m,
            Err(e) => {
                self.error.get_or_insert(e);
                game.legal_moves()[0]
            }
        };
        self.last_nodes = self.mover.nodes() - nodes0;
        self.spent.0 += self.last_nodes;
        self.spent.1 += t.elapsed().as_secs_f64();
        Ok(m)
    }

    /// Nodes: that many simulations per step. Time: the simulations this
    /// player's own moves so far ran in that time (nodes per second times
    /// the time), at least 1 and at most the spec's; the spec's until it
    /// has moved once (a spec of 0, the policy's move, stays 0).
    /// A depth is not a limit of this search.
    fn set_budget(&mut self, budget: Budget) {
        let sims = match budget {
            Budget::Nodes(n) => n.min(1_000_000) as usize,
            // Playing the policy (0 simulations) is as fast as it gets.
            Budget::Time(_) if self.spec_simulations == 0 => 0,
            Budget::Time(t) if self.spent.1 > 0.0 && self.spent.0 > 0 => {
                let rate = self.spent.0 as f64 / self.spent.1;
                ((rate * t.as_secs_f64()) as usize).clamp(1, self.spec_simulations.max(1))
            }
            Budget::Time(_) | Budget::Depth(_) => self.spec_simulations,
        };
        self.mover.set_simulations(sims);
    }

    fn info(&self) -> SearchInfo {
        SearchInfo {
            nodes: self.last_nodes,
            ..SearchInfo::default()
        }
    }

    fn nodes(&self) -> u64 {
        self.mover.nodes()
    }

    fn set_control(&mut self, control: Option<Arc<SearchControl>>) {
        self.control = control;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rafle_core::rng::Rng;
    use rafle_core::Variant;

    fn env_of(game: &Game) -> Env {
        Env::from_game(game, EnvConfig::default()).unwrap()
    }

    fn same(env: &Env, game: &Game) {
        assert_eq!(env.position(), game.position());
        assert_eq!(env.counters(), game.counters());
        assert_eq!(env.ply() as usize, game.ply());
        assert_eq!(env.outcome(), game.outcome());
    }

    #[test]
    fn env_of_replays_random_games() {
        for v in Variant::ALL {
            let mut rng = Rng::new(7);
            let mut game = Game::new(v);
            same(&env_of(&game), &game);
            while !game.is_over() && game.ply() < 120 {
                let legal = game.legal_moves();
                let m = legal[rng.below(legal.len())];
                game.play(&m).unwrap();
                same(&env_of(&game), &game);
            }
        }
    }

    /// Plays `m` and then the move taking its piece back, if both are legal.
    fn there_and_back(game: &Game, w: &Move, b: &Move) -> Option<Game> {
        let mut g = game.clone();
        g.play(w).ok()?;
        g.play(b).ok()?;
        for m in [w, b] {
            let back = *g
                .legal_moves()
                .iter()
                .find(|l| l.from == m.to() && l.to() == m.from && !l.is_capture())?;
            g.play(&back).ok()?;
        }
        Some(g)
    }

    #[test]
    fn env_of_sees_repetitions() {
        // Two kings each step out and back: the start position recurs.
        let game = Game::from_fen(Variant::Thai, "W:WK29,K31:BK2,K4").unwrap();
        let shuffled = game
            .legal_moves()
            .iter()
            .find_map(|w| {
                let mut after = game.clone();
                after.play(w).unwrap();
                after
                    .legal_moves()
                    .iter()
                    .find_map(|b| there_and_back(&game, w, b))
            })
            .expect("some pair of king moves can be taken back");
        assert_eq!(shuffled.position(), game.position());
        assert_eq!(env_of(&shuffled).occurrences(), 2);
        let fresh = Env::from_position(Variant::Thai, *shuffled.position(), EnvConfig::default());
        assert_eq!(fresh.occurrences(), 1);
    }
}
