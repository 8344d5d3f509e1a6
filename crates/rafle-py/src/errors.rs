//! Rust errors to Python exceptions: every bad input is a `ValueError`
//! carrying the error's one-line message.

use pyo3::exceptions::PyValueError;
use pyo3::PyErr;
use rafle_core::Variant;
use std::fmt::Display;

pub fn value_error(e: impl Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A count or size passed from Python. Taken as `i64` and checked here,
/// so a negative one is a ValueError naming the argument (an unsigned
/// parameter would be pyo3's OverflowError, which names nothing).
pub fn count<T: TryFrom<i64>>(name: &str, v: i64) -> Result<T, PyErr> {
    if v < 0 {
        return Err(value_error(format!("{name} must not be negative, got {v}")));
    }
    T::try_from(v).map_err(|_| value_error(format!("{name}={v} is too large")))
}

/// [`count`] of an optional argument.
pub fn count_opt<T: TryFrom<i64>>(name: &str, v: Option<i64>) -> Result<Option<T>, PyErr> {
    v.map(|v| count(name, v)).transpose()
}

/// A variant from its Python name ("thai", "international", ...).
pub fn parse_variant(name: &str) -> Result<Variant, PyErr> {
    name.parse().map_err(value_error)
}
