//! Learned alpha-beta evaluations from Python: the sparse features of
//! positions as numpy arrays, labelled positions of alpha-beta self-play
//! (the trainer's games), and writing an evaluation file that
//! `alphabeta:d=6,eval=PATH` plays.

use crate::errors::{count, parse_variant, value_error};
use crate::game::Game;
use numpy::{IntoPyArray, PyArrayMethods, PyReadonlyArrayDyn};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rafle_core::{parse_fen, to_fen, Position, Variant};
use rafle_search::learned::{self, file, frame::Frame, Design};
use rafle_search::spec::{eval_path, EvalFile};
use rafle_train::evaltrain::config::Games;
use rafle_train::evaltrain::games;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicUsize;

fn design_of(design: &str, hidden: i64, hidden2: i64) -> PyResult<Design> {
    match design {
        "patterns" => Ok(Design::Patterns),
        "net" => Ok(Design::Net {
            hidden: count("hidden", hidden)?,
            hidden2: count("hidden2", hidden2)?,
        }),
        d => Err(value_error(format!(
            "design must be 'patterns' or 'net', not {d:?}"
        ))),
    }
}

/// Positions from a list of FEN strings or `rafle.Game`s (their current positions).
fn positions(variant: Variant, items: &Bound<'_, PyAny>) -> PyResult<Vec<Position>> {
    let mut out = Vec::new();
    for (i, item) in items.try_iter()?.enumerate() {
        let item = item?;
        if let Ok(g) = item.cast::<Game>() {
            let g = g.borrow();
            if g.inner().variant() != variant {
                return Err(value_error(format!(
                    "positions[{i}] is a {} game, the evaluation is {variant}'s",
                    g.inner().variant()
                )));
            }
            out.push(*g.inner().position());
        } else if let Ok(fen) = item.extract::<String>() {
            out.push(
                parse_fen(variant, &fen)
                    .map_err(|e| value_error(format!("positions[{i}]: {e}")))?,
            );
        } else {
            return Err(value_error(format!(
                "positions[{i}] is neither a FEN string nor a rafle.Game"
            )));
        }
    }
    Ok(out)
}

/// The sparse features of `positions` (FEN strings or `rafle.Game`s) for
/// `design` on `variant`, as a dict of numpy arrays, one row per position:
///
/// - `indices` int64 [N, K] and `values` float32 [N, K]: the active inputs
///   and their values, padded with index `num_inputs` and value 0;
///   patterns: K = windows + 7 (each window's configuration, then the
///   material, tempo and bias terms); net: the mover's frame's piece-squares
///   (K = the pieces at the start);
/// - `them` int64 [N, K] (net only): the opponent's frame's piece-squares;
/// - `phase` float32 [N]: the share of the starting pieces on the board;
/// - `num_inputs`: the inputs of the design (per frame for a net).
///
/// The model (what `save_eval` writes): patterns
/// `v = Σ values * (phase * mg[indices] + (1 - phase) * eg[indices])`; net
/// `a = clamp(b1 + Σ w1[indices], 0, 1)` per frame, `z = clamp([a_us,
/// a_them] @ w2 + b2, 0, 1)`, `v = z @ w3 + b3`; v in logits of the mover's
/// expected score.
#[pyfunction]
#[pyo3(signature = (variant, positions, design = "patterns", hidden = 32, hidden2 = 16))]
pub fn eval_features<'py>(
    py: Python<'py>,
    variant: &str,
    positions: &Bound<'py, PyAny>,
    design: &str,
    hidden: i64,
    hidden2: i64,
) -> PyResult<Bound<'py, PyDict>> {
    let v = parse_variant(variant)?;
    let design = design_of(design, hidden, hidden2)?;
    let pos = self::positions(v, positions)?;
    let frame = Frame::new(v);
    let n_in = learned::inputs(v, design);
    let width = match design {
        Design::Patterns => {
            learned::patterns::windows(&frame).len() + learned::patterns::EXTRAS.len()
        }
        Design::Net { .. } => frame.start_pieces as usize,
    };
    let n = pos.len();
    let (mut idx, mut val, mut them, mut phase) = (
        Vec::with_capacity(n * width),
        Vec::with_capacity(n * width),
        Vec::new(),
        Vec::with_capacity(n),
    );
    let pad = |v: &mut Vec<i64>, src: &[u32]| {
        v.extend(src.iter().map(|&x| x as i64));
        v.extend(std::iter::repeat_n(n_in as i64, width - src.len()));
    };
    for p in &pos {
        let f = learned::features_in(&frame, design, p);
        pad(&mut idx, &f.indices);
        val.extend(f.values.iter().copied());
        val.extend(std::iter::repeat_n(0f32, width - f.values.len()));
        if let Design::Net { .. } = design {
            pad(&mut them, &f.them);
        }
        phase.push(f.phase);
    }
    let d = PyDict::new(py);
    d.set_item("indices", idx.into_pyarray(py).reshape([n, width])?)?;
    d.set_item("values", val.into_pyarray(py).reshape([n, width])?)?;
    if let Design::Net { .. } = design {
        d.set_item("them", them.into_pyarray(py).reshape([n, width])?)?;
    }
    d.set_item("phase", phase.into_pyarray(py))?;
    d.set_item("num_inputs", n_in)?;
    Ok(d)
}

/// Labelled positions of alpha-beta self-play, as `rafle train-eval`
/// plays them: `games` games at `depth` with the evaluation `eval`
/// (None: the hand-written one; "zoo" or a file's path), `opening_plies`
/// random plies, a `random_share` of random moves. Every searched quiet
/// position is kept: a dict of `fen` (list of str), `score` int32 [N] (the
/// search's, for the side to move), `result` float32 [N] (1, 0.5, 0 for
/// the side to move; NaN for a game stopped at `max_plies`) and `target`
/// float32 [N] (`result_weight` x result + the rest x sigmoid(score / 100)).
#[pyfunction]
#[pyo3(signature = (variant, games, depth = 4, eval = None, seed = 0, opening_plies = 6, random_share = 0.05, max_plies = 300, result_weight = 0.5))]
#[allow(clippy::too_many_arguments)]
pub fn eval_games<'py>(
    py: Python<'py>,
    variant: &str,
    games: i64,
    depth: i64,
    eval: Option<&str>,
    seed: u64,
    opening_plies: i64,
    random_share: f64,
    max_plies: i64,
    result_weight: f64,
) -> PyResult<Bound<'py, PyDict>> {
    let v = parse_variant(variant)?;
    let cfg = Games {
        games: count("games", games)?,
        depth: count("depth", depth)?,
        first_depth: 0,
        opening_plies: count("opening_plies", opening_plies)?,
        random_share,
        max_plies: count("max_plies", max_plies)?,
    };
    if !(1..=20).contains(&cfg.depth) {
        return Err(value_error(format!("depth must be in 1..=20, got {depth}")));
    }
    if !(0.0..=1.0).contains(&random_share) || !(0.0..=1.0).contains(&result_weight) {
        return Err(value_error(
            "random_share and result_weight must be in [0, 1]",
        ));
    }
    let eval = match eval {
        None => None,
        Some(e) => {
            let file = if e == "zoo" {
                EvalFile::Zoo
            } else {
                EvalFile::Path(e.to_string())
            };
            Some(learned::load(&eval_path(&file, v), v).map_err(value_error)?)
        }
    };
    let done = AtomicUsize::new(0);
    let g = py.detach(|| games::generate(v, &cfg, cfg.depth, eval, seed, &done));
    let d = PyDict::new(py);
    let fens: Vec<String> = g.positions.iter().map(|l| to_fen(v, &l.pos)).collect();
    d.set_item("fen", PyList::new(py, fens)?)?;
    let column =
        |f: &dyn Fn(&games::Labelled) -> f32| g.positions.iter().map(f).collect::<Vec<f32>>();
    let score: Vec<i32> = g.positions.iter().map(|l| l.score).collect();
    d.set_item("score", score.into_pyarray(py))?;
    d.set_item("result", column(&|l| l.result).into_pyarray(py))?;
    d.set_item(
        "target",
        column(&|l| games::target(l, result_weight)).into_pyarray(py),
    )?;
    Ok(d)
}

/// Writes an evaluation file of `design` on `variant` from float weights
/// (numpy arrays, flattened row-major): patterns `mg`, `eg`; net `w1` [4S,
/// H], `b1` [H], `w2` [2H, H2], `b2` [H2], `w3` [H2], `b3` [1] (H and H2
/// read from `b1` and `b2`). `metadata` (str to str) is kept in the file.
/// Weights of the wrong size or outside what the integer evaluation holds
/// are a ValueError.
#[pyfunction]
#[pyo3(signature = (path, variant, design, weights, metadata = None))]
pub fn save_eval(
    path: PathBuf,
    variant: &str,
    design: &str,
    weights: &Bound<'_, PyDict>,
    metadata: Option<BTreeMap<String, String>>,
) -> PyResult<()> {
    let v = parse_variant(variant)?;
    let mut tensors = BTreeMap::new();
    for (k, a) in weights.iter() {
        let name: String = k
            .extract()
            .map_err(|_| value_error("weights' keys must be tensor names"))?;
        let a: PyReadonlyArrayDyn<'_, f32> = a
            .extract()
            .map_err(|_| value_error(format!("weights[{name:?}] must be a float32 numpy array")))?;
        tensors.insert(name, a.as_array().iter().copied().collect::<Vec<f32>>());
    }
    let len = |n: &str| tensors.get(n).map_or(0, Vec::len) as i64;
    let design = design_of(design, len("b1"), len("b2"))?;
    file::write(&path, v, design, &tensors, &metadata.unwrap_or_default()).map_err(value_error)
}

/// The learned evaluation `eval` ("zoo" or a file's path) of each of
/// `positions` (FEN strings or `rafle.Game`s) for its side to move, in
/// centi-logits (int32 [N]): the integers alpha-beta's leaves see.
#[pyfunction]
pub fn eval_values<'py>(
    py: Python<'py>,
    eval: &str,
    variant: &str,
    positions: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, numpy::PyArray1<i32>>> {
    let v = parse_variant(variant)?;
    let file = if eval == "zoo" {
        EvalFile::Zoo
    } else {
        EvalFile::Path(eval.to_string())
    };
    let e = learned::load(&eval_path(&file, v), v).map_err(value_error)?;
    let pos = self::positions(v, positions)?;
    Ok(pos
        .iter()
        .map(|p| e.evaluate(p))
        .collect::<Vec<i32>>()
        .into_pyarray(py))
}

/// Points `eval=zoo` at the Python package's zoo folder (unless `RAFLE_ZOO` is set).
#[pyfunction]
pub fn _set_eval_zoo(dir: PathBuf) {
    learned::set_zoo_dir(Some(dir));
}
