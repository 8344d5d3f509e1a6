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
//!
//! Against broken or hostile initiators ([`Limits`]): a message that does
//! not decode (garbage, longer than the protocol's 127 characters, cut
//! short) or comes out of order (a move with no game or out of turn, an
//! acceptance the follower never asked for) is answered with a chat line
//! saying why, logged and the connection closed; so is a connection
//! silent for longer than it may be. Connections and games beyond the
//! caps are closed or refused; the others play on, each on its own thread.

use super::message::Message;
use super::Connection;
use crate::level::{Clock, Level};
use crate::link::Silence;
use crate::notation::{Convention, Wire, WireMove, DXP};
use rafle_core::{Color, Game, Position, Variant};
use rafle_search::{Player, PlayerFactory};
use std::io::Write;
use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
    pub limits: Limits,
}

/// What the initiators may take of the follower, together and each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Connections served at once; one more is closed at once.
    pub connections: usize,
    /// Games in progress at once; one more request is refused (code 9).
    pub games: usize,
    /// The longest silence of a connection with no game in progress.
    pub idle: Duration,
    /// The longest wait for an initiator's move beyond its whole game
    /// time (no move may take longer than the clock of the game).
    pub grace: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            connections: 256,
            games: 32,
            idle: Duration::from_secs(120),
            grace: Duration::from_secs(60),
        }
    }
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
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

/// One of a capped count (connections, games); dropped, it frees its place.
struct Slot(Arc<AtomicUsize>);

impl Slot {
    /// A place among `cap`, if one is free.
    fn take(count: &Arc<AtomicUsize>, cap: usize) -> Option<Slot> {
        count
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < cap).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(count.clone()))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Connections and games in progress.
#[derive(Default)]
struct Counts {
    connections: Arc<AtomicUsize>,
    games: Arc<AtomicUsize>,
}

/// Accepts connections until the stop flag rises (checked between
/// connections). A failed accept (no descriptor left) is logged and
/// retried after a pause: the server goes on.
pub fn serve(listener: TcpListener, follower: Follower) -> std::io::Result<()> {
    serve_with_pace(listener, follower, Some(super::PACE))
}

/// [`serve`], sending messages at least `pace` apart (None: at once; for
/// programs that read whole messages, not pydraughts).
pub fn serve_with_pace(
    listener: TcpListener,
    follower: Follower,
    pace: Option<Duration>,
) -> std::io::Result<()> {
    let counts = Arc::new(Counts::default());
    for stream in listener.incoming() {
        if follower
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            break;
        }
        let stream = match stream {
            Ok(s) => s,
            Err(e) => {
                log(format_args!("cannot accept a connection: {e}"));
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        let peer = stream
            .peer_addr()
            .map_or_else(|_| "?".to_string(), |a| a.to_string());
        let Some(slot) = Slot::take(&counts.connections, follower.limits.connections) else {
            log(format_args!(
                "{peer}: closed at once ({} connections already)",
                follower.limits.connections
            ));
            continue;
        };
        let f = follower.clone();
        let games = counts.games.clone();
        let who = peer.clone();
        let spawned = std::thread::Builder::new().spawn(move || {
            let _slot = slot;
            if let Ok(mut conn) = Connection::new(stream) {
                if let Some(pace) = pace {
                    conn = conn.paced(pace);
                }
                if let Err(why) = follow(conn, &f, &games) {
                    log(format_args!("{peer}: {why}; connection closed"));
                }
            }
        });
        if let Err(e) = spawned {
            log(format_args!("{who}: closed at once (no thread: {e})"));
        }
    }
    Ok(())
}

struct Table {
    /// Its place among the games in progress.
    slot: Slot,
    game: Game,
    me: Color,
    player: Box<dyn Player>,
    clock: Clock,
    /// Move count of the game (0: none).
    moves: u32,
    /// The initiator's time for the whole game.
    their_time: Duration,
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

/// Tells the initiator why the connection closes, and gives the reason to
/// log.
fn refuse(conn: &mut Connection, why: String) -> Result<(), String> {
    let _ = conn.send(&Message::Chat(format!("error: {why}")));
    Err(why)
}

/// Plays on one connection until it closes: Ok when the initiator closed
/// it (or the stop flag rose), else why rafle did.
fn follow(mut conn: Connection, f: &Follower, games: &Arc<AtomicUsize>) -> Result<(), String> {
    let mut table: Option<Table> = None;
    loop {
        // The initiator may think for its whole game time on one move,
        // and stay silent a while between games.
        let within = match &table {
            Some(t) if t.game.turn() != t.me => t.their_time + f.limits.grace,
            _ => f.limits.idle,
        };
        let text = match conn.recv(within, f.stop.as_deref()) {
            Ok(t) => t,
            Err(Silence::Timeout) => return refuse(&mut conn, format!("silent for {within:?}")),
            Err(_) => return Ok(()),
        };
        if text.is_empty() {
            continue; // a stray terminator, as between glued messages
        }
        let msg = match Message::decode(&text) {
            Ok(m) => m,
            Err(e) => return refuse(&mut conn, e),
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
                        // A new request in a game replaces it, in its place.
                        let slot = match table.take() {
                            Some(t) => Some(t.slot),
                            None => Slot::take(games, f.limits.games),
                        };
                        let Some(slot) = slot else {
                            log(format_args!(
                                "a game refused: {} games in progress already",
                                f.limits.games
                            ));
                            conn.send(&accept(f, '9'))
                                .map_err(|e| format!("cannot send: {e}"))?;
                            continue;
                        };
                        table = Some(Table {
                            slot,
                            game: Game::from_position(f.variant, pos),
                            me: follower,
                            player: (f.factory)(f.seed),
                            clock: Clock::new(Level::Clock {
                                time: minutes.max(1) as f64 * 60.0,
                                moves: None,
                                inc: 0.0,
                            }),
                            moves,
                            their_time: Duration::from_secs(minutes.max(1) as u64 * 60),
                        });
                        conn.send(&accept(f, '0'))
                            .and_then(|_| turn(&mut conn, &mut table, f.wire()))
                    }
                }
            }
            Message::Move {
                from, to, captured, ..
            } => match table.as_mut() {
                None => return refuse(&mut conn, "a move with no game in progress".into()),
                Some(t) => match (WireMove { from, to, captured }).find(f.wire(), &t.game) {
                    Ok(m) if t.game.turn() != t.me => {
                        let _ = t.game.play(&m);
                        turn(&mut conn, &mut table, f.wire())
                    }
                    Ok(_) => return refuse(&mut conn, "a move out of turn".into()),
                    Err(why) => {
                        // An illegal move loses the game, not the session.
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
                    return Ok(());
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
            Message::Chat(_) => Ok(()),
            // Answers to requests a follower never makes.
            Message::GameAccept { .. } | Message::BackAccept { .. } => {
                return refuse(&mut conn, format!("{text:?} out of order"))
            }
        };
        if let Err(e) = sent {
            return Err(format!("cannot send: {e}"));
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
