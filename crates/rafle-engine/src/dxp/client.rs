//! A DXP engine as a rafle player (`dxp:host:port`): rafle is the
//! initiator. At the engine's first move of a game it sends the game
//! request (the engine's colour, the clock, the current position), then at
//! each of its moves the opponent's moves since, and reads the engine's.
//! When the game ends ([`Player::game_over`]) rafle sends the moves the
//! engine has not seen if the rules ended it (so the engine sees the end
//! too), then `E` with the arena's result from rafle's side (1 rafle lost,
//! 2 a draw, 3 rafle won; 0 when a game is left unfinished) and "next game
//! preferred", and waits for the engine's `E` before the connection serves
//! the next game; a result the engine states otherwise becomes a note in
//! the game's record (its PDN comment). One connection per game in flight;
//! a connection that failed is closed and the next game connects afresh.
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
use crate::notation::{Wire, WireMove, DXP};
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
    /// The engine's colour.
    engine: Color,
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
        let board = DXP.write(Wire::new(v, s.opts.numbering), &pos)[1..].to_string();
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
                // A late GAMEEND of the last game, crossing ours.
                Message::Chat(_) | Message::GameEnd { .. } => {}
                other => return Err(protocol(format!("{other:?} instead of a game acceptance"))),
            }
        }
        self.game = Some(Match {
            engine: pos.side,
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
        self.send_news(game)?;
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
                    return Err(protocol(format!(
                        "the engine ended the game at ply {} ({})",
                        game.ply(),
                        says(reason)
                    )));
                }
                other => return Err(protocol(format!("{other:?} instead of a move"))),
            }
        };
        let m = self.game.as_mut().expect("requested");
        m.clock.spend(t.elapsed());
        let wire = Wire::new(m.known.variant(), self.shared.opts.numbering);
        let mv = answer
            .find(wire, &m.known)
            .map_err(|e| Forfeit::new(EndReason::IllegalMove, format!("the engine played {e}")))?;
        m.known.play(&mv).map_err(|e| protocol(e.to_string()))?;
        Ok(mv)
    }

    /// Sends the moves of `game` the engine has not seen (the opponent's
    /// since the engine's last one).
    fn send_news(&mut self, game: &Game) -> Result<(), Forfeit> {
        let wire = Wire::new(game.variant(), self.shared.opts.numbering);
        let m = self.game.as_ref().expect("requested");
        let seen = m.base_ply + m.known.ply();
        let news: Vec<Move> = game.history().skip(seen).copied().collect();
        for mv in news {
            let w = WireMove::of(wire, &mv);
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
        Ok(())
    }

    /// Ends the game on the connection with `reason` (rafle's side); the
    /// engine's reason if it acknowledged (moves and chat on the way are
    /// passed over).
    fn end_game(&mut self, reason: char) -> Option<char> {
        self.game.take()?;
        self.send(&Message::GameEnd { reason, stop: '0' }).ok()?;
        let t = Instant::now();
        while let Ok(m) = self.recv(END_WAIT.saturating_sub(t.elapsed())) {
            if let Message::GameEnd { reason, .. } = m {
                return Some(reason);
            }
        }
        None
    }
}

/// A DXP end reason from `side`'s view of a game won by `winner`.
pub fn reason_for(winner: Option<Color>, side: Color) -> char {
    match winner {
        None => '2',
        Some(w) if w == side => '3',
        Some(_) => '1',
    }
}

/// What an end reason says of its sender.
pub fn says(reason: char) -> &'static str {
    match reason {
        '1' => "it lost",
        '2' => "a draw",
        '3' => "it won",
        _ => "no result",
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

    fn game_over(&mut self, game: &Game, winner: Option<Color>) -> Option<String> {
        if self.failed || self.conn.is_none() {
            return None;
        }
        let engine = self.game.as_ref()?.engine;
        // Over by the rules: the engine sees the last moves and may say so
        // itself before our GAMEEND comes.
        if game.is_over() && self.send_news(game).is_err() {
            self.failed = true;
            return None;
        }
        let Some(theirs) = self.end_game(reason_for(winner, engine.opponent())) else {
            self.failed = true;
            return None;
        };
        let expected = reason_for(winner, engine);
        (theirs != '0' && theirs != expected).then(|| {
            format!(
                "its GAMEEND says {} (reason {theirs}, the arena's result being {})",
                says(theirs),
                says(expected)
            )
        })
    }
}

impl Drop for DxpPlayer {
    /// An unfinished game ends with reason 0; a connection whose games
    /// all ended cleanly serves the next game.
    fn drop(&mut self) {
        if self.conn.is_none() || self.failed {
            return;
        }
        if self.game.is_some() && self.end_game('0').is_none() {
            return;
        }
        if let Some(c) = self.conn.take() {
            self.shared.pool.put(c);
        }
    }
}
