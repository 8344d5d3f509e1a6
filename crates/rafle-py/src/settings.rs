//! Settings tables between Python dicts and Rust structs, through serde:
//! `search={...}` and search keywords become a `SearchParams`, a config dict
//! a `Config`, and back (`json.loads` of serde's JSON). No field is listed
//! here, so a new knob reaches Python with no change in the bindings.

use crate::errors::value_error;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString};
use rafle_search::network::SearchParams;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

/// A Python value of a settings table as JSON: None, bool, int, float, str,
/// lists and dicts of them (numpy scalars through their `int`/`float`).
pub fn to_json(x: &Bound<'_, PyAny>) -> PyResult<Value> {
    if x.is_none() {
        return Ok(Value::Null);
    }
    if x.is_instance_of::<PyBool>() {
        return Ok(Value::Bool(x.extract()?));
    }
    if x.is_instance_of::<PyInt>() {
        return match x.extract::<i64>() {
            Ok(i) => Ok(i.into()),
            Err(_) => Ok(x.extract::<u64>()?.into()),
        };
    }
    if x.is_instance_of::<PyFloat>() {
        return Ok(float(x.extract()?));
    }
    if x.is_instance_of::<PyString>() {
        return Ok(Value::String(x.extract()?));
    }
    if let Ok(d) = x.cast::<PyDict>() {
        return Ok(Value::Object(object(d)?));
    }
    if let Ok(items) = x.try_iter() {
        if !x.hasattr("__index__")? {
            return items
                .map(|i| to_json(&i?))
                .collect::<PyResult<_>>()
                .map(Value::Array);
        }
    }
    // numpy and other number types.
    if x.hasattr("__index__")? {
        return Ok(x.call_method0("__index__")?.extract::<i64>()?.into());
    }
    if let Ok(f) = x.extract::<f64>() {
        return Ok(float(f));
    }
    Err(value_error(format!(
        "a setting cannot be a {}",
        x.get_type().name()?
    )))
}

fn float(f: f64) -> Value {
    serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
}

/// A dict with string keys as a JSON object.
pub fn object(d: &Bound<'_, PyDict>) -> PyResult<Map<String, Value>> {
    let mut out = Map::new();
    for (k, v) in d.iter() {
        let key: String = k
            .extract()
            .map_err(|_| value_error(format!("setting names are strings, not {k}")))?;
        out.insert(key, to_json(&v)?);
    }
    Ok(out)
}

/// A struct from a JSON object; the error names the field.
pub fn from_object<T: DeserializeOwned>(map: Map<String, Value>) -> PyResult<T> {
    serde_path_to_error::deserialize(Value::Object(map)).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if path == "." || inner.to_string().starts_with("unknown field") {
            value_error(inner)
        } else {
            value_error(format!("{path}: {inner}"))
        }
    })
}

/// A struct as a Python dict (its serde form).
pub fn to_py<'py>(py: Python<'py>, x: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    let json = serde_json::to_string(x).map_err(value_error)?;
    py.import("json")?.call_method1("loads", (json,))
}

/// Search settings: `search` (a dict, the `[search]` table: what it lacks
/// keeps the default), then `keywords` over it (None values are skipped, so
/// an unset keyword keeps the table's value), checked.
pub fn search_params(
    search: Option<&Bound<'_, PyDict>>,
    keywords: &[(&str, Value)],
    more: Option<&Bound<'_, PyDict>>,
) -> PyResult<SearchParams> {
    let mut map = match search {
        Some(d) => object(d)?,
        None => Map::new(),
    };
    for (k, v) in keywords {
        if !v.is_null() {
            map.insert(k.to_string(), v.clone());
        }
    }
    if let Some(more) = more {
        for (k, v) in object(more)? {
            if !v.is_null() {
                map.insert(k, v);
            }
        }
    }
    let p: SearchParams = from_object(map)?;
    p.validate("").map_err(value_error)?;
    Ok(p)
}
