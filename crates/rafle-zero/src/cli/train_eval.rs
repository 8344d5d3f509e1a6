//! `rafle train-eval --config configs/eval/V.toml` (or `--resume RUN_DIR`):
//! a learned alpha-beta evaluation by generations of self-play, with
//! progress bars; prints where the evaluation is and how it played.

use std::path::PathBuf;

use anyhow::bail;
use clap::Args;
use rafle_train::evaltrain::config::Config;
use rafle_zero::evaltrain::EvalTrainer;

#[derive(Args, Debug)]
pub struct TrainEvalArgs {
    /// Run configuration (TOML; see configs/eval/).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Continue the run in this folder after its last whole generation.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Change one field of the config: `table.field=value` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
    /// Override run.generations (also when resuming: train further).
    #[arg(long)]
    pub generations: Option<u64>,
    /// Override run.time_limit_min (also when resuming: the minutes the
    /// run trained so far count towards it).
    #[arg(long)]
    pub time_limit_min: Option<f64>,
    /// No progress bars (a line per generation).
    #[arg(long)]
    pub quiet: bool,
}

/// The flags that change a fresh or resumed run's config, then its checks.
fn overrides(a: &TrainEvalArgs, cfg: &mut Config) -> anyhow::Result<()> {
    if let Some(g) = a.generations {
        cfg.run.generations = g;
    }
    if let Some(m) = a.time_limit_min {
        cfg.run.time_limit_min = m;
    }
    cfg.validate()?;
    Ok(())
}

pub fn run(a: TrainEvalArgs) -> anyhow::Result<()> {
    let mut trainer = match (&a.config, &a.resume) {
        (Some(path), None) => {
            let mut cfg = Config::load_with(path, &a.sets)?;
            overrides(&a, &mut cfg)?;
            EvalTrainer::new(cfg, a.quiet)?
        }
        (None, Some(dir)) => {
            if !a.sets.is_empty() {
                bail!("--set cannot be combined with --resume (the run keeps its config)");
            }
            let mut t = EvalTrainer::resume(dir, a.quiet)?;
            overrides(&a, &mut t.cfg)?;
            t
        }
        _ => bail!("give exactly one of --config FILE or --resume RUN_DIR"),
    };
    let s = trainer.run()?;
    println!(
        "finished: {} generations in {:.1} min; evaluation {} (play it: alphabeta:d={},eval={})",
        s.generations,
        s.minutes,
        s.eval.display(),
        trainer.cfg.check.depth,
        s.eval.display()
    );
    if let Some((score, n)) = s.check {
        println!(
            "last check: {:.1}% over {n} games against alphabeta:{}",
            100.0 * score,
            trainer.cfg.check.depth
        );
    }
    Ok(())
}
