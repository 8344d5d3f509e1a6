//! `rafle hub`: rafle as a Hub (v2) engine on stdin/stdout, for Hub GUIs
//! and other programs' Hub clients (`rafle_engine::hub::server`).
//!
//! ```text
//! rafle hub --variant international --player zoo:international:64
//! rafle hub --variant russian --player alphabeta:t=1s  (squares as pydraughts numbers them)
//! ```
//!
//! The GUI may change the parameters `variant`, `player`, `threads` and
//! `seed` before `init`. A level maps to the player's budget: alpha-beta
//! takes `depth=` and the time levels (its spec's other limit stays), UCT
//! and network players take `nodes=` as simulations per move, and a network
//! player turns a time into simulations at the rate of its own moves so far
//! (never more than its spec's).

use super::eval::{resolve_player, EngineArgs};
use clap::Args;
use rafle_core::Variant;
use rafle_engine::hub::server::{serve, Settings};
use rafle_engine::notation::Convention;

#[derive(Args, Debug)]
pub struct HubArgs {
    /// Variant (Hub's `variant` parameter can change it).
    #[arg(long, value_parser = super::variant, default_value = "international")]
    pub variant: Variant,
    /// The player behind the protocol (any player spec, model:/zoo: included).
    #[arg(long, default_value = "alphabeta:t=1s")]
    pub player: String,
    /// Threads for a network player's evaluation.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed of the player, taken afresh at each new game.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Square numbering on boards other than 10x10 (Hub's `numbering`
    /// parameter can change it): pydraughts (0.6 and later) or rafle
    /// (also pydraughts 0.5's, which lidraughts-bot uses today).
    #[arg(long, value_parser = super::eval::numbering, default_value = "pydraughts")]
    pub numbering: Convention,
    #[command(flatten)]
    pub engines: EngineArgs,
}

pub fn run(a: HubArgs) -> anyhow::Result<()> {
    let engines = a.engines.options(None)?;
    let settings = Settings {
        variant: a.variant,
        player: a.player,
        threads: a.threads.max(1),
        seed: a.seed,
        numbering: a.numbering,
    };
    let make = move |s: &Settings| {
        #[cfg(feature = "torch")]
        tch::set_num_threads(s.threads as i32);
        resolve_player(&s.player, s.variant, None, &engines, &Default::default())
            .map(|side| side.factory())
            .map_err(|e| e.to_string())
    };
    serve(std::io::stdin().lock(), std::io::stdout(), settings, &make)?;
    Ok(())
}
