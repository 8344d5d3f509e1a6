//! `rafle serve`: play, inspect and replay in the browser (rafle-serve's
//! page), with the players named here.
//!
//! ```text
//! rafle serve --variant thai --player zoo:thai --player alphabeta:4
//! rafle serve --pdn games.pdn                       (replay every game of a file)
//! rafle serve --variant russian --egtb tables/russian --player egtb --player alphabeta:6
//! ```
//!
//! It prints the page's address and opens nothing. It listens on
//! 127.0.0.1 unless `--host` says otherwise; the page has no
//! authentication, so bind elsewhere only on a network you trust.

use super::eval::{open_tables, resolve_player, EngineArgs};
use anyhow::Context;
use clap::Args;
use rafle_core::Variant;
use rafle_search::PlayerOptions;
use rafle_serve::{ServeConfig, DEFAULT_PLAYERS};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The largest PDN file `--pdn` reads (the page lists every game).
const MAX_PDN: u64 = 256 << 20;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The variant the page starts with (the page can change it).
    #[arg(long, value_parser = super::variant, default_value = "international")]
    pub variant: Variant,
    /// A player the page offers (repeatable): any player spec, model:PATH
    /// and zoo:VARIANT included (default: alphabeta:4, uct:400, greedy, random).
    #[arg(long = "player")]
    pub players: Vec<String>,
    #[arg(long, default_value_t = 8000)]
    pub port: u16,
    /// The address to listen on. Anything but loopback exposes the page,
    /// and the engines it runs, to the network without authentication.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Endgame tables of --variant (a folder `rafle egtb build` wrote):
    /// their value in the inspect view, and the player `egtb`.
    #[arg(long)]
    pub egtb: Option<PathBuf>,
    /// A PDN file whose games the page replays.
    #[arg(long)]
    pub pdn: Option<PathBuf>,
    #[command(flatten)]
    pub engines: EngineArgs,
}

/// The games of a PDN file that replay (each one that does not is
/// reported on stderr), labelled for the page.
fn read_pdn(path: &std::path::Path) -> anyhow::Result<Vec<(String, rafle_arena::pdn::PdnGame)>> {
    let size = std::fs::metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    if size > MAX_PDN {
        anyhow::bail!(
            "{}: {size} bytes, more than the {MAX_PDN} this page replays",
            path.display()
        );
    }
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let mut games = Vec::new();
    for (i, g) in rafle_arena::pdn::read_each(&text).into_iter().enumerate() {
        let n = i + 1;
        match g.and_then(|g| g.replay(None).map(|_| g)) {
            Ok(g) => games.push((g.label(n), g)),
            Err(e) => eprintln!("{}: game {n}: {e} (left out)", path.display()),
        }
    }
    if games.is_empty() {
        anyhow::bail!("{}: no game replays", path.display());
    }
    Ok(games)
}

pub fn run(a: ServeArgs) -> anyhow::Result<()> {
    let tables = open_tables(a.egtb.as_deref(), a.variant)?;
    let games = a
        .pdn
        .as_deref()
        .map(read_pdn)
        .transpose()?
        .unwrap_or_default();
    let mut players = a.players.clone();
    if players.is_empty() {
        players = DEFAULT_PLAYERS.iter().map(|s| s.to_string()).collect();
        if tables.is_some() {
            players.insert(0, "egtb".into());
        }
    }
    let engines = a.engines.options(None)?;
    let options = PlayerOptions {
        egtb: tables.clone(),
    };
    // Every player is built in --variant now, so that a typo is an error
    // here rather than on the page; the page then takes these sides.
    let mut built = HashMap::new();
    for p in &players {
        let side = resolve_player(p, a.variant, None, &engines, &options)
            .with_context(|| format!("--player {p}"))?;
        built.insert((p.clone(), a.variant), side);
    }
    let built = Mutex::new(built);
    let resolve: rafle_serve::Resolve = Arc::new(move |spec: &str, v: Variant| {
        let key = (spec.to_string(), v);
        if let Some(side) = built.lock().unwrap_or_else(|p| p.into_inner()).remove(&key) {
            return Ok(side);
        }
        let opts = match &options.egtb {
            Some(tb) if tb.variant() != v => PlayerOptions::default(),
            _ => options.clone(),
        };
        resolve_player(spec, v, None, &engines, &opts).map_err(|e| format!("{e:#}"))
    });
    let config = ServeConfig {
        resolve,
        tables,
        games,
        ..ServeConfig::new(a.variant, players)
    };
    let server = rafle_serve::start(config, &a.host, a.port)
        .with_context(|| format!("cannot listen on {}:{}", a.host, a.port))?;
    println!("rafle serve: {}", server.url());
    if !is_loopback(&a.host) {
        eprintln!(
            "warning: listening on {} without authentication: anyone who reaches it can run the players",
            a.host
        );
    }
    server.wait().context("the server stopped")?;
    Ok(())
}

/// Whether `host` names the loopback interface only.
pub fn is_loopback(host: &str) -> bool {
    host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}
