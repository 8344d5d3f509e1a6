//! `rafle eval`: matches and round robins between players.
//!
//! ```text
//! rafle eval --variant V --a SPEC --b SPEC --games N [--pdn out.pdn] [--seed S]
//!            [--threads T] [--sprt elo0,elo1 [--alpha A --beta B]]
//!            [--openings FILE] [--opening-plies K] [--max-plies P]
//! rafle eval --variant V --model M --vs SPEC --games N      (--model M = --a model:M; zoo:V as is)
//! rafle eval --variant V --round-robin random,greedy,alphabeta:2 --games N
//! rafle eval --variant international --a alphabeta:4 --b "hub:/opt/scan/scan hub" \
//!            --engine-level move-time=0.1 --engine-param book=false --games 20
//! ```
//!
//! Player specs are those of `rafle_engine::parse_player` (rafle's players,
//! and engines: `hub:<command line>`, `dxp:<host>:<port>`); `model:PATH` is
//! resolved by [`resolve_player`] into a network side, whose leaves of all
//! games go to the network in one batch per round (the table then gives
//! each network side's average batch and evaluations per second).

use anyhow::{bail, Context};
use clap::Args;
use rafle_arena::elo::Sprt;
use rafle_arena::{pdn, report, ArenaConfig, GameRecord, Side};
use rafle_core::Variant;
use rafle_engine::notation::Convention;
use rafle_engine::{EngineOptions, Level};
use rafle_search::{Checkpoint, PlayerOptions, PlayerSpec};
use std::path::PathBuf;
use std::time::Duration;

const PLAYERS: &str = "Players: random, greedy, alphabeta:D, alphabeta:t=0.5s, uct:N, \
egtb (perfect inside the endgame tables of --egtb, alphabeta:4 outside them), \
model:PATH[:sims], zoo:VARIANT[:sims], and engines: hub:<command line> (a Hub v2 engine, e.g. \
\"hub:/opt/scan/scan hub\"), dxp:<host>:<port> (a DXP engine listening there). An engine that \
crashes, stalls, sends garbage or an illegal move loses that game (the reason is in the table \
and the PDN); --max-forfeits in a row stop the match.";

#[derive(Args, Debug)]
#[command(after_help = PLAYERS)]
pub struct EvalArgs {
    #[arg(long, value_parser = super::variant)]
    pub variant: rafle_core::Variant,
    /// Player A, e.g. alphabeta:4, uct:400, greedy, random.
    #[arg(long)]
    pub a: Option<String>,
    /// Player B.
    #[arg(long)]
    pub b: Option<String>,
    /// A model checkpoint as player A (the same as --a model:PATH), or a
    /// shipped one (zoo:VARIANT[:sims]).
    #[arg(long, conflicts_with = "a")]
    pub model: Option<String>,
    /// The opponent of --model (the same as --b).
    #[arg(long, conflicts_with = "b")]
    pub vs: Option<String>,
    /// Comma-separated players, each meeting every other one.
    #[arg(long, conflicts_with_all = ["a", "b", "model", "vs"])]
    pub round_robin: Option<String>,
    /// Games per match (played in colour-swapped pairs).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Write every game to this PDN file.
    #[arg(long)]
    pub pdn: Option<PathBuf>,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Stop early by SPRT: "elo0,elo1" (H0 elo <= elo0 against H1 elo >= elo1).
    #[arg(long)]
    pub sprt: Option<String>,
    /// SPRT false positive rate.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// SPRT false negative rate.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Random plies opening each pair of games (after the --openings line).
    #[arg(long, default_value_t = 4)]
    pub opening_plies: usize,
    /// Opening list: one line of moves per opening, used in turn by the pairs.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Plies after which a game is adjudicated a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Leaves a model side's search may ask for per round (default: the
    /// checkpoint's search.leaves_per_round); more fills larger batches
    /// when few games run at once.
    #[arg(long)]
    pub leaves_per_round: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub engines: EngineArgs,
    /// Forfeits in a row (crashes, time, illegal moves) after which the
    /// match stops.
    #[arg(long, default_value_t = 5)]
    pub max_forfeits: usize,
    /// Endgame tables (a folder `rafle egtb build` wrote): every alpha-beta,
    /// UCT and network player takes their exact values where they cover a
    /// position, and the player `egtb` plays by them.
    #[arg(long)]
    pub egtb: Option<PathBuf>,
    /// With --egtb: a game that reaches the tables ends with their result
    /// (termination "tablebase" in the table and the PDN).
    #[arg(long, requires = "egtb")]
    pub adjudicate: bool,
    /// Serve the games live on http://127.0.0.1:PORT/ (boards, moves and
    /// the running score, in the browser) while the match is played.
    #[arg(long, value_name = "PORT")]
    pub watch: Option<u16>,
}

/// The tables of `--egtb DIR` for `variant`, opened once for every player.
pub fn open_tables(
    dir: Option<&std::path::Path>,
    variant: Variant,
) -> anyhow::Result<Option<std::sync::Arc<rafle_egtb::Tablebase>>> {
    dir.map(|d| {
        rafle_egtb::Tablebase::open(variant, d)
            .map(std::sync::Arc::new)
            .map_err(|e| anyhow::anyhow!("--egtb: {e}"))
    })
    .transpose()
}

/// How engine players (hub:, dxp:) are run.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// Engine level: "move-time=0.2", "depth=6", "nodes=100000", or a
    /// clock "time=60 [moves=75] [inc=1]" (seconds; DXP takes a clock
    /// only, in whole minutes).
    #[arg(long)]
    pub engine_level: Option<String>,
    /// An engine parameter name=value, set before init (Hub; repeatable).
    #[arg(long = "engine-param")]
    pub engine_params: Vec<String>,
    /// Games in flight when a side is an engine (one process or
    /// connection each).
    #[arg(long, default_value_t = 1)]
    pub engine_concurrency: usize,
    /// Seconds an engine may take to start, and to move at a depth or
    /// nodes level.
    #[arg(long, default_value_t = 60.0)]
    pub engine_timeout: f64,
    /// Square numbering on boards other than 10x10: pydraughts (0.6 and
    /// later) or rafle (also pydraughts 0.5's, lidraughts-bot's today).
    #[arg(long, value_parser = numbering, default_value = "pydraughts")]
    pub engine_numbering: Convention,
}

/// A numbering convention by name (an error lists the allowed ones).
pub fn numbering(s: &str) -> Result<Convention, String> {
    s.parse()
}

impl EngineArgs {
    pub fn options(
        &self,
        stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    ) -> anyhow::Result<EngineOptions> {
        let level = self
            .engine_level
            .as_deref()
            .map(Level::parse)
            .transpose()
            .map_err(|e| anyhow::anyhow!("--engine-level: {e}"))?;
        let params = self
            .engine_params
            .iter()
            .map(|p| match p.split_once('=') {
                Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.to_string())),
                _ => bail!("--engine-param {p:?}: expected name=value"),
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        if self.engine_concurrency == 0 {
            bail!("--engine-concurrency must be at least 1");
        }
        if !(self.engine_timeout > 0.0 && self.engine_timeout <= 86_400.0) {
            bail!("--engine-timeout must be in (0, 86400] seconds");
        }
        Ok(EngineOptions {
            level,
            params,
            timeout: Duration::from_secs_f64(self.engine_timeout),
            stop,
            numbering: self.engine_numbering,
        })
    }
}

/// The side of a spec given as text (read here, once; see [`spec_side`]).
pub fn resolve_player(
    spec: &str,
    variant: Variant,
    leaves: Option<usize>,
    engines: &EngineOptions,
    players: &PlayerOptions,
) -> anyhow::Result<Side> {
    spec_side(&spec.parse()?, variant, leaves, engines, players)
}

/// The side of a spec: a network spec (`model:`, `zoo:`) is a network side
/// (with `leaves` leaves per round if given), an engine spec an engine run
/// with `engines`, every other a player of rafle-search with `players`.
pub fn spec_side(
    spec: &PlayerSpec,
    variant: Variant,
    leaves: Option<usize>,
    engines: &EngineOptions,
    players: &PlayerOptions,
) -> anyhow::Result<Side> {
    let PlayerSpec::Network {
        checkpoint,
        simulations,
    } = spec
    else {
        return Ok(Side::Player(rafle_engine::build_player(
            spec, variant, engines, players,
        )?));
    };
    let mut side = network_side(checkpoint, *simulations, variant, spec)?;
    if let (Side::Network(n), Some(l)) = (&mut side, leaves) {
        n.params.leaves_per_round = l;
    }
    Ok(side)
}

#[cfg(feature = "torch")]
fn network_side(
    checkpoint: &Checkpoint,
    sims: Option<usize>,
    variant: Variant,
    spec: &PlayerSpec,
) -> anyhow::Result<Side> {
    rafle_zero::model::network_player(checkpoint, sims, variant, &spec.to_string())
}

#[cfg(not(feature = "torch"))]
fn network_side(
    _: &Checkpoint,
    _: Option<usize>,
    _: Variant,
    spec: &PlayerSpec,
) -> anyhow::Result<Side> {
    Err(super::needs_torch(spec))
}

/// Splits a list of players on commas, keeping `alphabeta:d=6,t=1s` and
/// `alphabeta:d=6,eval=zoo` whole (an option continues the spec before it).
pub fn split_players(list: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in list.split(',').map(str::trim) {
        let continues = ["t=", "d=", "eval="].iter().any(|o| part.starts_with(o));
        match out.last_mut() {
            Some(prev) if continues && prev.contains(':') => {
                prev.push(',');
                prev.push_str(part);
            }
            _ => out.push(part.to_string()),
        }
    }
    out
}

fn parse_sprt(text: &str, alpha: f64, beta: f64) -> anyhow::Result<Sprt> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [e0, e1] = parts.as_slice() else {
        bail!("--sprt {text:?}: expected two Elo values \"elo0,elo1\"");
    };
    let elo0: f64 = e0
        .parse()
        .with_context(|| format!("--sprt: {e0:?} is not a number"))?;
    let elo1: f64 = e1
        .parse()
        .with_context(|| format!("--sprt: {e1:?} is not a number"))?;
    Sprt::new(elo0, elo1, alpha, beta).map_err(|e| anyhow::anyhow!("--{e}"))
}

pub fn run(a: EvalArgs) -> anyhow::Result<()> {
    let variant = a.variant;
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    if a.max_plies == 0 {
        bail!("--max-plies must be at least 1");
    }
    if a.threads == Some(0) {
        bail!("--threads must be at least 1");
    }
    if a.leaves_per_round.is_some_and(|l| !(1..=256).contains(&l)) {
        bail!("--leaves-per-round must be in 1..=256");
    }
    if a.max_forfeits == 0 {
        bail!("--max-forfeits must be at least 1");
    }
    let stop = super::interrupt::stop_flag();
    let engines = a.engines.options(Some(stop.clone()))?;
    let egtb = open_tables(a.egtb.as_deref(), variant)?;
    let players = PlayerOptions { egtb: egtb.clone() };
    let specs = named_specs(&a)?;
    // One engine process or connection per game in flight.
    let threads = if specs
        .iter()
        .any(|(_, s)| matches!(s, PlayerSpec::Engine(_)))
    {
        Some(
            a.threads
                .unwrap_or(usize::MAX)
                .min(a.engines.engine_concurrency),
        )
    } else {
        a.threads
    };
    let mut cfg = ArenaConfig {
        games: a.games,
        seed: a.seed,
        opening_plies: a.opening_plies,
        max_plies: a.max_plies,
        sprt: a
            .sprt
            .as_deref()
            .map(|s| parse_sprt(s, a.alpha, a.beta))
            .transpose()?,
        progress: !a.quiet,
        threads,
        openings: match &a.openings {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                rafle_arena::play::parse_openings(variant, &text)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
            }
            None => Vec::new(),
        },
        stop: Some(stop),
        max_forfeits: a.max_forfeits,
        egtb,
        adjudicate: a.adjudicate,
        watcher: None,
    };
    let mut watching = None;
    if let Some(port) = a.watch {
        let names: Vec<&str> = specs.iter().map(|(text, _)| text.as_str()).collect();
        let title = format!("{variant}: {}, {} games", names.join(" vs "), a.games);
        let (watch, server) = start_watch(variant, title, port)?;
        cfg.watcher = Some(watch.watcher());
        watching = Some((watch, server));
    }
    let played = play(&a, variant, &specs, &cfg, &engines, &players);
    if let Some((watch, server)) = watching {
        watch.finish(match &played {
            Ok((table, _)) => table.clone(),
            Err(e) => format!("error: {e:#}"),
        });
        // The pages following the match get its final table first.
        watch.wait_delivered(Duration::from_secs(5));
        server.stop();
    }
    let (table, records) = played?;
    print!("{table}");
    // Forfeits with what happened (the move and position, the exit status).
    for g in records.iter().filter(|g| g.detail.is_some()) {
        eprintln!(
            "game {}: {} ({})",
            g.round,
            g.termination,
            g.detail.as_deref().unwrap_or("")
        );
    }
    if let Some(path) = &a.pdn {
        let mut text = String::new();
        for (i, g) in records.iter().enumerate() {
            let mut g = g.clone();
            g.round = i + 1;
            text.push_str(&pdn::write_game(&g, "rafle eval"));
        }
        rafle_core::atomic::write(path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!("{} games written to {}", records.len(), path.display());
    }
    Ok(())
}

/// Where the opponent is a rung of the variant's ladder: its ladder Elo
/// and the Elo on that scale that A's score implies.
fn ladder_line(variant: Variant, spec_b: &str, m: &rafle_arena::MatchResult) -> Option<String> {
    let ladder = rafle_arena::ladder::Ladder::builtin(variant).ok()?;
    let rung = &ladder.rungs[ladder.rung(spec_b)?];
    let score = rafle_arena::ladder::fit::Score {
        wdl: m.wdl,
        pairs: m.penta,
    };
    let fit = ladder.implied(&[(spec_b, score)])?;
    let (lo, hi) = fit.interval();
    Some(format!(
        "ladder: {} is {:.0} [{:.0}, {:.0}] on the {variant} ladder; {}'s score puts it at {:.0} [{:.0}, {:.0}]",
        rung.spec, rung.elo, rung.lo, rung.hi, m.a, fit.elo, lo, hi
    ))
}

/// The players of `a` as typed and as read (each read once, here): the
/// round robin's list, or players A and B of a match.
fn named_specs(a: &EvalArgs) -> anyhow::Result<Vec<(String, PlayerSpec)>> {
    let texts = if let Some(list) = &a.round_robin {
        let texts = split_players(list);
        if texts.len() < 2 {
            bail!("--round-robin needs at least two players, got {list:?}");
        }
        texts
    } else {
        let spec_a = match (&a.a, &a.model) {
            (Some(s), None) => s.clone(),
            // A shipped model keeps its own prefix: --model zoo:thai.
            (None, Some(m)) if m.starts_with("zoo:") => m.clone(),
            (None, Some(m)) => format!("model:{m}"),
            _ => bail!("name player A with --a SPEC (or --model PATH), or use --round-robin"),
        };
        let spec_b = match (&a.b, &a.vs) {
            (Some(s), None) | (None, Some(s)) => s.clone(),
            _ => bail!("name player B with --b SPEC (or --vs SPEC)"),
        };
        vec![spec_a, spec_b]
    };
    texts
        .into_iter()
        .map(|t| Ok((t.clone(), t.parse()?)))
        .collect()
}

/// Plays the match or round robin of `a` between `specs` (two for a
/// match): the table to print and every game.
fn play(
    a: &EvalArgs,
    variant: Variant,
    specs: &[(String, PlayerSpec)],
    cfg: &ArenaConfig,
    engines: &EngineOptions,
    players: &PlayerOptions,
) -> anyhow::Result<(String, Vec<GameRecord>)> {
    let side = |spec| spec_side(spec, variant, a.leaves_per_round, engines, players);
    Ok(if a.round_robin.is_some() {
        let players = specs
            .iter()
            .map(|(text, spec)| Ok((text.clone(), side(spec)?)))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let rr = rafle_arena::round_robin(variant, &players, cfg)?;
        let table = format!(
            "variant {variant}, {} games per pairing\n{}",
            cfg.games.div_ceil(2) * 2,
            report::crosstable(&rr)
        );
        let games = rr
            .matches
            .into_iter()
            .flat_map(|(_, _, m)| m.games)
            .collect();
        (table, games)
    } else {
        let [(_, spec_a), (text_b, spec_b)] = specs else {
            bail!("a match has two players, got {}", specs.len());
        };
        let pa = side(spec_a)?;
        let pb = side(spec_b)?;
        let m = rafle_arena::play_match(variant, &pa, &pb, cfg)?;
        let mut table = report::match_table(&m);
        if let Some(line) = ladder_line(variant, text_b, &m) {
            table.push_str(&line);
            table.push('\n');
        }
        (table, m.games)
    })
}

/// The watch of `rafle eval --watch PORT` and its server on loopback.
fn start_watch(
    variant: Variant,
    title: String,
    port: u16,
) -> anyhow::Result<(std::sync::Arc<rafle_serve::Watch>, rafle_serve::Server)> {
    let watch = rafle_serve::Watch::new(title);
    let config = rafle_serve::ServeConfig {
        watch: Some(watch.clone()),
        ..rafle_serve::ServeConfig::new(variant, Vec::new())
    };
    let server = rafle_serve::start(config, "127.0.0.1", port)
        .with_context(|| format!("--watch: cannot listen on 127.0.0.1:{port}"))?;
    eprintln!("watch the games at {}", server.url());
    Ok((watch, server))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_lists_keep_multi_option_specs() {
        assert_eq!(
            split_players("random, alphabeta:d=6,t=1s,uct:40"),
            ["random", "alphabeta:d=6,t=1s", "uct:40"]
        );
        assert_eq!(
            split_players("alphabeta:9,alphabeta:d=6,eval=zoo,ab:t=0.1s, eval=x.safetensors"),
            [
                "alphabeta:9",
                "alphabeta:d=6,eval=zoo",
                "ab:t=0.1s,eval=x.safetensors"
            ]
        );
    }

    #[test]
    fn model_specs_and_bad_specs_are_clear_errors() {
        let no = EngineOptions::default();
        let none = PlayerOptions::default();
        let e = resolve_player("model:x.safetensors", Variant::Thai, None, &no, &none)
            .err()
            .unwrap();
        assert!(e.to_string().contains("model"), "{e}");
        let e = resolve_player("nonsense", Variant::Thai, None, &no, &none)
            .err()
            .unwrap();
        assert!(e.to_string().contains("unknown player"), "{e}");
        assert!(parse_sprt("5", 0.05, 0.05).is_err());
        assert!(parse_sprt("5,0", 0.05, 0.05).is_err());
        assert!(parse_sprt("0,5", 0.05, 0.05).is_ok());
    }
}
