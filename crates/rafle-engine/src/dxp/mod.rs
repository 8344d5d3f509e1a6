//! DXP, the DamExchange Protocol: [`message`] layouts, the initiator side
//! as a rafle player ([`client`], `dxp:host:port`) and the follower side
//! (`rafle dxp --listen`, [`server`]).

pub mod client;
pub mod message;
pub mod server;

use crate::link::{Inbox, Overlong, Silence};
use message::Message;
use std::cell::Cell;
use std::io::Write;
use std::net::TcpStream;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The least time between two messages a follower sends with nothing
/// received in between: pydraughts' DXP client reads the socket once per
/// message and glues two messages that arrive together into one, losing
/// the second (a first move after the acceptance, a GAMEEND after the last
/// move).
pub const PACE: Duration = Duration::from_millis(100);

/// A DXP connection: NUL-terminated messages both ways.
#[derive(Debug)]
pub struct Connection {
    stream: TcpStream,
    inbox: Inbox,
    /// Messages are sent at least this far apart (None: at once) unless
    /// one was received in between.
    pace: Option<Duration>,
    last_sent: Cell<Option<Instant>>,
}

impl Connection {
    pub fn new(stream: TcpStream) -> std::io::Result<Connection> {
        let _ = stream.set_nodelay(true);
        let reader = stream.try_clone()?;
        Ok(Connection {
            stream,
            inbox: Inbox::spawn(reader, 0, message::MAX_LEN, Overlong::Stop),
            pace: None,
            last_sent: Cell::new(None),
        })
    }

    /// Sends messages at least `pace` apart, unless one was received in
    /// between.
    pub fn paced(mut self, pace: Duration) -> Connection {
        self.pace = Some(pace);
        self
    }

    pub fn send(&mut self, m: &Message) -> std::io::Result<()> {
        self.send_text(&m.encode())
    }

    /// Sends `text` as one message as it is (tests send garbage so).
    pub fn send_text(&mut self, text: &str) -> std::io::Result<()> {
        if let (Some(pace), Some(last)) = (self.pace, self.last_sent.get()) {
            std::thread::sleep(pace.saturating_sub(last.elapsed()));
        }
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(0);
        self.stream.write_all(&bytes)?;
        self.stream.flush()?;
        self.last_sent.set(Some(Instant::now()));
        Ok(())
    }

    /// The next message's text within `within`.
    pub fn recv(&self, within: Duration, stop: Option<&AtomicBool>) -> Result<String, Silence> {
        let m = self.inbox.recv(within, stop);
        if m.is_ok() {
            self.last_sent.set(None);
        }
        m
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
    }
}
