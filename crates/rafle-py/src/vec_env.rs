//! `rafle.VecEnv`: rafle-env's batch of games with numpy in and out.
//!
//! The env owns its outputs as numpy arrays that Rust writes in place
//! (rust-numpy's `PyReadwriteArray`, no unsafe code) with the GIL released.
//! `copy=True`, the default, hands out copies; `copy=False` hands out
//! read-only views of those arrays, which the next step or reset rewrites in
//! place: no copy at all. Read-only, because the batch writes only what
//! changed and so needs its arrays to keep what it wrote.

use crate::errors::{count, count_opt, parse_variant, value_error};
use crate::game::Game;
use numpy::{
    Element, IntoPyArray, PyArray, PyArray1, PyArray2, PyArray3, PyArray4, PyArrayDescrMethods,
    PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple, PyType};
use rafle_core::{Color, Variant};
use rafle_env::{AutoresetMode, Batch, EnvConfig, IllegalActionMode, Outputs, Snapshot};

/// How `illegal=` names the illegal-action modes.
const ILLEGAL_MODES: [(&str, IllegalActionMode); 2] = [
    ("error", IllegalActionMode::Error),
    ("lose", IllegalActionMode::Lose),
];

fn parse_illegal(mode: &str) -> PyResult<IllegalActionMode> {
    ILLEGAL_MODES
        .iter()
        .find(|(name, _)| *name == mode)
        .map(|&(_, m)| m)
        .ok_or_else(|| {
            value_error(format!(
                "illegal must be \"error\" or \"lose\", got {mode:?}"
            ))
        })
}

fn illegal_name(mode: IllegalActionMode) -> &'static str {
    ILLEGAL_MODES
        .iter()
        .find(|(_, m)| *m == mode)
        .map_or("error", |&(name, _)| name)
}

/// What the env was made with (its constructor arguments, for pickling).
#[derive(Clone, Debug)]
struct Config {
    variant: Variant,
    num_envs: usize,
    max_plies: Option<u32>,
    illegal: IllegalActionMode,
    fen: Option<String>,
    autoreset: AutoresetMode,
}

/// One output array and the read-only view of it that `copy=False` returns.
#[derive(Debug)]
struct Shared<T, D> {
    array: Py<PyArray<T, D>>,
    view: Py<PyAny>,
}

impl<T: Element, D: ndarray::Dimension> Shared<T, D> {
    fn new(array: Bound<'_, PyArray<T, D>>) -> PyResult<Self> {
        let view = array.call_method0("view")?;
        view.getattr("flags")?.setattr("writeable", false)?;
        Ok(Shared {
            array: array.unbind(),
            view: view.unbind(),
        })
    }

    /// A copy, or the shared read-only view.
    fn get<'py>(&self, py: Python<'py>, copy: bool) -> PyResult<Bound<'py, PyAny>> {
        if copy {
            self.array.bind(py).call_method0("copy")
        } else {
            Ok(self.view.bind(py).clone())
        }
    }

    fn duplicate(&self, py: Python<'_>) -> PyResult<Self> {
        Shared::new(self.array.bind(py).call_method0("copy")?.cast_into()?)
    }
}

/// The env's output arrays (see rafle-env's `vec_env` for what each holds).
#[derive(Debug)]
struct Arrays {
    obs: Shared<f32, ndarray::Ix4>,
    final_obs: Shared<f32, ndarray::Ix4>,
    mask: Shared<bool, ndarray::Ix2>,
    rewards: Shared<f32, ndarray::Ix1>,
    terminated: Shared<bool, ndarray::Ix1>,
    truncated: Shared<bool, ndarray::Ix1>,
    to_play: Shared<u8, ndarray::Ix1>,
}

impl Arrays {
    fn zeros(py: Python<'_>, batch: &Batch) -> PyResult<Arrays> {
        let b = batch.num_envs();
        let [c, n, _] = batch.observation_shape();
        Ok(Arrays {
            obs: Shared::new(PyArray4::zeros(py, [b, c, n, n], false))?,
            final_obs: Shared::new(PyArray4::zeros(py, [b, c, n, n], false))?,
            mask: Shared::new(PyArray2::zeros(py, [b, batch.num_actions()], false))?,
            rewards: Shared::new(PyArray1::zeros(py, b, false))?,
            terminated: Shared::new(PyArray1::zeros(py, b, false))?,
            truncated: Shared::new(PyArray1::zeros(py, b, false))?,
            to_play: Shared::new(PyArray1::zeros(py, b, false))?,
        })
    }

    fn duplicate(&self, py: Python<'_>) -> PyResult<Arrays> {
        Ok(Arrays {
            obs: self.obs.duplicate(py)?,
            final_obs: self.final_obs.duplicate(py)?,
            mask: self.mask.duplicate(py)?,
            rewards: self.rewards.duplicate(py)?,
            terminated: self.terminated.duplicate(py)?,
            truncated: self.truncated.duplicate(py)?,
            to_play: self.to_play.duplicate(py)?,
        })
    }
}

/// Many games of one variant stepped together, numpy in and out.
///
/// Observations (B, C, N, N) float32 and the legal mask (B, A) bool are in
/// the frame of the player to act; `step(actions)` takes one action per env
/// (any integer dtype) and returns (obs, reward, terminated, truncated,
/// info). `autoreset` ("SameStep", "NextStep" or "Disabled") says what
/// follows the end of a game; `copy=False` returns read-only views valid
/// until the next step or reset. See `help(rafle)` for the info keys.
/// `illegal="lose"` makes an illegal action lose the game instead of
/// raising ValueError; `fen` sets the start position.
#[pyclass(module = "rafle", name = "VecEnv")]
#[derive(Debug)]
pub struct VecEnv {
    batch: Batch,
    arrays: Arrays,
    config: Config,
    /// The last actions, reused between steps.
    actions: Vec<i64>,
}

fn build(py: Python<'_>, config: Config, seed: u64) -> PyResult<VecEnv> {
    if config.num_envs == 0 {
        return Err(value_error("num_envs must be at least 1"));
    }
    let cfg = EnvConfig {
        max_plies: config.max_plies,
        illegal: config.illegal,
        start_fen: config.fen.clone(),
    };
    let batch = Batch::new(config.variant, config.num_envs, seed, cfg, config.autoreset)
        .map_err(value_error)?;
    let mut env = VecEnv {
        arrays: Arrays::zeros(py, &batch)?,
        batch,
        actions: vec![0; config.num_envs],
        config,
    };
    env.write(py, |b, out| b.write_outputs(out))?
        .map_err(value_error)?;
    Ok(env)
}

impl VecEnv {
    /// The batch of games (for searches from its states).
    pub(crate) fn batch(&self) -> &Batch {
        &self.batch
    }

    /// Runs `f` on the batch and mutable views of the output arrays, with
    /// the GIL released.
    fn write<R: Send>(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&mut Batch, &mut Outputs<'_>) -> R + Send,
    ) -> PyResult<R> {
        let a = &self.arrays;
        let mut obs = a.obs.array.bind(py).try_readwrite().map_err(value_error)?;
        let mut fin = a
            .final_obs
            .array
            .bind(py)
            .try_readwrite()
            .map_err(value_error)?;
        let mut mask = a.mask.array.bind(py).try_readwrite().map_err(value_error)?;
        let mut rew = a
            .rewards
            .array
            .bind(py)
            .try_readwrite()
            .map_err(value_error)?;
        let mut term = a
            .terminated
            .array
            .bind(py)
            .try_readwrite()
            .map_err(value_error)?;
        let mut trunc = a
            .truncated
            .array
            .bind(py)
            .try_readwrite()
            .map_err(value_error)?;
        let mut to_play = a
            .to_play
            .array
            .bind(py)
            .try_readwrite()
            .map_err(value_error)?;
        let mut out = Outputs {
            obs: obs.as_slice_mut().map_err(value_error)?,
            final_obs: fin.as_slice_mut().map_err(value_error)?,
            mask: mask.as_slice_mut().map_err(value_error)?,
            rewards: rew.as_slice_mut().map_err(value_error)?,
            terminated: term.as_slice_mut().map_err(value_error)?,
            truncated: trunc.as_slice_mut().map_err(value_error)?,
            to_play: to_play.as_slice_mut().map_err(value_error)?,
        };
        let batch = &mut self.batch;
        Ok(py.detach(move || f(batch, &mut out)))
    }

    /// Copies `actions` (any integer array or sequence of shape (B,)) into
    /// `self.actions`. An int64 array is read as it is; anything else goes
    /// through `numpy.asarray` and, if its dtype is an integer one, a cast.
    fn read_actions(&mut self, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let arr = match actions.cast::<PyArray1<i64>>() {
            Ok(a) => a.clone(),
            Err(_) => {
                let np = actions.py().import("numpy")?;
                let arr = np
                    .call_method1("asarray", (actions,))?
                    .cast_into::<PyUntypedArray>()
                    .map_err(|_| value_error("actions must be an integer array"))?;
                let kind = arr.dtype().kind();
                if kind != b'i' && kind != b'u' {
                    return Err(value_error(format!(
                        "actions must be integers, got dtype {}",
                        arr.dtype()
                    )));
                }
                self.check_shape("actions", arr.shape())?;
                arr.call_method1("astype", ("int64",))?
                    .cast_into::<PyArray1<i64>>()?
            }
        };
        let arr = arr.readonly();
        let view = arr.as_array();
        self.check_shape("actions", view.shape())?;
        self.actions.clear();
        self.actions.extend(view.iter().copied());
        Ok(())
    }

    fn check_shape(&self, what: &str, shape: &[usize]) -> PyResult<()> {
        let b = self.batch.num_envs();
        if shape == [b] {
            return Ok(());
        }
        let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        let got = match dims.len() {
            1 => format!("({},)", dims[0]),
            _ => format!("({})", dims.join(", ")),
        };
        Err(value_error(format!(
            "{what} must have shape ({b},), got {got}"
        )))
    }

    fn check_index(&self, i: usize) -> PyResult<()> {
        let b = self.batch.num_envs();
        if i >= b {
            return Err(value_error(format!(
                "env index {i} out of range (num_envs {b})"
            )));
        }
        Ok(())
    }

    /// Seeds of `reset`: one int for every env, or one per env.
    fn read_seeds(&self, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<u64>>> {
        let Some(seed) = seed else {
            return Ok(None);
        };
        let bad = || value_error("seed must be a non-negative int or a sequence of one per env");
        if let Ok(s) = seed.extract::<u64>() {
            return Ok(Some(vec![s; self.batch.num_envs()]));
        }
        let seeds: Vec<u64> = seed.extract().map_err(|_| bad())?;
        self.check_shape("seed", &[seeds.len()])?;
        Ok(Some(seeds))
    }

    /// What finished in the last step: indices, final observations and results.
    fn info<'py>(&self, py: Python<'py>, copy: bool) -> PyResult<Bound<'py, PyDict>> {
        let stats = self.batch.episode_stats();
        let done: Vec<usize> = stats.iter().map(|s| s.env).collect();
        let info = PyDict::new(py);
        info.set_item("to_play", self.arrays.to_play.get(py, copy)?)?;
        // In SameStep the obs rows already show the next games.
        let finals = match self.batch.autoreset_mode() {
            AutoresetMode::SameStep => &self.arrays.final_obs,
            _ => &self.arrays.obs,
        };
        let finals = finals.array.bind(py).readonly();
        let rows = finals.as_slice().map_err(value_error)?;
        let [c, n, _] = self.batch.observation_shape();
        let len = c * n * n;
        let mut picked = Vec::with_capacity(done.len() * len);
        for &i in &done {
            picked.extend_from_slice(&rows[i * len..(i + 1) * len]);
        }
        info.set_item(
            "final_obs",
            picked.into_pyarray(py).reshape([done.len(), c, n, n])?,
        )?;
        let done_envs: Vec<i64> = done.iter().map(|&i| i as i64).collect();
        info.set_item("done_envs", done_envs.into_pyarray(py))?;
        let winner: Vec<i8> = stats
            .iter()
            .map(|s| s.winner.map_or(-1, |c| c.index() as i8))
            .collect();
        info.set_item("winner", winner.into_pyarray(py))?;
        let length: Vec<i64> = stats.iter().map(|s| s.length as i64).collect();
        info.set_item("episode_length", length.into_pyarray(py))?;
        let reason: Vec<i8> = stats.iter().map(|s| s.reason.code() as i8).collect();
        info.set_item("reason", reason.into_pyarray(py))?;
        Ok(info)
    }
}

type StepResult<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyDict>,
);

#[pymethods]
impl VecEnv {
    #[new]
    #[allow(clippy::too_many_arguments)] // the Python signature, keywords mostly
    #[pyo3(signature = (variant, num_envs = 1, seed = 0, *, max_plies = None, illegal = "error", fen = None, autoreset = "SameStep"))]
    fn new(
        py: Python<'_>,
        variant: &str,
        num_envs: i64,
        seed: u64,
        max_plies: Option<i64>,
        illegal: &str,
        fen: Option<String>,
        autoreset: &str,
    ) -> PyResult<Self> {
        let config = Config {
            variant: parse_variant(variant)?,
            num_envs: count("num_envs", num_envs)?,
            max_plies: count_opt("max_plies", max_plies)?,
            illegal: parse_illegal(illegal)?,
            fen,
            autoreset: autoreset.parse().map_err(value_error)?,
        };
        build(py, config, seed)
    }

    #[getter]
    fn variant(&self) -> &'static str {
        self.config.variant.name()
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.config.num_envs
    }

    #[getter]
    fn num_actions(&self) -> usize {
        self.batch.num_actions()
    }

    /// (C, N, N) of one observation.
    #[getter]
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.batch.observation_shape())
    }

    /// Gymnasium's name of the autoreset mode: "NextStep", "SameStep" or "Disabled".
    #[getter]
    fn autoreset(&self) -> &'static str {
        self.config.autoreset.name()
    }

    /// Full moves after which an episode is truncated (None: no limit).
    #[getter]
    fn max_plies(&self) -> Option<u32> {
        self.config.max_plies
    }

    /// "error" or "lose".
    #[getter]
    fn illegal(&self) -> &'static str {
        illegal_name(self.config.illegal)
    }

    /// The start position's FEN given to the constructor (None: the variant's).
    #[getter]
    fn start_fen(&self) -> Option<String> {
        self.config.fen.clone()
    }

    /// Resets the envs where `mask` (B,) is true (all when None) and returns
    /// the observations of every env, (B, C, N, N) float32. `seed` (one int,
    /// or one per env) reseeds the random streams of the envs reset: env i
    /// then draws from stream i of its seed.
    #[pyo3(signature = (seed = None, *, mask = None, copy = true))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
        mask: Option<&Bound<'py, PyAny>>,
        copy: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seeds = self.read_seeds(seed)?;
        let only: Option<Vec<bool>> = match mask {
            None => None,
            Some(m) => {
                let np = py.import("numpy")?;
                let m = np.call_method1("asarray", (m,))?;
                let m: Vec<bool> = m
                    .call_method1("astype", ("bool",))?
                    .extract()
                    .map_err(|_| value_error("mask must be a (num_envs,) bool array"))?;
                self.check_shape("mask", &[m.len()])?;
                Some(m)
            }
        };
        self.write(py, |b, out| b.reset(seeds.as_deref(), only.as_deref(), out))?
            .map_err(value_error)?;
        self.arrays.obs.get(py, copy)
    }

    /// The observations of the current states, (B, C, N, N) float32.
    #[pyo3(signature = (*, copy = true))]
    fn observe<'py>(&self, py: Python<'py>, copy: bool) -> PyResult<Bound<'py, PyAny>> {
        self.arrays.obs.get(py, copy)
    }

    /// Env `i`'s observation (C, N, N) in the frame of `player` (0 white, 1
    /// black): the player to act sees its row of `observe()`, the other one
    /// the same state from its side of the board.
    fn observe_as<'py>(
        &self,
        py: Python<'py>,
        i: usize,
        player: u8,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        self.check_index(i)?;
        let viewer = match player {
            0 => Color::White,
            1 => Color::Black,
            _ => return Err(value_error(format!("player must be 0 or 1, got {player}"))),
        };
        let mut out = ndarray::Array3::zeros(self.batch.observation_shape());
        let flat = out.as_slice_mut().expect("standard layout");
        self.batch.write_obs_seen_by(i, viewer, flat);
        Ok(out.into_pyarray(py))
    }

    /// Legal next steps of the current states, (B, A) bool (all false in a
    /// finished env).
    #[pyo3(signature = (*, copy = true))]
    fn legal_mask<'py>(&self, py: Python<'py>, copy: bool) -> PyResult<Bound<'py, PyAny>> {
        self.arrays.mask.get(py, copy)
    }

    /// Who acts next in each env, (B,) uint8: 0 white, 1 black.
    #[pyo3(signature = (*, copy = true))]
    fn to_play<'py>(&self, py: Python<'py>, copy: bool) -> PyResult<Bound<'py, PyAny>> {
        self.arrays.to_play.get(py, copy)
    }

    /// One uniformly drawn legal action per env, (B,) int64, from each env's
    /// seeded random stream (-1 for a finished env).
    fn sample_legal_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut out = vec![0i64; self.batch.num_envs()];
        let batch = &mut self.batch;
        py.detach(|| batch.sample_legal_actions(&mut out));
        out.into_pyarray(py)
    }

    /// Plays `actions[i]` in env `i` and returns (obs, reward, terminated,
    /// truncated, info); with `copy=False` the arrays are read-only views
    /// that the next step rewrites.
    #[pyo3(signature = (actions, *, copy = true))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        copy: bool,
    ) -> PyResult<StepResult<'py>> {
        self.read_actions(actions)?;
        let acts = std::mem::take(&mut self.actions);
        let stepped = self.write(py, |b, out| b.step(&acts, out));
        self.actions = acts;
        stepped?.map_err(value_error)?;
        let a = &self.arrays;
        Ok((
            a.obs.get(py, copy)?,
            a.rewards.get(py, copy)?,
            a.terminated.get(py, copy)?,
            a.truncated.get(py, copy)?,
            self.info(py, copy)?,
        ))
    }

    /// FEN of env `i`'s board (with a capture chain pending: the board before
    /// the chain's first jump).
    fn fen(&self, i: usize) -> PyResult<String> {
        self.check_index(i)?;
        let env = self.batch.env(i);
        Ok(rafle_core::to_fen(env.variant(), env.position()))
    }

    /// Plies (full moves by either side; a multi-capture counts once) played
    /// in env `i`'s episode so far.
    fn ply(&self, i: usize) -> PyResult<u32> {
        self.check_index(i)?;
        Ok(self.batch.env(i).ply())
    }

    /// Env `i`'s episode as a `Game` of full moves (with a capture chain
    /// pending: the game before it).
    fn game(&self, i: usize) -> PyResult<Game> {
        self.check_index(i)?;
        Ok(self.batch.game(i).map_err(value_error)?.into())
    }

    /// The actions that play the full move `move` (path notation) in env
    /// `i`, which must be at the start of a turn.
    fn move_actions(&self, i: usize, r#move: &str) -> PyResult<Vec<u16>> {
        self.check_index(i)?;
        Ok(self
            .batch
            .move_actions(i, r#move)
            .map_err(value_error)?
            .to_vec())
    }

    /// An independent copy: games, random streams and arrays.
    fn __copy__(&self, py: Python<'_>) -> PyResult<Self> {
        Ok(VecEnv {
            batch: self.batch.clone(),
            arrays: self.arrays.duplicate(py)?,
            config: self.config.clone(),
            actions: self.actions.clone(),
        })
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.__copy__(py)
    }

    /// Pickled as the constructor's arguments and a snapshot of every game:
    /// its random stream and the steps of its episode, replayed on loading.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> (
        Bound<'py, PyType>,
        (&'static str, usize),
        (
            Option<u32>,
            &'static str,
            Option<String>,
            &'static str,
            Bound<'py, PyBytes>,
        ),
    ) {
        let c = &self.config;
        (
            py.get_type::<VecEnv>(),
            (c.variant.name(), c.num_envs),
            (
                c.max_plies,
                illegal_name(c.illegal),
                c.fen.clone(),
                c.autoreset.name(),
                PyBytes::new(py, &self.batch.snapshot().to_bytes()),
            ),
        )
    }

    /// Rebuilds the env from `__reduce__`'s state.
    #[allow(clippy::type_complexity)]
    fn __setstate__(
        &mut self,
        py: Python<'_>,
        state: (
            Option<u32>,
            String,
            Option<String>,
            String,
            Bound<'_, PyBytes>,
        ),
    ) -> PyResult<()> {
        let (max_plies, illegal, fen, autoreset, snapshot) = state;
        let config = Config {
            max_plies,
            illegal: parse_illegal(&illegal)?,
            fen,
            autoreset: autoreset.parse().map_err(value_error)?,
            ..self.config.clone()
        };
        let snap = Snapshot::from_bytes(snapshot.as_bytes()).map_err(value_error)?;
        let mut env = build(py, config, 0)?;
        env.write(py, |b, out| {
            b.restore(&snap).and_then(|()| b.write_outputs(out))
        })?
        .map_err(value_error)?;
        *self = env;
        Ok(())
    }

    fn __repr__(&self) -> String {
        format!(
            "rafle.VecEnv({:?}, num_envs={}, autoreset={:?})",
            self.variant(),
            self.config.num_envs,
            self.autoreset()
        )
    }
}
