//! rafle-zero: what needs tch. The policy/value network ([`net`], an
//! evaluator of rafle-search's network search), the replay buffer
//! batches as tensors ([`replay`]), the optimiser ([`optim`]), the training
//! loop ([`train`]: rafle-train's batched self-play with this network, then
//! training steps), checkpoints ([`checkpoint`]), plots of the metrics ([`plot`])
//! and a checkpoint as an arena side ([`model`]). One run is described by a
//! `rafle_train::config::Config`. The binary is the `rafle` command line.
//!
//! Everything that links tch is behind the default feature `torch`; without
//! it only [`plot`] remains, and the command line keeps the
//! commands that need no network (docs/install.md, "Without libtorch").

#[cfg(feature = "torch")]
pub mod checkpoint;
pub mod malloc;
#[cfg(feature = "torch")]
pub mod model;
#[cfg(feature = "torch")]
pub mod net;
#[cfg(feature = "torch")]
pub mod optim;
pub mod plot;
#[cfg(feature = "torch")]
pub mod replay;
#[cfg(feature = "torch")]
pub mod train;
