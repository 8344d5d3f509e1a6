//! `rafle config FILE [--set table.field=value]...`: the settings a run of
//! FILE trains with, its bases merged and every default written out, as
//! TOML (what `scripts/dev/ab.sh` hashes to tell two arms apart).

use std::path::PathBuf;

use clap::Args;
use rafle_train::config::Config;

#[derive(Args, Debug)]
pub struct ConfigArgs {
    /// Run configuration (TOML; see configs/).
    pub file: PathBuf,
    /// Change one field, as `rafle train --set` does (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
}

pub fn run(a: ConfigArgs) -> anyhow::Result<()> {
    print!("{}", Config::load_with(&a.file, &a.sets)?.to_toml());
    Ok(())
}
