//! `rafle config FILE [--set table.field=value]...`: the settings a run of
//! FILE trains with, its bases merged and every default written out, as
//! TOML (what `tools/ab.sh` and `tools/results_row.py` hash to tell two
//! arms apart). A `rafle train-eval` config (a `[games]`, `[fit]` or
//! `[check]` table) prints as one.

use std::path::PathBuf;

use clap::Args;
use rafle_train::config::Config;
use rafle_train::evaltrain::config::Config as EvalConfig;
use rafle_train::overlay;

#[derive(Args, Debug)]
pub struct ConfigArgs {
    /// Run configuration (TOML; see configs/ and configs/eval/).
    pub file: PathBuf,
    /// Change one field, as `rafle train --set` does (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
}

pub fn run(a: ConfigArgs) -> anyhow::Result<()> {
    let table = overlay::read(&a.file)?.table;
    let text = if ["games", "fit", "check"]
        .iter()
        .any(|k| table.contains_key(*k))
    {
        EvalConfig::load_with(&a.file, &a.sets)?.to_toml()
    } else {
        Config::load_with(&a.file, &a.sets)?.to_toml()
    };
    print!("{text}");
    Ok(())
}
