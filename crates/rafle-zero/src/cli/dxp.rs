//! `rafle dxp --listen PORT`: rafle as a DXP follower
//! (`rafle_engine::dxp::server`): initiators connect, request games and
//! play them; each connection plays on its own thread.
//!
//! ```text
//! rafle dxp --listen 27531 --variant international --player zoo:international:64
//! ```
//!
//! `--listen 0` takes a free port; the line on stderr says which.

use super::eval::{resolve_player, EngineArgs};
use anyhow::Context;
use clap::Args;
use rafle_core::Variant;
use rafle_engine::dxp::server::{serve, Follower, Limits};
use rafle_engine::notation::Convention;
use std::net::TcpListener;

#[derive(Args, Debug)]
pub struct DxpArgs {
    /// TCP port to listen on (0: any free port).
    #[arg(long)]
    pub listen: u16,
    /// Address to listen on (0.0.0.0 for other machines).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Variant of every game (DXP does not say; 8x8 is rafle's extension).
    #[arg(long, value_parser = super::variant, default_value = "international")]
    pub variant: Variant,
    /// The player behind the protocol (any player spec).
    #[arg(long, default_value = "alphabeta:t=1s")]
    pub player: String,
    /// Seed of the player, taken afresh for each game.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Square numbering on boards other than 10x10: pydraughts (0.6 and
    /// later) or rafle (also pydraughts 0.5's, which lidraughts-bot uses).
    #[arg(long, value_parser = super::eval::numbering, default_value = "pydraughts")]
    pub numbering: Convention,
    /// Connections served at once (more are closed at once).
    #[arg(long, default_value_t = Limits::default().connections)]
    pub max_connections: usize,
    /// Games in progress at once (more requests are refused).
    #[arg(long, default_value_t = Limits::default().games)]
    pub max_games: usize,
    #[command(flatten)]
    pub engines: EngineArgs,
}

pub fn run(a: DxpArgs) -> anyhow::Result<()> {
    let stop = super::interrupt::stop_flag();
    let engines = a.engines.options(Some(stop.clone()))?;
    let side = resolve_player(&a.player, a.variant, None, &engines, &Default::default())?;
    let listener = TcpListener::bind((a.host.as_str(), a.listen))
        .with_context(|| format!("cannot listen on {}:{}", a.host, a.listen))?;
    let addr = listener.local_addr()?;
    eprintln!(
        "rafle dxp: listening on {addr} ({}, {})",
        a.variant, a.player
    );
    serve(
        listener,
        Follower {
            variant: a.variant,
            factory: side.factory(),
            seed: a.seed,
            name: format!("rafle {}", env!("CARGO_PKG_VERSION")),
            numbering: a.numbering,
            stop: Some(stop),
            limits: Limits {
                connections: a.max_connections,
                games: a.max_games,
                ..Limits::default()
            },
        },
    )?;
    Ok(())
}
