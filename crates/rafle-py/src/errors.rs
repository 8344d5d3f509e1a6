//! Rust errors to Python exceptions: every bad input is a `ValueError`
//! carrying the error's one-line message.

use pyo3::exceptions::PyValueError;
use pyo3::PyErr;
use rafle_core::Variant;
use std::fmt::Display;

pub fn value_error(e: impl Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A variant from its Python name ("thai", "international", ...).
pub fn parse_variant(name: &str) -> Result<Variant, PyErr> {
    name.parse().map_err(value_error)
}
