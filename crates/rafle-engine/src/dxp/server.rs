//! rafle as a DXP follower (`rafle dxp --listen PORT`): accepts
//! connections (each on its own thread, so several initiators or games can
//! play at once), accepts game requests, plays its side to the end, and
//! answers back requests.
//!
//! - Game request: any version-01 request whose position reads on the
//!   variant's board is accepted (`A...0`); a position that does not read
//!   is refused with code 3. The player is built afresh per game from the
//!   seed. The clock (minutes for the game, over the move count or 30
//!   moves) becomes a time budget per move.
//! - Moves: an opponent move that is not legal ends the game (a chat line
//!   says why, then `E0`). When the rules end the game rafle sends `E`
//!   with its view (1 it lost, 2 draw, 3 it won); with a move count, after
//!   that many moves it sends `E0` like Scan does.
//! - `E` from the initiator is acknowledged with rafle's view: the rules'
//!   result if they ended the game, else the initiator's result seen from
//!   rafle's side (its 1 is rafle's 3), 0 if it gave none. After stop code
//!   1 rafle waits a moment for the initiator to close the connection.
//! - Each game's end, and the initiator's reason, is a line on stderr.
//! - Messages go at least [`super::PACE`] apart (pydraughts' client glues
//!   messages that arrive together).
//! - Back request: accepted (`K0`) when the move number and side name a
//!   ply of the game (rafle then goes back and moves if it is its turn),
//!   refused (`K2`) otherwise.

use super::message::Message;
use super::Connection;
use crate::level::{Clock, Level};
use crate::link::Silence;
use crate::notation::{Convention, Wire, WireMove, DXP};
use rafle_core::{Color, Game, Position, Variant};
use rafle_search::{Player, PlayerFactory};
use std::io::Write;
use std::net::TcpListener;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a follower plays.
#[derive(Clone)]
pub struct Follower {
    pub variant: Variant,
    pub factory: PlayerFactory,
    pub seed: u64,
    /// The name sent in the acceptance.
    pub name: String,
    /// How squares are numbered on boards other than 10x10.
    pub numbering: Convention,
    pub stop: Option<Arc<AtomicBool>>,
}

impl Follower {
    fn wire(&self) -> Wire {
        Wire::new(self.variant, self.numbering)
    }
}

impl std::fmt::Debug for Follower {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Follower")
            .field("variant", &self.variant)
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// Accepts connections until the stop flag rises (checked between
/// connections) or the listener fails.
pub fn serve(listener: TcpListener, follower: Follower) -> std::io::Result<()> {
    for stream in listener.incoming() {
        let stream = stream?;
        let f = follower.clone();
        std::thread::spawn(move || {
            if let Ok(conn) = Connection::new(stream) {
                follow(conn.paced(super::PACE), &f);
            }
        });
        if follower
            .stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
        {
            break;
        }
    }
    Ok(())
}

struct Table {
    game: Game,
    me: Color,
    player: Box<dyn Player>,
    clock: Clock,
    /// Move count of the game (0: none).
    moves: u32,
}

/// How long rafle waits for the initiator to close after stop code 1.
const LINGER: Duration = Duration::from_secs(10);

/// Result code of `game` from `me`'s side (0 if the rules have not ended it).
fn reason_for(game: &Game, me: Color) -> char {
    match game.outcome() {
        Some(o) => super::client::reason_for(o.winner, me),
        None => '0',
    }
}

/// The same result from the other side.
fn mirrored(reason: char) -> char {
    match reason {
        '1' => '3',
        '3' => '1',
        r => r,
    }
}

/// A line on stderr (which may be closed: then nothing).
fn log(text: std::fmt::Arguments) {
    let _ = writeln!(std::io::stderr(), "rafle dxp: {text}");
}

/// Plays on one connection until it closes.
pub fn follow(mut conn: Connection, f: &Follower) {
    let mut table: Option<Table> = None;
    loop {
        let text = match conn.recv(Duration::from_secs(3600), f.stop.as_deref()) {
            Ok(t) => t,
            Err(Silence::Timeout) => continue,
            Err(_) => return,
        };
        let msg = match Message::decode(&text) {
            Ok(m) => m,
            Err(e) => {
                let _ = conn.send(&Message::Chat(format!("error: {e}")));
                continue;
            }
        };
        let sent = match msg {
            Message::GameRequest {
                follower,
                minutes,
                moves,
                position,
                ..
            } => {
                let pos = match &position {
                    None => Ok(Position::start(f.variant)),
                    Some((side, board)) => {
                        DXP.read(f.wire(), &format!("{}{board}", DXP.side(*side)))
                    }
                };
                match pos {
                    Err(e) => {
                        table = None;
                        conn.send(&Message::Chat(format!("error: {e}")))
                            .and_then(|_| conn.send(&accept(f, '3')))
                    }
                    Ok(pos) => {
                        table = Some(Table {
                            game: Game::from_position(f.variant, pos),
                            me: follower,
                            player: (f.factory)(f.seed),
                            clock: Clock::new(Level::Clock {
                                time: minutes.max(1) as f64 * 60.0,
                                moves: None,
                                inc: 0.0,
                            }),
                            moves,
                        });
                        conn.send(&accept(f, '0'))
                            .and_then(|_| turn(&mut conn, &mut table, f.wire()))
                    }
                }
            }
            Message::Move {
                from, to, captured, ..
            } => match table.as_mut() {
                None => conn.send(&Message::Chat("error: no game in progress".into())),
                Some(t) => match (WireMove { from, to, captured }).find(f.wire(), &t.game) {
                    Ok(m) if t.game.turn() != t.me => {
                        let _ = t.game.play(&m);
                        turn(&mut conn, &mut table, f.wire())
                    }
                    other => {
                        let why = match other {
                            Err(e) => e,
                            Ok(_) => "a move out of turn".into(),
                        };
                        table = None;
                        conn.send(&Message::Chat(format!("error: {why}")))
                            .and_then(|_| {
                                conn.send(&Message::GameEnd {
                                    reason: '0',
                                    stop: '0',
                                })
                            })
                    }
                },
            },
            Message::GameEnd { reason, stop } => {
                log(format_args!(
                    "the initiator's GAMEEND: {} (E{reason}{stop})",
                    super::client::says(reason)
                ));
                let ack = match table.take() {
                    Some(t) => {
                        let ours = match reason_for(&t.game, t.me) {
                            '0' => mirrored(reason),
                            r => r,
                        };
                        log(format_args!(
                            "game ended at ply {}: {} (E{ours} sent)",
                            t.game.ply(),
                            super::client::says(ours).replace("it ", "rafle ")
                        ));
                        conn.send(&Message::GameEnd { reason: ours, stop })
                    }
                    None => Ok(()),
                };
                if stop == '1' {
                    // The initiator closes; some (pydraughts) spin on a
                    // connection closed under them.
                    let t = Instant::now();
                    while conn.recv(LINGER.saturating_sub(t.elapsed()), None).is_ok() {}
                    return;
                }
                ack
            }
            Message::BackRequest {
                move_number,
                to_move,
            } => match table.as_mut() {
                Some(t) => {
                    let v = t.game.variant();
                    let start = t.game.start_position().side;
                    // Move numbers count from the variant's first mover.
                    let ply = (move_number as i64 - 1) * 2 + i64::from(to_move != v.first_player())
                        - i64::from(start != v.first_player());
                    if ply < 0 || ply as usize > t.game.ply() {
                        conn.send(&Message::BackAccept { code: '2' })
                    } else {
                        while t.game.ply() > ply as usize {
                            let _ = t.game.undo();
                        }
                        conn.send(&Message::BackAccept { code: '0' })
                            .and_then(|_| turn(&mut conn, &mut table, f.wire()))
                    }
                }
                None => conn.send(&Message::BackAccept { code: '2' }),
            },
            Message::Chat(_) | Message::GameAccept { .. } | Message::BackAccept { .. } => Ok(()),
        };
        if sent.is_err() {
            return;
        }
    }
}

fn accept(f: &Follower, code: char) -> Message {
    Message::GameAccept {
        name: f.name.clone(),
        code,
    }
}

/// Moves if it is rafle's turn, and ends the game when it is over.
fn turn(conn: &mut Connection, table: &mut Option<Table>, wire: Wire) -> std::io::Result<()> {
    let Some(t) = table.as_mut() else {
        return Ok(());
    };
    if !t.game.is_over() && t.game.turn() == t.me {
        let played = t.game.ply() as u32 / 2;
        if t.moves > 0 && played >= t.moves {
            *table = None;
            return conn.send(&Message::GameEnd {
                reason: '0',
                stop: '0',
            });
        }
        let to_go = if t.moves > 0 { t.moves - played } else { 30 };
        let level = Level::Clock {
            time: t.clock.left,
            moves: Some(to_go.max(1)),
            inc: 0.0,
        };
        t.player.set_budget(level.budget(None));
        let start = Instant::now();
        let Ok(m) = t.player.choose(&t.game) else {
            *table = None;
            return conn.send(&Message::GameEnd {
                reason: '1',
                stop: '0',
            });
        };
        t.clock.spend(start.elapsed());
        let w = WireMove::of(wire, &m);
        let _ = t.game.play(&m);
        conn.send(&Message::Move {
            seconds: start.elapsed().as_secs() as u32,
            from: w.from,
            to: w.to,
            captured: w.captured,
        })?;
    }
    if t.game.is_over() {
        let reason = reason_for(&t.game, t.me);
        log(format_args!(
            "game ended at ply {}: {} (E{reason} sent)",
            t.game.ply(),
            super::client::says(reason).replace("it ", "rafle ")
        ));
        *table = None;
        conn.send(&Message::GameEnd { reason, stop: '0' })?;
    }
    Ok(())
}
