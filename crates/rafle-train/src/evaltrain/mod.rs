//! What `rafle train-eval` needs besides tch: its [`config`], the
//! generations' self-play [`games`] and their labels, the run's
//! [`state`] (resume after a kill).

pub mod config;
pub mod games;
pub mod state;
