//! What the Python learner shares with `rafle train` (rafle-train): the
//! replay file, the metrics file and its names, the self-play figures.

use crate::errors::{count, value_error};
use crate::selfplay::dense_dict;
use crate::settings::{from_object, object};
use numpy::{PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rafle_core::Variant;
use rafle_train::config::ScheduleBy;
use rafle_train::heldout::{self, HeldOut};
use rafle_train::metrics::{self, Metrics};
use rafle_train::replay::Replay;
use rafle_train::sample::Dense;
use rafle_train::selfplay::SelfPlayStats;
use std::path::PathBuf;

/// The metrics of one iteration (`time/*` and `selfplay/*` of metrics.csv,
/// as `rafle train` logs them) from summed self-play counters (the keys of
/// `SelfPlay.stats`), self-play and training seconds, rates over `seconds`.
#[pyfunction]
pub fn iteration_metrics<'py>(
    py: Python<'py>,
    counters: &Bound<'py, PyDict>,
    selfplay_s: f64,
    train_s: f64,
    seconds: f64,
) -> PyResult<Bound<'py, PyDict>> {
    let mut map = object(counters)?;
    // The derived figures are recomputed here, not read.
    for k in [
        "cache_share",
        "avg_batch",
        "nn_share",
        "evals_per_s",
        "games_per_s",
    ] {
        map.remove(k);
    }
    // Summed counters may arrive as floats.
    for v in map.values_mut() {
        if let Some(f) = v.as_f64() {
            if f.fract() == 0.0 && f >= 0.0 && !v.is_u64() && f <= u64::MAX as f64 {
                *v = (f as u64).into();
            }
        }
    }
    let st: SelfPlayStats = from_object(map)?;
    let d = PyDict::new(py);
    for (name, value) in metrics::iteration_metrics(&st, selfplay_s, train_s, seconds) {
        d.set_item(name, value)?;
    }
    Ok(d)
}

/// The observations of `variant`'s held-out set (`rafle heldout`),
/// `[N, C, H, W]` float32, or None where none is shipped.
#[pyfunction]
pub fn heldout_observations<'py>(
    py: Python<'py>,
    variant: &str,
) -> PyResult<Option<Bound<'py, numpy::PyArray4<f32>>>> {
    let v: Variant = variant.parse().map_err(value_error)?;
    let Some(held) = HeldOut::shipped(v).map_err(|e| value_error(format!("{e:#}")))? else {
        return Ok(None);
    };
    let [c, h, w] = rafle_env::Env::of(v).observation_shape();
    let obs = numpy::PyArray1::from_vec(py, held.observations(v));
    Ok(Some(obs.reshape([held.len(), c, h, w])?))
}

/// What a value head scores on `variant`'s held-out set: `wdl` is its
/// win/draw/loss probabilities on `heldout_observations(variant)`, `[N,
/// 3]`; returns the `eval/value_*` metrics and the log line of `rafle
/// train`, or None where no set is shipped.
#[pyfunction]
pub fn heldout_metrics<'py>(
    py: Python<'py>,
    variant: &str,
    wdl: PyReadonlyArrayDyn<'py, f32>,
) -> PyResult<Option<(Bound<'py, PyDict>, String)>> {
    let v: Variant = variant.parse().map_err(value_error)?;
    let Some(held) = HeldOut::shipped(v).map_err(|e| value_error(format!("{e:#}")))? else {
        return Ok(None);
    };
    if wdl.shape().len() != 2 || wdl.shape()[1] != 3 {
        return Err(value_error(format!(
            "wdl must be [N, 3] probabilities, not shape {:?}",
            wdl.shape()
        )));
    }
    let flat: Vec<f32> = wdl.as_array().iter().copied().collect();
    let rows: Vec<[f32; 3]> = flat.chunks_exact(3).map(|r| [r[0], r[1], r[2]]).collect();
    let stats = heldout::measure(&held, &rows).map_err(value_error)?;
    let d = PyDict::new(py);
    for (name, value) in stats.metrics() {
        d.set_item(name, value)?;
    }
    Ok(Some((d, stats.line())))
}

/// The learning-rate schedule's progress in [0, 1] as `rafle train`
/// computes it (`train.schedule_by`: "clock" or "steps"): after `step` of
/// `total_steps`, `elapsed` of `limit` seconds (0: no limit).
#[pyfunction]
pub fn schedule_progress(
    schedule_by: &str,
    step: u64,
    total_steps: u64,
    elapsed: f64,
    limit: f64,
) -> PyResult<f64> {
    let by = match schedule_by {
        "clock" => ScheduleBy::Clock,
        "steps" => ScheduleBy::Steps,
        b => {
            return Err(value_error(format!(
                "schedule_by must be 'clock' or 'steps', not {b:?}"
            )))
        }
    };
    Ok(by.progress(step, total_steps, elapsed, limit))
}

/// Positions of a `batch`-position training batch drawn from the
/// teacher's own buffer at `progress` of the schedule (`[bootstrap]`'s
/// `mix`, falling linearly to 0 at `mix_until`, 0: no fall), as `rafle
/// train` draws them.
#[pyfunction]
pub fn teacher_count(batch: usize, mix: f64, mix_until: f64, progress: f64) -> PyResult<usize> {
    let cfg = rafle_train::config::BootstrapConfig {
        mix,
        mix_until,
        ..Default::default()
    };
    cfg.validate().map_err(|e| value_error(format!("{e:#}")))?;
    Ok(rafle_train::bootstrap::teacher_count(&cfg, batch, progress))
}

/// One array of a batch as flat f32, bool or i8 values.
fn array<'py, T: numpy::Element + Copy>(
    batch: &Bound<'py, PyDict>,
    key: &str,
) -> PyResult<(Vec<usize>, Vec<T>)> {
    let item = batch
        .get_item(key)?
        .ok_or_else(|| value_error(format!("the batch has no {key:?} array")))?;
    let a: PyReadonlyArrayDyn<'py, T> = item.extract().map_err(|_| {
        value_error(format!(
            "batch[{key:?}] must be a numpy array of {}",
            std::any::type_name::<T>()
        ))
    })?;
    Ok((a.shape().to_vec(), a.as_array().iter().copied().collect()))
}

/// Writes positions (the arrays of `SelfPlay.play`: obs, mask, policy,
/// search_value, result) as a replay file, the format `rafle train` reads.
#[pyfunction]
pub fn save_replay(path: PathBuf, batch: &Bound<'_, PyDict>, total_added: u64) -> PyResult<()> {
    let (shape, obs) = array::<f32>(batch, "obs")?;
    let (mshape, mask) = array::<bool>(batch, "mask")?;
    let (_, policy) = array::<f32>(batch, "policy")?;
    let (_, search_value) = array::<f32>(batch, "search_value")?;
    let (_, result) = array::<i8>(batch, "result")?;
    let p = shape.first().copied().unwrap_or(0);
    let actions = mshape.get(1).copied().unwrap_or(0);
    if mask.len() != p * actions || policy.len() != mask.len() || result.len() != p {
        return Err(value_error("the batch's arrays disagree in length"));
    }
    let dense = Dense {
        obs,
        mask,
        policy,
        search_value,
        result,
        ..Dense::default()
    };
    let mut replay = Replay::new(p.max(1));
    for s in dense.samples(actions) {
        replay.push(s);
    }
    replay.total_added = total_added;
    replay
        .save(&path)
        .map_err(|e| value_error(format!("{e:#}")))
}

/// Reads a replay file (of `rafle train` or `save_replay`) of `variant`:
/// its newest `window` positions as `SelfPlay.play`'s arrays (value target
/// with `value_target_search` of the search value; version 0), and the
/// positions ever added.
#[pyfunction]
#[pyo3(signature = (path, variant, window, value_target_search = 0.0))]
pub fn load_replay<'py>(
    py: Python<'py>,
    path: PathBuf,
    variant: &str,
    window: i64,
    value_target_search: f32,
) -> PyResult<(Bound<'py, PyDict>, u64)> {
    let v: Variant = variant.parse().map_err(value_error)?;
    let window: usize = count("window", window)?;
    if window == 0 {
        return Err(value_error("window must be at least 1"));
    }
    let replay = Replay::load(&path, window).map_err(|e| value_error(format!("{e:#}")))?;
    let env = rafle_env::Env::of(v);
    if let Some(s) = replay.iter().next() {
        if s.obs.len() != env.observation_len() {
            return Err(value_error(format!(
                "{}: its observations are not {v}'s",
                path.display()
            )));
        }
    }
    let d = Dense::new(replay.iter(), env.num_actions(), value_target_search);
    let arrays = dense_dict(py, env.observation_shape(), env.num_actions(), &d)?;
    Ok((arrays, replay.total_added))
}

/// `RUN_DIR/metrics.csv`, written as `rafle train` writes it.
#[pyclass(module = "rafle", name = "MetricsFile")]
#[derive(Debug)]
pub struct MetricsFile {
    file: Option<Metrics>,
}

#[pymethods]
impl MetricsFile {
    #[new]
    #[pyo3(signature = (run_dir, fresh = false))]
    fn new(run_dir: PathBuf, fresh: bool) -> PyResult<Self> {
        std::fs::create_dir_all(&run_dir).map_err(value_error)?;
        let file = Metrics::open(&run_dir, fresh).map_err(|e| value_error(format!("{e:#}")))?;
        Ok(MetricsFile { file: Some(file) })
    }

    /// Appends one row per value.
    fn log(
        &mut self,
        iteration: u64,
        step: u64,
        elapsed_s: f64,
        values: &Bound<'_, PyDict>,
    ) -> PyResult<()> {
        let file = self
            .file
            .as_mut()
            .ok_or_else(|| value_error("the metrics file is closed"))?;
        let rows = values
            .iter()
            .map(|(k, v)| Ok((k.extract::<String>()?, v.extract::<f64>()?)))
            .collect::<PyResult<Vec<_>>>()?;
        file.log_all(iteration, step, elapsed_s, &rows)
            .map_err(|e| value_error(format!("{e:#}")))
    }

    fn close(&mut self) {
        self.file = None;
    }
}
