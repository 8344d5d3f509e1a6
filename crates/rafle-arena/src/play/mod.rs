//! The arena: matches between two players, and round robins.
//!
//! A match is played in colour-swapped pairs: pair `k` draws
//! `opening_plies` uniformly random plies from the start position (seeded by
//! `(seed, k)`), then player A plays White in game `2k` and Black in game
//! `2k + 1` from that opening. Every game gets fresh players from the
//! factories, seeded by `(seed, game, side)`, so results depend only on the
//! seed (for depth- or simulation-limited players), not on the thread count.
//! Games run in parallel with rayon; with an SPRT the pairs are played in
//! batches of [`SPRT_BATCH_PAIRS`] and the test (on pair results, see
//! [`crate::elo::Pentanomial`]) is checked between batches.
//! A game reaching `max_plies` is adjudicated a draw and recorded as such.
//! A player that forfeits (an illegal move; an engine's crash, stall or
//! garbage, see [`rafle_search::Forfeit`]) loses that game, the reason and
//! its detail in the record; after [`ArenaConfig::max_forfeits`] forfeits in
//! a row the match stops with [`EvalError::Aborted`] saying why.
//!
//! Instead of random plies, an opening list may be given
//! ([`ArenaConfig::openings`], read by [`parse_openings`]): pair `k` then
//! plays opening `k mod len` (both colours), followed by `opening_plies`
//! random plies (0 to play the list as is).
//!
//! Two ways to play, the same games for the same seed:
//! - both sides are [`Side::Player`]s: each pair is played on its own, pairs
//!   in parallel (`play_pair`);
//! - a side is a [`Side::Network`]: every game of the match (of the SPRT
//!   batch) advances in lockstep ([`lockstep`]): each round every game runs
//!   until its network side needs leaves (rayon over games; the other side's
//!   moves are made on the way), and each network's leaves of all games go
//!   to its evaluator in one call.

mod lockstep;

use crate::elo::{Pentanomial, Sprt, SprtDecision, Wdl};
use indicatif::{ProgressBar, ProgressStyle};
use rafle_core::rng::Rng;
use rafle_core::{random_opening, Color, EndReason, Game, Move, Variant};
use rafle_egtb::Value;
use rafle_search::network::{EvalError, EvalStats, SearchParams, SharedEvaluator};
use rafle_search::tables::Tables;
use rafle_search::{Player, PlayerFactory};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Pairs played between two SPRT checks (fixed, so stops are reproducible).
pub const SPRT_BATCH_PAIRS: usize = 8;

/// How a match is played.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// Games per match (rounded up to an even number: pairs).
    pub games: usize,
    pub seed: u64,
    /// Uniformly random plies at the start of each pair
    /// ([`rafle_core::opening`]: exactly this many, none ending the game).
    pub opening_plies: usize,
    /// Plies after which a game is adjudicated a draw.
    pub max_plies: usize,
    /// Worker threads (None: rayon's default).
    pub threads: Option<usize>,
    /// Stop early once the SPRT decides.
    pub sprt: Option<Sprt>,
    /// Draw a progress bar on stderr.
    pub progress: bool,
    /// Opening lines played before the random plies (empty: none).
    pub openings: Vec<Vec<Move>>,
    /// Raised from outside to stop the match ([`EvalError::Interrupted`]);
    /// checked between moves.
    pub stop: Option<Arc<AtomicBool>>,
    /// Forfeits in a row (in the order games finish) after which the match
    /// stops: an engine that fails every game is a setup problem, not a
    /// result.
    pub max_forfeits: usize,
    /// Endgame tables: network sides search with them (players get them
    /// where they are built, through `PlayerOptions`).
    pub egtb: Option<Arc<Tables>>,
    /// With `egtb`: a game whose position the tables cover ends at once
    /// with their result (`EndReason::Tablebase`).
    pub adjudicate: bool,
    /// Told of every game's start, moves and end (`rafle eval --watch`).
    pub watcher: Option<Watcher>,
}

/// What a watcher of a match is told, on the threads that play the games
/// (so it should be quick). Games are numbered from 0 in their match; the
/// matches of a round robin are played one after the other.
#[derive(Debug)]
pub enum GameEvent<'a> {
    /// Game `game` starts, its opening played.
    Started {
        game: usize,
        white: &'a str,
        black: &'a str,
        position: &'a Game,
    },
    /// A move of game `game` was played; `position` is after it.
    Moved { game: usize, position: &'a Game },
    /// Game `record.round - 1` is over.
    Ended { record: &'a GameRecord },
}

/// A function told of every [`GameEvent`] of a match.
#[derive(Clone)]
pub struct Watcher(pub Arc<dyn Fn(&GameEvent) + Send + Sync>);

impl std::fmt::Debug for Watcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Watcher")
    }
}

impl ArenaConfig {
    fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Tells the watcher, if there is one.
    fn tell(&self, event: GameEvent) {
        if let Some(w) = &self.watcher {
            (w.0)(&event);
        }
    }
}

/// One side of a match.
#[derive(Clone)]
pub enum Side {
    /// Moves by itself, one game at a time (random, greedy, alpha-beta,
    /// UCT, or any other [`Player`]).
    Player(PlayerFactory),
    /// rafle's network search over an evaluator; its leaves of all games of
    /// the match go to the evaluator together, one call per round.
    Network(NetworkSide),
}

/// A network side: the evaluator and the search it drives.
#[derive(Clone)]
pub struct NetworkSide {
    pub name: String,
    pub evaluator: SharedEvaluator,
    pub params: SearchParams,
    /// Simulations per step (0: the policy's best legal action).
    pub simulations: usize,
}

impl std::fmt::Debug for NetworkSide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetworkSide")
            .field("name", &self.name)
            .field("params", &self.params)
            .field("simulations", &self.simulations)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Side::Player(_) => f.write_str("Side::Player"),
            Side::Network(n) => n.fmt(f),
        }
    }
}

impl Side {
    /// This side as a player of one game at a time (a network side then
    /// evaluates its own leaves: rafle as an engine, Python's `choose`).
    pub fn factory(&self) -> PlayerFactory {
        match self {
            Side::Player(f) => f.clone(),
            Side::Network(n) => {
                let n = n.clone();
                Arc::new(move |seed| {
                    let shared = n.evaluator.clone();
                    let evaluator =
                        move |l: &rafle_search::network::Leaves, lo: &mut [f32], v: &mut [f32]| {
                            shared
                                .lock()
                                .unwrap_or_else(|p| p.into_inner())
                                .evaluate(l, lo, v)
                        };
                    Box::new(rafle_search::network::NetworkPlayer::new(
                        n.name.clone(),
                        evaluator,
                        n.params.clone(),
                        n.simulations,
                        seed,
                    )) as Box<dyn Player>
                })
            }
        }
    }
}

impl From<PlayerFactory> for Side {
    fn from(f: PlayerFactory) -> Side {
        Side::Player(f)
    }
}

impl Default for ArenaConfig {
    fn default() -> Self {
        ArenaConfig {
            games: 100,
            seed: 0,
            opening_plies: 4,
            max_plies: 400,
            threads: None,
            sprt: None,
            progress: false,
            openings: Vec::new(),
            stop: None,
            max_forfeits: 5,
            egtb: None,
            adjudicate: false,
            watcher: None,
        }
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 1-based game number in the match.
    pub round: usize,
    pub variant: Variant,
    pub white: String,
    pub black: String,
    /// Was player A White?
    pub a_is_white: bool,
    /// The first `opening_plies` moves were not chosen by the players.
    pub opening_plies: usize,
    /// Where they came from: "4 random plies", "list 3 + 2 random plies".
    pub opening: String,
    /// Every move from the start position (the last one may be the illegal
    /// move of a game lost that way; it is not recorded then).
    pub moves: Vec<Move>,
    /// None for a draw.
    pub winner: Option<Color>,
    /// How it ended: a rule, `MaxPlies` (adjudicated a draw) or a forfeit
    /// (`IllegalMove`, or an engine's `TimeForfeit`, `EngineFailure`,
    /// `ProtocolError`: that player lost).
    pub termination: EndReason,
    /// A forfeit's detail: who, and what happened (the engine's move and
    /// the position for an illegal move, its exit status, its last line);
    /// and an engine's own word on the result where it differs (a DXP
    /// engine's GAMEEND reason). Written as a PDN comment.
    pub detail: Option<String>,
}

impl GameRecord {
    /// The names of player A and player B.
    pub fn names(&self) -> (&str, &str) {
        if self.a_is_white {
            (&self.white, &self.black)
        } else {
            (&self.black, &self.white)
        }
    }

    /// The result from player A's side.
    pub fn a_result(&self) -> Wdl {
        let a = if self.a_is_white {
            Color::White
        } else {
            Color::Black
        };
        match self.winner {
            None => Wdl {
                wins: 0,
                draws: 1,
                losses: 0,
            },
            Some(c) if c == a => Wdl {
                wins: 1,
                draws: 0,
                losses: 0,
            },
            Some(_) => Wdl {
                wins: 0,
                draws: 0,
                losses: 1,
            },
        }
    }
}

/// Search effort of one side over a match. A network side's seconds are
/// its tree work plus its share of the evaluator calls.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Effort {
    pub moves: u64,
    pub nodes: u64,
    pub seconds: f64,
}

impl Effort {
    fn add(&mut self, o: &Effort) {
        self.moves += o.moves;
        self.nodes += o.nodes;
        self.seconds += o.seconds;
    }

    /// Nodes per second of thinking (0 when it never searched).
    pub fn nodes_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.nodes as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// The outcome of a match, from player A's side.
#[derive(Clone, Debug)]
pub struct MatchResult {
    pub variant: Variant,
    pub a: String,
    pub b: String,
    pub wdl: Wdl,
    /// A's points per colour-swapped pair (games `2k`, `2k + 1`).
    pub penta: Pentanomial,
    pub games: Vec<GameRecord>,
    /// The SPRT decision and final log-likelihood ratio (pentanomial), if
    /// one was run.
    pub sprt: Option<(SprtDecision, f64)>,
    pub a_effort: Effort,
    pub b_effort: Effort,
    /// Evaluator calls of a network side A / B (batch sizes, speed). Two
    /// sides sharing one evaluator share one batch and these figures.
    pub a_network: Option<EvalStats>,
    pub b_network: Option<EvalStats>,
    /// Wall time of the match.
    pub seconds: f64,
}

/// Reads an opening list: one opening per line, moves in PDN notation from
/// the start position (move numbers allowed), `#` starts a comment.
pub fn parse_openings(variant: Variant, text: &str) -> Result<Vec<Vec<Move>>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut g = Game::new(variant);
        for tok in line.split_whitespace() {
            let mv = tok.trim_start_matches(|c: char| c.is_ascii_digit());
            let mv = if mv.starts_with('.') {
                mv.trim_start_matches('.')
            } else {
                tok
            };
            if mv.is_empty() {
                continue;
            }
            if g.is_over() {
                return Err(format!(
                    "opening line {}: the game is over before {mv}",
                    i + 1
                ));
            }
            g.play_str(mv)
                .map_err(|e| format!("opening line {}: {e}", i + 1))?;
        }
        if g.is_over() {
            return Err(format!("opening line {}: the game is over", i + 1));
        }
        out.push(g.history().copied().collect());
    }
    if out.is_empty() {
        return Err("the opening list has no opening".into());
    }
    Ok(out)
}

fn player_seed(seed: u64, game: usize, side: u64) -> u64 {
    Rng::stream(seed, (game as u64) << 1 | side).next_u64()
}

/// The opening of pair `k` and its description ("4 random plies",
/// "list 3 + 2 random plies").
fn pair_opening(variant: Variant, cfg: &ArenaConfig, k: usize) -> (Vec<Move>, String) {
    let mut rng = Rng::stream(cfg.seed, k as u64);
    let (prefix, from_list) = match cfg.openings.len() {
        0 => (&[][..], None),
        n => (cfg.openings[k % n].as_slice(), Some(k % n + 1)),
    };
    let opening = random_opening(variant, prefix, cfg.opening_plies, &mut rng);
    let random_plies = opening.len() - prefix.len().min(opening.len());
    let desc = match from_list {
        None => format!("{random_plies} random plies"),
        Some(i) => format!("list {i} + {random_plies} random plies"),
    };
    (opening, desc)
}

/// The start of game `game` (0-based) of a match: its opening played from
/// the start position, or where an opening move failed.
fn opening_game(variant: Variant, opening: &[Move]) -> Game {
    let mut g = Game::new(variant);
    for m in opening {
        if g.play(m).is_err() {
            break;
        }
    }
    g
}

/// How a game ended: the winner (None: a draw), the reason, a forfeit's detail.
type End = (Option<Color>, EndReason, Option<String>);

/// How a game stands before the next move: over by the rules, adjudicated
/// by the tables (when `tables` is given) or at `max_plies`, or going on
/// (None).
fn game_end(g: &Game, max_plies: usize, tables: Option<&Tables>) -> Option<End> {
    if let Some(o) = g.outcome() {
        return Some((o.winner, o.reason, None));
    }
    if let Some(v) = tables.and_then(|tb| rafle_search::tables::probe(tb, g.position())) {
        let winner = match v {
            Value::Win(_) => Some(g.turn()),
            Value::Loss(_) => Some(g.turn().opponent()),
            Value::Draw => None,
        };
        return Some((winner, EndReason::Tablebase, None));
    }
    (g.ply() >= max_plies).then_some((None, EndReason::MaxPlies, None))
}

impl ArenaConfig {
    /// The tables that adjudicate, if any.
    fn adjudicator(&self) -> Option<&Tables> {
        self.egtb.as_deref().filter(|_| self.adjudicate)
    }
}

/// A plain player's move at `g`, played, with its effort; or the end of a
/// game the player forfeits (a move that is not legal, or its own forfeit).
fn player_move(p: &mut dyn Player, g: &mut Game, effort: &mut Effort) -> Result<Move, End> {
    let nodes0 = p.nodes();
    let t = Instant::now();
    let chosen = p.choose(g);
    effort.seconds += t.elapsed().as_secs_f64();
    effort.nodes += p.nodes().saturating_sub(nodes0);
    effort.moves += 1;
    let loser = g.turn();
    let lost = |reason, detail: String| (Some(loser.opponent()), reason, Some(detail));
    match chosen {
        Ok(m) => match g.play(&m) {
            Ok(()) => Ok(m),
            Err(e) => Err(lost(
                EndReason::IllegalMove,
                format!("{}: {e} at {}", p.name(), g.fen()),
            )),
        },
        Err(f) => Err(lost(f.reason, format!("{}: {}", p.name(), f.detail))),
    }
}

/// Tells `players` that the game is over ([`Player::game_over`]); what an
/// engine says about the result when it differs goes into the detail.
fn tell_game_over<'p>(
    players: impl IntoIterator<Item = &'p mut Box<dyn Player>>,
    game: &Game,
    end: &mut End,
) {
    for p in players {
        if let Some(note) = p.game_over(game, end.0) {
            let note = format!("{}: {note}", p.name());
            end.2 = Some(match end.2.take() {
                Some(d) => format!("{d}; {note}"),
                None => note,
            });
        }
    }
}

/// A game as played: the final game, how it ended, White's and Black's effort.
struct Played {
    game: Game,
    end: End,
    effort: [Effort; 2],
}

/// Plays one game (`seat`'s) from `opening`; None when stopped.
fn play_game(
    variant: Variant,
    white: &mut dyn Player,
    black: &mut dyn Player,
    opening: &[Move],
    cfg: &ArenaConfig,
    seat: &Seat,
) -> Option<Played> {
    let mut game = opening_game(variant, opening);
    let mut effort = [Effort::default(); 2];
    cfg.tell(seat.started(&game));
    loop {
        if let Some(end) = game_end(&game, cfg.max_plies, cfg.adjudicator()) {
            return Some(Played { game, end, effort });
        }
        if cfg.stopped() {
            return None;
        }
        let side = game.turn();
        let p: &mut dyn Player = match side {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        if let Err(end) = player_move(p, &mut game, &mut effort[side.index()]) {
            return Some(Played { game, end, effort });
        }
        cfg.tell(GameEvent::Moved {
            game: seat.game,
            position: &game,
        });
    }
}

/// Who played game `game` (0-based) of a match, from which opening.
struct Seat {
    game: usize,
    a_is_white: bool,
    /// White's and Black's names.
    names: [String; 2],
    opening_plies: usize,
    opening: String,
}

impl Seat {
    /// The watcher's news that this seat's game starts at `g`.
    fn started<'a>(&'a self, g: &'a Game) -> GameEvent<'a> {
        GameEvent::Started {
            game: self.game,
            white: &self.names[0],
            black: &self.names[1],
            position: g,
        }
    }

    /// The record of this seat's game `g`, ended by `end`.
    fn record(&self, variant: Variant, g: &Game, end: End) -> GameRecord {
        let [white, black] = self.names.clone();
        GameRecord {
            round: self.game + 1,
            variant,
            white,
            black,
            a_is_white: self.a_is_white,
            opening_plies: self.opening_plies,
            opening: self.opening.clone(),
            moves: g.history().copied().collect(),
            winner: end.0,
            termination: end.1,
            detail: end.2,
        }
    }
}

/// A's and B's efforts from White's and Black's.
fn by_player(effort: [Effort; 2], a_is_white: bool) -> (Effort, Effort) {
    if a_is_white {
        (effort[0], effort[1])
    } else {
        (effort[1], effort[0])
    }
}

/// The games of a batch of pairs with their A and B efforts.
type PairGames = Vec<(GameRecord, Effort, Effort)>;

/// The two games of pair `k` between two plain players; None when stopped.
fn play_pair(
    variant: Variant,
    a: &PlayerFactory,
    b: &PlayerFactory,
    cfg: &ArenaConfig,
    k: usize,
    bar: &Tally,
) -> Option<PairGames> {
    let (opening, desc) = pair_opening(variant, cfg, k);
    let mut out = Vec::with_capacity(2);
    for (j, a_is_white) in [(0, true), (1, false)] {
        if bar.aborted().is_some() {
            return None;
        }
        let game = 2 * k + j;
        let mut pa = a(player_seed(cfg.seed, game, 0));
        let mut pb = b(player_seed(cfg.seed, game, 1));
        let (white, black) = if a_is_white {
            (&mut pa, &mut pb)
        } else {
            (&mut pb, &mut pa)
        };
        let seat = Seat {
            game,
            a_is_white,
            names: [white.name(), black.name()],
            opening_plies: opening.len(),
            opening: desc.clone(),
        };
        let mut played = play_game(
            variant,
            white.as_mut(),
            black.as_mut(),
            &opening,
            cfg,
            &seat,
        )?;
        tell_game_over([white, black], &played.game, &mut played.end);
        let rec = seat.record(variant, &played.game, played.end);
        bar.record(&rec);
        cfg.tell(GameEvent::Ended { record: &rec });
        let (ea, eb) = by_player(played.effort, a_is_white);
        out.push((rec, ea, eb));
    }
    Some(out)
}

/// Running W/D/L shown on the progress bar, and the forfeits in a row.
struct Tally {
    bar: ProgressBar,
    w: AtomicU32,
    d: AtomicU32,
    l: AtomicU32,
    max_forfeits: usize,
    /// Forfeits in a row, and why the match stops once there are too many.
    forfeits: Mutex<(usize, Option<String>)>,
}

impl Tally {
    fn new(total: usize, progress: bool, max_forfeits: usize) -> Tally {
        let bar = if progress {
            let b = ProgressBar::new(total as u64);
            if let Ok(style) = ProgressStyle::with_template(
                "{prefix} [{bar:30}] {pos}/{len} games  {msg}  {elapsed_precise} eta {eta}",
            ) {
                b.set_style(style.progress_chars("=> "));
            }
            b
        } else {
            ProgressBar::hidden()
        };
        Tally {
            bar,
            w: AtomicU32::new(0),
            d: AtomicU32::new(0),
            l: AtomicU32::new(0),
            max_forfeits: max_forfeits.max(1),
            forfeits: Mutex::new((0, None)),
        }
    }

    /// Why the match stops, once `max_forfeits` games in a row were forfeits.
    fn aborted(&self) -> Option<String> {
        self.forfeits
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .1
            .clone()
    }

    fn count_forfeit(&self, rec: &GameRecord) {
        let mut f = self.forfeits.lock().unwrap_or_else(|p| p.into_inner());
        if !rec.termination.is_forfeit() {
            f.0 = 0;
            return;
        }
        f.0 += 1;
        if f.0 >= self.max_forfeits && f.1.is_none() {
            f.1 = Some(format!(
                "stopped after {} forfeits in a row; the last, game {}: {} ({})",
                f.0,
                rec.round,
                rec.termination,
                rec.detail.as_deref().unwrap_or("no detail")
            ));
        }
    }

    fn record(&self, rec: &GameRecord) {
        self.count_forfeit(rec);
        if self.bar.prefix().is_empty() {
            let (a, b) = rec.names();
            self.bar.set_prefix(format!("{a} vs {b}"));
        }
        let r = &rec.a_result();
        self.w.fetch_add(r.wins, Ordering::Relaxed);
        self.d.fetch_add(r.draws, Ordering::Relaxed);
        self.l.fetch_add(r.losses, Ordering::Relaxed);
        let wdl = Wdl {
            wins: self.w.load(Ordering::Relaxed),
            draws: self.d.load(Ordering::Relaxed),
            losses: self.l.load(Ordering::Relaxed),
        };
        self.bar.set_message(format!(
            "+{} ={} -{}  score {:.1}%",
            wdl.wins,
            wdl.draws,
            wdl.losses,
            100.0 * wdl.score()
        ));
        self.bar.inc(1);
    }
}

fn with_pool<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> T {
    match threads {
        Some(n) => match rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build()
        {
            Ok(pool) => pool.install(f),
            Err(_) => f(),
        },
        None => f(),
    }
}

/// Plays a match of A against B (see the module docs). Fails only when
/// an evaluator fails or the match is stopped.
pub fn play_match(
    variant: Variant,
    a: &Side,
    b: &Side,
    cfg: &ArenaConfig,
) -> Result<MatchResult, EvalError> {
    let start = Instant::now();
    let pairs = cfg.games.div_ceil(2).max(1);
    let tally = Tally::new(2 * pairs, cfg.progress, cfg.max_forfeits);
    let mut result = MatchResult {
        variant,
        a: String::new(),
        b: String::new(),
        wdl: Wdl::default(),
        penta: Pentanomial::default(),
        games: Vec::with_capacity(2 * pairs),
        sprt: None,
        a_effort: Effort::default(),
        b_effort: Effort::default(),
        a_network: None,
        b_network: None,
        seconds: 0.0,
    };
    let batch = if cfg.sprt.is_some() {
        SPRT_BATCH_PAIRS
    } else {
        pairs
    };
    let mut net = lockstep::Networks::new(a, b);
    with_pool(cfg.threads, || -> Result<(), EvalError> {
        let mut next = 0;
        while next < pairs {
            let end = (next + batch).min(pairs);
            let done: PairGames = match (a, b) {
                (Side::Player(fa), Side::Player(fb)) => (next..end)
                    .into_par_iter()
                    .map(|k| play_pair(variant, fa, fb, cfg, k, &tally))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| match tally.aborted() {
                        Some(why) => EvalError::Aborted(why),
                        None => EvalError::Interrupted,
                    })?
                    .into_iter()
                    .flatten()
                    .collect(),
                _ => net.play(variant, [a, b], cfg, next..end, &tally)?,
            };
            for pair in done.chunks(2) {
                for (r, ea, eb) in pair {
                    let x = r.a_result();
                    result.wdl.wins += x.wins;
                    result.wdl.draws += x.draws;
                    result.wdl.losses += x.losses;
                    result.a_effort.add(ea);
                    result.b_effort.add(eb);
                }
                if let [(g1, ..), (g2, ..)] = pair {
                    result.penta.add_pair(&g1.a_result(), &g2.a_result());
                }
            }
            result.games.extend(done.into_iter().map(|(r, ..)| r));
            next = end;
            if let Some(s) = &cfg.sprt {
                let llr = s.llr_pentanomial(&result.penta);
                let decision = s.decide_llr(llr);
                result.sprt = Some((decision, llr));
                if decision != SprtDecision::Continue {
                    break;
                }
            }
        }
        Ok(())
    })?;
    tally.bar.finish_and_clear();
    (result.a_network, result.b_network) = net.stats();
    // Names as the players give them (no extra player is built for them).
    if let Some(g) = result.games.first() {
        let (a, b) = g.names();
        (result.a, result.b) = (a.to_string(), b.to_string());
    }
    result.seconds = start.elapsed().as_secs_f64();
    Ok(result)
}

/// Results of a round robin: every pair of players meets once (one match of
/// `cfg.games` games).
#[derive(Clone, Debug)]
pub struct RoundRobin {
    pub names: Vec<String>,
    /// (i, j, match of i as A against j as B), i < j.
    pub matches: Vec<(usize, usize, MatchResult)>,
    /// Elo of each player, the anchor at 0 (see [`crate::elo::ratings`]).
    pub ratings: Vec<f64>,
    pub anchor: usize,
}

impl RoundRobin {
    /// W/D/L of i against j.
    pub fn wdl(&self, i: usize, j: usize) -> Option<Wdl> {
        self.matches.iter().find_map(|(x, y, m)| {
            if (*x, *y) == (i, j) {
                Some(m.wdl)
            } else if (*x, *y) == (j, i) {
                Some(m.wdl.flipped())
            } else {
                None
            }
        })
    }
}

/// Plays every pair of `players` (name, side); ratings are anchored at the
/// player named `random` if there is one, else at the first.
pub fn round_robin(
    variant: Variant,
    players: &[(String, Side)],
    cfg: &ArenaConfig,
) -> Result<RoundRobin, EvalError> {
    let n = players.len();
    let mut matches = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let m = play_match(variant, &players[i].1, &players[j].1, cfg)?;
            matches.push((i, j, m));
        }
    }
    let anchor = players
        .iter()
        .position(|(name, _)| name == "random")
        .unwrap_or(0);
    let pairs: Vec<(usize, usize, Wdl)> = matches.iter().map(|(i, j, m)| (*i, *j, m.wdl)).collect();
    let ratings = crate::elo::ratings(n, &pairs, anchor);
    Ok(RoundRobin {
        names: players.iter().map(|(name, _)| name.clone()).collect(),
        matches,
        ratings,
        anchor,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rafle_egtb::index::Indexer;
    use rafle_egtb::{build, Material, Selection};

    /// Adjudication: a game the tables cover ends with their result, one
    /// they do not (the start) goes on, and without tables nothing is
    /// adjudicated.
    #[test]
    fn the_tables_adjudicate_what_they_cover() {
        for v in Variant::ALL {
            let m = Material::example(v);
            let dir =
                std::env::temp_dir().join(format!("rafle-arena-adj-{}-{v}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            build(v, &dir, &Selection::Slices(vec![m]), &|_| {}).unwrap();
            let tb = Tables::open(v, &dir).unwrap();
            let ix = Indexer::new(v);
            let slice = ix.slice(m).unwrap();
            let mut rng = Rng::new(1);
            let mut seen = [0; 3];
            while seen.iter().sum::<usize>() < 30 {
                let game = Game::from_position(v, ix.random_position(&slice, &mut rng));
                if game.is_over() {
                    continue;
                }
                let (winner, reason, _) = game_end(&game, 1000, Some(&tb)).unwrap();
                assert_eq!(reason, EndReason::Tablebase, "{v}: {}", game.fen());
                let (want, k) = match tb.probe(game.position()).unwrap() {
                    Value::Win(_) => (Some(game.turn()), 0),
                    Value::Draw => (None, 1),
                    Value::Loss(_) => (Some(game.turn().opponent()), 2),
                };
                assert_eq!(winner, want, "{v}: {}", game.fen());
                assert!(game_end(&game, 1000, None).is_none());
                seen[k] += 1;
            }
            assert!(game_end(&Game::new(v), 1000, Some(&tb)).is_none(), "{v}");
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}
