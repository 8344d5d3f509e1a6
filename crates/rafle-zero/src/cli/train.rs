//! `rafle train --config configs/X.toml` (or `--resume RUN_DIR`): self-play
//! training with progress bars; prints the final evaluation table.

use std::path::PathBuf;

use anyhow::bail;
use clap::Args;
use rafle_train::config::Config;
use rafle_zero::train::{eval_table, Trainer};

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Run configuration (TOML; see configs/).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Continue the run in this folder from its last checkpoint.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Override run.out_dir of the config.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Override run.iterations (also when resuming: train further).
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Override run.time_limit_min (0 = no limit; also when resuming).
    #[arg(long)]
    pub time_limit_min: Option<f64>,
    /// Override eval.final_games (the final evaluation's games; 0 = none).
    #[arg(long)]
    pub final_games: Option<usize>,
    /// Change one field of the config: `table.field=value`, the value in
    /// TOML (`16`, `0.5`, `true`, `["a", "b"]`; other text is a string).
    /// Repeatable; checked as the file is.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
    /// No progress bars (summary lines only).
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(a: TrainArgs) -> anyhow::Result<()> {
    let mut trainer = match (&a.config, &a.resume) {
        (Some(path), None) => {
            let mut cfg = Config::load_with(path, &a.sets)?;
            if let Some(out) = &a.out {
                cfg.run.out_dir = out.display().to_string();
            }
            if let Some(n) = a.iterations {
                cfg.run.iterations = n;
            }
            if let Some(m) = a.time_limit_min {
                cfg.run.time_limit_min = m;
            }
            if let Some(g) = a.final_games {
                cfg.eval.final_games = g;
            }
            cfg.validate()?;
            Trainer::new(cfg, a.quiet)?
        }
        (None, Some(dir)) => {
            if a.out.is_some() {
                bail!("--out cannot be combined with --resume (the run stays in its folder)");
            }
            if !a.sets.is_empty() {
                bail!("--set cannot be combined with --resume (the run keeps its config)");
            }
            // The config is read back from the checkpoint.
            let mut t = Trainer::resume(dir, a.quiet)?;
            if let Some(n) = a.iterations {
                t.cfg.run.iterations = n;
            }
            if let Some(m) = a.time_limit_min {
                t.cfg.run.time_limit_min = m;
            }
            if let Some(g) = a.final_games {
                t.cfg.eval.final_games = g;
            }
            t.cfg.validate()?;
            t
        }
        _ => bail!("give exactly one of --config FILE or --resume RUN_DIR"),
    };
    let ev = trainer.run()?;
    println!(
        "finished: iteration {}, {} training steps, {} games; checkpoint {}",
        trainer.iteration,
        trainer.step,
        trainer.games,
        trainer.dir.join(rafle_zero::checkpoint::WEIGHTS).display()
    );
    if !ev.rows.is_empty() {
        println!(
            "final evaluation ({} games {}):",
            trainer.cfg.eval.final_games,
            match ev.placed {
                true => "placing it on the ladder",
                false => "per opponent",
            }
        );
        println!("{}", eval_table(&ev.rows));
        for line in ev.line.iter().chain(ev.value.map(|v| v.line()).as_ref()) {
            println!("  {line}");
        }
    }
    Ok(())
}
