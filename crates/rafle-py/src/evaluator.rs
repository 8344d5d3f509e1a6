//! Python callables as rafle-search evaluators.
//!
//! ```text
//! network:  evaluator(obs) -> (logits, value)
//!           obs    (K, C, N, N) float32 numpy array
//!           logits (K, A)           raw, any float dtype; illegal entries are ignored
//!           value  (K,) in [-1, 1]  or (K, 3) win/draw/loss probabilities, for the player to act
//! policy:   policy(obs, mask) -> actions (K,) integers, each legal in its row of mask (K, A) bool
//! ```
//!
//! numpy arrays and torch tensors (any device, any float dtype) are
//! accepted. A wrong shape or dtype, NaN, an illegal action or an exception
//! inside the callable fails the evaluation; the Python exception is kept
//! in [`ErrorSlot`] so that the caller raises it as it was.

use numpy::{
    PyArray1, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rafle_core::Variant;
use rafle_search::network::{EvalError, Evaluator, Leaves};
use std::sync::{Arc, Mutex};

/// The first Python exception of an evaluation, for the caller to raise.
pub type ErrorSlot = Arc<Mutex<Option<PyErr>>>;

/// What the callable computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `obs -> (logits, value)`.
    Network,
    /// `(obs, mask) -> actions`: played as a network whose logits single out
    /// the chosen action (with no search).
    Policy,
}

/// The check every entry point taking an evaluator makes first.
pub fn check_callable(evaluator: &Bound<PyAny>) -> PyResult<()> {
    if evaluator.is_callable() {
        Ok(())
    } else {
        Err(PyValueError::new_err(
            "the evaluator must be a callable obs -> (logits, value)",
        ))
    }
}

/// The first exception kept in `slots` by a failed evaluation, or one made
/// from `e`.
pub fn raise(slots: &[&ErrorSlot], e: EvalError) -> PyErr {
    let kept = slots
        .iter()
        .find_map(|s| s.lock().unwrap_or_else(|p| p.into_inner()).take());
    kept.unwrap_or_else(|| match e {
        EvalError::Interrupted => pyo3::exceptions::PyKeyboardInterrupt::new_err("interrupted"),
        EvalError::Failed(why) => PyValueError::new_err(why),
        EvalError::Aborted(why) => pyo3::exceptions::PyRuntimeError::new_err(why),
    })
}

/// A Python callable answering leaves.
#[derive(Debug)]
pub struct PyEvaluator {
    callable: Py<PyAny>,
    kind: Kind,
    variant: Variant,
    /// The env's observation shape and action count (its codec's sizes).
    shape: [usize; 3],
    actions: usize,
    pub error: ErrorSlot,
}

/// Logit given to the actions a policy did not choose.
const NOT_CHOSEN: f32 = -1e9;

impl PyEvaluator {
    pub fn new(callable: Py<PyAny>, kind: Kind, variant: Variant) -> PyEvaluator {
        let env = rafle_env::Env::of(variant);
        PyEvaluator {
            callable,
            kind,
            variant,
            shape: env.observation_shape(),
            actions: env.num_actions(),
            error: Arc::new(Mutex::new(None)),
        }
    }

    fn call(
        &self,
        py: Python<'_>,
        leaves: &Leaves,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> PyResult<()> {
        let [c, h, w] = self.shape;
        let (n, na) = (leaves.n, self.actions);
        let obs = PyArray1::from_slice(py, leaves.obs).reshape([n, c, h, w])?;
        match self.kind {
            Kind::Network => {
                let out = self.callable.call1(py, (obs,))?;
                let out = out.bind(py);
                let (l, v) = out.extract::<(Bound<PyAny>, Bound<PyAny>)>().map_err(|_| {
                    PyValueError::new_err(format!(
                        "the evaluator must return (logits, value), got {}",
                        type_name(out)
                    ))
                })?;
                read_logits(&l, n, na, leaves.mask, self.variant, logits)?;
                read_values(&v, n, values)
            }
            Kind::Policy => {
                let mask = PyArray1::from_slice(py, leaves.mask).reshape([n, na])?;
                let out = self.callable.call1(py, (obs, mask))?;
                let actions = read_actions(out.bind(py), n)?;
                logits.fill(NOT_CHOSEN);
                for (k, &a) in actions.iter().enumerate() {
                    let legal = a >= 0 && (a as usize) < na && leaves.mask[k * na + a as usize];
                    if !legal {
                        return Err(PyValueError::new_err(format!(
                            "the policy chose action {a} in row {k}, which is not legal there \
                             (mask[{k}] is False)"
                        )));
                    }
                    logits[k * na + a as usize] = 0.0;
                }
                values.fill(0.0);
                Ok(())
            }
        }
    }
}

impl Evaluator for PyEvaluator {
    fn evaluate(
        &mut self,
        leaves: &Leaves,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), EvalError> {
        Python::attach(|py| self.call(py, leaves, logits, values)).map_err(|e| {
            let msg = e.to_string();
            let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
            slot.get_or_insert(e);
            EvalError::Failed(msg)
        })
    }
}

fn type_name(x: &Bound<PyAny>) -> String {
    x.get_type()
        .name()
        .map_or_else(|_| "an object".to_string(), |n| n.to_string())
}

/// `x` as a C-contiguous numpy array: torch tensors are detached and moved
/// to the CPU (as float32 when `float`), anything else goes through
/// `numpy.asarray`.
fn to_numpy<'py>(
    x: &Bound<'py, PyAny>,
    float: bool,
    what: &str,
) -> PyResult<Bound<'py, PyUntypedArray>> {
    let py = x.py();
    let x = if x.hasattr("detach")? && x.hasattr("cpu")? {
        let t = x.call_method0("detach")?;
        let t = if float { t.call_method0("float")? } else { t };
        t.call_method0("cpu")?
    } else {
        x.clone()
    };
    let np = py.import("numpy")?;
    np.call_method1("ascontiguousarray", (x,))?
        .cast_into::<PyUntypedArray>()
        .map_err(|_| PyValueError::new_err(format!("{what} is not an array")))
}

fn shape_text(shape: &[usize]) -> String {
    match shape {
        [d] => format!("({d},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A numeric array as float32 (a dtype that is not a number is an error).
fn as_f32<'py>(a: Bound<'py, PyUntypedArray>, what: &str) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
    let kind = a.dtype().kind();
    if !matches!(kind, b'f' | b'i' | b'u') {
        return Err(PyValueError::new_err(format!(
            "{what} must be numbers, got dtype {}",
            a.dtype()
        )));
    }
    // astype(dtype, order, casting, subok, copy=False): no copy when float32.
    a.call_method1("astype", ("float32", "K", "unsafe", true, false))?
        .cast_into::<PyArrayDyn<f32>>()
        .map_err(|_| PyValueError::new_err(format!("{what} must be a float array")))
}

fn read_logits(
    x: &Bound<PyAny>,
    n: usize,
    na: usize,
    mask: &[bool],
    v: Variant,
    out: &mut [f32],
) -> PyResult<()> {
    let a = to_numpy(x, true, "the evaluator's logits")?;
    if a.shape() != [n, na] {
        return Err(PyValueError::new_err(format!(
            "the evaluator's logits have shape {}, expected {} (leaves, actions of {})",
            shape_text(a.shape()),
            shape_text(&[n, na]),
            v.name()
        )));
    }
    let a = as_f32(a, "the evaluator's logits")?;
    let ro = a.readonly();
    let src = ro.as_slice()?;
    for (i, (&x, &legal)) in src.iter().zip(mask).enumerate() {
        if legal && !x.is_finite() {
            return Err(PyValueError::new_err(format!(
                "the evaluator's logits are {x} for the legal action {} of leaf {}",
                i % na,
                i / na
            )));
        }
    }
    out.copy_from_slice(src);
    Ok(())
}

fn read_values(x: &Bound<PyAny>, n: usize, out: &mut [f32]) -> PyResult<()> {
    let a = to_numpy(x, true, "the evaluator's value")?;
    let wdl = match a.shape() {
        [k] if *k == n => false,
        [k, 3] if *k == n => true,
        s => {
            return Err(PyValueError::new_err(format!(
                "the evaluator's value has shape {}, expected ({n},) or ({n}, 3)",
                shape_text(s)
            )))
        }
    };
    let a = as_f32(a, "the evaluator's value")?;
    let ro = a.readonly();
    let src = ro.as_slice()?;
    if let Some(i) = src.iter().position(|x| !x.is_finite()) {
        return Err(PyValueError::new_err(format!(
            "the evaluator's value is {} for leaf {}",
            src[i],
            if wdl { i / 3 } else { i }
        )));
    }
    if wdl {
        for (k, row) in src.chunks(3).enumerate() {
            let sum: f32 = row.iter().sum();
            if row.iter().any(|&p| p < 0.0) || (sum - 1.0).abs() > 1e-3 {
                return Err(PyValueError::new_err(format!(
                    "the evaluator's win/draw/loss row {k} is {row:?}: probabilities \
                     summing to 1 are expected (apply a softmax to logits)"
                )));
            }
            out[k] = row[0] - row[2];
        }
    } else {
        if let Some(k) = src.iter().position(|x| x.abs() > 1.0 + 1e-4) {
            return Err(PyValueError::new_err(format!(
                "the evaluator's value is {} for leaf {k}: values are in [-1, 1] \
                 for the player to act",
                src[k]
            )));
        }
        for (o, &x) in out.iter_mut().zip(src) {
            *o = x.clamp(-1.0, 1.0);
        }
    }
    Ok(())
}

fn read_actions(x: &Bound<PyAny>, n: usize) -> PyResult<Vec<i64>> {
    let a = to_numpy(x, false, "the policy's actions")?;
    if a.shape() != [n] {
        return Err(PyValueError::new_err(format!(
            "the policy returned actions of shape {}, expected ({n},)",
            shape_text(a.shape())
        )));
    }
    if !matches!(a.dtype().kind(), b'i' | b'u') {
        return Err(PyValueError::new_err(format!(
            "the policy's actions must be integers, got dtype {}",
            a.dtype()
        )));
    }
    let a = a
        .call_method1("astype", ("int64",))?
        .cast_into::<PyArrayDyn<i64>>()
        .map_err(|_| PyValueError::new_err("the policy's actions must be integers"))?;
    let ro = a.readonly();
    Ok(ro.as_slice()?.to_vec())
}
