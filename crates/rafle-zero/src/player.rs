//! The trained network as an arena player: `model:RUN_DIR/latest.safetensors[:sims]`.
//!
//! A move is a chain of env steps; the player searches each step (Gumbel
//! with no root noise, or the policy's argmax when `sims` is 0) until the
//! turn passes, then returns the full move whose step chain matches. The env
//! replays the game's moves, so the observation carries the game's history.

use std::cell::Cell;
use std::path::Path;
use std::sync::{Arc, Mutex};

use anyhow::{bail, Result};
use rafle_core::rng::Rng;
use rafle_core::{Game, Move, Variant};
use rafle_env::{Env, EnvConfig};
use rafle_search::{Player, PlayerFactory};

use crate::checkpoint;
use crate::net::{self, Net};
use crate::search::{Pick, Search, SearchParams};

/// The network each player of an arena match copies (parallel games never
/// wait on each other's forward passes).
pub type SharedNet = Arc<Mutex<Net>>;

/// Plays with a network and a search of `sims` simulations per step.
#[derive(Debug)]
pub struct ModelPlayer {
    name: String,
    net: Net,
    params: SearchParams,
    sims: usize,
    rng: Rng,
    nodes: u64,
}

impl ModelPlayer {
    pub fn new(
        name: String,
        net: Net,
        params: SearchParams,
        sims: usize,
        seed: u64,
    ) -> ModelPlayer {
        ModelPlayer {
            name,
            net,
            params,
            sims,
            rng: Rng::new(seed),
            nodes: 0,
        }
    }

    fn evaluate(&self, obs: &[f32]) -> (Vec<f32>, Vec<f32>) {
        single_torch_thread();
        self.net.evaluate(obs, 1)
    }

    /// The step action chosen at `env`.
    fn step_action(&mut self, env: &Env) -> u16 {
        let legal = env.legal_action_ids();
        if legal.len() == 1 {
            return legal[0];
        }
        let mut obs = vec![0f32; rafle_env::observation_len(env.variant())];
        if self.sims == 0 {
            env.write_obs(&mut obs);
            let (logits, _) = self.evaluate(&obs);
            self.nodes += 1;
            return *legal
                .iter()
                .max_by(|&&a, &&b| logits[a as usize].total_cmp(&logits[b as usize]))
                .expect("a game in progress has a legal action");
        }
        let rng = Rng::new(self.rng.next_u64());
        let mut search = Search::new(env.clone(), self.sims, self.params.clone(), Pick::Best, rng);
        while search.advance(&mut obs) {
            let (logits, values) = self.evaluate(&obs);
            search.receive(&logits, values[0]);
        }
        self.nodes += search.tree_size() as u64;
        search.result().action
    }
}

impl Player for ModelPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &Game) -> Move {
        let v = game.variant();
        let pos = *game.position();
        let mut env = env_of(game);
        let mut chain = smallvec::SmallVec::<[u16; 20]>::new();
        loop {
            let a = self.step_action(&env);
            chain.push(a);
            match env.step(a as usize) {
                Ok(info) if !info.move_done => continue,
                _ => break,
            }
        }
        let legal = game.legal_moves();
        legal
            .iter()
            .find(|m| rafle_env::action::move_to_actions(v, &pos, m).as_slice() == chain.as_slice())
            .or_else(|| legal.first())
            .copied()
            .expect("a game in progress has a legal move")
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// Keeps torch to one intra-op thread in the calling thread. A player
/// evaluates one position at a time, where extra threads cost more than they
/// give, and the arena already plays games on every core: two games with two
/// OpenMP threads each on two cores ran about ten times slower per move.
/// (The thread count is per OpenMP thread, so self-play's batched forward
/// passes on the trainer's main thread keep theirs.)
fn single_torch_thread() {
    thread_local!(static SET: Cell<bool> = const { Cell::new(false) });
    SET.with(|set| {
        if !set.get() {
            tch::set_num_threads(1);
            set.set(true);
        }
    });
}

/// An env at the game's position with the game's moves replayed into it, so
/// that the no-progress and repetition planes and the draw rules see the same
/// history as in self-play (a bare position would show a fresh game).
pub fn env_of(game: &Game) -> Env {
    let v = game.variant();
    let mut env = Env::from_position(v, *game.start_position(), EnvConfig::default());
    for m in game.history() {
        let before = *env.position();
        for a in rafle_env::action::move_to_actions(v, &before, m) {
            if env.step(a as usize).is_err() {
                // Unreachable for a game's own legal moves; a bare position
                // still plays legal moves.
                debug_assert!(false, "a game move replays into its env");
                return Env::from_position(v, *game.position(), EnvConfig::default());
            }
        }
    }
    env
}

/// The factory for the spec text after `model:` (`PATH[:sims]`). Without
/// `:sims` the checkpoint's `eval.simulations` is used.
pub fn model_factory(spec: &str, variant: Variant) -> Result<PlayerFactory> {
    let (path, sims) = match spec.rsplit_once(':') {
        Some((p, s)) if !s.is_empty() && s.chars().all(|c| c.is_ascii_digit()) => {
            let n: usize = s
                .parse()
                .map_err(|_| anyhow::anyhow!("model:{spec}: {s:?} is not a simulation count"))?;
            (p, Some(n))
        }
        _ => (spec, None),
    };
    let device = net::device("auto")?;
    let (net, meta) = checkpoint::load_net(Path::new(path), device)?;
    if meta.variant != variant.name() {
        bail!(
            "model:{spec} was trained for {} but the game is {}",
            meta.variant,
            variant.name()
        );
    }
    let sims = sims.unwrap_or(meta.config.eval.simulations);
    let params = SearchParams::from_config(&meta.config.search);
    Ok(shared_factory(
        Arc::new(Mutex::new(net)),
        params,
        sims,
        format!("model:{spec}"),
    ))
}

/// A factory of players, each with its own f32 copy of `net` (a player
/// evaluates one position at a time, where bf16 is slower than f32 on CPU).
pub fn shared_factory(
    net: SharedNet,
    params: SearchParams,
    sims: usize,
    name: String,
) -> PlayerFactory {
    Arc::new(move |seed| {
        let copy = {
            let template = net.lock().unwrap_or_else(|e| e.into_inner());
            template
                .inference_copy("f32")
                .expect("same shape, same variables")
        };
        Box::new(ModelPlayer::new(
            name.clone(),
            copy,
            params.clone(),
            sims,
            seed,
        )) as Box<dyn Player>
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rafle_core::rng::Rng;

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
                .find(|l| l.from == m.to && l.to == m.from && !l.is_capture())?;
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
