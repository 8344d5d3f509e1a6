//! Long calls (a match, self-play, a batch of searches) run on a helper
//! thread with the GIL released; the calling thread waits and keeps
//! answering signals, so Ctrl-C stops the work and raises KeyboardInterrupt.
//! Python evaluators are called from the helper thread, which takes the GIL
//! for each call.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// How often the waiting thread looks at its signals.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` (given the stop flag it must poll) off the calling thread.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&Arc<AtomicBool>) -> T + Send,
) -> PyResult<T> {
    interruptible_also(py, &[], work)
}

/// [`interruptible`], raising the flags `also` too on Ctrl-C (engine
/// players, which wait on their own flag; they are lowered first).
pub fn interruptible_also<T: Send>(
    py: Python<'_>,
    also: &[Arc<AtomicBool>],
    work: impl FnOnce(&Arc<AtomicBool>) -> T + Send,
) -> PyResult<T> {
    for f in also {
        f.store(false, Ordering::Relaxed);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let done = (Mutex::new(false), Condvar::new());
    let wait = |timeout: Option<Duration>| -> bool {
        let guard = done.0.lock().unwrap_or_else(|p| p.into_inner());
        match timeout {
            Some(t) => done
                .1
                .wait_timeout_while(guard, t, |d| !*d)
                .map_or(true, |r| *r.0),
            None => done.1.wait_while(guard, |d| !*d).map_or(true, |g| *g),
        }
    };
    std::thread::scope(|s| {
        let handle = s.spawn(|| {
            let out = work(&stop);
            *done.0.lock().unwrap_or_else(|p| p.into_inner()) = true;
            done.1.notify_all();
            out
        });
        loop {
            if py.detach(|| wait(Some(POLL))) {
                break;
            }
            if let Err(e) = py.check_signals() {
                stop.store(true, Ordering::Relaxed);
                for f in also {
                    f.store(true, Ordering::Relaxed);
                }
                py.detach(|| wait(None));
                let _ = handle.join();
                return Err(e);
            }
        }
        handle
            .join()
            .map_err(|_| PyRuntimeError::new_err("rafle: a worker thread panicked"))
    })
}
