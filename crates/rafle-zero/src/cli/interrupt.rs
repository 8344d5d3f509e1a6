//! Ctrl-C: the first one raises a stop flag that the arena checks between
//! moves and engine reads check every 100 ms, so a match ends cleanly
//! (engine processes killed, sockets closed); a second one exits at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// The process's stop flag, with the Ctrl-C handler installed on first use.
pub fn stop_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let f = flag.clone();
        // A handler already installed (not by us) leaves Ctrl-C's default.
        let _ = ctrlc::set_handler(move || {
            if f.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            eprintln!("interrupted: stopping (Ctrl-C again to quit at once)");
        });
        flag
    })
    .clone()
}
