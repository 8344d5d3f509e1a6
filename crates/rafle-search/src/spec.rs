//! Player spec strings: `random`, `greedy`, `alphabeta:6`, `alphabeta:t=0.5s`,
//! `alphabeta:d=8,t=1s`, `uct:400` (alias `mcts:400`).

use crate::alphabeta::{AlphaBeta, Limits};
use crate::greedy::Greedy;
use crate::random::RandomPlayer;
use crate::tables::{TablePlayer, Tables};
use crate::uct::{Uct, UctConfig};
use crate::{Player, PlayerFactory};
use rafle_core::Variant;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// A player spec that could not be read; the message says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

const KNOWN: &str =
    "random, greedy, alphabeta:D, alphabeta:t=0.5s, uct:N, egtb, model:PATH[:sims], zoo:VARIANT[:sims]";

/// What every player of a match may use besides its spec.
#[derive(Clone, Debug, Default)]
pub struct PlayerOptions {
    /// Endgame tables: alpha-beta and UCT take their values where they
    /// cover a position; the `egtb` player needs them.
    pub egtb: Option<Arc<Tables>>,
}

/// The spec of the player that plays outside the tables for `egtb`.
pub const EGTB_FALLBACK: &str = "alphabeta:4";

fn err(spec: &str, why: impl fmt::Display) -> SpecError {
    SpecError(format!("player spec {spec:?}: {why} (known: {KNOWN})"))
}

/// Reads a duration such as `0.5s`, `500ms` or `2` (seconds).
fn parse_duration(spec: &str, t: &str) -> Result<Duration, SpecError> {
    let (num, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else {
        (t, 1.0)
    };
    let secs: f64 = num
        .parse()
        .map_err(|_| err(spec, format!("{t:?} is not a duration like 0.5s or 200ms")))?;
    let secs = secs * scale;
    if !(secs > 0.0 && secs <= 3600.0) {
        return Err(err(spec, "the time per move must be in (0, 3600] seconds"));
    }
    Ok(Duration::from_secs_f64(secs))
}

fn parse_depth(spec: &str, d: &str) -> Result<u32, SpecError> {
    match d.parse::<u32>() {
        Ok(d) if (1..=64).contains(&d) => Ok(d),
        _ => Err(err(
            spec,
            format!("depth {d:?} must be an integer in 1..=64"),
        )),
    }
}

/// Alpha-beta options: `6`, `d=6`, `t=0.5s`, or both joined by a comma.
fn parse_alphabeta(spec: &str, args: &str) -> Result<Limits, SpecError> {
    let mut limits = Limits {
        depth: None,
        time: None,
    };
    for part in args.split(',').map(str::trim) {
        if let Some(t) = part.strip_prefix("t=") {
            limits.time = Some(parse_duration(spec, t)?);
        } else if let Some(d) = part.strip_prefix("d=") {
            limits.depth = Some(parse_depth(spec, d)?);
        } else {
            limits.depth = Some(parse_depth(spec, part)?);
        }
    }
    Ok(limits)
}

/// Where a network player's checkpoint is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checkpoint {
    /// `model:PATH`: a file (`PATH` and the metadata `PATH` minus `.safetensors` + `.json`).
    File(String),
    /// `zoo:VARIANT`: the trained model shipped for a variant (`python/rafle/zoo/VARIANT.safetensors`
    /// in the repository and in the Python package).
    Zoo(Variant),
}

/// A network player: `model:PATH[:sims]` or `zoo:VARIANT[:sims]`, and the
/// simulations per step if given. None for any other spec; the network
/// itself is loaded by whoever has one (rafle-zero's tch network, Python's
/// torch mirror).
pub fn model_spec(spec: &str) -> Option<Result<(Checkpoint, Option<usize>), SpecError>> {
    let s = spec.trim();
    let (zoo, rest) = match (s.strip_prefix("model:"), s.strip_prefix("zoo:")) {
        (Some(r), _) => (false, r),
        (None, Some(r)) => (true, r),
        (None, None) => return None,
    };
    let (target, sims) = match rest.rsplit_once(':') {
        Some((p, n)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => {
            match n.parse::<usize>() {
                Ok(k) if k <= 1_000_000 => (p, Some(k)),
                _ => {
                    return Some(Err(err(
                        spec,
                        format!("{n:?} is not a simulation count in 0..=1000000"),
                    )))
                }
            }
        }
        _ => (rest, None),
    };
    let checkpoint = if zoo {
        match target.parse::<Variant>() {
            Ok(v) => Checkpoint::Zoo(v),
            Err(e) => {
                return Some(Err(err(
                    spec,
                    format!("zoo models are named by variant: {e}"),
                )))
            }
        }
    } else if target.is_empty() {
        return Some(Err(err(
            spec,
            "model needs a checkpoint path, e.g. model:runs/thai/latest.safetensors",
        )));
    } else {
        Checkpoint::File(target.to_string())
    };
    Some(Ok((checkpoint, sims)))
}

/// The factory of the player named by `spec` for `variant`.
pub fn parse_player(spec: &str, variant: Variant) -> Result<PlayerFactory, SpecError> {
    parse_player_with(spec, variant, &PlayerOptions::default())
}

/// [`parse_player`] with `opts` (endgame tables).
pub fn parse_player_with(
    spec: &str,
    variant: Variant,
    opts: &PlayerOptions,
) -> Result<PlayerFactory, SpecError> {
    let s = spec.trim();
    let (kind, args) = match s.split_once(':') {
        Some((k, a)) => (k.trim().to_ascii_lowercase(), Some(a.trim())),
        None => (s.to_ascii_lowercase(), None),
    };
    let name = s.to_string();
    let factory: PlayerFactory = match (kind.as_str(), args) {
        ("random", None) => {
            Arc::new(move |seed| Box::new(RandomPlayer::new(seed)) as Box<dyn Player>)
        }
        ("greedy", None) => {
            Arc::new(move |seed| Box::new(Greedy::new(variant, seed)) as Box<dyn Player>)
        }
        ("random" | "greedy", Some(_)) => {
            return Err(err(spec, format!("{kind} takes no options")))
        }
        ("alphabeta" | "ab", Some(a)) => {
            let limits = parse_alphabeta(spec, a)?;
            let tb = opts.egtb.clone();
            Arc::new(move |seed| {
                Box::new(
                    AlphaBeta::new(variant, limits, seed)
                        .with_name(name.clone())
                        .with_tables(tb.clone()),
                ) as Box<dyn Player>
            })
        }
        ("egtb", None) => {
            let Some(tb) = opts.egtb.clone() else {
                return Err(err(
                    spec,
                    "the egtb player needs endgame tables (--egtb DIR, or egtb= in Python)",
                ));
            };
            if tb.variant() != variant {
                return Err(err(
                    spec,
                    format!("the tables are {}'s, the game is {variant}", tb.variant()),
                ));
            }
            let fallback = parse_player_with(EGTB_FALLBACK, variant, opts)?;
            Arc::new(move |seed| {
                Box::new(TablePlayer::new(tb.clone(), fallback(seed), seed)) as Box<dyn Player>
            })
        }
        ("egtb", Some(_)) => return Err(err(spec, "egtb takes no options")),
        ("uct" | "mcts", Some(a)) => {
            let sims = match a.parse::<u32>() {
                Ok(n) if (1..=10_000_000).contains(&n) => n,
                _ => {
                    return Err(err(
                        spec,
                        format!("{a:?} is not a simulation count in 1..=10000000"),
                    ))
                }
            };
            let cfg = UctConfig {
                simulations: sims,
                ..UctConfig::default()
            };
            let tb = opts.egtb.clone();
            Arc::new(move |seed| {
                Box::new(
                    Uct::new(variant, cfg, seed)
                        .with_name(name.clone())
                        .with_tables(tb.clone()),
                ) as Box<dyn Player>
            })
        }
        ("alphabeta" | "ab" | "uct" | "mcts", None) => {
            return Err(err(spec, format!("{kind} needs options, e.g. {kind}:4")))
        }
        ("model" | "zoo", _) => {
            return Err(err(
                spec,
                "network players need their network: rafle eval, or rafle.Player in Python",
            ))
        }
        _ => return Err(err(spec, "unknown player")),
    };
    Ok(factory)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rafle_core::Game;

    #[test]
    fn known_specs_build_players_that_move() {
        for spec in [
            "random",
            "greedy",
            "alphabeta:2",
            "alphabeta:t=20ms",
            "alphabeta:d=3,t=1s",
            "uct:20",
            "mcts:20",
        ] {
            let f = parse_player(spec, Variant::Checkers).unwrap();
            let mut p = f(1);
            let g = Game::new(Variant::Checkers);
            let m = p.choose(&g).unwrap();
            assert!(g.legal_moves().contains(&m), "{spec}");
        }
    }

    #[test]
    fn network_specs_name_a_file_or_a_zoo_model() {
        let parse = |s: &str| model_spec(s).map(|r| r.map_err(|e| e.to_string()));
        assert_eq!(parse("alphabeta:4"), None);
        assert_eq!(
            parse("model:runs/thai/latest.safetensors:64"),
            Some(Ok((
                Checkpoint::File("runs/thai/latest.safetensors".into()),
                Some(64)
            )))
        );
        assert_eq!(
            parse("model:C:/models/x.safetensors"),
            Some(Ok((
                Checkpoint::File("C:/models/x.safetensors".into()),
                None
            )))
        );
        assert_eq!(
            parse("zoo:intl:8"),
            Some(Ok((Checkpoint::Zoo(Variant::International), Some(8))))
        );
        assert_eq!(
            parse("zoo:thai"),
            Some(Ok((Checkpoint::Zoo(Variant::Thai), None)))
        );
        for (spec, needle) in [
            ("zoo:chess", "named by variant"),
            ("model:", "checkpoint path"),
            ("model:x:99999999", "simulation count"),
        ] {
            let e = parse(spec).unwrap().unwrap_err();
            assert!(e.contains(needle) && e.contains(spec), "{spec}: {e}");
        }
    }

    #[test]
    fn bad_specs_give_clear_errors() {
        for (spec, needle) in [
            ("minimax:3", "unknown player"),
            ("alphabeta", "needs options"),
            ("alphabeta:0", "depth"),
            ("alphabeta:x", "depth"),
            ("alphabeta:t=fast", "duration"),
            ("uct:-1", "simulation count"),
            ("random:3", "takes no options"),
            ("", "unknown player"),
        ] {
            let e = match parse_player(spec, Variant::Thai) {
                Err(e) => e.to_string(),
                Ok(_) => panic!("{spec:?} was accepted"),
            };
            assert!(e.contains(needle), "{spec:?}: {e}");
            assert!(e.contains(&format!("{spec:?}")), "{e}");
        }
    }
}
