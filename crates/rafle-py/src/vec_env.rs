//! `rafle.VecEnv`: rafle-env's batched environment with numpy in and out.
//!
//! Arrays handed to Python are fresh numpy arrays filled by one memcpy of
//! the Rust buffer (the env overwrites its buffers on the next step, so
//! views into them would change under the caller's feet). The GIL is
//! released while Rust steps, resets or samples.

use crate::errors::{parse_variant, value_error};
use ndarray::Axis;
use numpy::{
    IntoPyArray, PyArray1, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods, ToPyArray,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use rafle_env::{EnvConfig, IllegalActionMode};

/// Many games of one variant stepped together, numpy in and out.
///
/// Observations (B, C, N, N) float32 and the legal mask (B, A) bool are in
/// the frame of the player to act; `step(actions)` takes one action per env
/// (any integer dtype) and returns (obs, reward, terminated, truncated, info).
/// Finished games reset in the same step; `info` holds `to_play`,
/// `done_envs`, `final_obs`, `winner`, `episode_length` and `reason` (see
/// `help(rafle)`). `illegal="lose"` makes an illegal action lose the game
/// instead of raising ValueError; `fen` sets the start position.
#[pyclass(module = "rafle", name = "VecEnv")]
#[derive(Debug)]
pub struct VecEnv {
    inner: rafle_env::VecEnv,
    /// The last actions, reused between steps.
    actions: Vec<i64>,
}

fn parse_illegal(mode: &str) -> PyResult<IllegalActionMode> {
    match mode {
        "error" => Ok(IllegalActionMode::Error),
        "lose" => Ok(IllegalActionMode::Lose),
        _ => Err(value_error(format!(
            "illegal must be \"error\" or \"lose\", got {mode:?}"
        ))),
    }
}

impl VecEnv {
    /// The batched environment (for searches from its states).
    pub(crate) fn inner(&self) -> &rafle_env::VecEnv {
        &self.inner
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
                self.check_shape(arr.shape())?;
                arr.call_method1("astype", ("int64",))?
                    .cast_into::<PyArray1<i64>>()?
            }
        };
        let arr = arr.readonly();
        let view = arr.as_array();
        self.check_shape(view.shape())?;
        self.actions.clear();
        self.actions.extend(view.iter().copied());
        Ok(())
    }

    fn check_shape(&self, shape: &[usize]) -> PyResult<()> {
        let b = self.inner.num_envs();
        if shape == [b] {
            return Ok(());
        }
        let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        let got = match dims.len() {
            1 => format!("({},)", dims[0]),
            _ => format!("({})", dims.join(", ")),
        };
        Err(value_error(format!(
            "actions must have shape ({b},), got {got}"
        )))
    }

    /// What finished in the last step: indices, final observations and results.
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let stats = self.inner.episode_stats();
        let done: Vec<usize> = stats.iter().map(|s| s.env).collect();
        let info = PyDict::new(py);
        info.set_item("to_play", self.inner.to_play().to_pyarray(py))?;
        info.set_item(
            "final_obs",
            self.inner
                .final_obs()
                .select(Axis(0), &done)
                .into_pyarray(py),
        )?;
        info.set_item(
            "done_envs",
            done.iter()
                .map(|&i| i as i64)
                .collect::<Vec<_>>()
                .into_pyarray(py),
        )?;
        let winner: Vec<i8> = stats
            .iter()
            .map(|s| s.winner.map_or(-1, |c| c.index() as i8))
            .collect();
        info.set_item("winner", winner.into_pyarray(py))?;
        let length: Vec<i64> = stats.iter().map(|s| s.length as i64).collect();
        info.set_item("episode_length", length.into_pyarray(py))?;
        let reason: Vec<&str> = stats
            .iter()
            .map(|s| {
                if s.illegal_action {
                    "illegal action"
                } else if s.truncated {
                    "truncated"
                } else {
                    s.reason.map_or("unknown", |r| r.name())
                }
            })
            .collect();
        info.set_item("reason", PyList::new(py, reason)?)?;
        Ok(info)
    }
}

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (variant, num_envs = 1, seed = 0, *, max_plies = None, illegal = "error", fen = None))]
    fn new(
        variant: &str,
        num_envs: usize,
        seed: u64,
        max_plies: Option<u32>,
        illegal: &str,
        fen: Option<String>,
    ) -> PyResult<Self> {
        let v = parse_variant(variant)?;
        if num_envs == 0 {
            return Err(value_error("num_envs must be at least 1"));
        }
        let cfg = EnvConfig {
            max_plies,
            illegal: parse_illegal(illegal)?,
            start_fen: fen,
        };
        let inner = rafle_env::VecEnv::new(v, num_envs, seed, cfg).map_err(value_error)?;
        Ok(VecEnv {
            inner,
            actions: vec![0; num_envs],
        })
    }

    #[getter]
    fn variant(&self) -> &'static str {
        self.inner.variant().name()
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.inner.num_envs()
    }

    #[getter]
    fn num_actions(&self) -> usize {
        self.inner.num_actions()
    }

    /// (C, N, N) of one observation.
    #[getter]
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.observation_shape())
    }

    /// Resets every env (reseeding the samplers when `seed` is given) and
    /// returns the observations, (B, C, N, N) float32.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<u64>,
    ) -> Bound<'py, numpy::PyArray4<f32>> {
        let inner = &mut self.inner;
        py.detach(|| inner.reset(seed));
        self.inner.obs().to_pyarray(py)
    }

    /// The observations of the current states, (B, C, N, N) float32.
    fn observe<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray4<f32>> {
        self.inner.obs().to_pyarray(py)
    }

    /// Legal next steps of the current states, (B, A) bool.
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray2<bool>> {
        self.inner.legal_mask().to_pyarray(py)
    }

    /// Who acts next in each env, (B,) uint8: 0 white, 1 black.
    fn to_play<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        self.inner.to_play().to_pyarray(py)
    }

    /// One uniformly drawn legal action per env, (B,) int64, from each env's
    /// seeded random stream.
    fn sample_legal_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut out = vec![0i64; self.inner.num_envs()];
        let inner = &mut self.inner;
        py.detach(|| inner.sample_legal_actions(&mut out));
        out.into_pyarray(py)
    }

    /// Plays `actions[i]` in env `i` and returns (obs, reward, terminated,
    /// truncated, info). Finished envs are reset in the same step.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Bound<'py, numpy::PyArray4<f32>>,
        Bound<'py, PyArray1<f32>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyDict>,
    )> {
        self.read_actions(actions)?;
        let (inner, acts) = (&mut self.inner, &self.actions);
        py.detach(|| inner.step(acts)).map_err(value_error)?;
        let ve = &self.inner;
        Ok((
            ve.obs().to_pyarray(py),
            ve.rewards().to_pyarray(py),
            ve.terminated().to_pyarray(py),
            ve.truncated().to_pyarray(py),
            self.info(py)?,
        ))
    }

    /// FEN of env `i`'s board (with a capture chain pending: the board before
    /// the chain's first jump).
    fn fen(&self, i: usize) -> PyResult<String> {
        if i >= self.inner.num_envs() {
            return Err(value_error(format!(
                "env index {i} out of range (num_envs {})",
                self.inner.num_envs()
            )));
        }
        let env = self.inner.env(i);
        Ok(rafle_core::to_fen(env.variant(), env.position()))
    }

    fn __repr__(&self) -> String {
        format!(
            "rafle.VecEnv({:?}, num_envs={})",
            self.variant(),
            self.inner.num_envs()
        )
    }
}
