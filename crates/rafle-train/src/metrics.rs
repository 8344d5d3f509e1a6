//! Metrics as a long CSV, `RUN_DIR/metrics.csv`:
//!
//! ```text
//! iteration,step,elapsed_s,name,value
//! 3,120,95.2,loss/policy,2.314
//! ```
//!
//! Names are fixed: `loss/policy`, `loss/value`, `loss/total`, `train/lr`,
//! `selfplay/games_per_s`, `selfplay/nn_evals_per_s`, `selfplay/avg_batch`,
//! `selfplay/nn_share` (share of self-play time in the network),
//! `selfplay/cache_share` (share of search leaves answered by the game's
//! previous search instead of the network),
//! `selfplay/game_length`, `selfplay/draw_rate`, `time/selfplay_s`,
//! `time/train_s` (seconds of the iteration), `eval/score_vs_<spec>`,
//! `eval/elo` (Elo difference to the first opponent).

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

use anyhow::{Context, Result};

pub const FILE: &str = "metrics.csv";
const HEADER: &str = "iteration,step,elapsed_s,name,value";

/// One row.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub iteration: u64,
    pub step: u64,
    pub elapsed_s: f64,
    pub name: String,
    pub value: f64,
}

/// Appends rows to a run's metrics file.
#[derive(Debug)]
pub struct Metrics {
    file: File,
}

impl Metrics {
    /// Opens (appending) or creates `dir/metrics.csv`.
    pub fn open(dir: &Path) -> Result<Metrics> {
        let path = dir.join(FILE);
        let fresh = !path.exists();
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        if fresh {
            writeln!(file, "{HEADER}")?;
        }
        Ok(Metrics { file })
    }

    pub fn log(
        &mut self,
        iteration: u64,
        step: u64,
        elapsed_s: f64,
        name: &str,
        value: f64,
    ) -> Result<()> {
        writeln!(
            self.file,
            "{iteration},{step},{elapsed_s:.1},{name},{value}"
        )?;
        self.file.flush()?;
        Ok(())
    }
}

/// Reads every row of `dir/metrics.csv`.
pub fn read(dir: &Path) -> Result<Vec<Row>> {
    let path = dir.join(FILE);
    let f = File::open(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut rows = Vec::new();
    for (i, line) in BufReader::new(f).lines().enumerate() {
        let line = line?;
        if i == 0 || line.trim().is_empty() {
            continue;
        }
        let parts: Vec<&str> = line.split(',').collect();
        let bad = || anyhow::anyhow!("{} line {}: expected {HEADER}", path.display(), i + 1);
        if parts.len() != 5 {
            return Err(bad());
        }
        rows.push(Row {
            iteration: parts[0].parse().map_err(|_| bad())?,
            step: parts[1].parse().map_err(|_| bad())?,
            elapsed_s: parts[2].parse().map_err(|_| bad())?,
            name: parts[3].to_string(),
            value: parts[4].parse().map_err(|_| bad())?,
        });
    }
    Ok(rows)
}
