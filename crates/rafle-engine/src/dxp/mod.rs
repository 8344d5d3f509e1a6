//! DXP, the DamExchange Protocol: [`message`] layouts, the initiator side
//! as a rafle player ([`client`], `dxp:host:port`) and the follower side
//! (`rafle dxp --listen`, [`server`]).

pub mod client;
pub mod message;
pub mod server;

use crate::link::{Inbox, Silence};
use message::Message;
use std::io::Write;
use std::net::TcpStream;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A DXP connection: NUL-terminated messages both ways.
#[derive(Debug)]
pub struct Connection {
    stream: TcpStream,
    inbox: Inbox,
}

impl Connection {
    pub fn new(stream: TcpStream) -> std::io::Result<Connection> {
        let _ = stream.set_nodelay(true);
        let reader = stream.try_clone()?;
        Ok(Connection {
            stream,
            inbox: Inbox::spawn(reader, 0),
        })
    }

    pub fn send(&mut self, m: &Message) -> std::io::Result<()> {
        self.send_text(&m.encode())
    }

    /// Sends `text` as one message as it is (tests send garbage so).
    pub fn send_text(&mut self, text: &str) -> std::io::Result<()> {
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(0);
        self.stream.write_all(&bytes)?;
        self.stream.flush()
    }

    /// The next message's text within `within`.
    pub fn recv(&self, within: Duration, stop: Option<&AtomicBool>) -> Result<String, Silence> {
        self.inbox.recv(within, stop)
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
    }
}
