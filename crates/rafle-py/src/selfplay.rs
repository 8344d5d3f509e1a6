//! `rafle.SelfPlay`: rafle-search's batched self-play driven by a Python
//! network; `play` returns numpy arrays ready for training.

use crate::errors::{count, count_opt, parse_variant, value_error};
use crate::evaluator::{check_callable, raise, Kind, PyEvaluator};
use crate::interrupt::interruptible;
use crate::settings::{from_object, object, search_params, to_py};
use crate::tablebase::Tablebase;
use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rafle_core::Variant;
use rafle_search::network::SearchParams;
use rafle_train::config::{Config, CutTarget, SelfPlayConfig};
use rafle_train::sample::{Dense, Sample};
use rafle_train::selfplay::{SelfPlay as Games, SelfPlayStats};
use std::sync::Arc;

/// Games of self-play in lockstep, searching with a Python network.
/// `search` is a `[search]` table (a dict; its fields are documented in
/// `crates/rafle-search/src/network/params.rs`) and search keywords override
/// single fields of it; `num_games`, `max_plies` are the `[selfplay]` fields;
/// `opening_plies = k` opens each game with exactly k random plies, none
/// ending the game (`rafle_core::opening`, as the arena opens its games).
#[pyclass(module = "rafle", name = "SelfPlay")]
#[derive(Debug)]
pub struct SelfPlay {
    games: Games,
    evaluator: PyEvaluator,
    variant: Variant,
    search: SearchParams,
    selfplay: SelfPlayConfig,
    value_target_search: f32,
    version: u64,
    totals: SelfPlayStats,
}

impl SelfPlay {
    fn build(
        variant: Variant,
        evaluator: Bound<'_, PyAny>,
        search: SearchParams,
        selfplay: SelfPlayConfig,
        value_target_search: f64,
        seed: u64,
        tables: (Option<Arc<rafle_egtb::Tablebase>>, bool),
    ) -> PyResult<SelfPlay> {
        check_callable(&evaluator)?;
        search.validate("").map_err(value_error)?;
        selfplay.validate().map_err(value_error)?;
        if !(0.0..=1.0).contains(&value_target_search) {
            return Err(value_error("value_target_search must be in [0, 1]"));
        }
        let games = Games::new(&search, &selfplay, variant, seed)
            .map_err(value_error)?
            .with_tables(tables.0, tables.1);
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
        let env = rafle_env::Env::of(self.variant);
        dense_dict(
            py,
            env.observation_shape(),
            env.num_actions(),
            &Dense::new(samples.iter(), env.num_actions(), self.value_target_search),
        )
    }
}

/// Dense arrays as the dict of numpy arrays `SelfPlay.play` returns.
pub fn dense_dict<'py>(
    py: Python<'py>,
    [c, h, w]: [usize; 3],
    na: usize,
    d: &Dense,
) -> PyResult<Bound<'py, PyDict>> {
    let p = d.result.len();
    let out = PyDict::new(py);
    out.set_item("obs", d.obs.clone().into_pyarray(py).reshape([p, c, h, w])?)?;
    out.set_item("mask", d.mask.clone().into_pyarray(py).reshape([p, na])?)?;
    out.set_item(
        "policy",
        d.policy.clone().into_pyarray(py).reshape([p, na])?,
    )?;
    out.set_item("value", d.value.clone().into_pyarray(py).reshape([p, 3])?)?;
    out.set_item("search_value", d.search_value.clone().into_pyarray(py))?;
    out.set_item("result", d.result.clone().into_pyarray(py))?;
    out.set_item("version", d.version.clone().into_pyarray(py))?;
    Ok(out)
}

#[pymethods]
impl SelfPlay {
    #[new]
    #[pyo3(signature = (variant, evaluator, num_games = 256, simulations = None, *,
        search = None, max_plies = None, opening_plies = 0, value_target_search = 0.0,
        seed = 0, egtb = None, egtb_play_on = false, cut_target = "draw", **knobs))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        variant: &str,
        evaluator: Bound<'_, PyAny>,
        num_games: i64,
        simulations: Option<i64>,
        search: Option<&Bound<'_, PyDict>>,
        max_plies: Option<i64>,
        opening_plies: i64,
        value_target_search: f64,
        seed: u64,
        egtb: Option<&Bound<'_, PyAny>>,
        egtb_play_on: bool,
        cut_target: &str,
        knobs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let cut_target = match cut_target {
            "draw" => CutTarget::Draw,
            "search" => CutTarget::Search,
            "none" => CutTarget::None,
            t => {
                return Err(value_error(format!(
                    "cut_target must be 'draw', 'search' or 'none', not {t:?}"
                )))
            }
        };
        let v = parse_variant(variant)?;
        let tables = Tablebase::from_arg(v, egtb)?;
        let num_games: usize = count("num_games", num_games)?;
        let simulations: Option<usize> = count_opt("simulations", simulations)?;
        let max_plies: Option<u32> = count_opt("max_plies", max_plies)?;
        let opening_plies: u32 = count("opening_plies", opening_plies)?;
        let search = search_params(search, &[("simulations", simulations.into())], knobs)?;
        let selfplay = SelfPlayConfig {
            parallel_games: num_games,
            max_plies: max_plies.unwrap_or(SelfPlayConfig::default().max_plies),
            opening_plies,
            cut_target,
            ..SelfPlayConfig::default()
        };
        SelfPlay::build(
            v,
            evaluator,
            search,
            selfplay,
            value_target_search,
            seed,
            (tables, egtb_play_on),
        )
    }

    /// Self-play as a `rafle train` config says (a TOML file, or the dict
    /// `load_config` gives): its `[search]` and `[selfplay]` tables,
    /// `train.value_target_search` and (unless `seed` is given) `run.seed`.
    #[staticmethod]
    #[pyo3(signature = (config, evaluator, seed = None))]
    fn from_config(
        config: &Bound<'_, PyAny>,
        evaluator: Bound<'_, PyAny>,
        seed: Option<u64>,
    ) -> PyResult<Self> {
        let cfg = config_of(config)?;
        let tables = match cfg.egtb.dir() {
            Some(d) => Some(Arc::new(
                rafle_egtb::Tablebase::open(cfg.variant(), d)
                    .map_err(|e| value_error(format!("egtb.dir: {e}")))?,
            )),
            None => None,
        };
        SelfPlay::build(
            cfg.variant(),
            evaluator,
            cfg.search.clone(),
            cfg.selfplay.clone(),
            cfg.train.value_target_search,
            seed.unwrap_or(cfg.run.seed),
            (tables, cfg.egtb.play_on),
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
        positions: i64,
        progress: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let positions: usize = count("positions", positions)?;
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
        self.totals.add(&stats);
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

    /// The settings as one dict: the `[search]` and `[selfplay]` tables
    /// and `value_target_search`.
    #[getter]
    fn settings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = to_py(py, &self.search)?.cast_into::<PyDict>()?;
        d.update(to_py(py, &self.selfplay)?.cast::<pyo3::types::PyMapping>()?)?;
        d.set_item("value_target_search", self.value_target_search)?;
        Ok(d)
    }

    /// Totals since this SelfPlay was made: the counters (games,
    /// white_wins, black_wins, draws, plies, positions, nn_evals, cache_hits,
    /// batches, nn_seconds, tree_seconds, seconds) and the figures derived
    /// from them (avg_batch, nn_share, cache_share, evals_per_s, games_per_s).
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let t = &self.totals;
        let d = to_py(py, t)?.cast_into::<PyDict>()?;
        d.set_item("cache_share", t.cache_share())?;
        d.set_item("avg_batch", t.avg_batch())?;
        d.set_item("nn_share", t.nn_share())?;
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

/// A run config from a path (TOML) or from a dict of its tables, checked
/// as `rafle train` checks it.
pub fn config_of(config: &Bound<'_, PyAny>) -> PyResult<Config> {
    config_with(config, &[])
}

/// [`config_of`] with `sets` (`table.field=value`, as `rafle train --set`
/// takes them) applied.
fn config_with(config: &Bound<'_, PyAny>, sets: &[String]) -> PyResult<Config> {
    let cfg = if let Ok(d) = config.cast::<PyDict>() {
        let cfg: Config = from_object(object(d)?)?;
        cfg.validate().and_then(|()| cfg.with_sets(sets))
    } else {
        let path: std::path::PathBuf = config
            .extract()
            .map_err(|_| value_error("config is a path or a dict of the config's tables"))?;
        Config::load_with(&path, sets)
    };
    cfg.map_err(|e| value_error(format!("{e:#}")))
}

/// The `[bootstrap]` teacher of a config: its games (rafle-train's
/// `bootstrap::teach`, seeded as `rafle train` seeds them) as the arrays of
/// `SelfPlay.play`, and what they were: games, positions, plies, seconds,
/// the first mover's wins/draws/losses, and the training steps the config
/// asks on them (`epochs` passes).
#[pyfunction]
pub fn teach<'py>(
    py: Python<'py>,
    config: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyDict>)> {
    let cfg = config_of(config)?;
    if cfg.bootstrap.games == 0 {
        return Err(value_error(
            "the config's [bootstrap] plays no games (games = 0)",
        ));
    }
    let variant = cfg.variant();
    let b = &cfg.bootstrap;
    let t = py
        .detach(|| {
            rafle_train::bootstrap::teach(
                b,
                variant,
                cfg.selfplay.max_plies,
                rafle_train::bootstrap::seed(cfg.run.seed),
                |_| {},
            )
        })
        .map_err(|e| value_error(format!("{e:#}")))?;
    let env = rafle_env::Env::of(variant);
    let dense = Dense::new(
        t.samples.iter(),
        env.num_actions(),
        cfg.train.value_target_search as f32,
    );
    let arrays = dense_dict(py, env.observation_shape(), env.num_actions(), &dense)?;
    let stats = PyDict::new(py);
    stats.set_item("games", t.games)?;
    stats.set_item("positions", t.samples.len())?;
    stats.set_item("plies", t.plies)?;
    stats.set_item("seconds", t.seconds)?;
    stats.set_item("results", t.results)?;
    stats.set_item(
        "steps",
        rafle_train::bootstrap::steps(t.samples.len(), b.epochs, cfg.train.batch_size),
    )?;
    Ok((arrays, stats))
}

/// A `rafle train` config file (its bases merged) or dict, with `set`
/// (`["table.field=value", ...]`, as `rafle train --set` takes them)
/// applied, checked as `rafle train` checks it, as a dict of its tables
/// (what `python -m rafle.distributed` reads).
#[pyfunction]
#[pyo3(signature = (config, set = None))]
pub fn load_config<'py>(
    py: Python<'py>,
    config: &Bound<'py, PyAny>,
    set: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyAny>> {
    to_py(py, &config_with(config, &set.unwrap_or_default())?)
}
