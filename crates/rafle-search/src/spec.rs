//! Player specs: the word every entry point shares (CLI, Python, arena,
//! ladder, serve, engines, the bootstrap teacher), read once into a
//! [`PlayerSpec`] where text comes in and carried down as that value.
//!
//! Forms: `random`, `greedy`, `alphabeta:6`, `alphabeta:t=0.5s`,
//! `alphabeta:d=8,t=1s` (alias `ab:`), `alphabeta:d=6,eval=zoo` and
//! `alphabeta:d=6,eval=PATH` (a learned evaluation, last in the options), `uct:400` (alias `mcts:400`), `egtb`,
//! `model:PATH[:sims]`, `zoo:VARIANT[:sims]`, `hub:<command line>`,
//! `dxp:<host>:<port>`. [`PlayerSpec::build`] builds the players of this
//! crate; a network is built by whoever has one (rafle-zero's tch network,
//! Python's torch mirror), an engine by rafle-engine (`build_player`), each
//! matching on the variant it knows.

use crate::alphabeta::{AlphaBeta, Limits};
use crate::greedy::Greedy;
use crate::learned;
use crate::random::RandomPlayer;
use crate::tables::{TablePlayer, Tables};
use crate::uct::{Uct, UctConfig};
use crate::{Player, PlayerFactory};
use rafle_core::Variant;
use std::fmt;
use std::str::FromStr;
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
    "random, greedy, alphabeta:D, alphabeta:t=0.5s, alphabeta:d=D,eval=zoo|PATH, uct:N, egtb, \
     model:PATH[:sims], zoo:VARIANT[:sims]";

/// The forms of the engine specs, in their errors.
const ENGINE_FORMS: &str = "hub:<command line> or dxp:<host>:<port>";

/// What every player of a match may use besides its spec.
#[derive(Clone, Debug, Default)]
pub struct PlayerOptions {
    /// Endgame tables: alpha-beta and UCT take their values where they
    /// cover a position; the `egtb` player needs them.
    pub egtb: Option<Arc<Tables>>,
}

/// The player that plays outside the tables for `egtb`: `alphabeta:4`.
pub const EGTB_FALLBACK: PlayerSpec = PlayerSpec::AlphaBeta {
    limits: Limits {
        depth: Some(4),
        time: None,
    },
    eval: None,
};

/// Alpha-beta's learned evaluation, as `eval=` names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalFile {
    /// `eval=zoo`: the game's variant's shipped evaluation ([`crate::learned::zoo_path`]).
    Zoo,
    /// `eval=PATH`: an evaluation file.
    Path(String),
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

/// An engine named by a player spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineSpec {
    /// `hub:<command line>`: the program and its arguments (the command
    /// split like a POSIX shell).
    Hub(Vec<String>),
    /// `dxp:<host>:<port>`.
    Dxp { host: String, port: u16 },
}

/// A player, as a spec names it. `FromStr` reads every form (errors name
/// the spec, the wrong part and the allowed forms); `Display` writes the
/// canonical form, which reads back to the same value and is the player's
/// name in reports (`ab:4` is `alphabeta:4`, `t=200ms` is `t=0.2s`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// `random`: a uniformly random legal move.
    Random,
    /// `greedy`: the move that wins most material at once.
    Greedy,
    /// `alphabeta:D`, `alphabeta:t=0.5s`, `alphabeta:d=D,t=T`; with
    /// `,eval=zoo` or `,eval=PATH` a learned evaluation (None: the
    /// hand-written one).
    AlphaBeta {
        limits: Limits,
        eval: Option<EvalFile>,
    },
    /// `uct:N`: plain UCT with N random-playout simulations a move.
    Uct { simulations: u32 },
    /// `egtb`: the tables' best move where they cover the position,
    /// [`EGTB_FALLBACK`] elsewhere.
    Egtb,
    /// `model:PATH[:sims]`, `zoo:VARIANT[:sims]`: a network player, with
    /// its simulations per move if given.
    Network {
        checkpoint: Checkpoint,
        simulations: Option<usize>,
    },
    /// `hub:...`, `dxp:...`: an engine of the draughts world.
    Engine(EngineSpec),
}

fn err(spec: &str, why: impl fmt::Display) -> SpecError {
    SpecError(format!("player spec {spec:?}: {why} (known: {KNOWN})"))
}

fn engine_err(spec: &str, why: impl fmt::Display) -> SpecError {
    SpecError(format!("player spec {spec:?}: {why} ({ENGINE_FORMS})"))
}

/// Reads a duration such as `0.5s`, `500ms` or `2` (seconds), to the
/// nearest nanosecond.
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
    // Under half a nanosecond rounds to nothing: out of range too.
    if !(0.5e-9..=3600.0).contains(&secs) {
        return Err(err(spec, "the time per move must be in (0, 3600] seconds"));
    }
    Ok(Duration::from_nanos((secs * 1e9).round() as u64))
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

/// Alpha-beta options: `6`, `d=6`, `t=0.5s`, or both joined by a comma,
/// then `eval=zoo` or `eval=PATH` (the rest of the spec: a path may hold commas).
fn parse_alphabeta(spec: &str, args: &str) -> Result<PlayerSpec, SpecError> {
    let (args, eval) = match args
        .find("eval=")
        .filter(|&i| i == 0 || args[..i].trim_end().ends_with(','))
    {
        None => (args, None),
        Some(i) => {
            let file = args[i + 5..].trim();
            let eval = match file {
                "" => return Err(err(spec, "eval= needs zoo or an evaluation file's path")),
                "zoo" => EvalFile::Zoo,
                p => EvalFile::Path(p.to_string()),
            };
            (args[..i].trim_end().trim_end_matches(','), Some(eval))
        }
    };
    if args.trim().is_empty() {
        return Err(err(
            spec,
            "alphabeta needs a depth or a time, e.g. alphabeta:d=6,eval=zoo",
        ));
    }
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
    Ok(PlayerSpec::AlphaBeta { limits, eval })
}

/// `model:PATH[:sims]` or `zoo:VARIANT[:sims]` (None for any other text).
fn parse_network(spec: &str) -> Option<Result<PlayerSpec, SpecError>> {
    let s = spec.trim();
    let (zoo, rest) = match (s.strip_prefix("model:"), s.strip_prefix("zoo:")) {
        (Some(r), _) => (false, r),
        (None, Some(r)) => (true, r),
        (None, None) => return None,
    };
    let (target, simulations) = match rest.rsplit_once(':') {
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
    Some(Ok(PlayerSpec::Network {
        checkpoint,
        simulations,
    }))
}

/// `hub:<command line>` or `dxp:<host>:<port>` (None for any other text).
pub fn engine_spec(spec: &str) -> Option<Result<EngineSpec, SpecError>> {
    let s = spec.trim();
    if let Some(cmd) = s.strip_prefix("hub:") {
        if cmd.contains('\0') {
            return Some(Err(engine_err(
                spec,
                "the command line has a NUL character",
            )));
        }
        return Some(match shlex::split(cmd) {
            None => Err(engine_err(spec, "the command line has an unclosed quote")),
            Some(words) if words.is_empty() => Err(engine_err(
                spec,
                "hub needs the engine's command line, e.g. hub:/opt/scan/scan hub",
            )),
            Some(words) => Ok(EngineSpec::Hub(words)),
        });
    }
    let addr = s.strip_prefix("dxp:")?;
    Some(match addr.rsplit_once(':') {
        None => Err(engine_err(
            spec,
            "dxp needs a host and a port, e.g. dxp:127.0.0.1:27531",
        )),
        Some((host, _)) if host.trim().is_empty() => Err(engine_err(spec, "the host is empty")),
        Some((host, port)) => match port.trim().parse::<u16>() {
            Ok(p) if p > 0 => Ok(EngineSpec::Dxp {
                host: host.trim().to_string(),
                port: p,
            }),
            _ => Err(engine_err(
                spec,
                format!("the port {port:?} is not a number in 1..=65535"),
            )),
        },
    })
}

/// A network player's checkpoint and simulations if `spec` names one
/// (None for any other spec).
pub fn model_spec(spec: &str) -> Option<Result<(Checkpoint, Option<usize>), SpecError>> {
    parse_network(spec).map(|r| match r? {
        PlayerSpec::Network {
            checkpoint,
            simulations,
        } => Ok((checkpoint, simulations)),
        _ => unreachable!("parse_network reads network specs only"),
    })
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(spec: &str) -> Result<PlayerSpec, SpecError> {
        if let Some(network) = parse_network(spec) {
            return network;
        }
        if let Some(engine) = engine_spec(spec) {
            return engine.map(PlayerSpec::Engine);
        }
        let s = spec.trim();
        let (kind, args) = match s.split_once(':') {
            Some((k, a)) => (k.trim().to_ascii_lowercase(), Some(a.trim())),
            None => (s.to_ascii_lowercase(), None),
        };
        Ok(match (kind.as_str(), args) {
            ("random", None) => PlayerSpec::Random,
            ("greedy", None) => PlayerSpec::Greedy,
            ("egtb", None) => PlayerSpec::Egtb,
            ("random" | "greedy" | "egtb", Some(_)) => {
                return Err(err(spec, format!("{kind} takes no options")))
            }
            ("alphabeta" | "ab", Some(a)) => parse_alphabeta(spec, a)?,
            ("uct" | "mcts", Some(a)) => match a.parse::<u32>() {
                Ok(n) if (1..=10_000_000).contains(&n) => PlayerSpec::Uct { simulations: n },
                _ => {
                    return Err(err(
                        spec,
                        format!("{a:?} is not a simulation count in 1..=10000000"),
                    ))
                }
            },
            ("alphabeta" | "ab" | "uct" | "mcts", None) => {
                return Err(err(spec, format!("{kind} needs options, e.g. {kind}:4")))
            }
            // `model` and `zoo` without their exact prefix (`MODEL:x`, `zoo`).
            ("model" | "zoo", _) => return Err(network_needed(spec)),
            _ => return Err(err(spec, "unknown player")),
        })
    }
}

fn network_needed(spec: &str) -> SpecError {
    err(
        spec,
        "network players need their network: rafle eval, or rafle.Player in Python",
    )
}

/// Seconds as the shortest decimal that reads back to them.
fn seconds(t: Duration) -> String {
    format!("{}s", t.as_secs_f64())
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Egtb => f.write_str("egtb"),
            PlayerSpec::AlphaBeta { limits: l, eval } => {
                match (l.depth, l.time, eval) {
                    (Some(d), None, None) => write!(f, "alphabeta:{d}")?,
                    (Some(d), None, Some(_)) => write!(f, "alphabeta:d={d}")?,
                    (None, Some(t), _) => write!(f, "alphabeta:t={}", seconds(t))?,
                    (Some(d), Some(t), _) => write!(f, "alphabeta:d={d},t={}", seconds(t))?,
                    // No limit at all: only a value built by hand, not by a spec.
                    (None, None, _) => f.write_str("alphabeta:d=64")?,
                }
                match eval {
                    None => Ok(()),
                    Some(EvalFile::Zoo) => f.write_str(",eval=zoo"),
                    Some(EvalFile::Path(p)) => write!(f, ",eval={p}"),
                }
            }
            PlayerSpec::Uct { simulations } => write!(f, "uct:{simulations}"),
            PlayerSpec::Network {
                checkpoint,
                simulations,
            } => {
                match checkpoint {
                    Checkpoint::File(p) => write!(f, "model:{p}")?,
                    Checkpoint::Zoo(v) => write!(f, "zoo:{}", v.name())?,
                }
                match simulations {
                    Some(n) => write!(f, ":{n}"),
                    None => Ok(()),
                }
            }
            PlayerSpec::Engine(EngineSpec::Hub(words)) => {
                let line = shlex::try_join(words.iter().map(String::as_str))
                    .unwrap_or_else(|_| words.join(" "));
                write!(f, "hub:{line}")
            }
            PlayerSpec::Engine(EngineSpec::Dxp { host, port }) => write!(f, "dxp:{host}:{port}"),
        }
    }
}

impl PlayerSpec {
    /// The factory of this crate's players for `variant`, with `opts`'
    /// tables. A network or engine spec is an error here: those are built
    /// where their network or protocol is (rafle-zero, rafle-py,
    /// rafle-engine's `build_player`).
    pub fn build(
        &self,
        variant: Variant,
        opts: &PlayerOptions,
    ) -> Result<PlayerFactory, SpecError> {
        let name = self.to_string();
        Ok(match self {
            PlayerSpec::Random => {
                Arc::new(move |seed| Box::new(RandomPlayer::new(seed)) as Box<dyn Player>)
            }
            PlayerSpec::Greedy => {
                Arc::new(move |seed| Box::new(Greedy::new(variant, seed)) as Box<dyn Player>)
            }
            PlayerSpec::AlphaBeta { limits, eval } => {
                let tb = opts.egtb.clone();
                let limits = *limits;
                let eval = match eval {
                    None => None,
                    Some(EvalFile::Zoo) if !learned::zoo_path(variant).is_file() => {
                        return Err(SpecError(format!(
                            "player spec {name:?}: no learned evaluation of {variant} is shipped \
                             (eval=zoo reads {}; shipped: {})",
                            learned::zoo_dir().join("eval").display(),
                            learned::shipped()
                                .iter()
                                .map(|v| v.name())
                                .collect::<Vec<_>>()
                                .join(", ")
                        )))
                    }
                    Some(file) => Some(
                        learned::load(&eval_path(file, variant), variant)
                            .map_err(|e| SpecError(format!("player spec {name:?}: {e}")))?,
                    ),
                };
                Arc::new(move |seed| {
                    Box::new(
                        AlphaBeta::new(variant, limits, seed)
                            .with_name(name.clone())
                            .with_tables(tb.clone())
                            .with_eval(eval.clone()),
                    ) as Box<dyn Player>
                })
            }
            PlayerSpec::Egtb => {
                let Some(tb) = opts.egtb.clone() else {
                    return Err(err(
                        &name,
                        "the egtb player needs endgame tables (--egtb DIR, or egtb= in Python)",
                    ));
                };
                if tb.variant() != variant {
                    return Err(err(
                        &name,
                        format!("the tables are {}'s, the game is {variant}", tb.variant()),
                    ));
                }
                let fallback = EGTB_FALLBACK.build(variant, opts)?;
                Arc::new(move |seed| {
                    Box::new(TablePlayer::new(tb.clone(), fallback(seed), seed)) as Box<dyn Player>
                })
            }
            &PlayerSpec::Uct { simulations } => {
                let cfg = UctConfig {
                    simulations,
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
            PlayerSpec::Network { .. } => return Err(network_needed(&name)),
            PlayerSpec::Engine(_) => return Err(engine_err(
                &name,
                "engine players run through rafle-engine: the rafle CLI, or rafle.Player in Python",
            )),
        })
    }
}

/// The file of an `eval=` for `variant`.
pub fn eval_path(file: &EvalFile, variant: Variant) -> std::path::PathBuf {
    match file {
        EvalFile::Zoo => learned::zoo_path(variant),
        EvalFile::Path(p) => p.into(),
    }
}

/// The factory of the player named by `spec` for `variant` (text read here,
/// once: [`PlayerSpec`]).
pub fn parse_player(spec: &str, variant: Variant) -> Result<PlayerFactory, SpecError> {
    parse_player_with(spec, variant, &PlayerOptions::default())
}

/// [`parse_player`] with `opts` (endgame tables).
pub fn parse_player_with(
    spec: &str,
    variant: Variant,
    opts: &PlayerOptions,
) -> Result<PlayerFactory, SpecError> {
    spec.parse::<PlayerSpec>()?.build(variant, opts)
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
    fn a_spec_prints_its_canonical_form_which_reads_back() {
        for (text, canonical) in [
            ("random", "random"),
            (" Greedy ", "greedy"),
            ("egtb", "egtb"),
            ("ab:6", "alphabeta:6"),
            ("alphabeta:d=6", "alphabeta:6"),
            ("alphabeta:t=200ms", "alphabeta:t=0.2s"),
            ("AlphaBeta:d=8, t=1s", "alphabeta:d=8,t=1s"),
            ("mcts:400", "uct:400"),
            ("model:runs/x.safetensors:64", "model:runs/x.safetensors:64"),
            ("zoo:intl", "zoo:international"),
            ("hub:'/my engines/kr' --hub", "hub:'/my engines/kr' --hub"),
            ("hub:/opt/scan/scan hub", "hub:/opt/scan/scan hub"),
            ("dxp: localhost : 27531", "dxp:localhost:27531"),
            ("alphabeta:d=6,eval=zoo", "alphabeta:d=6,eval=zoo"),
            ("ab:6, eval=zoo", "alphabeta:d=6,eval=zoo"),
            ("alphabeta:t=20ms,eval=zoo", "alphabeta:t=0.02s,eval=zoo"),
            (
                "alphabeta:d=8,t=1s,eval=runs/a,b.safetensors",
                "alphabeta:d=8,t=1s,eval=runs/a,b.safetensors",
            ),
        ] {
            let spec: PlayerSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), canonical, "{text}");
            assert_eq!(canonical.parse::<PlayerSpec>(), Ok(spec), "{text}");
        }
        assert_eq!(
            "alphabeta:6,eval=x.safetensors".parse(),
            Ok(PlayerSpec::AlphaBeta {
                limits: Limits {
                    depth: Some(6),
                    time: None
                },
                eval: Some(EvalFile::Path("x.safetensors".into()))
            })
        );
        assert_eq!(
            "hub:scan hub".parse(),
            Ok(PlayerSpec::Engine(EngineSpec::Hub(vec![
                "scan".into(),
                "hub".into()
            ])))
        );
    }

    #[test]
    fn players_are_named_by_their_canonical_spec() {
        for (text, name) in [
            ("ab:1", "alphabeta:1"),
            ("mcts:3", "uct:3"),
            ("random", "random"),
        ] {
            let p = parse_player(text, Variant::Thai).unwrap()(0);
            assert_eq!(p.name(), name);
        }
    }

    #[test]
    fn network_and_engine_specs_are_built_elsewhere() {
        for (spec, needle) in [
            ("zoo:thai", "network players need their network"),
            ("hub:scan hub", "engine players run through rafle-engine"),
            ("egtb", "needs endgame tables"),
        ] {
            let e = match parse_player(spec, Variant::Thai) {
                Err(e) => e.to_string(),
                Ok(_) => panic!("{spec:?} was built"),
            };
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
            ("alphabeta:eval=zoo", "needs a depth or a time"),
            ("alphabeta:4,eval=", "eval= needs"),
            (
                "alphabeta:d=4,eval=/no/such.safetensors",
                "/no/such.safetensors",
            ),
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
