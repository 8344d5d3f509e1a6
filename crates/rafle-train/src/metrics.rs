//! Metrics as a long CSV, `RUN_DIR/metrics.csv`, written and read by both
//! trainers (Python through the bindings) with the same names:
//!
//! ```text
//! iteration,step,elapsed_s,name,value
//! 3,120,95.2,loss/policy,2.314
//! ```
//!
//! Names: `loss/policy`, `loss/value` (the value cross-entropy less the
//! targets' own entropy: 0 is a head that matches its targets),
//! `loss/total`, `train/lr`,
//! `time/selfplay_s`, `time/train_s` (seconds of the iteration), the
//! self-play figures of [`selfplay_metrics`], `eval/score_vs_<spec>` and
//! `eval/games_vs_<spec>` (its game count), `eval/elo` (Elo difference to
//! the first opponent), `bootstrap/games`, `bootstrap/positions`,
//! `bootstrap/seconds`, `bootstrap/loss_policy` and `bootstrap/loss_value`
//! (iteration 0, a `[bootstrap]` run); `python -m
//! rafle.distributed` adds `distributed/*`. A name may hold commas (a spec
//! like `alphabeta:d=8,t=1s`): the csv crate quotes it.
//!
//! Every row also goes to a TensorBoard event file in the same folder
//! ([`crate::tensorboard`]), the name as the tag and the iteration as the
//! step.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::selfplay::SelfPlayStats;
use crate::tensorboard::EventWriter;

pub const FILE: &str = "metrics.csv";

/// The metrics of the ladder Elo an evaluation implies and its 95%
/// interval, which `rafle plot` draws on the ladder's scale.
pub const LADDER: [&str; 3] = ["eval/ladder_elo", "eval/ladder_lo", "eval/ladder_hi"];

/// One row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub iteration: u64,
    pub step: u64,
    pub elapsed_s: f64,
    pub name: String,
    pub value: f64,
}

/// Appends rows to a run's metrics file and its TensorBoard events. The
/// CSV is held in memory and the file replaced whole at each call
/// ([`rafle_core::atomic`]: a kill never leaves half a row); TensorBoard's
/// records carry their own checksums, so its reader skips a cut last one.
#[derive(Debug)]
pub struct Metrics {
    path: PathBuf,
    text: Vec<u8>,
    events: EventWriter,
}

impl Metrics {
    /// Opens (appending) or creates `dir/metrics.csv`; `fresh` starts it anew.
    pub fn open(dir: &Path, fresh: bool) -> Result<Metrics> {
        let path = dir.join(FILE);
        let mut text = Vec::new();
        if !fresh && path.exists() {
            text =
                std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
            // A row cut by a writer older than the atomic one: dropped.
            let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            text.truncate(whole);
        }
        if text.is_empty() {
            text = b"iteration,step,elapsed_s,name,value\n".to_vec();
            rafle_core::atomic::write(&path, &text)?;
        }
        if fresh {
            // A fresh run's old event files would mix two runs in one curve.
            for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                if entry
                    .file_name()
                    .to_string_lossy()
                    .starts_with("events.out.tfevents.")
                {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
        }
        let events = EventWriter::create(dir)?;
        Ok(Metrics { path, text, events })
    }

    /// Drops the rows of iterations after `iteration` (a run resumed after
    /// a kill that came between its rows and its state).
    pub fn truncate_after(&mut self, iteration: u64) -> Result<()> {
        let text = String::from_utf8_lossy(&self.text).into_owned();
        let mut lines = text.lines();
        let mut kept = String::new();
        if let Some(header) = lines.next() {
            kept.push_str(header);
            kept.push('\n');
        }
        for line in lines {
            let it = line.split(',').next().and_then(|x| x.parse::<u64>().ok());
            if it.is_some_and(|i| i <= iteration) {
                kept.push_str(line);
                kept.push('\n');
            }
        }
        if kept.len() != self.text.len() {
            self.text = kept.into_bytes();
            rafle_core::atomic::write(&self.path, &self.text)?;
        }
        Ok(())
    }

    /// Appends one row.
    pub fn log(
        &mut self,
        iteration: u64,
        step: u64,
        elapsed_s: f64,
        name: &str,
        value: f64,
    ) -> Result<()> {
        self.log_all(iteration, step, elapsed_s, &[(name, value)])
    }

    /// Appends one row per `(name, value)`, with one write of the file.
    pub fn log_all<S: AsRef<str>>(
        &mut self,
        iteration: u64,
        step: u64,
        elapsed_s: f64,
        values: &[(S, f64)],
    ) -> Result<()> {
        let mut rows = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        for (name, value) in values {
            rows.serialize(Row {
                iteration,
                step,
                elapsed_s: (elapsed_s * 10.0).round() / 10.0,
                name: name.as_ref().to_string(),
                value: *value,
            })?;
        }
        self.text.extend_from_slice(&rows.into_inner()?);
        rafle_core::atomic::write(&self.path, &self.text)?;
        for (name, value) in values {
            self.events.scalar(name.as_ref(), iteration, *value)?;
        }
        Ok(())
    }
}

/// Reads every row of `dir/metrics.csv`.
pub fn read(dir: &Path) -> Result<Vec<Row>> {
    let path = dir.join(FILE);
    let mut reader =
        csv::Reader::from_path(&path).with_context(|| format!("cannot read {}", path.display()))?;
    reader
        .deserialize()
        .map(|r| r.with_context(|| format!("{}", path.display())))
        .collect()
}

/// The time and self-play figures of one iteration, by metric name: the
/// seconds of its self-play and its training (`time/selfplay_s`,
/// `time/train_s`), then [`selfplay_metrics`].
pub fn iteration_metrics(
    st: &SelfPlayStats,
    selfplay_s: f64,
    train_s: f64,
    seconds: f64,
) -> Vec<(&'static str, f64)> {
    let mut out = vec![("time/selfplay_s", selfplay_s), ("time/train_s", train_s)];
    out.extend(selfplay_metrics(st, seconds));
    out
}

/// The self-play figures of one iteration, by metric name: rates over
/// `seconds` (`selfplay/games_per_s`, `selfplay/nn_evals_per_s`), the
/// average batch, the network's share of self-play time
/// (`selfplay/nn_share`), the share of leaves answered by a game's earlier
/// search (`selfplay/cache_share`) and, when games finished, their
/// average length, draw rate, the share cut at the ply cap
/// (`selfplay/truncated_share`, counted among the draws) and, with endgame tables, the share of games
/// they ended (`selfplay/table_end_share`) and of training positions inside
/// them (`selfplay/table_position_share`).
pub fn selfplay_metrics(st: &SelfPlayStats, seconds: f64) -> Vec<(&'static str, f64)> {
    let per_s = |x: u64| x as f64 / seconds.max(1e-9);
    let mut out = vec![
        ("selfplay/games_per_s", per_s(st.games)),
        ("selfplay/nn_evals_per_s", per_s(st.nn_evals)),
        ("selfplay/avg_batch", st.avg_batch()),
        ("selfplay/nn_share", st.nn_share()),
        ("selfplay/cache_share", st.cache_share()),
    ];
    if st.games > 0 {
        out.push(("selfplay/game_length", st.plies as f64 / st.games as f64));
        out.push(("selfplay/draw_rate", st.draws as f64 / st.games as f64));
        out.push((
            "selfplay/table_end_share",
            st.table_ends as f64 / st.games as f64,
        ));
        out.push((
            "selfplay/truncated_share",
            st.truncated as f64 / st.games as f64,
        ));
    }
    if st.positions > 0 {
        out.push((
            "selfplay/table_position_share",
            st.table_positions as f64 / st.positions as f64,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_with_commas_in_names_read_back() {
        let dir = std::env::temp_dir().join(format!("rafle-metrics-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut m = Metrics::open(&dir, true).unwrap();
        m.log(1, 10, 3.04, "eval/score_vs_alphabeta:d=8,t=1s", 0.5)
            .unwrap();
        m.log(2, 20, 6.0, "loss/total", 1.25).unwrap();
        drop(m);
        // Appending keeps one header.
        Metrics::open(&dir, false)
            .unwrap()
            .log(3, 30, 9.0, "train/lr", 0.01)
            .unwrap();
        let rows = read(&dir).unwrap();
        let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(
            names,
            ["eval/score_vs_alphabeta:d=8,t=1s", "loss/total", "train/lr"]
        );
        assert_eq!((rows[0].elapsed_s, rows[2].value), (3.0, 0.01));
        std::fs::write(dir.join(FILE), "iteration,step\n1,x\n").unwrap();
        assert!(read(&dir).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
