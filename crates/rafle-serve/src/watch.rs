//! A match as it is played (`rafle eval --watch PORT`): the arena tells a
//! [`Watch`] of every start, move and end ([`Watch::watcher`]); the page
//! follows it as server-sent events. Each change bumps a sequence number;
//! a client's stream sends, a few times a second, every board changed
//! since the last number it saw, so a slow client skips moves but never
//! shows a stale board, and the arena's threads only update a table.

use rafle_arena::{GameEvent, GameRecord, Watcher};
use rafle_core::{board_svg, to_fen, Color, Game, Position, SvgOptions, Variant};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// One game of the match.
#[derive(Clone, Debug)]
struct Board {
    seq: u64,
    variant: Variant,
    white: String,
    black: String,
    position: Position,
    moves: Vec<String>,
    last: Vec<usize>,
    /// "1-0 (no moves)" once over.
    result: Option<String>,
}

/// Points of player A against player B.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Score {
    a: String,
    b: String,
    wins: u32,
    draws: u32,
    losses: u32,
}

#[derive(Debug, Default)]
struct Inner {
    seq: u64,
    boards: BTreeMap<usize, Board>,
    scores: Vec<Score>,
    scores_seq: u64,
    /// The final table once the match is over.
    done: Option<String>,
    done_seq: u64,
}

/// The live state of a match, shared by the arena and the page's streams.
#[derive(Debug)]
pub struct Watch {
    title: String,
    inner: Mutex<Inner>,
    /// Streams open now (a page following the match).
    streams: AtomicUsize,
}

/// Counts a stream as open while it lives.
#[derive(Debug)]
pub struct StreamGuard(Arc<Watch>);

impl Drop for StreamGuard {
    fn drop(&mut self) {
        self.0.streams.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Side of a square of a watched board in pixels (the page scales it).
const SQUARE_PX: f64 = 40.0;

impl Watch {
    /// A watch of the match described by `title` ("thai: alphabeta:2 vs random, 10 games").
    pub fn new(title: impl Into<String>) -> Arc<Watch> {
        Arc::new(Watch {
            title: title.into(),
            inner: Mutex::new(Inner::default()),
            streams: AtomicUsize::new(0),
        })
    }

    pub fn title(&self) -> &str {
        &self.title
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The arena's side of the watch (`ArenaConfig::watcher`).
    pub fn watcher(self: &Arc<Self>) -> Watcher {
        let me = self.clone();
        Watcher(Arc::new(move |e: &GameEvent| me.tell(e)))
    }

    /// Takes one event of the arena.
    pub fn tell(&self, e: &GameEvent) {
        let mut s = self.lock();
        s.seq += 1;
        let seq = s.seq;
        match *e {
            GameEvent::Started {
                game,
                white,
                black,
                position,
            } => {
                let board = Board {
                    seq,
                    variant: position.variant(),
                    white: white.to_string(),
                    black: black.to_string(),
                    position: *position.position(),
                    moves: position
                        .history()
                        .map(|m| position.move_string(m))
                        .collect(),
                    last: last_path(position),
                    result: None,
                };
                s.boards.insert(game, board);
            }
            GameEvent::Moved { game, position } => {
                if let Some(b) = s.boards.get_mut(&game) {
                    b.seq = seq;
                    b.position = *position.position();
                    b.last = last_path(position);
                    if let Some(m) = position.history().last() {
                        b.moves.push(position.move_string(m));
                    }
                }
            }
            GameEvent::Ended { record } => {
                if let Some(b) = s.boards.get_mut(&(record.round - 1)) {
                    b.seq = seq;
                    b.result = Some(format!(
                        "{} ({})",
                        record.variant.pdn_result(record.winner),
                        record.termination.name()
                    ));
                }
                add_score(&mut s.scores, record);
                s.scores_seq = seq;
            }
        }
    }

    /// The match is over: `table` is its final table (as `rafle eval`
    /// prints it). Streams end once they have sent it.
    pub fn finish(&self, table: impl Into<String>) {
        let mut s = self.lock();
        s.seq += 1;
        s.done = Some(table.into());
        s.done_seq = s.seq;
    }

    /// A stream opens: it counts as open until the guard is dropped.
    pub fn open_stream(self: &Arc<Self>) -> StreamGuard {
        self.streams.fetch_add(1, Ordering::SeqCst);
        StreamGuard(self.clone())
    }

    /// After [`Watch::finish`]: waits until every open stream has sent
    /// the final table and ended (at most `timeout`), so that the pages
    /// following the match see its end before the server goes.
    pub fn wait_delivered(&self, timeout: std::time::Duration) {
        let end = std::time::Instant::now() + timeout;
        while self.streams.load(Ordering::SeqCst) > 0 && std::time::Instant::now() < end {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Whether [`Watch::finish`] was called.
    pub fn is_done(&self) -> bool {
        self.lock().done.is_some()
    }

    /// What changed after sequence number `since` (0: everything), the
    /// number to ask from next time, and whether the match is over.
    pub fn changes(&self, since: u64) -> (Value, u64, bool) {
        let s = self.lock();
        let boards: Vec<Value> = s
            .boards
            .iter()
            .filter(|(_, b)| b.seq > since)
            .map(|(&game, b)| board_json(game, b))
            .collect();
        let mut out = json!({ "seq": s.seq, "title": self.title, "boards": boards });
        if s.scores_seq > since || since == 0 {
            out["scores"] = json!(s
                .scores
                .iter()
                .map(|x| {
                    let games = x.wins + x.draws + x.losses;
                    json!({
                        "a": x.a, "b": x.b, "wins": x.wins, "draws": x.draws,
                        "losses": x.losses, "games": games,
                        "score": if games > 0 {
                            (x.wins as f64 + 0.5 * x.draws as f64) / games as f64
                        } else { 0.0 },
                    })
                })
                .collect::<Vec<_>>());
        }
        if s.done_seq > since {
            out["done"] = json!(s.done);
        }
        (out, s.seq, s.done.is_some())
    }
}

fn last_path(g: &Game) -> Vec<usize> {
    let geometry = g.geometry();
    g.history()
        .last()
        .map(|m| m.path_squares(&geometry))
        .unwrap_or_default()
}

fn add_score(scores: &mut Vec<Score>, r: &GameRecord) {
    let (a, b) = r.names();
    let i = match scores.iter().position(|x| x.a == a && x.b == b) {
        Some(i) => i,
        None => {
            scores.push(Score {
                a: a.to_string(),
                b: b.to_string(),
                ..Score::default()
            });
            scores.len() - 1
        }
    };
    let x = r.a_result();
    scores[i].wins += x.wins;
    scores[i].draws += x.draws;
    scores[i].losses += x.losses;
}

fn board_json(game: usize, b: &Board) -> Value {
    let svg = board_svg(
        b.variant,
        &b.position,
        &SvgOptions {
            square_px: SQUARE_PX,
            numbers: false,
            last_move: b.last.clone(),
            flipped: false,
        },
    );
    let pieces = |c: Color| {
        let g = b.variant.geometry();
        (1..=g.squares)
            .filter(|&s| b.position.piece_at(&g, s).is_some_and(|p| p.color() == c))
            .count()
    };
    json!({
        "game": game,
        "variant": b.variant.name(),
        "white": b.white,
        "black": b.black,
        "moves": b.moves,
        "fen": to_fen(b.variant, &b.position),
        "turn": b.position.side.name(),
        "pieces": {"white": pieces(Color::White), "black": pieces(Color::Black)},
        "result": b.result,
        "svg": svg,
    })
}
