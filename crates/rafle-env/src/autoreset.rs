//! When a batched env starts a new game after one ends: Gymnasium's three
//! autoreset modes (<https://farama.org/Vector-Autoreset-Mode>).
//!
//! ```text
//!   step t ends env i's game          step t+1 (action for env i)
//!   NextStep  obs = final state,      ignored: env i resets, obs = new game,
//!             mask all false          reward 0, not done
//!   SameStep  obs = new game,         played in the new game
//!             final obs kept aside
//!   Disabled  obs = final state,      an error until env i is reset
//!             mask all false          (reset with a mask of envs)
//! ```

use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AutoresetMode {
    /// Gymnasium's default: the step after the end resets the env.
    NextStep,
    /// The step that ends a game already shows the next one.
    #[default]
    SameStep,
    /// Finished envs wait for an explicit reset.
    Disabled,
}

impl AutoresetMode {
    pub const ALL: [AutoresetMode; 3] = [
        AutoresetMode::NextStep,
        AutoresetMode::SameStep,
        AutoresetMode::Disabled,
    ];

    /// Gymnasium's name (`AutoresetMode.NEXT_STEP.value` is "NextStep").
    pub fn name(self) -> &'static str {
        match self {
            AutoresetMode::NextStep => "NextStep",
            AutoresetMode::SameStep => "SameStep",
            AutoresetMode::Disabled => "Disabled",
        }
    }
}

impl fmt::Display for AutoresetMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not an autoreset mode; says which ones are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownAutoresetMode(pub String);

impl fmt::Display for UnknownAutoresetMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = AutoresetMode::ALL.iter().map(|m| m.name()).collect();
        write!(
            f,
            "unknown autoreset mode {:?} (expected one of: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownAutoresetMode {}

impl FromStr for AutoresetMode {
    type Err = UnknownAutoresetMode;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        AutoresetMode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| UnknownAutoresetMode(s.to_string()))
    }
}
