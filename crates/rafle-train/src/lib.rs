//! rafle-train: what a trainer needs except the network, shared by the tch
//! trainer (`rafle train`, rafle-zero) and the Python ones (through
//! rafle-py). No tch here: the network is whatever evaluator the caller
//! brings.
//!
//! - [`config`]: the run configuration (one TOML file, one struct per table).
//! - [`selfplay`]: games in lockstep searching with one evaluator, turning
//!   full searches into training [`sample`]s.
//! - [`sample`]: a training position and its targets.

pub mod config;
pub mod sample;
pub mod selfplay;
