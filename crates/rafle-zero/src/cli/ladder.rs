//! `rafle ladder`: a player's Elo on a variant's fixed scale of reference
//! players, and the calibration of that scale.
//!
//! ```text
//! rafle ladder --variant V --player SPEC [--games N] [--egtb D]   # prints "elo E [lo, hi]"
//! rafle ladder calibrate --variant V [--rungs random,uct:8,... | --add SPEC,...] [--reuse] [--games N]
//! rafle ladder show [--variant V]                                  # the calibrated tables
//! ```
//!
//! The scale, its files and the placement rule are rafle-arena's
//! (`rafle_arena::ladder`); this module parses options and prints.

use super::eval::{open_tables, spec_side, split_players, EngineArgs};
use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use rafle_arena::ladder::calibrate::{calibrate, CalibrateConfig};
use rafle_arena::ladder::{self, place, Ladder};
use rafle_arena::ArenaConfig;
use rafle_core::Variant;
use rafle_search::{PlayerOptions, PlayerSpec};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct LadderArgs {
    #[command(subcommand)]
    pub command: Option<LadderCommand>,
    #[command(flatten)]
    pub place: PlaceArgs,
}

#[derive(Subcommand, Debug)]
pub enum LadderCommand {
    /// Play the rungs against their neighbours and refit the ladder (slow).
    Calibrate(CalibrateArgs),
    /// Print the calibrated ladders (all variants, or one).
    Show(ShowArgs),
}

/// Placing a player.
#[derive(Args, Debug)]
pub struct PlaceArgs {
    #[arg(long, value_parser = super::variant, required = true)]
    pub variant: Option<Variant>,
    /// The player: any spec of rafle eval (alphabeta:5, model:PATH[:sims],
    /// zoo:VARIANT, hub:..., dxp:...).
    #[arg(long, required = true)]
    pub player: Option<String>,
    /// Games in all (colour-swapped pairs), over the rungs nearest the
    /// player's strength.
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// Endgame tables for the player (the rungs play as calibrated).
    #[arg(long)]
    pub egtb: Option<PathBuf>,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// A ladder file to use instead of the built-in one.
    #[arg(long)]
    pub ladder: Option<PathBuf>,
    /// No progress bars.
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub engines: EngineArgs,
}

#[derive(Args, Debug)]
pub struct CalibrateArgs {
    #[arg(long, value_parser = super::variant)]
    pub variant: Variant,
    /// The rungs, comma-separated, weakest first (default: those of the
    /// ladder at --out, else the built-in one).
    #[arg(long)]
    pub rungs: Option<String>,
    /// Rungs to add after the default ones, comma-separated,
    /// weakest first (with --reuse only their games are played), e.g.
    /// alphabeta:d=7,eval=zoo,alphabeta:d=9,eval=zoo.
    #[arg(long, conflicts_with = "rungs")]
    pub add: Option<String>,
    /// Games between neighbouring rungs.
    #[arg(long, default_value_t = 300)]
    pub games: usize,
    /// Games between next-but-one rungs (default: half of --games; 0: none).
    #[arg(long)]
    pub next_games: Option<usize>,
    /// After the schedule, give the widest gap between neighbours --games
    /// more games until every gap's 95% interval is within +-this (Elo).
    #[arg(long)]
    pub max_gap: Option<f64>,
    /// Keep the matches of the ladder at --out (default: the variant's
    /// file) that the schedule needs: only new pairings are played, so a
    /// ladder grows by new rungs without replaying the others.
    #[arg(long)]
    pub reuse: bool,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Random plies opening each pair of games.
    #[arg(long, default_value_t = 4)]
    pub opening_plies: usize,
    /// Plies after which a game is adjudicated a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Where to write the ladder (default: the variant's file in the
    /// source tree, crates/rafle-arena/ladder/V.toml).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// No progress bars.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[arg(long, value_parser = super::variant)]
    pub variant: Option<Variant>,
    /// Markdown tables, a row per variant (the ladder page's, docs/how-to/evaluation.md) instead of text.
    #[arg(long)]
    pub markdown: bool,
}

pub fn run(a: LadderArgs) -> anyhow::Result<()> {
    match a.command {
        Some(LadderCommand::Calibrate(c)) => run_calibrate(c),
        Some(LadderCommand::Show(s)) => run_show(s),
        None => run_place(a.place),
    }
}

/// The ladder of `variant`: the file given, else the built-in one.
fn load(variant: Variant, file: Option<&Path>) -> anyhow::Result<Ladder> {
    match file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            Ladder::parse(variant, &text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
        }
        None => Ladder::builtin(variant).map_err(|e| anyhow::anyhow!(e)),
    }
}

fn run_place(a: PlaceArgs) -> anyhow::Result<()> {
    let (Some(variant), Some(spec)) = (a.variant, a.player.as_deref()) else {
        bail!("rafle ladder needs --variant V and --player SPEC");
    };
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    if a.threads == Some(0) {
        bail!("--threads must be at least 1");
    }
    let ladder = load(variant, a.ladder.as_deref())?;
    if ladder.stale_eval(variant) {
        eprintln!(
            "warning: the {variant} ladder's eval=zoo rungs were calibrated with another evaluation \
             than the shipped one (rafle ladder calibrate --variant {} --reuse plays them again)",
            variant.name()
        );
    }
    let stop = super::interrupt::stop_flag();
    let engines = a.engines.options(Some(stop.clone()))?;
    let egtb = open_tables(a.egtb.as_deref(), variant)?;
    let players = PlayerOptions { egtb: egtb.clone() };
    let spec: PlayerSpec = spec.parse()?;
    let side = spec_side(&spec, variant, None, &engines, &players)?;
    let threads = if matches!(spec, PlayerSpec::Engine(_)) {
        Some(
            a.threads
                .unwrap_or(usize::MAX)
                .min(a.engines.engine_concurrency),
        )
    } else {
        a.threads
    };
    let base = ArenaConfig {
        threads,
        progress: !a.quiet,
        stop: Some(stop),
        egtb,
        ..ArenaConfig::default()
    };
    let p = place::place(variant, &side, &ladder, a.games, a.seed, &base)?;
    print!("{}", p.report());
    Ok(())
}

/// Today's date (UTC) as YYYY-MM-DD, from the system clock.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

fn run_calibrate(a: CalibrateArgs) -> anyhow::Result<()> {
    let variant = a.variant;
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    if a.threads == Some(0) {
        bail!("--threads must be at least 1");
    }
    if a.max_plies == 0 {
        bail!("--max-plies must be at least 1");
    }
    if a.max_gap.is_some_and(|g| !(g.is_finite() && g > 0.0)) {
        bail!("--max-gap must be a positive number of Elo");
    }
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| ladder::source_path(variant));
    // The ladder being rewritten: the file at --out, else the built-in one.
    let current = match out.is_file() {
        true => load(variant, Some(&out)),
        false => Ladder::builtin(variant).map_err(|e| anyhow::anyhow!(e)),
    };
    let mut specs = match (&a.rungs, &current) {
        (Some(list), _) => split_players(list),
        (None, Ok(l)) => l.rungs.iter().map(|r| r.spec.clone()).collect(),
        (None, Err(_)) => bail!(
            "{variant} has no ladder yet: name its rungs, weakest first, with --rungs \
             (e.g. --rungs random,uct:8,uct:32,alphabeta:1,alphabeta:2,alphabeta:3)"
        ),
    };
    for spec in a.add.as_deref().map(split_players).unwrap_or_default() {
        if specs.contains(&spec) {
            bail!("--add {spec}: it is a rung already");
        }
        specs.push(spec);
    }
    if !specs.iter().any(|s| s == "random") {
        bail!("--rungs must include random (the scale's 0)");
    }
    let reuse = match a.reuse {
        true => {
            let mut l = load(variant, Some(&out))?;
            if l.stale_eval(variant) {
                println!(
                    "the eval=zoo rungs played another evaluation than the shipped one: \
                     their games are played again"
                );
            }
            l.forget_stale_eval(variant);
            Some(l)
        }
        false => None,
    };
    let cfg = CalibrateConfig {
        reuse,
        specs,
        games: a.games,
        next_games: a.next_games.unwrap_or(a.games / 2),
        max_gap: a.max_gap,
        seed: a.seed,
        opening_plies: a.opening_plies,
        max_plies: a.max_plies,
        threads: a.threads,
        progress: !a.quiet,
        stop: Some(super::interrupt::stop_flag()),
    };
    let schedule: Vec<_> = cfg
        .schedule()
        .into_iter()
        .filter(|&(a, b, g)| cfg.reused(a, b, g).is_none())
        .collect();
    let total: usize = schedule.iter().map(|s| s.2.div_ceil(2) * 2).sum();
    let reused = cfg.schedule().len() - schedule.len();
    println!(
        "calibrating the {variant} ladder: {} rungs, {} matches to play, {total} games{}",
        cfg.specs.len(),
        schedule.len(),
        match reused {
            0 => String::new(),
            n => format!(" ({n} matches kept from {})", out.display()),
        }
    );
    let mut k = 0;
    let mut ladder = calibrate(variant, &cfg, &mut |m| {
        k += 1;
        println!(
            "  [{k}/{}{}] {} vs {}: +{} ={} -{}  score {:.1}%  {:.1} s",
            schedule.len(),
            if k > schedule.len() {
                ", to narrow a gap"
            } else {
                ""
            },
            m.a,
            m.b,
            m.wdl.wins,
            m.wdl.draws,
            m.wdl.losses,
            100.0 * m.wdl.score(),
            m.seconds
        );
    })?;
    ladder.date = today();
    ladder.commit = rafle_zero::commit();
    ladder.write(&out).map_err(|e| anyhow::anyhow!(e))?;
    print!("{}", ladder.table());
    println!(
        "{total} games in {:.0} s; written to {} (rebuild to make it the built-in ladder)",
        ladder.seconds,
        out.display()
    );
    Ok(())
}

fn run_show(a: ShowArgs) -> anyhow::Result<()> {
    let variants = match a.variant {
        Some(v) => vec![v],
        None => ladder::calibrated(),
    };
    if variants.is_empty() {
        bail!("no variant has a ladder yet (rafle ladder calibrate --variant V)");
    }
    let ladders = variants
        .iter()
        .map(|&v| Ladder::builtin(v).map(|l| (v, l)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| anyhow::anyhow!(e))?;
    if a.markdown {
        print!("{}", markdown(&ladders));
        return Ok(());
    }
    for (v, l) in &ladders {
        println!(
            "{} ladder, calibrated {} at {} ({:.0} s):",
            v.name(),
            l.date,
            l.commit,
            l.seconds
        );
        print!("{}", l.table());
    }
    Ok(())
}

/// Two tables, a row per variant and a column per rung: Elo with the gap's
/// 95% half-width, and time per move.
fn markdown(ladders: &[(Variant, Ladder)]) -> String {
    use std::fmt::Write;
    // Every rung spec, grouped by player kind in the order kinds first
    // appear, and by strength argument within a kind (`uct:128` sits next to
    // `uct:64` although only some ladders have it), the learned-evaluation
    // rungs (`alphabeta:d=5,eval=zoo`) after the hand-written ones.
    let mut specs: Vec<&str> = Vec::new();
    for (_, l) in ladders {
        for r in &l.rungs {
            if !specs.contains(&r.spec.as_str()) {
                specs.push(&r.spec);
            }
        }
    }
    let kind = |s: &str| s.split(':').next().unwrap_or(s).to_string();
    let mut kinds: Vec<String> = Vec::new();
    for s in &specs {
        if !kinds.contains(&kind(s)) {
            kinds.push(kind(s));
        }
    }
    specs.sort_by_key(|s| {
        let arg = s.split_once(':').map_or("", |(_, a)| a);
        let depth = arg
            .split(',')
            .find_map(|o| o.strip_prefix("d=").unwrap_or(o).parse::<u64>().ok());
        let position = kinds.iter().position(|k| *k == kind(s));
        (position, arg.contains("eval="), depth)
    });
    let cell = |l: &Ladder, spec: &str, f: &dyn Fn(&ladder::Rung) -> String| {
        l.rung(spec).map(|i| f(&l.rungs[i])).unwrap_or_default()
    };
    let mut out = String::new();
    for (title, with_games) in [
        ("Elo (+-95% of the gap to the rung below)", true),
        ("ms per move", false),
    ] {
        let _ = write!(out, "| {title} |");
        if with_games {
            out.push_str(" games | wall |");
        }
        for s in &specs {
            let _ = write!(out, " {s} |");
        }
        out.push_str("\n|---|");
        if with_games {
            out.push_str("---|---|");
        }
        out.push_str(&"---|".repeat(specs.len()));
        out.push('\n');
        for (v, l) in ladders {
            let _ = write!(out, "| {} |", v.name());
            if with_games {
                let games: u32 = l.matches.iter().map(|m| m.wins + m.draws + m.losses).sum();
                let _ = write!(out, " {games} | {:.0} s |", l.seconds);
            }
            for s in &specs {
                let c = if with_games {
                    cell(l, s, &|r| {
                        if r.gap_sd > 0.0 {
                            format!("{:.0} +-{:.0}", r.elo, rafle_arena::elo::Z95 * r.gap_sd)
                        } else {
                            format!("{:.0}", r.elo)
                        }
                    })
                } else {
                    cell(l, s, &|r| format!("{:.2}", r.ms_per_move))
                };
                let _ = write!(out, " {c} |");
            }
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn today_is_a_date() {
        let d = today();
        assert_eq!(d.len(), 10, "{d}");
        assert!(d.starts_with("20"), "{d}");
    }
}
