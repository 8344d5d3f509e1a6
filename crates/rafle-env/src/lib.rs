//! rafle-env: the RL view of the rule engine (docs/how-to/rl-view.md; the codec and the planes are specified in [`action`] and
//! [`obs`]).
//!
//! - [`action`]: the action codec (one action = one step of a move; a
//!   multi-capture is a chain of steps by the same player), in the mover's frame.
//! - [`codec`]: the codec as methods of [`Env`] (sizes, a move as its
//!   steps and back, an env replaying a game).
//! - [`obs`]: the observation planes, float32 `[NUM_PLANES, N, N]`.
//! - [`env`](mod@env): one game stepped action by action ([`Env`]).
//! - [`vec_env`]: many games stepped together on rayon, writing straight
//!   into output arrays ([`Batch`]; [`VecEnv`] owns its arrays), with
//!   Gymnasium's three [`autoreset`] modes.
//! - [`replay`] and [`snapshot`]: an env rebuilt from the steps of its
//!   episode (pickling; the episode read as a game of moves).
//! - [`error`]: what can go wrong ([`EnvError`]), never a panic.
//! - [`bench`](mod@bench): the speed measurement behind `rafle bench env`.

pub mod action;
pub mod autoreset;
pub mod bench;
pub mod codec;
pub mod env;
pub mod error;
pub mod obs;
pub mod replay;
pub mod snapshot;
pub mod vec_env;

pub use autoreset::AutoresetMode;
pub use codec::Chain;
pub use env::{ActionList, Env, EnvConfig, IllegalActionMode, StepInfo};
pub use error::{EnvError, VecEnvError};
pub use obs::{ObsKey, NUM_PLANES};
pub use rafle_core::{EndReason, Variant};
pub use snapshot::Snapshot;
pub use vec_env::{Batch, EpisodeStat, Outputs, VecEnv};
