//! rafle-train: what a trainer needs except the network, shared by the tch
//! trainer (`rafle train`, rafle-zero) and the Python ones (through
//! rafle-py). No tch here: the network is whatever evaluator the caller
//! brings.
//!
//! - [`config`]: the run configuration (one TOML file, one struct per table).
//! - [`overlay`]: config files built on a base recipe, and `--set key=value`.
//! - [`checkpoint`]: a checkpoint's metadata (`latest.json`), read and checked.
//! - [`bootstrap`]: a teacher's games as the first training samples.
//! - [`selfplay`]: games in lockstep searching with one evaluator, turning
//!   full searches into training [`sample`]s.
//! - [`sample`]: a training position, its targets, samples as dense arrays.
//! - [`replay`]: the replay window and its file (one format for both trainers).
//! - [`metrics`]: `metrics.csv` and the names and derived figures in it.
//! - [`tensorboard`]: the same rows as TensorBoard event files.
//! - [`evaltrain`]: a learned alpha-beta evaluation's config, self-play
//!   games and run state (`rafle train-eval`).
//! - [`heldout`]: the value head's held-out set and what a head scores on it.

pub mod bootstrap;
pub mod checkpoint;
pub mod config;
pub mod evaltrain;
pub mod heldout;
pub mod metrics;
pub mod overlay;
pub mod replay;
pub mod sample;
pub mod selfplay;
pub mod tensorboard;
