//! `rafle.SelfPlay`: rafle-search's batched self-play driven by a Python
//! network; `play` returns numpy arrays ready for training.

use crate::agents::search_params;
use crate::errors::{parse_variant, value_error};
use crate::evaluator::{check_callable, raise, Kind, PyEvaluator};
use crate::interrupt::interruptible;
use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rafle_core::Variant;
use rafle_search::config::{Config, SearchConfig, SelfPlayConfig};
use rafle_search::sample::Sample;
use rafle_search::selfplay::{SelfPlay as Games, SelfPlayStats};

/// Games of self-play in lockstep, searching with a Python network.
/// The keyword arguments are the `[search]` and `[selfplay]` fields of a
/// config file (documented in `crates/rafle-search/src/config.rs`);
/// `opening_plies = k` opens each game with up to k random moves.
#[pyclass(module = "rafle", name = "SelfPlay")]
#[derive(Debug)]
pub struct SelfPlay {
    games: Games,
    evaluator: PyEvaluator,
    variant: Variant,
    search: SearchConfig,
    selfplay: SelfPlayConfig,
    value_target_search: f32,
    version: u64,
    totals: SelfPlayStats,
}

impl SelfPlay {
    fn build(
        variant: Variant,
        evaluator: Bound<'_, PyAny>,
        search: SearchConfig,
        selfplay: SelfPlayConfig,
        value_target_search: f64,
        seed: u64,
    ) -> PyResult<SelfPlay> {
        check_callable(&evaluator)?;
        search.validate().map_err(value_error)?;
        selfplay.validate().map_err(value_error)?;
        if !(0.0..=1.0).contains(&value_target_search) {
            return Err(value_error("value_target_search must be in [0, 1]"));
        }
        let games = Games::new(&search, &selfplay, variant, seed).map_err(value_error)?;
        Ok(SelfPlay {
            games,
            evaluator: PyEvaluator::new(evaluator.unbind(), Kind::Network, variant),
            variant,
            search,
            selfplay,
            value_target_search: value_target_search as f32,
            version: 0,
            totals: SelfPlayStats::default(),
        })
    }

    /// The samples as numpy arrays (see `play`).
    fn arrays<'py>(&self, py: Python<'py>, samples: &[Sample]) -> PyResult<Bound<'py, PyDict>> {
        let [c, h, w] = rafle_env::observation_shape(self.variant);
        let (p, na) = (samples.len(), rafle_env::num_actions(self.variant));
        let mut obs = Vec::with_capacity(p * c * h * w);
        let mut mask = vec![false; p * na];
        let mut policy = vec![0f32; p * na];
        let mut value = Vec::with_capacity(p * 3);
        let mut search_value = Vec::with_capacity(p);
        let mut result = Vec::with_capacity(p);
        let mut version = Vec::with_capacity(p);
        for (i, s) in samples.iter().enumerate() {
            obs.extend(s.obs_f32());
            for &(a, pr) in &s.policy {
                mask[i * na + a as usize] = true;
                policy[i * na + a as usize] = pr;
            }
            value.extend(s.value_target(self.value_target_search));
            search_value.push(s.q);
            result.push(s.wdl as i8);
            version.push(s.version as i64);
        }
        let d = PyDict::new(py);
        d.set_item("obs", obs.into_pyarray(py).reshape([p, c, h, w])?)?;
        d.set_item("mask", mask.into_pyarray(py).reshape([p, na])?)?;
        d.set_item("policy", policy.into_pyarray(py).reshape([p, na])?)?;
        d.set_item("value", value.into_pyarray(py).reshape([p, 3])?)?;
        d.set_item("search_value", search_value.into_pyarray(py))?;
        d.set_item("result", result.into_pyarray(py))?;
        d.set_item("version", version.into_pyarray(py))?;
        Ok(d)
    }
}

fn add(t: &mut SelfPlayStats, s: &SelfPlayStats) {
    t.games += s.games;
    t.white_wins += s.white_wins;
    t.black_wins += s.black_wins;
    t.draws += s.draws;
    t.plies += s.plies;
    t.positions += s.positions;
    t.nn_evals += s.nn_evals;
    t.cache_hits += s.cache_hits;
    t.batches += s.batches;
    t.nn_seconds += s.nn_seconds;
    t.tree_seconds += s.tree_seconds;
    t.seconds += s.seconds;
}

#[pymethods]
impl SelfPlay {
    #[new]
    #[pyo3(signature = (variant, evaluator, num_games = 256, simulations = 32, *,
        fast_simulations = None, full_search_prob = None, algorithm = "gumbel", gumbel_m = None,
        c_visit = None, c_scale = None, c_puct = None, dirichlet_alpha = None,
        dirichlet_frac = None, temperature_plies = None, leaves_per_round = None,
        max_plies = None, opening_plies = 0, value_target_search = 0.0, seed = 0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        variant: &str,
        evaluator: Bound<'_, PyAny>,
        num_games: usize,
        simulations: usize,
        fast_simulations: Option<usize>,
        full_search_prob: Option<f64>,
        algorithm: &str,
        gumbel_m: Option<usize>,
        c_visit: Option<f64>,
        c_scale: Option<f64>,
        c_puct: Option<f64>,
        dirichlet_alpha: Option<f64>,
        dirichlet_frac: Option<f64>,
        temperature_plies: Option<u32>,
        leaves_per_round: Option<usize>,
        max_plies: Option<u32>,
        opening_plies: u32,
        value_target_search: f64,
        seed: u64,
    ) -> PyResult<Self> {
        let v = parse_variant(variant)?;
        let p = search_params(
            algorithm,
            gumbel_m,
            c_visit,
            c_scale,
            c_puct,
            dirichlet_alpha,
            dirichlet_frac,
            leaves_per_round,
        )?;
        let d = SearchConfig::default();
        let search = p.to_config(SearchConfig {
            simulations,
            fast_simulations: fast_simulations.unwrap_or(simulations),
            full_search_prob: full_search_prob.unwrap_or(d.full_search_prob),
            temperature_plies: temperature_plies.unwrap_or(d.temperature_plies),
            ..d
        });
        let selfplay = SelfPlayConfig {
            parallel_games: num_games,
            max_plies: max_plies.unwrap_or(SelfPlayConfig::default().max_plies),
            opening_plies,
            ..SelfPlayConfig::default()
        };
        SelfPlay::build(v, evaluator, search, selfplay, value_target_search, seed)
    }

    /// Self-play as a `rafle train` config file says: its `[search]` and
    /// `[selfplay]` tables, `train.value_target_search` and (unless `seed`
    /// is given) `run.seed`.
    #[staticmethod]
    #[pyo3(signature = (path, evaluator, seed = None))]
    fn from_config(
        path: std::path::PathBuf,
        evaluator: Bound<'_, PyAny>,
        seed: Option<u64>,
    ) -> PyResult<Self> {
        let cfg = Config::load(&path).map_err(|e| value_error(format!("{e:#}")))?;
        SelfPlay::build(
            cfg.variant(),
            evaluator,
            cfg.search.clone(),
            cfg.selfplay.clone(),
            cfg.train.value_target_search,
            seed.unwrap_or(cfg.run.seed),
        )
    }

    /// Plays until at least `positions` new training positions are
    /// finished and returns them as numpy arrays (P positions):
    /// obs (P, C, N, N) float32, mask (P, A) bool (the legal actions),
    /// policy (P, A) float32 (sums to 1 over the legal actions), value
    /// (P, 3) float32 (win/draw/loss target for the player to act, with
    /// `value_target_search` of the search value mixed in), search_value
    /// (P,) float32, result (P,) int8 (0 win, 1 draw, 2 loss for the player
    /// to act) and version (P,) int64 (the `version` the position was
    /// searched under). Games in flight carry over to the next call.
    #[pyo3(signature = (positions, progress = false))]
    fn play<'py>(
        &mut self,
        py: Python<'py>,
        positions: usize,
        progress: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        if positions == 0 {
            return Err(value_error("positions must be at least 1"));
        }
        let bar = if progress {
            let b = indicatif::ProgressBar::new(positions as u64);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "self-play [{bar:30}] {pos}/{len} positions {elapsed_precise} eta {eta}",
            ) {
                b.set_style(style.progress_chars("=> "));
            }
            b
        } else {
            indicatif::ProgressBar::hidden()
        };
        let (games, evaluator) = (&mut self.games, &mut self.evaluator);
        let out = interruptible(py, |stop| {
            games.run(evaluator, positions, Some(stop), |n| {
                bar.set_position(n as u64)
            })
        })?;
        bar.finish_and_clear();
        let (samples, stats) = out.map_err(|e| raise(&[&self.evaluator.error], e))?;
        add(&mut self.totals, &stats);
        self.arrays(py, &samples)
    }

    /// Numbers the network's weights: positions searched from now on carry
    /// this version in `play`'s `version` array (Ray's policy lag uses it).
    #[getter]
    fn version(&self) -> u64 {
        self.version
    }

    #[setter]
    fn set_version(&mut self, version: u64) {
        self.version = version;
        self.games.set_version(version);
    }

    #[getter]
    fn variant(&self) -> &'static str {
        self.variant.name()
    }

    #[getter]
    fn num_games(&self) -> usize {
        self.selfplay.parallel_games
    }

    /// The search and self-play settings as dicts (the config's tables).
    #[getter]
    fn settings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let s = &self.search;
        d.set_item("algorithm", s.algorithm.name())?;
        d.set_item("simulations", s.simulations)?;
        d.set_item("fast_simulations", s.fast_simulations)?;
        d.set_item("full_search_prob", s.full_search_prob)?;
        d.set_item("gumbel_m", s.gumbel_m)?;
        d.set_item("c_visit", s.c_visit)?;
        d.set_item("c_scale", s.c_scale)?;
        d.set_item("c_puct", s.c_puct)?;
        d.set_item("dirichlet_alpha", s.dirichlet_alpha)?;
        d.set_item("dirichlet_frac", s.dirichlet_frac)?;
        d.set_item("temperature_plies", s.temperature_plies)?;
        d.set_item("leaves_per_round", s.leaves_per_round)?;
        d.set_item("parallel_games", self.selfplay.parallel_games)?;
        d.set_item("max_plies", self.selfplay.max_plies)?;
        d.set_item("opening_plies", self.selfplay.opening_plies)?;
        d.set_item("value_target_search", self.value_target_search)?;
        Ok(d)
    }

    /// Totals since this SelfPlay was made: games (white_wins, black_wins,
    /// draws), plies, positions, nn_evals, cache_hits (leaves answered by a
    /// game's earlier search instead of the evaluator), cache_share, batches,
    /// avg_batch, nn_seconds, tree_seconds, nn_share, seconds, evals_per_s,
    /// games_per_s.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let t = &self.totals;
        let d = PyDict::new(py);
        d.set_item("games", t.games)?;
        d.set_item("white_wins", t.white_wins)?;
        d.set_item("black_wins", t.black_wins)?;
        d.set_item("draws", t.draws)?;
        d.set_item("plies", t.plies)?;
        d.set_item("positions", t.positions)?;
        d.set_item("nn_evals", t.nn_evals)?;
        d.set_item("cache_hits", t.cache_hits)?;
        d.set_item("cache_share", t.cache_share())?;
        d.set_item("batches", t.batches)?;
        d.set_item("avg_batch", t.avg_batch())?;
        d.set_item("nn_seconds", t.nn_seconds)?;
        d.set_item("tree_seconds", t.tree_seconds)?;
        d.set_item("nn_share", t.nn_share())?;
        d.set_item("seconds", t.seconds)?;
        let per_s = |x: u64| x as f64 / t.seconds.max(1e-9);
        d.set_item("evals_per_s", per_s(t.nn_evals))?;
        d.set_item("games_per_s", per_s(t.games))?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "rafle.SelfPlay({:?}, num_games={}, simulations={})",
            self.variant.name(),
            self.selfplay.parallel_games,
            self.search.simulations
        )
    }
}

/// A `rafle train` config file, checked as `rafle train` checks it, as a
/// dict of its tables (what `python -m rafle.distributed` reads).
#[pyfunction]
pub fn load_config(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Bound<'_, PyAny>> {
    let cfg = Config::load(&path).map_err(|e| value_error(format!("{e:#}")))?;
    let json = serde_json::to_string(&cfg).map_err(value_error)?;
    py.import("json")?.call_method1("loads", (json,))
}
