//! The search settings: the `[search]` table of a run config, the keywords
//! of Python's `NetworkAgent`, `SelfPlay` and `search`, all one struct.
//! Serde reads and writes it (TOML in configs, JSON to and from Python
//! dicts, through the bindings); a table may leave out any field, which then
//! keeps its default; [`SearchParams::validate`] is the one check.
//!
//! Adding a knob: a field with its doc here, its default in `Default`, its
//! range in `validate`. Nothing else lists the fields.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The tree search algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Gumbel AlphaZero (Danihelka et al., ICLR 2022).
    Gumbel,
    /// AlphaZero's PUCT.
    Puct,
}

impl Algorithm {
    /// Every algorithm, as named in configs and in Python.
    pub const ALL: [Algorithm; 2] = [Algorithm::Gumbel, Algorithm::Puct];

    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Gumbel => "gumbel",
            Algorithm::Puct => "puct",
        }
    }
}

impl std::str::FromStr for Algorithm {
    type Err = String;

    fn from_str(s: &str) -> Result<Algorithm, String> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| format!("unknown search algorithm {s:?} (gumbel or puct)"))
    }
}

/// Tree search settings, for self-play and for a network player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct SearchParams {
    /// `gumbel` (Gumbel AlphaZero, Danihelka et al. 2022) or `puct`.
    pub algorithm: Algorithm,
    /// Simulations of a full search (in self-play its result becomes a
    /// policy target); at most 1,000,000 (a typo like 10**9 would run for days).
    pub simulations: usize,
    /// Self-play: simulations of a fast search (playout cap randomisation);
    /// left out or equal to `simulations`, the cap is off.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fast_simulations: Option<usize>,
    /// Self-play: probability that a move gets the full search (KataGo's p).
    pub full_search_prob: f64,
    /// Gumbel: actions sampled at the root (top-m) for Sequential Halving.
    pub gumbel_m: usize,
    /// Gumbel: c_visit of sigma(q) = (c_visit + max N) * c_scale * q.
    pub c_visit: f64,
    /// Gumbel: c_scale of sigma(q).
    pub c_scale: f64,
    /// PUCT: exploration constant.
    pub c_puct: f64,
    /// PUCT: Dirichlet alpha of the root noise in self-play.
    pub dirichlet_alpha: f64,
    /// PUCT: weight of the root noise.
    pub dirichlet_frac: f64,
    /// Self-play explores for the first this many plies of a game, then plays
    /// its best move: Gumbel drops the root noise, PUCT stops sampling by
    /// visits (its Dirichlet noise stays).
    pub temperature_plies: u32,
    /// Leaves one search may ask the evaluator for per lockstep round. 1:
    /// a search waits for each leaf, so a batch holds one leaf per game.
    /// More: the search descends again with a virtual loss on the waiting
    /// lines, so few games still fill a large batch (for example a
    /// 16-game evaluation on a GPU); those extra leaves are chosen with less
    /// information, so keep 1 when there are many games.
    pub leaves_per_round: usize,
}

impl Default for SearchParams {
    /// A plain search (no playout cap) with the Gumbel paper's constants
    /// (m = 16, c_visit = 50, c_scale = 0.1) and AlphaZero's PUCT ones.
    fn default() -> Self {
        SearchParams {
            algorithm: Algorithm::Gumbel,
            simulations: 32,
            fast_simulations: None,
            full_search_prob: 1.0,
            gumbel_m: 16,
            c_visit: 50.0,
            c_scale: 0.1,
            c_puct: 1.5,
            dirichlet_alpha: 0.3,
            dirichlet_frac: 0.25,
            temperature_plies: 12,
            leaves_per_round: 1,
        }
    }
}

impl SearchParams {
    /// Simulations of a fast search (`simulations` when there is no cap).
    pub fn fast(&self) -> usize {
        self.fast_simulations.unwrap_or(self.simulations)
    }

    /// Checks every value; the error names the field (after `prefix`,
    /// e.g. `search.` in a config file) and what it must be.
    pub fn validate(&self, prefix: &str) -> Result<(), String> {
        let checks = [
            (
                (1..=1_000_000).contains(&self.simulations),
                "simulations",
                "in 1..=1000000",
            ),
            (
                (1..=self.simulations).contains(&self.fast()),
                "fast_simulations",
                "in 1..=simulations",
            ),
            (
                self.full_search_prob > 0.0 && self.full_search_prob <= 1.0,
                "full_search_prob",
                "in (0, 1]",
            ),
            (self.gumbel_m >= 1, "gumbel_m", ">= 1"),
            (self.c_visit >= 0.0, "c_visit", ">= 0"),
            (self.c_scale > 0.0, "c_scale", "> 0"),
            (self.c_puct > 0.0, "c_puct", "> 0"),
            (self.dirichlet_alpha > 0.0, "dirichlet_alpha", "> 0"),
            (
                (0.0..=1.0).contains(&self.dirichlet_frac),
                "dirichlet_frac",
                "in [0, 1]",
            ),
            (
                (1..=256).contains(&self.leaves_per_round),
                "leaves_per_round",
                "in 1..=256",
            ),
        ];
        match checks.into_iter().find(|c| !c.0) {
            Some((_, field, want)) => Err(format!("{prefix}{field} must be {want}")),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_each_range_is_checked() {
        SearchParams::default().validate("").unwrap();
        let d = SearchParams::default();
        let bad = [
            SearchParams {
                simulations: 0,
                ..d.clone()
            },
            SearchParams {
                fast_simulations: Some(33),
                ..d.clone()
            },
            SearchParams {
                c_scale: 0.0,
                ..d.clone()
            },
            SearchParams {
                leaves_per_round: 0,
                ..d.clone()
            },
        ];
        for (p, field) in bad.iter().zip([
            "simulations",
            "fast_simulations",
            "c_scale",
            "leaves_per_round",
        ]) {
            let err = p.validate("search.").unwrap_err();
            assert!(err.starts_with(&format!("search.{field} ")), "{err}");
        }
    }
}
