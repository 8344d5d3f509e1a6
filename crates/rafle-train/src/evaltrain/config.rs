//! The config of `rafle train-eval`: one TOML file (overlays and `--set`
//! as for `rafle train`), every field documented here.

use std::path::Path;

use anyhow::{Context, Result};
use rafle_core::Variant;
use rafle_search::learned::Design;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::config::check;
use crate::overlay;

/// A learned evaluation's training run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub run: Run,
    #[serde(default)]
    pub model: Model,
    #[serde(default)]
    pub games: Games,
    #[serde(default)]
    pub fit: Fit,
    #[serde(default)]
    pub check: Check,
}

/// What to train and where.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Run {
    /// Variant name or alias.
    #[serde(with = "crate::config::variant_name")]
    #[schemars(with = "String")]
    pub variant: Variant,
    /// Run folder: `eval.safetensors` (the newest evaluation), each
    /// generation's games (`games-NNN.safetensors`) and evaluation
    /// (`eval-NNN.safetensors`), `state.json`, `metrics.csv`, plots.
    pub out_dir: String,
    /// Seed of every random choice.
    #[serde(default)]
    pub seed: u64,
    /// Generations: self-play games with the current evaluation, then a fit.
    pub generations: u64,
    /// Stop after this many minutes, at the end of a generation (0 = no limit).
    #[serde(default)]
    pub time_limit_min: f64,
    /// Intra-op threads of torch; 0 keeps torch's default.
    #[serde(default)]
    pub torch_threads: usize,
}

/// The design and its sizes.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Model {
    /// `patterns` (Scan's windows) or `net` (piece-square inputs, NNUE-like).
    pub design: String,
    /// The net's first-layer width H (per frame).
    pub hidden: usize,
    /// The net's second-layer width H2.
    pub hidden2: usize,
}

impl Default for Model {
    fn default() -> Model {
        Model {
            design: "patterns".into(),
            hidden: 32,
            hidden2: 16,
        }
    }
}

impl Model {
    pub fn design(&self) -> Result<Design> {
        match self.design.as_str() {
            "patterns" => Ok(Design::Patterns),
            "net" => Ok(Design::Net {
                hidden: self.hidden,
                hidden2: self.hidden2,
            }),
            d => anyhow::bail!("model.design must be patterns or net, not {d:?}"),
        }
    }
}

/// The self-play games of each generation.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Games {
    /// Games per generation.
    pub games: usize,
    /// Alpha-beta depth of every move of the games.
    pub depth: u32,
    /// The first generation's depth (its evaluation is the hand-written one);
    /// 0: `depth`.
    pub first_depth: u32,
    /// Uniformly random plies at the start of each game.
    pub opening_plies: usize,
    /// Share of the moves after the opening played at random (not labelled).
    pub random_share: f64,
    /// Plies after which a game stops; its positions then learn the search
    /// score alone (no result is known).
    pub max_plies: usize,
}

impl Default for Games {
    fn default() -> Games {
        Games {
            games: 2000,
            depth: 4,
            first_depth: 0,
            opening_plies: 6,
            random_share: 0.05,
            max_plies: 300,
        }
    }
}

/// How positions are labelled and fitted.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Fit {
    /// Target = result_weight x result + (1 - result_weight) x sigmoid(score / 100),
    /// the result 1, 1/2 or 0 for the side to move, the score the search's.
    pub result_weight: f64,
    /// Positions fitted: the newest this many.
    pub window: usize,
    /// Passes over the window at each generation.
    pub epochs: usize,
    /// Positions per step.
    pub batch_size: usize,
    /// Adam's learning rate (down to a tenth along half a cosine).
    pub lr: f64,
    /// L2 penalty on the weights.
    pub weight_decay: f64,
    /// Share of positions held out to measure the fit.
    pub holdout: f64,
}

impl Default for Fit {
    fn default() -> Fit {
        Fit {
            result_weight: 0.5,
            window: 2_000_000,
            epochs: 3,
            batch_size: 1024,
            lr: 0.003,
            weight_decay: 0.0,
            holdout: 0.05,
        }
    }
}

/// The match after each generation: the new evaluation against the
/// hand-written one at the same depth.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Check {
    /// Games (colour-swapped pairs); 0: no match.
    pub games: usize,
    /// Depth of both sides.
    pub depth: u32,
    /// Random plies opening each pair.
    pub opening_plies: usize,
}

impl Default for Check {
    fn default() -> Check {
        Check {
            games: 100,
            depth: 4,
            opening_plies: 6,
        }
    }
}

impl Config {
    /// Reads a TOML file and its bases, applies `sets` and validates.
    pub fn load_with(path: &Path, sets: &[String]) -> Result<Config> {
        let mut table = overlay::read(path)?.table;
        for s in sets {
            overlay::set(&mut table, s)?;
        }
        Config::from_table(table).with_context(|| format!("config {}", path.display()))
    }

    /// Reads and validates a config given as a TOML table.
    pub fn from_table(table: toml::Table) -> Result<Config> {
        let text = toml::to_string(&table)?;
        let cfg: Config = toml::from_str(&text).map_err(|e| anyhow::anyhow!("{}", e.message()))?;
        cfg.validate()?;
        Ok(cfg)
    }

    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a Config always serialises")
    }

    /// Checks every value; the error names the field.
    pub fn validate(&self) -> Result<()> {
        check(!self.run.out_dir.is_empty(), "run.out_dir", "not empty")?;
        check(self.run.generations >= 1, "run.generations", ">= 1")?;
        check(
            self.run.time_limit_min >= 0.0 && self.run.time_limit_min.is_finite(),
            "run.time_limit_min",
            ">= 0",
        )?;
        self.model.design()?;
        let m = &self.model;
        let widths = 1..=rafle_search::learned::net::MAX_HIDDEN;
        check(widths.contains(&m.hidden), "model.hidden", "in 1..=512")?;
        check(widths.contains(&m.hidden2), "model.hidden2", "in 1..=512")?;
        let g = &self.games;
        check(g.games >= 1, "games.games", ">= 1")?;
        check((1..=20).contains(&g.depth), "games.depth", "in 1..=20")?;
        check(g.first_depth <= 20, "games.first_depth", "in 0..=20")?;
        check(
            (0.0..=1.0).contains(&g.random_share),
            "games.random_share",
            "in [0, 1]",
        )?;
        check(g.max_plies >= 1, "games.max_plies", ">= 1")?;
        let f = &self.fit;
        check(
            (0.0..=1.0).contains(&f.result_weight),
            "fit.result_weight",
            "in [0, 1]",
        )?;
        check(f.window >= f.batch_size, "fit.window", ">= fit.batch_size")?;
        check(f.epochs >= 1, "fit.epochs", ">= 1")?;
        check(f.batch_size >= 1, "fit.batch_size", ">= 1")?;
        check(f.lr > 0.0 && f.lr.is_finite(), "fit.lr", "> 0")?;
        check(f.weight_decay >= 0.0, "fit.weight_decay", ">= 0")?;
        check(
            (0.0..0.5).contains(&f.holdout),
            "fit.holdout",
            "in [0, 0.5)",
        )?;
        check(
            (1..=20).contains(&self.check.depth),
            "check.depth",
            "in 1..=20",
        )?;
        Ok(())
    }
}
