//! rafle-zero: everything that needs tch. The policy/value network ([`net`]),
//! Gumbel AlphaZero and PUCT search over env step actions ([`search`]),
//! batched self-play ([`selfplay`]), the replay buffer ([`replay`]), the
//! optimiser ([`optim`]), the training loop ([`train`]), checkpoints
//! ([`checkpoint`]), metrics and plots ([`metrics`], [`plot`]) and the model
//! as an arena player ([`player`]). One run is described by a [`config::Config`].

pub mod checkpoint;
pub mod config;
pub mod metrics;
pub mod net;
pub mod optim;
pub mod player;
pub mod plot;
pub mod replay;
pub mod search;
pub mod selfplay;
pub mod train;
