//! The trained network as an arena player: `model:RUN_DIR/latest.safetensors[:sims]`.
//!
//! A move is a chain of env steps; the player searches each step (Gumbel
//! with no root noise, or the policy's argmax when `sims` is 0) until the
//! turn passes, then returns the full move whose step chain matches.

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
        let mut env = Env::from_position(v, pos, EnvConfig::default());
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
