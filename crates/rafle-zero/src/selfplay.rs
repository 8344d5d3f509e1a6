//! Batched self-play: `parallel_games` games advance in lockstep. Each round,
//! every game runs its search until a leaf needs the network (rayon over
//! games), all those leaves go to the network in ONE batch, and the answers
//! are handed back (rayon again). A game whose search completes plays its
//! move and starts the next search within the same round, so every round's
//! batch holds one leaf per game.
//!
//! Playout cap randomisation (KataGo): each move gets the full search with
//! probability `full_search_prob`, else the fast one; only full searches
//! become training positions (the fast ones just move the game on).

use std::time::Instant;

use rafle_core::rng::Rng;
use rafle_core::{Color, Variant};
use rafle_env::{Env, EnvConfig};
use rayon::prelude::*;

use crate::config::Config;
use crate::net::Net;
use crate::replay::Sample;
use crate::search::{Pick, Search, SearchParams};

/// Counters of one [`SelfPlay::run`] call.
#[derive(Clone, Debug, Default)]
pub struct SelfPlayStats {
    pub games: u64,
    pub white_wins: u64,
    pub black_wins: u64,
    pub draws: u64,
    /// Plies (full moves) of the finished games.
    pub plies: u64,
    pub positions: u64,
    pub nn_evals: u64,
    pub batches: u64,
    pub nn_seconds: f64,
    pub tree_seconds: f64,
    pub seconds: f64,
}

impl SelfPlayStats {
    pub fn avg_batch(&self) -> f64 {
        self.nn_evals as f64 / self.batches.max(1) as f64
    }
}

/// A position waiting for its game's result.
#[derive(Debug)]
struct Pending {
    obs: Vec<u8>,
    policy: Vec<(u16, f32)>,
    player: Color,
    q: f32,
}

#[derive(Debug)]
struct Game {
    env: Env,
    search: Search,
    full: bool,
    rng: Rng,
    pending: Vec<Pending>,
    /// Finished positions not yet collected.
    out: Vec<Sample>,
    /// Outcomes of games finished since the last collection: winner, plies.
    finished: Vec<(Option<Color>, u32)>,
}

/// Search budgets and settings used by self-play.
#[derive(Clone, Debug)]
pub struct Budgets {
    pub full: usize,
    pub fast: usize,
    pub full_prob: f64,
    pub temperature_plies: u32,
    pub params: SearchParams,
}

impl Game {
    fn new_search(&mut self, b: &Budgets) {
        self.full = b.full == b.fast || self.rng.unit_f64() < b.full_prob;
        let budget = if self.full { b.full } else { b.fast };
        let pick = if self.env.ply() >= b.temperature_plies {
            Pick::Noisy
        } else {
            Pick::Explore
        };
        let rng = Rng::new(self.rng.next_u64());
        self.search = Search::new(self.env.clone(), budget, b.params.clone(), pick, rng);
    }

    /// Runs until the search wants the network (true) — playing moves and
    /// starting new games as searches complete.
    fn advance(&mut self, obs: &mut [f32], b: &Budgets) -> bool {
        loop {
            if self.search.advance(obs) {
                return true;
            }
            let r = self.search.result();
            if self.full && !r.forced {
                let mut o = vec![0f32; obs.len()];
                self.env.write_obs(&mut o);
                self.pending.push(Pending {
                    obs: Sample::quantise(&o),
                    policy: r.policy,
                    player: self.env.to_play(),
                    q: r.value,
                });
            }
            let info = self
                .env
                .step(r.action as usize)
                .expect("search plays legal actions");
            if info.terminated || info.truncated {
                let winner = self.env.outcome().and_then(|o| o.winner);
                for p in self.pending.drain(..) {
                    let wdl = match winner {
                        None => 1,
                        Some(w) if w == p.player => 0,
                        Some(_) => 2,
                    };
                    self.out.push(Sample {
                        obs: p.obs,
                        policy: p.policy,
                        wdl,
                        q: p.q,
                    });
                }
                self.finished.push((winner, self.env.ply()));
                self.env.reset();
            }
            self.new_search(b);
        }
    }
}

/// The games in flight (kept across iterations).
#[derive(Debug)]
pub struct SelfPlay {
    games: Vec<Game>,
    budgets: Budgets,
    obs_len: usize,
    actions: usize,
    obs_buf: Vec<f32>,
}

impl SelfPlay {
    pub fn new(cfg: &Config, variant: Variant, seed: u64) -> anyhow::Result<SelfPlay> {
        let s = &cfg.search;
        let budgets = Budgets {
            full: s.simulations,
            fast: s.fast_simulations,
            full_prob: s.full_search_prob,
            temperature_plies: s.temperature_plies,
            params: SearchParams::from_config(s),
        };
        let env_cfg = EnvConfig {
            max_plies: Some(cfg.selfplay.max_plies),
            ..Default::default()
        };
        let env = Env::new(variant, env_cfg)?;
        let n = cfg.selfplay.parallel_games;
        let games = (0..n)
            .map(|i| {
                let mut g = Game {
                    env: env.clone(),
                    search: Search::new(
                        env.clone(),
                        1,
                        budgets.params.clone(),
                        Pick::Explore,
                        Rng::new(0),
                    ),
                    full: false,
                    rng: Rng::stream(seed, i as u64),
                    pending: Vec::new(),
                    out: Vec::new(),
                    finished: Vec::new(),
                };
                g.new_search(&budgets);
                g
            })
            .collect();
        let obs_len = rafle_env::observation_len(variant);
        Ok(SelfPlay {
            games,
            budgets,
            obs_len,
            actions: rafle_env::num_actions(variant),
            obs_buf: vec![0.0; n * obs_len],
        })
    }

    /// Plays until at least `positions` new training positions are finished;
    /// `on_round` is told the positions collected so far after each round.
    pub fn run(
        &mut self,
        net: &Net,
        positions: usize,
        mut on_round: impl FnMut(usize),
    ) -> (Vec<Sample>, SelfPlayStats) {
        let mut stats = SelfPlayStats::default();
        let mut samples = Vec::with_capacity(positions + 1024);
        let start = Instant::now();
        let (obs_len, actions) = (self.obs_len, self.actions);
        while samples.len() < positions {
            let t0 = Instant::now();
            let budgets = &self.budgets;
            let want: Vec<bool> = self
                .games
                .par_iter_mut()
                .zip(self.obs_buf.par_chunks_mut(obs_len))
                .map(|(g, buf)| g.advance(buf, budgets))
                .collect();
            // Leaves are packed to the front of the batch.
            let rows: Vec<usize> = (0..want.len()).filter(|&i| want[i]).collect();
            for (k, &i) in rows.iter().enumerate() {
                if k != i {
                    self.obs_buf
                        .copy_within(i * obs_len..(i + 1) * obs_len, k * obs_len);
                }
            }
            let t1 = Instant::now();
            let (logits, values) = net.evaluate(&self.obs_buf, rows.len());
            let t2 = Instant::now();
            let mut slot = vec![usize::MAX; self.games.len()];
            for (k, &i) in rows.iter().enumerate() {
                slot[i] = k;
            }
            self.games.par_iter_mut().enumerate().for_each(|(i, g)| {
                let k = slot[i];
                if k != usize::MAX {
                    g.search
                        .receive(&logits[k * actions..(k + 1) * actions], values[k]);
                }
            });
            for g in &mut self.games {
                samples.append(&mut g.out);
                for (winner, plies) in g.finished.drain(..) {
                    stats.games += 1;
                    stats.plies += plies as u64;
                    match winner {
                        Some(Color::White) => stats.white_wins += 1,
                        Some(Color::Black) => stats.black_wins += 1,
                        None => stats.draws += 1,
                    }
                }
            }
            let t3 = Instant::now();
            stats.nn_evals += rows.len() as u64;
            stats.batches += 1;
            stats.nn_seconds += (t2 - t1).as_secs_f64();
            stats.tree_seconds += (t1 - t0).as_secs_f64() + (t3 - t2).as_secs_f64();
            on_round(samples.len());
        }
        stats.positions = samples.len() as u64;
        stats.seconds = start.elapsed().as_secs_f64();
        (samples, stats)
    }
}
