//! rafle-py: the pyo3 bindings behind the `rafle` Python package.
//!
//! Conversion code only: the rules live in rafle-core, the batched
//! environment in rafle-env, players, search, self-play and the arena in
//! rafle-search (driven here by Python callables, see `evaluator`). Every bad input becomes a `ValueError` with a
//! one-line reason. The pure-Python package (`python/rafle/`) re-exports these
//! classes and adds the Gymnasium and PettingZoo adapters.

mod agents;
mod arena;
mod errors;
mod evaluator;
mod game;
mod interrupt;
mod ladder;
mod learned;
mod pdn;
mod raster;
mod search;
mod selfplay;
mod serve;
mod settings;
mod tablebase;
mod training;
mod vec_env;

use pyo3::prelude::*;
use rafle_core::Variant;

/// The compiled module `rafle._rafle`.
#[pymodule]
fn _rafle(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
    m.add("VARIANTS", pyo3::types::PyTuple::new(m.py(), names)?)?;
    m.add_class::<game::Game>()?;
    m.add_class::<vec_env::VecEnv>()?;
    m.add_class::<agents::SpecPlayer>()?;
    m.add_class::<agents::NetworkAgent>()?;
    m.add_class::<arena::MatchResult>()?;
    m.add_class::<search::SearchResult>()?;
    m.add_class::<selfplay::SelfPlay>()?;
    m.add_class::<tablebase::Tablebase>()?;
    m.add_function(wrap_pyfunction!(arena::evaluate, m)?)?;
    m.add_class::<ladder::LadderResult>()?;
    m.add_function(wrap_pyfunction!(ladder::ladder, m)?)?;
    m.add_function(wrap_pyfunction!(ladder::ladder_implied, m)?)?;
    let ladders: Vec<&str> = rafle_arena::ladder::calibrated()
        .iter()
        .map(|v| v.name())
        .collect();
    m.add("LADDERS", pyo3::types::PyTuple::new(m.py(), ladders)?)?;
    m.add_function(wrap_pyfunction!(search::search, m)?)?;
    m.add_function(wrap_pyfunction!(selfplay::load_config, m)?)?;
    m.add_function(wrap_pyfunction!(selfplay::teach, m)?)?;
    m.add_function(wrap_pyfunction!(agents::model_spec, m)?)?;
    m.add_function(wrap_pyfunction!(training::iteration_metrics, m)?)?;
    m.add_function(wrap_pyfunction!(training::heldout_observations, m)?)?;
    m.add_function(wrap_pyfunction!(training::heldout_metrics, m)?)?;
    m.add_function(wrap_pyfunction!(training::schedule_progress, m)?)?;
    m.add_function(wrap_pyfunction!(training::teacher_count, m)?)?;
    m.add_function(wrap_pyfunction!(training::save_replay, m)?)?;
    m.add_function(wrap_pyfunction!(training::load_replay, m)?)?;
    m.add_class::<pdn::PdnGame>()?;
    m.add_function(wrap_pyfunction!(pdn::read_pdn, m)?)?;
    m.add_function(wrap_pyfunction!(pdn::pdn_samples, m)?)?;
    m.add_class::<training::MetricsFile>()?;
    m.add("SMALL_BATCH", rafle_search::network::evaluator::SMALL_BATCH)?;
    m.add("BF16_BATCH", rafle_search::network::evaluator::BF16_BATCH)?;
    m.add_function(wrap_pyfunction!(agents::cpu_has_fast_bf16, m)?)?;
    let endings: Vec<&str> = rafle_core::EndReason::ALL
        .iter()
        .map(|e| e.name())
        .collect();
    m.add("END_REASONS", pyo3::types::PyTuple::new(m.py(), endings)?)?;
    m.add_function(wrap_pyfunction!(raster::svg_to_rgb, m)?)?;
    m.add_class::<serve::Server>()?;
    m.add_function(wrap_pyfunction!(serve::serve, m)?)?;
    m.add_function(wrap_pyfunction!(learned::eval_features, m)?)?;
    m.add_function(wrap_pyfunction!(learned::eval_games, m)?)?;
    m.add_function(wrap_pyfunction!(learned::save_eval, m)?)?;
    m.add_function(wrap_pyfunction!(learned::eval_values, m)?)?;
    m.add_function(wrap_pyfunction!(learned::_set_eval_zoo, m)?)?;
    Ok(())
}
