//! `rafle bench perft [--variant V] [--depth D]`: nodes per second.
//! Other benchmarks (`env`, ...) are added as further `BenchKind`s.

use clap::{Args, Subcommand};
use rafle_core::{Position, Variant};
use std::time::Instant;

#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub kind: BenchKind,
}

#[derive(Subcommand, Debug)]
pub enum BenchKind {
    /// Perft from the start position; prints leaves and leaves per second.
    Perft {
        /// One variant (all four if omitted).
        #[arg(long)]
        variant: Option<String>,
        /// Depth (default: checkers 11, international 9, thai 8, english 9).
        #[arg(long)]
        depth: Option<u32>,
    },
}

fn default_depth(v: Variant) -> u32 {
    match v {
        Variant::Checkers => 11,
        Variant::International => 9,
        Variant::Thai => 8,
        Variant::English => 9,
    }
}

pub fn run(a: BenchArgs) -> anyhow::Result<()> {
    match a.kind {
        BenchKind::Perft { variant, depth } => {
            let variants = match variant {
                Some(v) => vec![super::variant(&v)?],
                None => Variant::ALL.to_vec(),
            };
            println!("{:<14} {:>5} {:>14} {:>9} {:>14}", "variant", "depth", "leaves", "seconds", "leaves/s");
            for v in variants {
                let d = depth.unwrap_or(default_depth(v));
                let pos = Position::start(v);
                let t = Instant::now();
                let n = rafle_core::perft::perft_variant(v, &pos, d);
                let s = t.elapsed().as_secs_f64();
                println!("{:<14} {:>5} {:>14} {:>9.3} {:>14.3e}", v.name(), d, n, s, n as f64 / s);
            }
        }
    }
    Ok(())
}
