//! Errors of the environment: every bad call becomes one of these, never a panic.

use std::fmt;

/// What went wrong in an [`Env`](crate::Env) or [`VecEnv`](crate::VecEnv) call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnvError {
    /// An action id outside `0..num_actions`.
    ActionOutOfRange { action: i64, num_actions: usize },
    /// An action id that is not among the legal next steps (illegal mode `Error`).
    IllegalAction { action: usize },
    /// `step` on a finished episode (call `reset`), or a start position that is
    /// already over where a playable one is needed.
    EpisodeOver,
    /// A buffer or action array of the wrong length.
    BadShape { expected: usize, got: usize },
    /// A start FEN that could not be read.
    Fen(rafle_core::Error),
    /// A move (in notation) that could not be read or is not legal here.
    Move(rafle_core::Error),
    /// A full move asked for while a capture is under way.
    ChainPending,
    /// Saved state that cannot be restored; says what is wrong.
    BadSnapshot(&'static str),
    /// More games than memory holds: the bytes their buffers need.
    TooLarge {
        num_envs: usize,
        bytes: Option<usize>,
    },
}

impl fmt::Display for EnvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EnvError::ActionOutOfRange {
                action,
                num_actions,
            } => write!(
                f,
                "action {action} out of range (expected 0..{num_actions})"
            ),
            EnvError::IllegalAction { action } => {
                write!(f, "action {action} is not legal in this state")
            }
            EnvError::EpisodeOver => write!(f, "the episode is over (reset the environment)"),
            EnvError::BadShape { expected, got } => {
                write!(f, "wrong length: expected {expected}, got {got}")
            }
            EnvError::Fen(e) | EnvError::Move(e) => write!(f, "{e}"),
            EnvError::ChainPending => {
                write!(f, "a capture is under way: finish it step by step")
            }
            EnvError::BadSnapshot(why) => write!(f, "cannot restore the env: {why}"),
            EnvError::TooLarge { num_envs, bytes } => match bytes {
                Some(b) => write!(
                    f,
                    "num_envs {num_envs}: their {} MiB of buffers cannot be allocated",
                    b >> 20
                ),
                None => write!(f, "num_envs {num_envs}: more bytes than an address holds"),
            },
        }
    }
}

impl std::error::Error for EnvError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EnvError::Fen(e) | EnvError::Move(e) => Some(e),
            _ => None,
        }
    }
}

impl From<rafle_core::Error> for EnvError {
    fn from(e: rafle_core::Error) -> Self {
        EnvError::Fen(e)
    }
}

/// An error of one environment of a [`VecEnv`](crate::VecEnv), naming its index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VecEnvError {
    pub index: usize,
    pub error: EnvError,
}

impl fmt::Display for VecEnvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.error {
            // A whole-batch shape error names no env.
            EnvError::BadShape { .. } => write!(f, "actions: {}", self.error),
            _ => write!(f, "env {}: {}", self.index, self.error),
        }
    }
}

impl std::error::Error for VecEnvError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}
