//! rafle-zero: what needs tch. The policy/value network ([`net`], an
//! evaluator of rafle-search's network search), the replay buffer
//! ([`replay`]), the optimiser ([`optim`]), the training loop ([`train`]:
//! rafle-search's batched self-play with this network, then training steps),
//! checkpoints ([`checkpoint`]), metrics and plots ([`metrics`], [`plot`])
//! and a checkpoint as an arena side ([`model`]). One run is described by a
//! `rafle_train::config::Config`. The binary is the `rafle` command line.

pub mod checkpoint;
pub mod metrics;
pub mod model;
pub mod net;
pub mod optim;
pub mod plot;
pub mod replay;
pub mod train;
