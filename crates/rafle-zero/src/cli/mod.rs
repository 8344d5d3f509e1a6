//! Subcommands of the `rafle` binary, one module each.

pub mod bench;
pub mod config;
pub mod dxp;
pub mod egtb;
pub mod eval;
pub mod heldout;
pub mod hub;
pub mod interrupt;
pub mod ladder;
pub mod moves;
pub mod pdn;
pub mod perft;
pub mod plot;
#[cfg(feature = "torch")]
pub mod search;
pub mod serve;
pub mod show;
#[cfg(feature = "torch")]
pub mod train;
#[cfg(feature = "torch")]
pub mod train_eval;

use rafle_core::{parse_fen, Game, Position, Variant};

/// A variant named on the command line (clap's `value_parser` for `--variant`).
pub fn variant(name: &str) -> Result<Variant, String> {
    name.parse::<Variant>().map_err(|e| e.to_string())
}

/// The variants and their aliases, for `rafle --help`.
pub fn variants_help() -> String {
    let names: Vec<String> = Variant::ALL
        .iter()
        .map(|v| match v.aliases() {
            [] => v.name().to_string(),
            a => format!("{} ({})", v.name(), a.join(", ")),
        })
        .collect();
    let build = if cfg!(feature = "torch") {
        ""
    } else {
        "\nBuilt without the `torch` feature: train, search, bench selfplay|infer and \
         model players need a build with default features."
    };
    format!("Variants: {}.{build}", names.join(", "))
}

/// The error for a network player in a build without the `torch` feature.
#[cfg(not(feature = "torch"))]
pub fn needs_torch(spec: &rafle_search::PlayerSpec) -> anyhow::Error {
    anyhow::anyhow!(
        "{spec}: network players need the `torch` feature, and this rafle was built without it"
    )
}

/// `--variant V [--fen F]`, shared by the commands that take one position.
#[derive(clap::Args, Debug)]
pub struct PositionArgs {
    /// Variant (`rafle --help` lists them).
    #[arg(long, value_parser = variant)]
    pub variant: Variant,
    /// Position as PDN FEN (the start position if omitted).
    #[arg(long)]
    pub fen: Option<String>,
}

impl PositionArgs {
    pub fn game(&self) -> anyhow::Result<Game> {
        game(self.variant, self.fen.as_deref())
    }
}

/// The game for `--variant` and an optional `--fen` (start position without).
pub fn game(v: Variant, fen: Option<&str>) -> anyhow::Result<Game> {
    Ok(match fen {
        Some(f) => Game::from_position(v, parse_fen(v, f)?),
        None => Game::from_position(v, Position::start(v)),
    })
}
