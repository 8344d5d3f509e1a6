//! A DXP engine as a rafle player (`dxp:host:port`): rafle is the
//! initiator. At the engine's first move of a game it sends the game
//! request (the engine's colour, the clock, the current position), then at
//! each of its moves the opponent's moves since, and reads the engine's.
//! When the game ends rafle sends `E` (reason unknown: the arena keeps the
//! result) with "next game preferred" and waits for the engine's `E`
//! before the connection serves the next game. One connection per game in
//! flight; a connection that failed is closed and the next game connects
//! afresh.
//!
//! DXP carries a game clock only: the level is `time=S [moves=N]`, sent as
//! whole minutes (rounded up) and the move count (0 without one; engines
//! such as Scan end the game after that many moves, so keep
//! `--max-plies` below twice it). Without a level: 5 minutes, no count.
//! A move must come within what is left on the engine's clock (plus
//! [`crate::level::GRACE`]) and within the engine timeout.

use super::message::Message;
use super::Connection;
use crate::level::{Clock, Level};
use crate::link::Silence;
use crate::notation::{WireMove, DXP};
use crate::pool::Pool;
use crate::EngineOptions;
use rafle_core::{Color, EndReason, Game, Move, Position, Variant};
use rafle_search::{Forfeit, Player};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The clock sent when no level is given.
pub const DEFAULT_LEVEL: Level = Level::Clock {
    time: 300.0,
    moves: None,
    inc: 0.0,
};

/// How long the end of a game may take to be acknowledged.
const END_WAIT: Duration = Duration::from_secs(2);

/// Minutes and move count of a clock level, or why the level is not one.
pub fn clock_of(level: Option<Level>) -> Result<(u32, u32), String> {
    match level.unwrap_or(DEFAULT_LEVEL) {
        Level::Clock {
            time,
            moves,
            inc: 0.0,
        } => Ok((
            ((time / 60.0).ceil() as u32).clamp(1, 999),
            moves.unwrap_or(0),
        )),
        other => Err(format!(
            "DXP carries a game clock only, without increment: level time=S [moves=N], not {other}"
        )),
    }
}

/// Connects to `addr` within `timeout`.
pub fn connect(addr: &str, timeout: Duration) -> Result<Connection, String> {
    let sock = addr
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {addr}: {e}"))?
        .next()
        .ok_or_else(|| format!("{addr} resolves to no address"))?;
    let stream = TcpStream::connect_timeout(&sock, timeout)
        .map_err(|e| format!("cannot connect to {addr}: {e}"))?;
    Connection::new(stream).map_err(|e| format!("{addr}: {e}"))
}

/// What the players of one `dxp:` spec share.
#[derive(Debug)]
pub struct DxpShared {
    pub name: String,
    pub addr: String,
    pub variant: Variant,
    pub opts: EngineOptions,
    pub pool: Pool<Connection>,
}

/// The game in progress on a connection.
#[derive(Debug)]
struct Match {
    /// The arena's ply at the game request.
    base_ply: usize,
    /// The game as the engine knows it (from the requested position).
    known: Game,
    clock: Clock,
}

/// One game's side played by a DXP engine.
#[derive(Debug)]
pub struct DxpPlayer {
    shared: Arc<DxpShared>,
    conn: Option<Connection>,
    game: Option<Match>,
    failed: bool,
}

fn protocol(why: impl Into<String>) -> Forfeit {
    Forfeit::new(EndReason::ProtocolError, why)
}

impl DxpPlayer {
    pub fn new(shared: Arc<DxpShared>) -> DxpPlayer {
        DxpPlayer {
            shared,
            conn: None,
            game: None,
            failed: false,
        }
    }

    fn recv(&self, within: Duration) -> Result<Message, Forfeit> {
        let conn = self.conn.as_ref().expect("connected");
        match conn.recv(within, self.shared.opts.stop.as_deref()) {
            Ok(text) => Message::decode(&text).map_err(protocol),
            Err(Silence::Closed) => Err(Forfeit::new(
                EndReason::EngineFailure,
                "the engine closed the connection",
            )),
            Err(Silence::Timeout) => Err(Forfeit::new(
                EndReason::TimeForfeit,
                format!("no answer within {:.1} s", within.as_secs_f64()),
            )),
            Err(Silence::Stopped) => Err(Forfeit::new(EndReason::EngineFailure, "stopped")),
        }
    }

    fn send(&mut self, m: &Message) -> Result<(), Forfeit> {
        let conn = self.conn.as_mut().expect("connected");
        conn.send(m).map_err(|e| {
            Forfeit::new(
                EndReason::EngineFailure,
                format!("the connection broke: {e}"),
            )
        })
    }

    /// Connects (or takes an idle connection) and requests the game at
    /// `game`'s position with the engine to move.
    fn request(&mut self, game: &Game) -> Result<(), Forfeit> {
        let s = self.shared.clone();
        if self.conn.is_none() {
            self.conn = Some(match s.pool.take() {
                Some(c) => c,
                None => connect(&s.addr, s.opts.timeout)
                    .map_err(|e| Forfeit::new(EndReason::EngineFailure, e))?,
            });
        }
        let (minutes, moves) = clock_of(s.opts.level).map_err(protocol)?;
        let v = game.variant();
        let pos = *game.position();
        let start = pos == Position::start(v) && pos.side == Color::White;
        let board = DXP.write(v, &pos)[1..].to_string();
        self.send(&Message::GameRequest {
            name: "rafle".into(),
            follower: pos.side,
            minutes,
            moves,
            position: (!start).then_some((pos.side, board)),
        })?;
        loop {
            match self.recv(s.opts.timeout)? {
                Message::GameAccept { code: '0', .. } => break,
                Message::GameAccept { code, .. } => {
                    return Err(Forfeit::new(
                        EndReason::EngineFailure,
                        format!("the engine refused the game (code {code})"),
                    ))
                }
                Message::Chat(_) => {}
                other => return Err(protocol(format!("{other:?} instead of a game acceptance"))),
            }
        }
        self.game = Some(Match {
            base_ply: game.ply(),
            known: Game::from_position(v, pos),
            clock: Clock::new(Level::Clock {
                time: minutes as f64 * 60.0,
                moves: None,
                inc: 0.0,
            }),
        });
        Ok(())
    }

    fn play(&mut self, game: &Game) -> Result<Move, Forfeit> {
        if self.game.is_none() {
            self.request(game)?;
        }
        let v = game.variant();
        // The opponent's moves since the engine's last one.
        let m = self.game.as_ref().expect("requested");
        let seen = m.base_ply + m.known.ply();
        let news: Vec<Move> = game.history().skip(seen).copied().collect();
        for mv in news {
            let w = WireMove::of(v, &mv);
            self.send(&Message::Move {
                seconds: 0,
                from: w.from,
                to: w.to,
                captured: w.captured,
            })?;
            let known = &mut self.game.as_mut().expect("requested").known;
            known
                .play(&mv)
                .map_err(|e| protocol(format!("the game went astray: {e}")))?;
        }
        let t = Instant::now();
        // The clock, and never more than the engine timeout for one move.
        let timeout = self.shared.opts.timeout;
        let within = self
            .game
            .as_ref()
            .expect("requested")
            .clock
            .deadline(timeout)
            .min(timeout);
        let answer = loop {
            let left = within.saturating_sub(t.elapsed());
            match self.recv(left).map_err(|f| match f.reason {
                EndReason::TimeForfeit => Forfeit::new(
                    EndReason::TimeForfeit,
                    format!("no move within {:.1} s", within.as_secs_f64()),
                ),
                _ => f,
            })? {
                Message::Move {
                    from, to, captured, ..
                } => break WireMove { from, to, captured },
                Message::Chat(_) => {}
                Message::BackRequest { .. } => self.send(&Message::BackAccept { code: '1' })?,
                Message::GameEnd { reason, .. } => {
                    self.game = None;
                    self.send(&Message::GameEnd {
                        reason: '0',
                        stop: '0',
                    })?;
                    let says = match reason {
                        '1' => "it loses",
                        '2' => "a draw",
                        '3' => "it wins",
                        _ => "no result",
                    };
                    return Err(protocol(format!(
                        "the engine ended the game at ply {} ({says})",
                        game.ply()
                    )));
                }
                other => return Err(protocol(format!("{other:?} instead of a move"))),
            }
        };
        let m = self.game.as_mut().expect("requested");
        m.clock.spend(t.elapsed());
        let mv = answer
            .find(&m.known)
            .map_err(|e| Forfeit::new(EndReason::IllegalMove, format!("the engine played {e}")))?;
        m.known.play(&mv).map_err(|e| protocol(e.to_string()))?;
        Ok(mv)
    }

    /// Ends the game on the connection; true if the engine acknowledged.
    fn end_game(&mut self) -> bool {
        if self.game.take().is_none() {
            return true;
        }
        if self
            .send(&Message::GameEnd {
                reason: '0',
                stop: '0',
            })
            .is_err()
        {
            return false;
        }
        let t = Instant::now();
        while let Ok(m) = self.recv(END_WAIT.saturating_sub(t.elapsed())) {
            if matches!(m, Message::GameEnd { .. }) {
                return true;
            }
        }
        false
    }
}

impl Player for DxpPlayer {
    fn name(&self) -> String {
        self.shared.name.clone()
    }

    fn choose(&mut self, game: &Game) -> Result<Move, Forfeit> {
        let r = self.play(game);
        if r.is_err() {
            self.failed = true;
            self.game = None;
            self.conn = None;
        }
        r
    }
}

impl Drop for DxpPlayer {
    fn drop(&mut self) {
        if self.conn.is_some() && !self.failed && self.end_game() {
            if let Some(c) = self.conn.take() {
                self.shared.pool.put(c);
            }
        }
    }
}
