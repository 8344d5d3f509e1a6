//! Reading from an engine without ever blocking for good: a thread reads
//! the pipe or socket and hands over each line (Hub) or NUL-terminated
//! message (DXP); the reader waits for one with a deadline, checking the
//! stop flag (Ctrl-C) every [`POLL`].

use std::io::{BufRead, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How often a wait looks at the stop flag.
pub const POLL: Duration = Duration::from_millis(100);

/// Messages read ahead of the reader at most.
const QUEUE: usize = 64;

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

/// What the reading thread does after a message longer than its limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlong {
    /// Skip the rest of it and go on reading (an engine's stray long line).
    Skip,
    /// Stop reading and drop the source: a DXP peer past the protocol's
    /// length is broken or hostile, and a socket still read (even shut
    /// down, Linux goes on delivering) would be drained for as long as the
    /// peer sends.
    Stop,
}

/// Messages read by a background thread.
#[derive(Debug)]
pub struct Inbox {
    rx: Receiver<String>,
}

impl Inbox {
    /// Reads `source` on a thread, splitting at `end` (b'\n' or 0); a
    /// trailing `\r` is dropped. A message longer than `max` bytes is
    /// handed over cut to `max + 1` bytes (the reader's parser rejects it:
    /// its length says why); then the rest of it is skipped or the reading
    /// stops, as `overlong` says, so a peer that never sends the
    /// terminator holds at most `max` bytes here. The thread ends with the
    /// source, or when the inbox is dropped.
    pub fn spawn<R: Read + Send + 'static>(
        mut source: R,
        end: u8,
        max: usize,
        overlong: Overlong,
    ) -> Inbox {
        // Bounded: a peer that floods messages faster than they are read
        // waits on its socket (TCP pushes back) instead of filling memory.
        let (tx, rx) = sync_channel(QUEUE);
        let reader = move || {
            let mut buf = [0u8; 4096];
            let mut pending: Vec<u8> = Vec::new();
            // Inside a message already handed over cut.
            let mut skipping = false;
            loop {
                let n = match source.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                for &b in &buf[..n] {
                    if b == end {
                        if !skipping && tx.send(text_of(&pending)).is_err() {
                            return;
                        }
                        pending.clear();
                        skipping = false;
                    } else if !skipping {
                        pending.push(b);
                        if pending.len() > max {
                            if tx.send(text_of(&pending)).is_err() || overlong == Overlong::Stop {
                                return;
                            }
                            pending.clear();
                            skipping = true;
                        }
                    }
                }
            }
            if !pending.is_empty() {
                let _ = tx.send(text_of(&pending));
            }
        };
        // No thread to be had (a flood of connections): the inbox reads
        // as closed.
        let _ = std::thread::Builder::new().spawn(reader);
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

/// The next line of `input`, read without ever holding more than `max`
/// bytes of it: None at the end of the input, else the line without its
/// `\n` (and `\r`), or why it is not one (longer than `max`: read to its
/// end and dropped; not UTF-8).
pub fn read_line(
    input: &mut impl BufRead,
    max: usize,
) -> std::io::Result<Option<Result<String, String>>> {
    let mut line = Vec::new();
    let mut length = 0usize;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if length == 0 {
                return Ok(None);
            }
            break;
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (buf.len(), false),
        };
        if length + take <= max {
            line.extend_from_slice(&buf[..take]);
        }
        length += take;
        input.consume(take + usize::from(done));
        if done {
            break;
        }
    }
    if length > max {
        return Ok(Some(Err(format!(
            "a line of {length} bytes (at most {max})"
        ))));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(String::from_utf8(line).map_err(|e| {
        format!(
            "a line that is not UTF-8 (byte {})",
            e.utf8_error().valid_up_to()
        )
    })))
}

/// A message's text: bytes that are not UTF-8 are replaced (the parsers
/// reject them); a trailing `\r` goes.
fn text_of(bytes: &[u8]) -> String {
    let mut text = String::from_utf8_lossy(bytes).into_owned();
    if text.ends_with('\r') {
        text.pop();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_split_and_waits_end() {
        let inbox = Inbox::spawn(&b"hub\r\nwait\nlast"[..], b'\n', 100, Overlong::Skip);
        let s = Duration::from_secs(5);
        assert_eq!(inbox.recv(s, None), Ok("hub".into()));
        assert_eq!(inbox.recv(s, None), Ok("wait".into()));
        assert_eq!(inbox.recv(s, None), Ok("last".into()));
        assert_eq!(inbox.recv(s, None), Err(Silence::Closed));
        let inbox = Inbox::spawn(&b"R01\0M0000322800\0"[..], 0, 100, Overlong::Stop);
        assert_eq!(inbox.recv(s, None), Ok("R01".into()));
        assert_eq!(inbox.recv(s, None), Ok("M0000322800".into()));
        // A source that never speaks: a timeout, or the stop flag.
        let (_keep, quiet) = std::os::unix::net::UnixStream::pair().unwrap();
        let inbox = Inbox::spawn(quiet, b'\n', 100, Overlong::Skip);
        let t = Instant::now();
        assert_eq!(
            inbox.recv(Duration::from_millis(150), None),
            Err(Silence::Timeout)
        );
        assert!(t.elapsed() >= Duration::from_millis(150));
        let stop = AtomicBool::new(true);
        assert_eq!(inbox.recv(s, Some(&stop)), Err(Silence::Stopped));
        // Too long: cut one byte past the limit, the rest skipped.
        let inbox = Inbox::spawn(&b"abcdefgh\0ok\0abc"[..], 0, 4, Overlong::Skip);
        assert_eq!(inbox.recv(s, None), Ok("abcde".into()));
        assert_eq!(inbox.recv(s, None), Ok("ok".into()));
        assert_eq!(inbox.recv(s, None), Ok("abc".into()));
        assert_eq!(inbox.recv(s, None), Err(Silence::Closed));
        // Or cut, and nothing read after it.
        let inbox = Inbox::spawn(&b"abcdefgh\0ok\0abc"[..], 0, 4, Overlong::Stop);
        assert_eq!(inbox.recv(s, None), Ok("abcde".into()));
        assert_eq!(inbox.recv(s, None), Err(Silence::Closed));
    }

    #[test]
    fn lines_are_bounded() {
        let mut input = &b"go\r\nabcdefgh\nok\n\xff\xfe\nlast"[..];
        let mut next = || read_line(&mut input, 4).unwrap();
        assert_eq!(next(), Some(Ok("go".into())));
        assert_eq!(next(), Some(Err("a line of 8 bytes (at most 4)".into())));
        assert_eq!(next(), Some(Ok("ok".into())));
        assert!(next().unwrap().unwrap_err().contains("not UTF-8"));
        assert_eq!(next(), Some(Ok("last".into())));
        assert_eq!(next(), None);
    }
}
