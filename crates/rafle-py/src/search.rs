//! `rafle._rafle.search`: one search per env of a VecEnv from its current
//! state (the env is not changed), all searches in lockstep so that the
//! Python evaluator sees one batch per round.

use crate::agents::simulations_of;
use crate::evaluator::{check_callable, raise, Kind, PyEvaluator};
use crate::interrupt::interruptible;
use crate::settings::search_params;
use crate::vec_env::VecEnv;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rafle_core::rng::Rng;
use rafle_search::network::{run_searches, Pick, Search};
use rafle_train::sample::scatter_policy;

/// What `rafle.search` returns, one row per env.
#[pyclass(module = "rafle", name = "SearchResult", frozen, get_all)]
#[derive(Debug)]
pub struct SearchResult {
    /// (B,) int64: the step action to play.
    pub action: Py<PyArray1<i64>>,
    /// (B, A) float32: the policy target (sums to 1 over the legal actions, 0 elsewhere).
    pub policy: Py<PyArray2<f32>>,
    /// (B,) float32: the root value for the player to act.
    pub value: Py<PyArray1<f32>>,
    /// (B, A) int32: visits of each root action (0 for a forced step).
    pub visits: Py<PyArray2<i32>>,
    /// Evaluator calls and leaves evaluated.
    pub calls: u64,
    pub evals: u64,
}

#[pymethods]
impl SearchResult {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "rafle.SearchResult(envs={}, calls={}, evals={})",
            self.action.bind(py).len().unwrap_or(0),
            self.calls,
            self.evals
        )
    }
}

/// Searches every env of `env` (see the Python docs of rafle.search).
#[pyfunction]
#[pyo3(signature = (env, evaluator, simulations = None, algorithm = None, seed = 0, *,
    explore = false, search = None, **knobs))]
#[allow(clippy::too_many_arguments)]
pub fn search(
    py: Python<'_>,
    env: PyRef<'_, VecEnv>,
    evaluator: Bound<'_, PyAny>,
    simulations: Option<i64>,
    algorithm: Option<&str>,
    seed: u64,
    explore: bool,
    search: Option<&Bound<'_, PyDict>>,
    knobs: Option<&Bound<'_, PyDict>>,
) -> PyResult<SearchResult> {
    check_callable(&evaluator)?;
    let simulations = simulations_of(simulations, search, 64)?;
    let algorithm = algorithm.map(|a| a.into()).unwrap_or_default();
    let params = search_params(search, &[("algorithm", algorithm)], knobs)?;
    let ve = env.batch();
    let v = ve.variant();
    let pick = if explore { Pick::Sample } else { Pick::Best };
    let mut searches: Vec<Search> = (0..ve.num_envs())
        .map(|i| {
            let rng = Rng::stream(seed, i as u64);
            Search::new(ve.env(i).clone(), simulations, params.clone(), pick, rng)
        })
        .collect();
    drop(env);
    let mut eval = PyEvaluator::new(evaluator.unbind(), Kind::Network, v);
    let slot = eval.error.clone();
    let out = interruptible(py, |stop| {
        run_searches(v, &mut searches, &mut eval, Some(stop))
    })?;
    let (outcomes, stats) = out.map_err(|e| raise(&[&slot], e))?;
    let (b, na) = (searches.len(), rafle_env::Env::of(v).num_actions());
    let mut policy = vec![0f32; b * na];
    let mut visits = vec![0i32; b * na];
    for (i, (o, s)) in outcomes.iter().zip(&searches).enumerate() {
        scatter_policy(&o.policy, &mut policy[i * na..(i + 1) * na], None);
        for e in s.root_edges() {
            visits[i * na + e.action as usize] = e.visits as i32;
        }
    }
    let action: Vec<i64> = outcomes.iter().map(|o| o.action as i64).collect();
    let value: Vec<f32> = outcomes.iter().map(|o| o.value).collect();
    Ok(SearchResult {
        action: action.into_pyarray(py).unbind(),
        policy: policy.into_pyarray(py).reshape([b, na])?.unbind(),
        value: value.into_pyarray(py).unbind(),
        visits: visits.into_pyarray(py).reshape([b, na])?.unbind(),
        calls: stats.calls,
        evals: stats.evals,
    })
}
