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
//!
//! Instead of random plies, an opening list may be given
//! ([`ArenaConfig::openings`], read by [`parse_openings`]): pair `k` then
//! plays opening `k mod len` (both colours), followed by `opening_plies`
//! random plies (0 to play the list as is).

use crate::elo::{Pentanomial, Sprt, SprtDecision, Wdl};
use crate::{Player, PlayerFactory};
use indicatif::{ProgressBar, ProgressStyle};
use rafle_core::rng::Rng;
use rafle_core::{Color, EndReason, Game, Move, Variant};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

/// Pairs played between two SPRT checks (fixed, so stops are reproducible).
pub const SPRT_BATCH_PAIRS: usize = 8;

/// How a match is played.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// Games per match (rounded up to an even number: pairs).
    pub games: usize,
    pub seed: u64,
    /// Uniformly random plies at the start of each pair.
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
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules (no legal move, or a draw rule).
    Rule(EndReason),
    /// The `max_plies` cap: adjudicated a draw.
    MaxPlies,
    /// A player returned an illegal move and lost.
    IllegalMove,
}

impl std::fmt::Display for Termination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Termination::Rule(r) => f.write_str(r.name()),
            Termination::MaxPlies => f.write_str("max plies (adjudicated draw)"),
            Termination::IllegalMove => f.write_str("illegal move (loss)"),
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
    pub termination: Termination,
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

/// Search effort of one side over a match.
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
}

/// `plies` uniformly random moves after `prefix` (played from the start
/// position) that do not end the game (fewer if every try ended it).
pub fn random_opening(variant: Variant, prefix: &[Move], plies: usize, rng: &mut Rng) -> Vec<Move> {
    let mut start = Game::new(variant);
    for m in prefix {
        if start.play(m).is_err() {
            break;
        }
    }
    for _ in 0..100 {
        let mut g = start.clone();
        let mut added = 0;
        while added < plies && !g.is_over() {
            let legal = g.legal_moves();
            let m = legal[rng.below(legal.len())];
            let _ = g.play(&m);
            added += 1;
        }
        if !g.is_over() {
            return g.history().copied().collect();
        }
    }
    start.history().copied().collect()
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

/// Plays one game; returns the record (round/names filled by the caller's
/// arguments) and the effort of White and Black.
pub fn play_game(
    variant: Variant,
    white: &mut dyn Player,
    black: &mut dyn Player,
    opening: &[Move],
    max_plies: usize,
) -> (Vec<Move>, Option<Color>, Termination, [Effort; 2]) {
    let mut g = Game::new(variant);
    let mut effort = [Effort::default(); 2];
    for m in opening {
        if g.play(m).is_err() {
            break;
        }
    }
    loop {
        if let Some(o) = g.outcome() {
            let moves = g.history().copied().collect();
            return (moves, o.winner, Termination::Rule(o.reason), effort);
        }
        if g.ply() >= max_plies {
            let moves = g.history().copied().collect();
            return (moves, None, Termination::MaxPlies, effort);
        }
        let side = g.turn();
        let p: &mut dyn Player = match side {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        let nodes0 = p.nodes();
        let t = Instant::now();
        let m = p.choose(&g);
        let e = &mut effort[side.index()];
        e.seconds += t.elapsed().as_secs_f64();
        e.nodes += p.nodes() - nodes0;
        e.moves += 1;
        if g.play(&m).is_err() {
            let moves = g.history().copied().collect();
            return (
                moves,
                Some(side.opponent()),
                Termination::IllegalMove,
                effort,
            );
        }
    }
}

/// The two games of pair `k`; also A's and B's effort.
fn play_pair(
    variant: Variant,
    a: &PlayerFactory,
    b: &PlayerFactory,
    cfg: &ArenaConfig,
    k: usize,
    bar: &Tally,
) -> (Vec<GameRecord>, Effort, Effort) {
    let mut rng = Rng::stream(cfg.seed, k as u64);
    let (prefix, from_list) = match cfg.openings.len() {
        0 => (&[][..], None),
        n => (cfg.openings[k % n].as_slice(), Some(k % n + 1)),
    };
    let opening = random_opening(variant, prefix, cfg.opening_plies, &mut rng);
    let random_plies = opening.len() - prefix.len().min(opening.len());
    let opening_desc = match from_list {
        None => format!("{random_plies} random plies"),
        Some(i) => format!("list {i} + {random_plies} random plies"),
    };
    let mut records = Vec::with_capacity(2);
    let (mut ea, mut eb) = (Effort::default(), Effort::default());
    for (j, a_is_white) in [(0, true), (1, false)] {
        let game = 2 * k + j;
        let mut pa = a(player_seed(cfg.seed, game, 0));
        let mut pb = b(player_seed(cfg.seed, game, 1));
        let (white, black) = if a_is_white {
            (&mut pa, &mut pb)
        } else {
            (&mut pb, &mut pa)
        };
        let (wname, bname) = (white.name(), black.name());
        let (moves, winner, termination, effort) = play_game(
            variant,
            white.as_mut(),
            black.as_mut(),
            &opening,
            cfg.max_plies,
        );
        let (a_side, b_side) = if a_is_white { (0, 1) } else { (1, 0) };
        ea.add(&effort[a_side]);
        eb.add(&effort[b_side]);
        let rec = GameRecord {
            round: game + 1,
            variant,
            white: wname,
            black: bname,
            a_is_white,
            opening_plies: opening.len(),
            opening: opening_desc.clone(),
            moves,
            winner,
            termination,
        };
        bar.record(&rec);
        records.push(rec);
    }
    (records, ea, eb)
}

/// Running W/D/L shown on the progress bar.
struct Tally {
    bar: ProgressBar,
    w: AtomicU32,
    d: AtomicU32,
    l: AtomicU32,
}

impl Tally {
    fn new(total: usize, progress: bool) -> Tally {
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
        }
    }

    fn record(&self, rec: &GameRecord) {
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

/// Plays a match of A against B (see the module docs).
pub fn play_match(
    variant: Variant,
    a: &PlayerFactory,
    b: &PlayerFactory,
    cfg: &ArenaConfig,
) -> MatchResult {
    let pairs = cfg.games.div_ceil(2).max(1);
    let tally = Tally::new(2 * pairs, cfg.progress);
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
    };
    let batch = if cfg.sprt.is_some() {
        SPRT_BATCH_PAIRS
    } else {
        pairs
    };
    with_pool(cfg.threads, || {
        let mut next = 0;
        while next < pairs {
            let end = (next + batch).min(pairs);
            let done: Vec<_> = (next..end)
                .into_par_iter()
                .map(|k| play_pair(variant, a, b, cfg, k, &tally))
                .collect();
            for (records, ea, eb) in done {
                for r in &records {
                    let x = r.a_result();
                    result.wdl.wins += x.wins;
                    result.wdl.draws += x.draws;
                    result.wdl.losses += x.losses;
                }
                if let [g1, g2] = records.as_slice() {
                    result.penta.add_pair(&g1.a_result(), &g2.a_result());
                }
                result.games.extend(records);
                result.a_effort.add(&ea);
                result.b_effort.add(&eb);
            }
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
    });
    tally.bar.finish_and_clear();
    // Names as the players give them (no extra player is built for them).
    if let Some(g) = result.games.first() {
        let (a, b) = g.names();
        (result.a, result.b) = (a.to_string(), b.to_string());
    }
    result
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

/// Plays every pair of `players` (name, factory); ratings are anchored at the
/// player named `random` if there is one, else at the first.
pub fn round_robin(
    variant: Variant,
    players: &[(String, PlayerFactory)],
    cfg: &ArenaConfig,
) -> RoundRobin {
    let n = players.len();
    let mut matches = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let m = play_match(variant, &players[i].1, &players[j].1, cfg);
            matches.push((i, j, m));
        }
    }
    let anchor = players
        .iter()
        .position(|(name, _)| name == "random")
        .unwrap_or(0);
    let pairs: Vec<(usize, usize, Wdl)> = matches.iter().map(|(i, j, m)| (*i, *j, m.wdl)).collect();
    let ratings = crate::elo::ratings(n, &pairs, anchor);
    RoundRobin {
        names: players.iter().map(|(name, _)| name.clone()).collect(),
        matches,
        ratings,
        anchor,
    }
}
