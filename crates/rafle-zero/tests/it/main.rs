//! The integration tests of rafle-zero, one binary (one link) for all of
//! them: the `rafle` binary and the trainer: the CLI, tables, engines, the
//! ladder, the build without libtorch, training, the zoo.

mod cli;
mod common;
mod egtb;
mod engines;
#[cfg(feature = "torch")]
mod heldout;
mod ladder;
mod no_torch;
#[path = "../../../rafle-core/tests/it/common/perft_data.rs"]
mod perft_data;
#[cfg(feature = "torch")]
mod train_eval;
#[cfg(feature = "torch")]
mod trainer;
#[cfg(feature = "torch")]
mod zoo;
