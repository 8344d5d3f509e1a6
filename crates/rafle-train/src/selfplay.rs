//! Batched self-play: `parallel_games` games advance in lockstep
//! ([`Lockstep`]): each round every game runs its search until it needs
//! leaves (rayon over games), all those leaves go to the evaluator in ONE
//! call, and the answers are handed back. A game whose search completes
//! plays its move and starts the next search within the same round, so
//! every round's batch holds `leaves_per_round` leaves per game at most.
//!
//! A game may open with random moves (`selfplay.opening_plies`), which are
//! not training positions.
//!
//! Playout cap randomisation (KataGo): each move gets the full search with
//! probability `full_search_prob`, else the fast one; only full searches
//! become training positions ([`Sample`]; the fast ones just move the game on).
//! A game's positions get their result when it ends; games in flight carry
//! over from one [`SelfPlay::run`] to the next.
//!
//! Each game hands an [`EvalCache`](rafle_search::network::EvalCache) from one
//! search to the next: the next root lies in the subtree this search
//! expanded, so part of its leaves are answered without the evaluator. The
//! cache is emptied at the start of every run, since the evaluator's weights
//! may have changed in between.
//!
//! With endgame tables ([`SelfPlay::with_tables`]) the searches take their
//! exact values, and a game that reaches them ends with their result: every
//! position of it gets the exact result as its target, and no network call
//! is spent on an ending the tables know.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rafle_core::rng::Rng;
use rafle_core::{random_opening, Color, Variant};
use rafle_env::{Env, EnvConfig, EnvError};

use crate::config::{CutTarget, SelfPlayConfig};
use crate::sample::{Sample, CUT_SEARCH, NO_VALUE};
use rafle_egtb::Value;
use rafle_search::network::{
    Client, EvalError, Evaluator, LeafSlots, Lockstep, Pick, Request, Search, SearchParams,
};
use rafle_search::tables::{self, Tables};
use std::sync::Arc;

/// Counters of one [`SelfPlay::run`] call (serde: the dict Python's
/// `SelfPlay.stats` gives, and reads back for [`crate::metrics`]).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct SelfPlayStats {
    pub games: u64,
    pub white_wins: u64,
    pub black_wins: u64,
    pub draws: u64,
    /// Plies (full moves) of the finished games.
    pub plies: u64,
    pub positions: u64,
    pub nn_evals: u64,
    /// Leaves answered from the games' caches instead of the evaluator.
    pub cache_hits: u64,
    pub batches: u64,
    pub nn_seconds: f64,
    pub tree_seconds: f64,
    pub seconds: f64,
    /// Games that ended where the endgame tables begin, with their result.
    pub table_ends: u64,
    /// Training positions inside the tables (their value target exact).
    pub table_positions: u64,
    /// Games cut at `selfplay.max_plies` (counted among the draws).
    pub truncated: u64,
}

impl SelfPlayStats {
    /// Adds another call's counters.
    pub fn add(&mut self, s: &SelfPlayStats) {
        self.games += s.games;
        self.white_wins += s.white_wins;
        self.black_wins += s.black_wins;
        self.draws += s.draws;
        self.plies += s.plies;
        self.positions += s.positions;
        self.nn_evals += s.nn_evals;
        self.cache_hits += s.cache_hits;
        self.batches += s.batches;
        self.nn_seconds += s.nn_seconds;
        self.tree_seconds += s.tree_seconds;
        self.seconds += s.seconds;
        self.table_ends += s.table_ends;
        self.table_positions += s.table_positions;
        self.truncated += s.truncated;
    }

    pub fn avg_batch(&self) -> f64 {
        self.nn_evals as f64 / self.batches.max(1) as f64
    }

    /// Share of the searches' leaves answered from the cache.
    pub fn cache_share(&self) -> f64 {
        self.cache_hits as f64 / (self.cache_hits + self.nn_evals).max(1) as f64
    }

    /// Share of self-play time spent in the evaluator.
    pub fn nn_share(&self) -> f64 {
        self.nn_seconds / (self.nn_seconds + self.tree_seconds).max(1e-9)
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug)]
struct Finished {
    winner: Option<Color>,
    plies: u32,
    /// Ended where the endgame tables begin, with their result.
    by_tables: bool,
    /// Cut at the ply cap (no winner by the rules).
    cut: bool,
}

/// A position waiting for its game's result.
#[derive(Debug)]
struct Pending {
    obs: Vec<u8>,
    policy: Vec<(u16, f32)>,
    player: Color,
    q: f32,
    version: u64,
    /// The tables' target (0 win, 1 draw, 2 loss) of a position inside them.
    exact: Option<u8>,
}

/// Search budgets and settings used by self-play.
#[derive(Clone, Debug)]
struct Budgets {
    full: usize,
    fast: usize,
    full_prob: f64,
    temperature_plies: u32,
    opening_plies: u32,
    params: SearchParams,
    /// Endgame tables, and whether games play on inside them.
    tables: Option<Arc<Tables>>,
    play_on: bool,
    /// What a cut game's positions learn (`selfplay.cut_target`).
    cut_target: CutTarget,
}

/// One game of self-play (a lockstep client).
#[derive(Debug)]
struct SelfPlayGame {
    env: Env,
    search: Search,
    full: bool,
    rng: Rng,
    budgets: Budgets,
    /// The evaluator version the current search runs with, and the one the
    /// next search will.
    version: u64,
    next_version: u64,
    pending: Vec<Pending>,
    /// Finished positions not yet collected.
    out: Vec<Sample>,
    /// Games finished since the last collection.
    finished: Vec<Finished>,
    /// Training positions inside the tables since the last collection.
    table_positions: u64,
}

impl SelfPlayGame {
    fn new(env: Env, budgets: Budgets, rng: Rng) -> SelfPlayGame {
        let search = Search::new(
            env.clone(),
            0,
            budgets.params.clone(),
            Pick::Best,
            Rng::new(0),
        );
        let mut g = SelfPlayGame {
            env,
            search,
            full: false,
            rng,
            budgets,
            version: 0,
            next_version: 0,
            pending: Vec::new(),
            out: Vec::new(),
            finished: Vec::new(),
            table_positions: 0,
        };
        g.start_game();
        g.new_search();
        g
    }

    /// Back to the start position, then the random opening
    /// ([`rafle_core::opening`]: exactly `opening_plies` random plies, none
    /// ending the game).
    fn start_game(&mut self) {
        self.env.reset();
        let plies = self.budgets.opening_plies as usize;
        if plies == 0 {
            return;
        }
        for m in random_opening(self.env.variant(), &[], plies, &mut self.rng) {
            self.env.play_move(&m).expect("an opening's move plays");
        }
    }

    fn new_search(&mut self) {
        self.version = self.next_version;
        let b = &self.budgets;
        self.full = b.full == b.fast || self.rng.unit_f64() < b.full_prob;
        let budget = if self.full { b.full } else { b.fast };
        let pick = if self.env.ply() >= b.temperature_plies {
            Pick::SelfPlayBest
        } else {
            Pick::Sample
        };
        let rng = Rng::new(self.rng.next_u64());
        let cache = self.search.take_cache().unwrap_or_default();
        let mut root = self.env.clone();
        if b.cut_target != CutTarget::Draw {
            // The search looks past the cap: a cut is no draw for it.
            root.set_max_plies(None);
        }
        self.search = Search::new(root, budget, b.params.clone(), pick, rng)
            .with_cache(cache)
            .with_tables(b.tables.clone());
    }

    /// The tables' value of the env's position for the player to act, at
    /// the start of a turn they cover.
    fn exact(&self) -> Option<Value> {
        let tb = self.budgets.tables.as_deref()?;
        if self.env.chain_pending() || self.env.is_done() {
            return None;
        }
        tables::probe(tb, self.env.position())
    }

    /// Plays the finished search's move; records the position of a full
    /// search; closes the game when it ends.
    fn play_result(&mut self, obs: &mut [f32]) {
        let r = self.search.result();
        if self.full && !r.forced {
            self.env.write_obs(obs);
            let exact = self.exact().map(|v| match v {
                Value::Win(_) => 0,
                Value::Draw => 1,
                Value::Loss(_) => 2,
            });
            self.table_positions += exact.is_some() as u64;
            self.pending.push(Pending {
                obs: Sample::quantise(obs),
                policy: r.policy,
                player: self.env.to_play(),
                q: r.value,
                version: self.version,
                exact,
            });
        }
        let info = self
            .env
            .step(r.action as usize)
            .expect("search plays legal actions");
        // Where the tables begin, the game ends with their result (unless
        // it plays on by them).
        let by_tables = if info.terminated || info.truncated || self.budgets.play_on {
            None
        } else {
            self.exact().map(|v| match v {
                Value::Win(_) => Some(self.env.to_play()),
                Value::Draw => None,
                Value::Loss(_) => Some(self.env.to_play().opponent()),
            })
        };
        if info.terminated || info.truncated || by_tables.is_some() {
            let winner = match by_tables {
                Some(w) => w,
                None => self.env.outcome().and_then(|o| o.winner),
            };
            let cut = match self.budgets.cut_target {
                CutTarget::Draw => 1,
                CutTarget::Search => CUT_SEARCH,
                CutTarget::None => NO_VALUE,
            };
            for p in self.pending.drain(..) {
                let wdl = p.exact.unwrap_or(match winner {
                    None if info.truncated => cut,
                    None => 1,
                    Some(w) if w == p.player => 0,
                    Some(_) => 2,
                });
                self.out.push(Sample {
                    obs: p.obs,
                    policy: p.policy,
                    wdl,
                    q: p.q,
                    version: p.version,
                });
            }
            self.finished.push(Finished {
                winner,
                plies: self.env.ply(),
                by_tables: by_tables.is_some(),
                cut: info.truncated,
            });
            self.start_game();
        }
        self.new_search();
    }
}

impl Client for SelfPlayGame {
    /// Runs until the search wants the evaluator, playing moves and
    /// starting new games as searches complete.
    fn advance(&mut self, out: &mut LeafSlots) -> Request {
        loop {
            match self.search.advance(out) {
                0 => {
                    let len = self.env.observation_len();
                    self.play_result(&mut out.obs[..len]);
                }
                n => {
                    return Request {
                        evaluator: 0,
                        leaves: n,
                    }
                }
            }
        }
    }

    fn receive(&mut self, logits: &[f32], values: &[f32]) {
        self.search.receive(logits, values);
    }

    fn abandon(&mut self) {
        self.search.abandon();
    }
}

/// The games in flight (kept across runs).
#[derive(Debug)]
pub struct SelfPlay {
    games: Vec<SelfPlayGame>,
    driver: Lockstep,
}

impl SelfPlay {
    /// `selfplay.parallel_games` games of `variant` searching as `search` says.
    pub fn new(
        search: &SearchParams,
        selfplay: &SelfPlayConfig,
        variant: Variant,
        seed: u64,
    ) -> Result<SelfPlay, EnvError> {
        let budgets = Budgets {
            full: search.simulations,
            fast: search.fast(),
            full_prob: search.full_search_prob,
            temperature_plies: search.temperature_plies,
            opening_plies: selfplay.opening_plies,
            params: search.clone(),
            tables: None,
            play_on: false,
            cut_target: selfplay.cut_target,
        };
        let env_cfg = EnvConfig {
            max_plies: Some(selfplay.max_plies),
            ..Default::default()
        };
        let env = Env::new(variant, env_cfg)?;
        let games = (0..selfplay.parallel_games)
            .map(|i| SelfPlayGame::new(env.clone(), budgets.clone(), Rng::stream(seed, i as u64)))
            .collect();
        Ok(SelfPlay {
            games,
            driver: Lockstep::new(variant, budgets.params.leaves_per_round),
        })
    }

    /// Plays with endgame tables (when given): searches take their exact
    /// values, and a game ends where they begin with their result, or
    /// (`play_on`) plays on by them, its positions inside them getting
    /// their exact value as the target.
    pub fn with_tables(mut self, tables: Option<Arc<Tables>>, play_on: bool) -> SelfPlay {
        for g in &mut self.games {
            g.budgets.tables = tables.clone();
            g.budgets.play_on = play_on;
            g.new_search();
        }
        self
    }

    /// Plays until at least `positions` new training positions are finished;
    /// `on_round` is told the positions collected so far after each round.
    /// Stops with [`EvalError::Interrupted`] when `stop` is raised (checked
    /// every round); after an error the games can go on in the next run.
    pub fn run(
        &mut self,
        evaluator: &mut dyn Evaluator,
        positions: usize,
        stop: Option<&AtomicBool>,
        mut on_round: impl FnMut(usize),
    ) -> Result<(Vec<Sample>, SelfPlayStats), EvalError> {
        let mut stats = SelfPlayStats::default();
        let mut samples = Vec::with_capacity(positions + 1024);
        let start = Instant::now();
        let before = self.driver.stats.first().copied().unwrap_or_default();
        let client_before = self.driver.client_seconds;
        let hits_before = self.cache_hits();
        for g in &mut self.games {
            if let Some(c) = g.search.cache_mut() {
                c.clear();
            }
        }
        while samples.len() < positions {
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return Err(EvalError::Interrupted);
            }
            self.driver.round(&mut self.games, &mut [&mut *evaluator])?;
            for g in &mut self.games {
                samples.append(&mut g.out);
                stats.table_positions += std::mem::take(&mut g.table_positions);
                for f in g.finished.drain(..) {
                    stats.games += 1;
                    stats.plies += f.plies as u64;
                    stats.table_ends += f.by_tables as u64;
                    stats.truncated += f.cut as u64;
                    match f.winner {
                        Some(Color::White) => stats.white_wins += 1,
                        Some(Color::Black) => stats.black_wins += 1,
                        None => stats.draws += 1,
                    }
                }
            }
            on_round(samples.len());
        }
        let after = self.driver.stats.first().copied().unwrap_or_default();
        stats.nn_evals = after.evals - before.evals;
        stats.cache_hits = self.cache_hits() - hits_before;
        stats.batches = after.calls - before.calls;
        stats.nn_seconds = after.seconds - before.seconds;
        stats.tree_seconds = self.driver.client_seconds - client_before;
        stats.positions = samples.len() as u64;
        stats.seconds = start.elapsed().as_secs_f64();
        Ok((samples, stats))
    }

    /// Numbers the evaluator's weights: positions searched from now on
    /// carry `version` (a search in progress keeps the version it began with).
    pub fn set_version(&mut self, version: u64) {
        for g in &mut self.games {
            g.next_version = version;
        }
    }

    /// Leaves answered from the games' caches so far.
    fn cache_hits(&self) -> u64 {
        self.games.iter().map(|g| g.search.cache_hits()).sum()
    }

    /// Number of games in flight.
    pub fn num_games(&self) -> usize {
        self.games.len()
    }
}
