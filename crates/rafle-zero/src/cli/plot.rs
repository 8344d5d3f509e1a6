//! `rafle plot RUN_DIR`: PNG curves of a run's metrics into RUN_DIR/plots/.

use std::path::PathBuf;

use clap::Args;

#[derive(Args, Debug)]
pub struct PlotArgs {
    /// Run folder holding metrics.csv.
    pub run_dir: PathBuf,
}

pub fn run(a: PlotArgs) -> anyhow::Result<()> {
    for p in rafle_zero::plot::plot_run(&a.run_dir)? {
        println!("{}", p.display());
    }
    Ok(())
}
