//! rafle-engine: the protocols of the draughts world's engines, both ends.
//!
//! - **Engines as players.** `hub:<command line>` starts a Hub (v2) engine
//!   (the command split like a POSIX shell), `dxp:<host>:<port>` connects to
//!   a DXP engine listening there. Either is a [`rafle_search::Player`] the
//!   arena schedules like any other ([`parse_player`] reads every spec),
//!   with a [`Level`] and engine parameters ([`EngineOptions`]).
//! - **rafle as an engine.** [`hub::server`] serves Hub on stdin/stdout
//!   (`rafle hub`), [`dxp::server`] is a DXP follower (`rafle dxp --listen`).
//! - **Notation at the boundary** ([`notation`]): both protocols name a
//!   capture by its captured squares, which is how rafle identifies moves,
//!   so conversion is exact; squares are numbered as pydraughts numbers
//!   them where it has the variant ([`notation::Numbering`]).
//!
//! Nothing waits for good: every read has a deadline ([`link`]), and an
//! engine that exits, stalls, sends garbage or an illegal move forfeits the
//! game ([`rafle_search::Forfeit`]); its process or connection is dropped
//! and the next game starts a fresh one ([`pool`]).
//!
//! Variants ([`hub_variant`]): the Hub names of Scan and lidraughts-bot
//! (`normal` international, `killer`, `bt` breakthrough, `losing`
//! antidraughts, `frisian`), pydraughts' for its 8x8 variants (`russian`,
//! `brazilian`, `italian`, `turkish`, and `english`, which has no majority
//! rule: rafle's checkers), rafle's own names for the rest (rafle's
//! english, with the majority rule, is `english-majority`). An engine that
//! declares a `variant` parameter without the name refuses in one line. DXP
//! has no variant field: both ends must agree on it beforehand.

pub mod dxp;
pub mod hub;
pub mod level;
pub mod link;
pub mod notation;
pub mod pool;

pub use level::Level;

use rafle_core::Variant;
use rafle_search::{Player, PlayerFactory, PlayerOptions, PlayerSpec, SpecError};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// How engines are run.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// The search limit sent to the engine (None: the engine's own default
    /// for Hub, [`dxp::client::DEFAULT_LEVEL`] for DXP).
    pub level: Option<Level>,
    /// Engine parameters (`set-param` in Hub; DXP has none).
    pub params: Vec<(String, String)>,
    /// How long starting an engine may take, and a move at a depth or
    /// node level.
    pub timeout: Duration,
    /// Raised to stop waiting on engines (Ctrl-C).
    pub stop: Option<Arc<AtomicBool>>,
    /// How the engine numbers the squares of boards other than 10x10.
    pub numbering: notation::Convention,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            level: None,
            params: Vec::new(),
            timeout: Duration::from_secs(60),
            stop: None,
            numbering: notation::Convention::default(),
        }
    }
}

/// The variant's name in Hub's `variant` parameter: Scan's and
/// lidraughts-bot's names, pydraughts' for its 8x8 variants, rafle's for
/// the others.
pub fn hub_variant(v: Variant) -> &'static str {
    match v {
        Variant::International => "normal",
        Variant::Breakthrough => "bt",
        Variant::Antidraughts => "losing",
        // pydraughts' english has no majority rule.
        Variant::Checkers => "english",
        Variant::English => "english-majority",
        _ => v.name(),
    }
}

/// Other names hosts send: pydraughts' `standard` and `frysk!` (frisian
/// rules from a position with five men each), `american`.
const HUB_ALIASES: [(&str, Variant); 4] = [
    ("standard", Variant::International),
    ("frysk", Variant::Frisian),
    ("frysk!", Variant::Frisian),
    ("american", Variant::Checkers),
];

/// A variant from its Hub name, a host's alias or any of rafle's names
/// (the Hub name first: `english` is checkers).
pub fn variant_of_hub(name: &str) -> Result<Variant, String> {
    let name = name.trim().to_ascii_lowercase();
    Variant::ALL
        .into_iter()
        .find(|&v| hub_variant(v) == name)
        .or_else(|| HUB_ALIASES.iter().find(|a| a.0 == name).map(|a| a.1))
        .map_or_else(|| name.parse::<Variant>().map_err(|e| e.to_string()), Ok)
}

pub use rafle_search::spec::{engine_spec, EngineSpec};

const FORMS: &str = "hub:<command line> or dxp:<host>:<port>";

fn spec_error(spec: &str, why: impl std::fmt::Display) -> SpecError {
    SpecError(format!("player spec {spec:?}: {why} ({FORMS})"))
}

/// The factory of an engine spec: checks the engine once (a Hub engine is
/// started and initialised, a DXP engine connected to), so that a wrong
/// command or address is an error now rather than a forfeit per game; that
/// engine then plays the first game.
pub fn engine_player(
    engine: &EngineSpec,
    variant: Variant,
    opts: &EngineOptions,
) -> Result<PlayerFactory, SpecError> {
    let name = PlayerSpec::Engine(engine.clone()).to_string();
    let bad = |why: String| spec_error(&name, why);
    Ok(match engine.clone() {
        EngineSpec::Hub(command) => {
            let first = hub::client::HubEngine::start(&command, variant, opts).map_err(bad)?;
            let shared = Arc::new(hub::client::HubShared {
                name,
                command,
                variant,
                opts: opts.clone(),
                pool: pool::Pool::default(),
            });
            shared.pool.put(first);
            Arc::new(move |_seed| {
                Box::new(hub::client::HubPlayer::new(shared.clone())) as Box<dyn Player>
            })
        }
        EngineSpec::Dxp { host, port } => {
            dxp::client::clock_of(opts.level).map_err(bad)?;
            let addr = format!("{host}:{port}");
            let first = dxp::client::connect(&addr, opts.timeout).map_err(bad)?;
            let shared = Arc::new(dxp::client::DxpShared {
                name,
                addr,
                variant,
                opts: opts.clone(),
                pool: pool::Pool::default(),
            });
            shared.pool.put(first);
            Arc::new(move |_seed| {
                Box::new(dxp::client::DxpPlayer::new(shared.clone())) as Box<dyn Player>
            })
        }
    })
}

/// The factory of any player spec that needs no network: engines here,
/// the rest by [`PlayerSpec::build`] (text read once, here).
pub fn parse_player(
    spec: &str,
    variant: Variant,
    opts: &EngineOptions,
) -> Result<PlayerFactory, SpecError> {
    parse_player_with(spec, variant, opts, &PlayerOptions::default())
}

/// [`parse_player`] with what rafle's own players may use besides their
/// spec (endgame tables: [`PlayerOptions`]).
pub fn parse_player_with(
    spec: &str,
    variant: Variant,
    opts: &EngineOptions,
    players: &PlayerOptions,
) -> Result<PlayerFactory, SpecError> {
    build_player(&spec.parse()?, variant, opts, players)
}

/// The factory of a spec that needs no network: an engine spec is started
/// here with `opts`, every other by [`PlayerSpec::build`] with `players`.
pub fn build_player(
    spec: &PlayerSpec,
    variant: Variant,
    opts: &EngineOptions,
    players: &PlayerOptions,
) -> Result<PlayerFactory, SpecError> {
    match spec {
        PlayerSpec::Engine(engine) => engine_player(engine, variant, opts),
        _ => spec.build(variant, players),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs_read_and_bad_ones_name_the_part() {
        assert_eq!(
            engine_spec("hub:/opt/scan/scan hub").unwrap().unwrap(),
            EngineSpec::Hub(vec!["/opt/scan/scan".into(), "hub".into()])
        );
        assert_eq!(
            engine_spec(r#"hub:"/my engines/kr" --hub -v"#)
                .unwrap()
                .unwrap(),
            EngineSpec::Hub(vec!["/my engines/kr".into(), "--hub".into(), "-v".into()])
        );
        assert_eq!(
            engine_spec("dxp:127.0.0.1:27531").unwrap().unwrap(),
            EngineSpec::Dxp {
                host: "127.0.0.1".into(),
                port: 27531
            }
        );
        assert!(engine_spec("alphabeta:4").is_none());
        for (bad, needle) in [
            ("hub:", "command line"),
            ("hub:'scan hub", "unclosed quote"),
            ("dxp:", "host and a port"),
            ("dxp::27531", "host is empty"),
            ("dxp:localhost:port", "\"port\" is not a number"),
            ("dxp:localhost:0", "is not a number in 1..=65535"),
            ("dxp:localhost:70000", "1..=65535"),
        ] {
            let e = engine_spec(bad).unwrap().unwrap_err().to_string();
            assert!(e.contains(needle) && e.contains(bad), "{bad}: {e}");
        }
    }

    #[test]
    fn an_engine_that_cannot_start_is_a_one_line_error() {
        let opts = EngineOptions {
            timeout: Duration::from_secs(5),
            ..EngineOptions::default()
        };
        let e = parse_player("hub:/nonexistent/engine hub", Variant::International, &opts)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("cannot start \"/nonexistent/engine\""), "{e}");
        assert!(!e.contains('\n'));
        // Nothing listens on port 1.
        let e = parse_player("dxp:127.0.0.1:1", Variant::International, &opts)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("cannot connect to 127.0.0.1:1"), "{e}");
        let depth = EngineOptions {
            level: Some(Level::Depth(4)),
            ..opts
        };
        let e = parse_player("dxp:127.0.0.1:1", Variant::International, &depth)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("DXP carries a game clock only"), "{e}");
    }

    #[test]
    fn hub_variant_names_go_both_ways() {
        for v in Variant::ALL {
            assert_eq!(variant_of_hub(hub_variant(v)), Ok(v));
            // rafle's own names too, except english, which Hub hosts
            // (pydraughts) use for checkers.
            if v != Variant::English {
                assert_eq!(variant_of_hub(v.name()), Ok(v));
            }
        }
        // lidraughts-bot's and pydraughts' names.
        for (name, v) in [
            ("normal", Variant::International),
            ("standard", Variant::International),
            ("bt", Variant::Breakthrough),
            ("losing", Variant::Antidraughts),
            ("frisian", Variant::Frisian),
            ("frysk!", Variant::Frisian),
            ("russian", Variant::Russian),
            ("brazilian", Variant::Brazilian),
            ("italian", Variant::Italian),
            ("turkish", Variant::Turkish),
            ("english", Variant::Checkers),
            ("English", Variant::Checkers),
        ] {
            assert_eq!(variant_of_hub(name), Ok(v), "{name}");
        }
        assert!(variant_of_hub("frisian-ish").is_err());
    }
}
