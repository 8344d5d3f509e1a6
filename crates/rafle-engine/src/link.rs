//! Reading from an engine without ever blocking for good: a thread reads
//! the pipe or socket and hands over each line (Hub) or NUL-terminated
//! message (DXP); the reader waits for one with a deadline, checking the
//! stop flag (Ctrl-C) every [`POLL`].

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How often a wait looks at the stop flag.
pub const POLL: Duration = Duration::from_millis(100);

/// A message longer than this without its terminator is cut and handed over
/// as is (the protocol parser then rejects it).
const MAX_MESSAGE: usize = 64 * 1024;

/// Why no message came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Silence {
    /// The other end closed (the process exited, the socket was closed).
    Closed,
    /// Nothing within the deadline.
    Timeout,
    /// The stop flag was raised.
    Stopped,
}

/// Messages read by a background thread.
#[derive(Debug)]
pub struct Inbox {
    rx: Receiver<String>,
}

impl Inbox {
    /// Reads `source` on a thread, splitting at `end` (b'\n' or 0); a
    /// trailing `\r` is dropped. The thread ends with the source.
    pub fn spawn<R: Read + Send + 'static>(mut source: R, end: u8) -> Inbox {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            let mut pending: Vec<u8> = Vec::new();
            loop {
                let n = match source.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                for &b in &buf[..n] {
                    if b == end || pending.len() >= MAX_MESSAGE {
                        let mut text = String::from_utf8_lossy(&pending).into_owned();
                        if text.ends_with('\r') {
                            text.pop();
                        }
                        pending.clear();
                        if tx.send(text).is_err() {
                            return;
                        }
                        if b == end {
                            continue;
                        }
                    }
                    pending.push(b);
                }
            }
            if !pending.is_empty() {
                let _ = tx.send(String::from_utf8_lossy(&pending).into_owned());
            }
        });
        Inbox { rx }
    }

    /// The next message within `within`.
    pub fn recv(&self, within: Duration, stop: Option<&AtomicBool>) -> Result<String, Silence> {
        let deadline = Instant::now() + within;
        loop {
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return Err(Silence::Stopped);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Silence::Timeout);
            }
            match self.rx.recv_timeout(left.min(POLL)) {
                Ok(m) => return Ok(m),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err(Silence::Closed),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_split_and_waits_end() {
        let inbox = Inbox::spawn(&b"hub\r\nwait\nlast"[..], b'\n');
        let s = Duration::from_secs(5);
        assert_eq!(inbox.recv(s, None), Ok("hub".into()));
        assert_eq!(inbox.recv(s, None), Ok("wait".into()));
        assert_eq!(inbox.recv(s, None), Ok("last".into()));
        assert_eq!(inbox.recv(s, None), Err(Silence::Closed));
        let inbox = Inbox::spawn(&b"R01\0M0000322800\0"[..], 0);
        assert_eq!(inbox.recv(s, None), Ok("R01".into()));
        assert_eq!(inbox.recv(s, None), Ok("M0000322800".into()));
        // A source that never speaks: a timeout, or the stop flag.
        let (_keep, quiet) = std::os::unix::net::UnixStream::pair().unwrap();
        let inbox = Inbox::spawn(quiet, b'\n');
        let t = Instant::now();
        assert_eq!(
            inbox.recv(Duration::from_millis(150), None),
            Err(Silence::Timeout)
        );
        assert!(t.elapsed() >= Duration::from_millis(150));
        let stop = AtomicBool::new(true);
        assert_eq!(inbox.recv(s, Some(&stop)), Err(Silence::Stopped));
    }
}
