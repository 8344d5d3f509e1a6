//! The run configuration: one TOML file (see `configs/`), one struct per
//! section; an experiment's file may name a base recipe and hold only what
//! it changes, and `--set table.field=value` changes a field from the
//! command line ([`crate::overlay`]). Every field is documented here;
//! unknown fields are errors (serde `deny_unknown_fields`), a choice outside
//! its enum is an error listing the choices, and [`Config::validate`] names
//! the field of any out-of-range value.
//!
//! Both trainers read it: `rafle train` (rafle-zero, tch) and the Python
//! ones (`rafle.SelfPlay` takes the `[search]` and `[selfplay]` tables,
//! `python -m rafle.distributed` the whole file, through the bindings, which
//! do not link tch).

use std::path::Path;

use anyhow::{bail, Context, Result};
use rafle_core::Variant;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::overlay;

pub use rafle_search::network::{Algorithm, SearchParams};

/// A whole training run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// What to train and where to write it.
    pub run: RunConfig,
    /// Network shape: a residual trunk and two heads.
    pub net: NetConfig,
    /// The tree search of self-play and of the model player in the arena
    /// (every field optional: see [`SearchParams`]).
    #[serde(default)]
    pub search: SearchParams,
    /// Batched self-play.
    pub selfplay: SelfPlayConfig,
    /// Optimisation.
    pub train: TrainConfig,
    /// Periodic and final evaluation in the arena.
    pub eval: EvalConfig,
    /// Read by `python -m rafle.distributed` only (`rafle train` ignores it).
    #[serde(default)]
    pub distributed: DistributedConfig,
    /// Endgame tables in self-play (off without a `dir`).
    #[serde(default)]
    pub egtb: EgtbConfig,
    /// A teacher's games before self-play (off while `games` is 0).
    #[serde(default)]
    pub bootstrap: BootstrapConfig,
}

/// A teacher to start from: before the first self-play, the run plays
/// `games` games of `player` against itself (each opened by
/// `opening_plies` random plies, which are not targets), trains on their
/// positions (the played step as policy target, the result as value
/// target) for `epochs` passes, then goes on by self-play with the newest
/// `train.replay_window` of them in its replay window, or (`mix` > 0) with
/// all of them in a buffer of their own that gives a share of every batch
/// (see `rafle_train::bootstrap`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct BootstrapConfig {
    /// Teacher games (0: no bootstrap).
    pub games: usize,
    /// Stop playing teacher games after this many minutes (0: no limit).
    pub minutes: f64,
    /// The teacher: a player spec that needs no network (`alphabeta:3`,
    /// `uct:400`, `egtb` with tables, an engine through `hub:`...).
    pub player: String,
    /// Random plies opening each teacher game, as `selfplay.opening_plies`
    /// opens self-play's (exactly this many, none ending the game; they
    /// count towards `selfplay.max_plies`).
    pub opening_plies: u32,
    /// Passes over the teacher's positions (all of them, also those beyond
    /// train.replay_window): training steps = positions x epochs /
    /// train.batch_size.
    pub epochs: f64,
    /// The value target of the teacher's positions besides the result.
    pub value: BootstrapValue,
    /// Men of the teacher's score that make a value of tanh(1) = 0.76
    /// (`value = "score"`).
    pub score_scale: f64,
    /// The policy target of the teacher's positions.
    pub policy: BootstrapPolicy,
    /// Men of score difference that weigh a move e times less than a move
    /// that much better (`policy = "scores"`).
    pub policy_temperature: f64,
    /// After the teacher start, the share of every training batch drawn
    /// from the teacher's positions, all of them kept in a buffer of their
    /// own (`RUN_DIR/teacher.safetensors`) instead of entering the replay
    /// window, where self-play's newer positions push them out within a
    /// few iterations. 0: the teacher's positions join the replay window.
    pub mix: f64,
    /// The schedule's progress (`train.schedule_by`, 0 to 1; the teacher
    /// start's own steps count among its steps) at which the share has
    /// fallen linearly from `mix` to 0 (0: it stays `mix`).
    pub mix_until: f64,
}

/// What the teacher's positions take as their policy target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum BootstrapPolicy {
    /// The step the teacher played: 1 on it, 0 on the others.
    Move,
    /// Every legal move weighed by the teacher's exact score of it,
    /// `exp(score / policy_temperature)` normalised (the teacher scores
    /// every root move with a full window, which costs it time): a move's
    /// weight goes to its first step, and a capture's later steps share
    /// what the moves through them weigh. A teacher without root scores
    /// (not alpha-beta), a forced move and a table's move keep the played
    /// step.
    Scores,
}

/// What stands for the search value (`q`) of a teacher's position, which
/// `train.value_target_search` mixes with the game's result as it does a
/// self-play search value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum BootstrapValue {
    /// The game's result: the value target is the result alone.
    Result,
    /// The teacher's own score of its move, `tanh(score / score_scale)`
    /// for the side to move (score in men, as alpha-beta reports it); the
    /// result where it gave none (a forced move, a table's move).
    Score,
}

impl Default for BootstrapConfig {
    fn default() -> Self {
        BootstrapConfig {
            games: 0,
            minutes: 0.0,
            player: "alphabeta:3".into(),
            opening_plies: 8,
            epochs: 2.0,
            value: BootstrapValue::Result,
            score_scale: 2.0,
            policy: BootstrapPolicy::Move,
            policy_temperature: 0.25,
            mix: 0.0,
            mix_until: 1.0,
        }
    }
}

impl BootstrapConfig {
    pub fn validate(&self) -> Result<()> {
        check(
            self.minutes >= 0.0 && self.minutes.is_finite(),
            "bootstrap.minutes",
            ">= 0",
        )?;
        check(
            self.epochs > 0.0 && self.epochs <= 1000.0,
            "bootstrap.epochs",
            "in (0, 1000]",
        )?;
        check(
            self.score_scale > 0.0 && self.score_scale.is_finite(),
            "bootstrap.score_scale",
            "> 0",
        )?;
        check(
            self.policy_temperature > 0.0 && self.policy_temperature.is_finite(),
            "bootstrap.policy_temperature",
            "> 0",
        )?;
        check(
            self.opening_plies <= 1000,
            "bootstrap.opening_plies",
            "<= 1000",
        )?;
        check(
            (0.0..=1.0).contains(&self.mix),
            "bootstrap.mix",
            "in [0, 1]",
        )?;
        check(
            self.mix_until >= 0.0 && self.mix_until.is_finite(),
            "bootstrap.mix_until",
            ">= 0",
        )?;
        check(
            !self.player.trim().is_empty(),
            "bootstrap.player",
            "a player spec",
        )
    }
}

/// Endgame tables in self-play: searches take their exact values, and a
/// game that reaches them ends with their result (or plays on by them, its
/// positions inside the tables getting their exact value as the target).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EgtbConfig {
    /// Folder of the tables (`rafle egtb build --variant V --dir D`); empty:
    /// no tables.
    #[serde(default)]
    pub dir: String,
    /// Play on inside the tables (their moves, no network call) instead of
    /// ending the game where they begin; either way the result is theirs.
    #[serde(default)]
    pub play_on: bool,
}

impl EgtbConfig {
    /// The tables' folder, if the run uses tables.
    pub fn dir(&self) -> Option<&str> {
        (!self.dir.trim().is_empty()).then_some(self.dir.trim())
    }
}

/// What to train and where to write it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// Variant name or alias (`rafle --help` lists them).
    #[serde(with = "variant_name")]
    #[schemars(with = "String")]
    pub variant: Variant,
    /// Run folder: checkpoints (`latest.safetensors` + `latest.json`),
    /// `metrics.csv` and plots are written here.
    pub out_dir: String,
    /// Seed of every random choice (self-play, search noise, sampling).
    pub seed: u64,
    /// `auto` (CUDA when present, else CPU), `cpu` or `cuda`.
    #[serde(default)]
    pub device: Device,
    /// Number type of batched inference (self-play and evaluation): `f32`,
    /// `bf16`, or `auto` (bf16 on CUDA and on CPUs with AMX or AVX-512 BF16,
    /// where large batches run several times faster; f32 elsewhere).
    /// Training keeps f32 weights (`train.conv_dtype` sets its arithmetic).
    #[serde(default)]
    pub inference_dtype: InferenceDtype,
    /// Intra-op threads of torch on CPU; 0 keeps torch's default.
    #[serde(default)]
    pub torch_threads: usize,
    /// Number of iterations (self-play chunk + training steps).
    pub iterations: u64,
    /// Stop after this many minutes even if iterations remain (0 = no limit).
    #[serde(default)]
    pub time_limit_min: f64,
    /// Write a checkpoint every this many iterations (and always at the end).
    pub checkpoint_every: u64,
}

/// Where the network runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Device {
    /// CUDA when present, else the CPU.
    #[default]
    Auto,
    /// The CPU.
    Cpu,
    /// The first CUDA device.
    Cuda,
}

/// Number type of batched inference.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum InferenceDtype {
    /// bf16 where it is fast (CUDA, CPUs with AMX or AVX-512 BF16), else f32.
    #[default]
    Auto,
    /// 32-bit floats.
    F32,
    /// bfloat16.
    Bf16,
}

/// The optimiser of the training steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum OptimizerKind {
    /// Adam with decoupled weight decay (AdamW).
    Adam,
    /// SGD with momentum and L2 weight decay.
    Sgd,
}

/// The learning-rate schedule after warm-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum LrSchedule {
    /// `lr` throughout.
    Constant,
    /// From `lr` down to `lr * lr_final_frac` along half a cosine.
    Cosine,
}

/// A variant in a config file: its name, read with the variant's aliases.
pub(crate) mod variant_name {
    use rafle_core::Variant;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Variant, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// Network shape: a residual trunk and two heads.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NetConfig {
    /// Residual blocks in the trunk (two 3x3 convolutions each).
    pub blocks: usize,
    /// Channels of the trunk.
    pub channels: usize,
    /// 1x1 channels feeding the fully connected policy layer.
    pub policy_channels: usize,
    /// Hidden units of the value head.
    pub value_hidden: usize,
}

impl NetConfig {
    /// Checks every value (bounded: a network too large to allocate is
    /// refused here, not by the allocator); the error names the field,
    /// after `prefix`.
    pub fn validate(&self, prefix: &str) -> Result<()> {
        let field = |f: &str| format!("{prefix}{f}");
        check(self.blocks <= 64, &field("blocks"), "<= 64")?;
        for (f, v) in [
            ("channels", self.channels),
            ("policy_channels", self.policy_channels),
            ("value_hidden", self.value_hidden),
        ] {
            check((1..=1024).contains(&v), &field(f), "in 1..=1024")?;
        }
        Ok(())
    }
}

/// Batched self-play.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SelfPlayConfig {
    /// Games advanced in lockstep; their leaves form one network batch.
    pub parallel_games: usize,
    /// New training positions collected per iteration.
    pub positions_per_iteration: usize,
    /// A game is cut after this many plies (`cut_target` says what its
    /// positions learn).
    pub max_plies: u32,
    /// The value target of the positions of a game cut at `max_plies`:
    /// `draw` (a cut game counts as a draw, in the search too), `search`
    /// (each position's own search value; the search looks past the cap)
    /// or `none` (no value loss; the search looks past the cap).
    #[serde(default)]
    pub cut_target: CutTarget,
    /// Each game opens with exactly this many uniformly random plies, none
    /// ending the game (0: every game starts at the start position), as
    /// the arena's, the ladder's and the teacher's games open
    /// (`rafle_core::opening`; until 2026-12-07 self-play drew the count
    /// uniformly from 0..=opening_plies). The random plies are not training
    /// positions and count towards `max_plies`. Varied starts keep the
    /// games from settling into the network's own few openings, so the
    /// network also learns the positions a match from random openings leads
    /// to.
    #[serde(default)]
    pub opening_plies: u32,
}

/// What the learning-rate schedule's progress follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ScheduleBy {
    /// Steps or time, whichever is further along.
    #[default]
    Clock,
    /// Steps alone.
    Steps,
}

impl ScheduleBy {
    /// The schedule's progress in [0, 1] after `step` of `total_steps`,
    /// `elapsed` of `limit` seconds (`limit` 0: no time limit).
    pub fn progress(self, step: u64, total_steps: u64, elapsed: f64, limit: f64) -> f64 {
        let by_steps = step as f64 / total_steps.max(1) as f64;
        match self {
            ScheduleBy::Steps => by_steps,
            ScheduleBy::Clock if limit > 0.0 => by_steps.max(elapsed / limit),
            ScheduleBy::Clock => by_steps,
        }
        .clamp(0.0, 1.0)
    }
}

/// What a game cut at `selfplay.max_plies` teaches its positions' value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CutTarget {
    /// A draw (and the search scores the cap as a draw).
    #[default]
    Draw,
    /// Each position's own root search value.
    Search,
    /// Nothing: no value loss on those positions.
    None,
}

/// Optimisation.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TrainConfig {
    /// Positions per training batch.
    pub batch_size: usize,
    /// Average number of times each new position is trained on: each
    /// iteration runs `positions_per_iteration * sample_reuse / batch_size` steps.
    pub sample_reuse: f64,
    /// Replay buffer size in positions (oldest dropped first).
    pub replay_window: usize,
    /// No training until the buffer holds this many positions.
    pub min_replay: usize,
    /// `adam` (decoupled weight decay, AdamW) or `sgd` (momentum).
    pub optimizer: OptimizerKind,
    /// Peak learning rate.
    pub lr: f64,
    /// `constant` or `cosine` (from `lr` down to `lr * lr_final_frac`).
    pub lr_schedule: LrSchedule,
    /// Final learning rate as a fraction of `lr` (cosine schedule).
    pub lr_final_frac: f64,
    /// Linear warm-up steps.
    pub warmup_steps: u64,
    /// What the schedule's progress follows: `clock` (the larger of the
    /// steps done of `run.iterations` x an iteration's steps and the time
    /// used of `run.time_limit_min`, so a run cut by its time limit still
    /// anneals, at another step on a faster machine) or `steps` (the steps
    /// alone: the same schedule for a config and seed on any machine; the
    /// time limit only ends the run, so `run.iterations` is the budget).
    #[serde(default)]
    pub schedule_by: ScheduleBy,
    /// Weight decay (L2 for sgd, decoupled for adam).
    pub weight_decay: f64,
    /// SGD momentum.
    pub momentum: f64,
    /// Weight of the value loss against the policy loss.
    pub value_loss_weight: f64,
    /// Share of the root search value in the value target, in [0, 1]: the
    /// target is (1 - w) x the game result + w x a WDL with the search's
    /// expected value (0 = game result only; the one-game result is noisy,
    /// the search value less so but biased by the network).
    #[serde(default)]
    pub value_target_search: f64,
    /// Arithmetic of the training step's convolutions: `f32`, `bf16`
    /// (inputs and weights cast to bf16 per convolution; the weights, batch
    /// norm, heads, losses and checkpoints stay f32), or `auto` (bf16 where
    /// `run.inference_dtype = "auto"` picks it: CUDA, CPUs with AMX or
    /// AVX-512 BF16). On CPUs with AVX-512 BF16 bf16 runs 1.4-1.5x the steps
    /// a second (`rafle bench train`).
    #[serde(default)]
    pub conv_dtype: ConvDtype,
}

/// Arithmetic of the training step's convolutions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ConvDtype {
    /// 32-bit floats.
    #[default]
    F32,
    /// bfloat16 over the f32 weights.
    Bf16,
    /// bf16 where it is fast (CUDA, CPUs with AMX or AVX-512 BF16), else f32.
    Auto,
}

/// Self-play and training spread over a Ray cluster (`python -m
/// rafle.distributed`): `workers` self-play actors, each with its own games
/// and network copy, feed one replay actor; one learner trains.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DistributedConfig {
    /// Self-play actors.
    #[serde(default = "two")]
    pub workers: usize,
    /// Games each actor plays in lockstep (0: `selfplay.parallel_games`
    /// shared out among the actors).
    #[serde(default)]
    pub games_per_worker: usize,
    /// CPUs Ray reserves for each actor (also its torch threads).
    #[serde(default = "one_f64")]
    pub cpus_per_worker: f64,
    /// GPUs Ray reserves for each actor (its network runs there when > 0).
    #[serde(default)]
    pub gpus_per_worker: f64,
    /// Iterations between weight broadcasts to the actors.
    #[serde(default = "one_u64")]
    pub broadcast_every: u64,
}

fn two() -> usize {
    2
}

fn one_f64() -> f64 {
    1.0
}

fn one_u64() -> u64 {
    1
}

impl Default for DistributedConfig {
    fn default() -> Self {
        DistributedConfig {
            workers: two(),
            games_per_worker: 0,
            cpus_per_worker: one_f64(),
            gpus_per_worker: 0.0,
            broadcast_every: one_u64(),
        }
    }
}

impl DistributedConfig {
    /// Checks every value; the error names the field.
    pub fn validate(&self) -> Result<()> {
        check(
            (1..=4096).contains(&self.workers),
            "distributed.workers",
            "in 1..=4096",
        )?;
        check(
            self.cpus_per_worker > 0.0 && self.cpus_per_worker.is_finite(),
            "distributed.cpus_per_worker",
            "> 0",
        )?;
        check(
            self.gpus_per_worker >= 0.0 && self.gpus_per_worker.is_finite(),
            "distributed.gpus_per_worker",
            ">= 0",
        )?;
        check(
            self.broadcast_every >= 1,
            "distributed.broadcast_every",
            ">= 1",
        )
    }
}

/// What an evaluation of a training run plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum EvalMode {
    /// A placement on the variant's ladder (`rafle ladder`): games against
    /// the rungs nearest the model, a periodic one starting at the rung
    /// nearest the last placement; metrics `eval/ladder_elo`,
    /// `eval/ladder_lo`, `eval/ladder_hi`.
    #[default]
    Ladder,
    /// Games against each of `eval.opponents` (the Elo the games against
    /// rungs among them imply goes to the same metrics).
    Opponents,
}

/// Periodic and final evaluation in the arena.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvalConfig {
    /// Evaluate every this many iterations (0 = only at the end).
    pub every: u64,
    /// What an evaluation plays: `ladder` (a placement on the variant's
    /// ladder) or `opponents` (games against each of `opponents`).
    #[serde(default)]
    pub mode: EvalMode,
    /// Games of a periodic evaluation: in all (`ladder`; 64 games placed
    /// `zoo:thai` at 256 simulations within +-82 Elo, in 4 minutes on 2
    /// cores) or per opponent (`opponents`).
    pub games: usize,
    /// Games of the final evaluation, likewise (0 = skip it).
    pub final_games: usize,
    /// Arena player specs (`random`, `greedy`, `alphabeta:4`, ...) of the
    /// `opponents` mode.
    pub opponents: Vec<String>,
    /// Simulations of the model player (0 = play the policy's argmax).
    pub simulations: usize,
}

impl Config {
    /// Reads and validates a TOML file (and its bases: [`crate::overlay`]).
    pub fn load(path: &Path) -> Result<Config> {
        Config::load_with(path, &[])
    }

    /// Reads a TOML file and its bases, applies `sets` (`table.field=value`,
    /// as `rafle train --set` takes them) and validates the result.
    pub fn load_with(path: &Path, sets: &[String]) -> Result<Config> {
        let layered = overlay::read(path)?;
        let context = || format!("config {}", path.display());
        if layered.files.len() == 1 && sets.is_empty() {
            return Config::parse(&layered.text).with_context(context);
        }
        let mut table = layered.table;
        for s in sets {
            overlay::set(&mut table, s)?;
        }
        Config::from_table(table).with_context(context)
    }

    /// Parses and validates TOML text.
    pub fn parse(text: &str) -> Result<Config> {
        Config::parse_text(text, true)
    }

    /// Reads and validates a config given as a TOML table (files merged,
    /// settings changed); errors name the field.
    pub fn from_table(table: toml::Table) -> Result<Config> {
        let text = toml::to_string(&table).context("the config is not TOML")?;
        // Line numbers would point into this merged text: the field says it.
        Config::parse_text(&text, false)
    }

    /// This configuration with `sets` applied (`table.field=value`), checked.
    pub fn with_sets(&self, sets: &[String]) -> Result<Config> {
        let mut table: toml::Table = self.to_toml().parse().expect("a Config's TOML reads back");
        for s in sets {
            overlay::set(&mut table, s)?;
        }
        Config::from_table(table)
    }

    fn parse_text(text: &str, with_lines: bool) -> Result<Config> {
        let cfg: Config = toml::from_str(text).map_err(|e| {
            // toml's message spans several lines (source excerpt); keep it on one.
            let msg = e.message().to_string();
            match e.span() {
                Some(s) => {
                    let before = &text[..s.start.min(text.len())];
                    let line = before.matches('\n').count() + 1;
                    match (field_at(text, line), with_lines) {
                        (Some(field), true) => anyhow::anyhow!("{field}: {msg} (line {line})"),
                        (Some(field), false) => anyhow::anyhow!("{field}: {msg}"),
                        (None, true) => anyhow::anyhow!("{msg} (line {line})"),
                        (None, false) => anyhow::anyhow!("{msg}"),
                    }
                }
                None => anyhow::anyhow!("{msg}"),
            }
        })?;
        cfg.validate()?;
        Ok(cfg)
    }

    /// The TOML text of this configuration.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a Config always serialises")
    }

    /// The variant of the run.
    pub fn variant(&self) -> Variant {
        self.run.variant
    }

    /// Checks every value; the error names the field.
    pub fn validate(&self) -> Result<()> {
        check(!self.run.out_dir.is_empty(), "run.out_dir", "not empty")?;
        check(self.run.iterations >= 1, "run.iterations", ">= 1")?;
        check(
            self.run.checkpoint_every >= 1,
            "run.checkpoint_every",
            ">= 1",
        )?;
        check(
            self.run.time_limit_min >= 0.0 && self.run.time_limit_min.is_finite(),
            "run.time_limit_min",
            ">= 0",
        )?;
        self.net.validate("net.")?;
        self.search
            .validate("search.")
            .map_err(anyhow::Error::msg)?;
        self.selfplay.validate()?;
        self.distributed.validate()?;
        self.bootstrap.validate()?;
        if self.bootstrap.games > 0 {
            rafle_search::parse_player(&self.bootstrap.player, self.variant())
                .map_err(|e| anyhow::anyhow!("bootstrap.player: {e}"))?;
        }
        let t = &self.train;
        check(t.batch_size >= 1, "train.batch_size", ">= 1")?;
        check(t.sample_reuse > 0.0, "train.sample_reuse", "> 0")?;
        check(
            t.replay_window >= t.batch_size,
            "train.replay_window",
            ">= train.batch_size",
        )?;
        check(
            t.min_replay >= t.batch_size && t.min_replay <= t.replay_window,
            "train.min_replay",
            "in train.batch_size..=train.replay_window",
        )?;
        check(t.lr > 0.0 && t.lr.is_finite(), "train.lr", "> 0")?;
        check(
            (0.0..=1.0).contains(&t.lr_final_frac),
            "train.lr_final_frac",
            "in [0, 1]",
        )?;
        check(t.weight_decay >= 0.0, "train.weight_decay", ">= 0")?;
        check(
            (0.0..1.0).contains(&t.momentum),
            "train.momentum",
            "in [0, 1)",
        )?;
        check(
            t.value_loss_weight >= 0.0,
            "train.value_loss_weight",
            ">= 0",
        )?;
        check(
            (0.0..=1.0).contains(&t.value_target_search),
            "train.value_target_search",
            "in [0, 1]",
        )?;
        let e = &self.eval;
        check(
            e.games.is_multiple_of(2) && e.final_games.is_multiple_of(2),
            "eval.games",
            "even (each opening is played with both colours)",
        )?;
        let v = self.variant();
        for spec in &e.opponents {
            rafle_search::parse_player(spec, v)
                .map_err(|err| anyhow::anyhow!("eval.opponents: {err}"))?;
        }
        Ok(())
    }
}

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            parallel_games: 256,
            positions_per_iteration: 2048,
            max_plies: 150,
            opening_plies: 0,
            cut_target: CutTarget::Draw,
        }
    }
}

impl SelfPlayConfig {
    /// Checks every value; the error names the field.
    pub fn validate(&self) -> Result<()> {
        let p = self;
        check(p.parallel_games >= 1, "selfplay.parallel_games", ">= 1")?;
        check(
            p.positions_per_iteration >= 1,
            "selfplay.positions_per_iteration",
            ">= 1",
        )?;
        check(p.max_plies >= 1, "selfplay.max_plies", ">= 1")?;
        check(
            p.opening_plies < p.max_plies,
            "selfplay.opening_plies",
            "below selfplay.max_plies",
        )
    }
}

/// `section.key` of a `key = value` line (1-based) of a TOML text.
fn field_at(text: &str, line: usize) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let key = lines.get(line - 1)?.split_once('=')?.0.trim();
    let section = lines[..line - 1]
        .iter()
        .rev()
        .map(|l| l.trim())
        .find(|l| l.starts_with('['))
        .map(|l| l.trim_matches(|c| c == '[' || c == ']').trim());
    Some(match section {
        Some(s) => format!("{s}.{key}"),
        None => key.to_string(),
    })
}

pub(crate) fn check(ok: bool, field: &str, want: &str) -> Result<()> {
    if !ok {
        bail!("{field} must be {want}");
    }
    Ok(())
}
