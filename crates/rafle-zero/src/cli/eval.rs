//! `rafle eval`: matches and round robins between players.
//!
//! ```text
//! rafle eval --variant V --a SPEC --b SPEC --games N [--pdn out.pdn] [--seed S]
//!            [--threads T] [--sprt elo0,elo1 [--alpha A --beta B]]
//!            [--openings FILE] [--opening-plies K] [--max-plies P]
//! rafle eval --variant V --model M --vs SPEC --games N      (--model M = --a model:M; zoo:V as is)
//! rafle eval --variant V --round-robin random,greedy,alphabeta:2 --games N
//! ```
//!
//! Player specs are those of `rafle_search::parse_player`; `model:PATH` is
//! resolved by [`resolve_player`] into a network side, whose leaves of all
//! games go to the network in one batch per round (the table then gives
//! each network side's average batch and evaluations per second).

use anyhow::{bail, Context};
use clap::Args;
use rafle_arena::elo::Sprt;
use rafle_arena::{pdn, report, ArenaConfig, Side};
use rafle_core::Variant;
use rafle_search::parse_player;
use std::path::PathBuf;

#[derive(Args, Debug)]
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
}

/// The side of a spec: `model:PATH[:sims]` is a network side (with
/// `leaves` leaves per round if given); every other spec is a
/// `rafle_search` player.
pub fn resolve_player(spec: &str, variant: Variant, leaves: Option<usize>) -> anyhow::Result<Side> {
    #[cfg(feature = "torch")]
    let model = rafle_zero::model::model_side(spec, variant);
    #[cfg(not(feature = "torch"))]
    let model = rafle_search::spec::model_spec(spec).map(|_| Err(super::needs_torch(spec)));
    if let Some(side) = model {
        let mut side = side?;
        if let (Side::Network(n), Some(l)) = (&mut side, leaves) {
            n.params.leaves_per_round = l;
        }
        return Ok(side);
    }
    Ok(Side::Player(parse_player(spec, variant)?))
}

/// Splits a round-robin list on commas, keeping `alphabeta:d=6,t=1s` whole.
fn split_players(list: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in list.split(',').map(str::trim) {
        let continues = part.starts_with("t=") || part.starts_with("d=");
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
    let cfg = ArenaConfig {
        games: a.games,
        seed: a.seed,
        opening_plies: a.opening_plies,
        max_plies: a.max_plies,
        threads: a.threads,
        sprt: a
            .sprt
            .as_deref()
            .map(|s| parse_sprt(s, a.alpha, a.beta))
            .transpose()?,
        progress: !a.quiet,
        openings: match &a.openings {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                rafle_arena::play::parse_openings(variant, &text)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
            }
            None => Vec::new(),
        },
        stop: None,
        ..ArenaConfig::default()
    };
    let records = if let Some(list) = &a.round_robin {
        let specs = split_players(list);
        if specs.len() < 2 {
            bail!("--round-robin needs at least two players, got {list:?}");
        }
        let players = specs
            .iter()
            .map(|s| Ok((s.clone(), resolve_player(s, variant, a.leaves_per_round)?)))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let rr = rafle_arena::round_robin(variant, &players, &cfg)?;
        println!(
            "variant {variant}, {} games per pairing",
            cfg.games.div_ceil(2) * 2
        );
        print!("{}", report::crosstable(&rr));
        rr.matches
            .into_iter()
            .flat_map(|(_, _, m)| m.games)
            .collect()
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
        let pa = resolve_player(&spec_a, variant, a.leaves_per_round)?;
        let pb = resolve_player(&spec_b, variant, a.leaves_per_round)?;
        let m = rafle_arena::play_match(variant, &pa, &pb, &cfg)?;
        print!("{}", report::match_table(&m));
        m.games
    };
    if let Some(path) = &a.pdn {
        let mut text = String::new();
        for (i, g) in records.iter().enumerate() {
            let mut g = g.clone();
            g.round = i + 1;
            text.push_str(&pdn::write_game(&g, "rafle eval"));
        }
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
        println!("{} games written to {}", records.len(), path.display());
    }
    Ok(())
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
    }

    #[test]
    fn model_specs_and_bad_specs_are_clear_errors() {
        let e = resolve_player("model:x.safetensors", Variant::Thai, None)
            .err()
            .unwrap();
        assert!(e.to_string().contains("model"), "{e}");
        let e = resolve_player("nonsense", Variant::Thai, None)
            .err()
            .unwrap();
        assert!(e.to_string().contains("unknown player"), "{e}");
        assert!(parse_sprt("5", 0.05, 0.05).is_err());
        assert!(parse_sprt("5,0", 0.05, 0.05).is_err());
        assert!(parse_sprt("0,5", 0.05, 0.05).is_ok());
    }
}
