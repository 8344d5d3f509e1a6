//! `state.json` of a `rafle train-eval` run: the generations done, written
//! whole after each one, so a killed run resumes at the next generation.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

pub const FILE: &str = "state.json";

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct State {
    /// Generations finished (their games and evaluation written).
    pub generations: u64,
    /// Minutes spent by the finished generations (a resumed run adds to them).
    pub minutes: f64,
    /// The config's TOML (a resumed run keeps it).
    pub config: String,
}

impl State {
    pub fn path(dir: &Path) -> PathBuf {
        dir.join(FILE)
    }

    /// The state of the run in `dir` (None before its first generation ends).
    pub fn read(dir: &Path) -> Result<Option<State>> {
        let p = State::path(dir);
        if !p.exists() {
            return Ok(None);
        }
        let text =
            std::fs::read_to_string(&p).with_context(|| format!("cannot read {}", p.display()))?;
        Ok(Some(serde_json::from_str(&text).with_context(|| {
            format!("{} is not a train-eval state", p.display())
        })?))
    }

    pub fn write(&self, dir: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self)?;
        rafle_core::atomic::write(&State::path(dir), text.as_bytes())?;
        Ok(())
    }
}

/// The games file of generation `g`.
pub fn games_file(dir: &Path, g: u64) -> PathBuf {
    dir.join(format!("games-{g:03}.safetensors"))
}

/// The evaluation fitted at generation `g`.
pub fn eval_file(dir: &Path, g: u64) -> PathBuf {
    dir.join(format!("eval-{g:03}.safetensors"))
}

/// The newest evaluation of a run.
pub const LATEST: &str = "eval.safetensors";
