//! `rafle._rafle.serve`: rafle-serve's page with Python players (spec
//! strings, `Player`s, `NetworkAgent`s over a user's network, policy
//! callables), each turned into an arena side by `agents::side_of`. The
//! server runs on its own threads; a Python evaluator is called from the
//! search thread, which takes the GIL for each call (as `rafle.evaluate`
//! does), so the server answers while Python waits in `Server.wait()`.

use crate::agents::side_of;
use crate::errors::{parse_variant, value_error};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use rafle_core::Variant;
use rafle_search::PlayerOptions;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A running page: its `url`; `stop()` ends it, `wait()` blocks until
/// Ctrl-C (then stops it and raises KeyboardInterrupt). A context manager.
#[pyclass(module = "rafle", name = "Server")]
#[derive(Debug)]
pub struct Server {
    inner: Mutex<Option<rafle_serve::Server>>,
    #[pyo3(get)]
    url: String,
}

impl Server {
    fn take(&self) -> Option<rafle_serve::Server> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

#[pymethods]
impl Server {
    /// Stops the server (requests under way finish first).
    fn stop(&self, py: Python<'_>) {
        if let Some(s) = self.take() {
            py.detach(|| s.stop());
        }
    }

    /// Serves until Ctrl-C, then stops and raises KeyboardInterrupt.
    fn wait(&self, py: Python<'_>) -> PyResult<()> {
        loop {
            py.detach(|| std::thread::sleep(Duration::from_millis(100)));
            if let Err(e) = py.check_signals() {
                self.stop(py);
                return Err(e);
            }
            if self
                .inner
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .is_none()
            {
                return Ok(());
            }
        }
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __exit__(
        &self,
        py: Python<'_>,
        _t: Option<&Bound<'_, PyAny>>,
        _v: Option<&Bound<'_, PyAny>>,
        _tb: Option<&Bound<'_, PyAny>>,
    ) {
        self.stop(py);
    }

    fn __repr__(&self) -> String {
        format!("rafle.Server(url={:?})", self.url)
    }
}

/// Serves the page with `players`, (name, player) pairs; see the Python
/// docs of `rafle.serve`.
#[pyfunction]
#[pyo3(signature = (players, *, variant, port = 8000, host = "127.0.0.1", egtb = None))]
pub fn serve(
    py: Python<'_>,
    players: Vec<(String, Py<PyAny>)>,
    variant: &str,
    port: u16,
    host: &str,
    egtb: Option<&Bound<'_, PyAny>>,
) -> PyResult<Server> {
    let v = parse_variant(variant)?;
    let tables = crate::tablebase::Tablebase::from_arg(v, egtb)?;
    let names: Vec<String> = players.iter().map(|(n, _)| n.clone()).collect();
    if let Some(dup) = names
        .iter()
        .enumerate()
        .find_map(|(i, n)| names[..i].contains(n).then_some(n))
    {
        return Err(value_error(format!("two players are named {dup:?}")));
    }
    let options = PlayerOptions {
        egtb: tables.clone(),
    };
    // Spec strings play every variant; Python objects only the one served.
    let objects = Arc::new(players);
    let resolve: rafle_serve::Resolve = Arc::new(move |name: &str, want: Variant| {
        Python::attach(|py| {
            let Some((_, obj)) = objects.iter().find(|(n, _)| n == name) else {
                return Err(format!("no player named {name:?}"));
            };
            let obj = obj.bind(py);
            let spec = obj.extract::<String>().is_ok();
            if !spec && want != v {
                return Err(format!("{name} plays {} only", v.name()));
            }
            let opts = if want == v {
                options.clone()
            } else {
                PlayerOptions::default()
            };
            let (mut slots, mut engines) = (Vec::new(), Vec::new());
            side_of(obj, want, &mut slots, &mut engines, &opts).map_err(|e| e.to_string())
        })
    });
    // Every player is built once now, so that a bad one is a ValueError
    // here rather than an error on the page.
    for name in &names {
        resolve(name, v).map_err(value_error)?;
    }
    let config = rafle_serve::ServeConfig {
        resolve,
        tables,
        ..rafle_serve::ServeConfig::new(v, names)
    };
    let server = py
        .detach(|| rafle_serve::start(config, host, port))
        .map_err(|e| PyOSError::new_err(format!("cannot listen on {host}:{port}: {e}")))?;
    Ok(Server {
        url: server.url(),
        inner: Mutex::new(Some(server)),
    })
}
