//! A checkpoint's metadata, `RUN_DIR/latest.json` (`X.json` next to any
//! weights file `X.safetensors`): the network's shape, the run's progress
//! and its configuration. Both trainers write it (`rafle train` through
//! rafle-zero, which keeps the weights, and `python/rafle/learner.py`);
//! everything that loads a network reads it here first, so a damaged or
//! hostile file is a one-line error naming it before any tensor is made.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use rafle_core::Variant;
use serde::{Deserialize, Serialize};

use crate::config::{Config, NetConfig};

/// The metadata's file name in a run folder.
pub const META: &str = "latest.json";
/// The most bytes of metadata read (a run's is a few kilobytes).
pub const MAX_BYTES: u64 = 1 << 20;

/// Everything needed to rebuild the network (see rafle-zero's `net.rs`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct NetShape {
    pub variant: String,
    /// Observation planes, board side and actions: the variant's
    /// (rafle-env), checked on reading.
    pub planes: usize,
    pub board: usize,
    pub actions: usize,
    pub blocks: usize,
    pub channels: usize,
    pub policy_channels: usize,
    pub value_hidden: usize,
}

impl NetShape {
    pub fn new(variant: Variant, cfg: &NetConfig) -> NetShape {
        let env = rafle_env::Env::of(variant);
        let [planes, board, _] = env.observation_shape();
        NetShape {
            variant: variant.name().to_string(),
            planes,
            board,
            actions: env.num_actions(),
            blocks: cfg.blocks,
            channels: cfg.channels,
            policy_channels: cfg.policy_channels,
            value_hidden: cfg.value_hidden,
        }
    }

    /// Floats in one observation.
    pub fn obs_len(&self) -> usize {
        self.planes * self.board * self.board
    }

    pub fn variant(&self) -> Result<Variant> {
        Ok(self.variant.parse::<Variant>()?)
    }

    /// The layer sizes, as a run configuration gives them.
    pub fn net_config(&self) -> NetConfig {
        NetConfig {
            blocks: self.blocks,
            channels: self.channels,
            policy_channels: self.policy_channels,
            value_hidden: self.value_hidden,
        }
    }

    /// Checks that the shape is its variant's and that its layers are no
    /// larger than a run configuration allows.
    pub fn validate(&self) -> Result<()> {
        let v = self.variant().context("shape.variant")?;
        self.net_config().validate("shape.")?;
        let own = NetShape::new(v, &self.net_config());
        if (self.planes, self.board, self.actions) != (own.planes, own.board, own.actions) {
            bail!(
                "shape: {} planes of {}x{} and {} actions, but {v} has {} planes of {}x{} and {} actions",
                self.planes,
                self.board,
                self.board,
                self.actions,
                own.planes,
                own.board,
                own.board,
                own.actions
            );
        }
        Ok(())
    }
}

/// What `latest.json` holds.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Metadata {
    pub variant: String,
    pub shape: NetShape,
    /// Training steps taken.
    pub step: u64,
    /// Iterations completed.
    pub iteration: u64,
    /// Self-play games finished.
    pub games: u64,
    /// Training positions generated.
    pub positions: u64,
    /// Wall time of the run so far, seconds.
    pub elapsed_s: f64,
    pub config: Config,
}

impl Metadata {
    /// Reads metadata from JSON text and checks it; `name` (the file)
    /// starts every error.
    pub fn parse(text: &str, name: &str) -> Result<Metadata> {
        // Messages quote what they read (a field's name, a spec) as is.
        let meta: Metadata = serde_json::from_str(text).map_err(|e| {
            anyhow::anyhow!(
                "{name} is not rafle checkpoint metadata: {}",
                one_line(&e.to_string())
            )
        })?;
        meta.validate()
            .map_err(|e| anyhow::anyhow!("{name}: {}", one_line(&format!("{e:#}"))))?;
        Ok(meta)
    }

    /// The JSON text of the metadata (what [`Metadata::parse`] reads).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("metadata always serialises")
    }

    /// Checks that the variant, the shape and the config agree and that
    /// each is valid.
    pub fn validate(&self) -> Result<()> {
        self.shape.validate()?;
        let v = self.config.variant();
        if self.variant != v.name() || self.shape.variant != v.name() {
            bail!(
                "variant {:?} and shape.variant {:?}, but the config's run.variant is {v}",
                self.variant,
                self.shape.variant
            );
        }
        if !(self.elapsed_s >= 0.0 && self.elapsed_s.is_finite()) {
            bail!("elapsed_s must be >= 0");
        }
        self.config.validate().context("config")
    }
}

/// `text` with its control characters (line breaks) escaped.
fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c.is_control() {
            true => out.extend(c.escape_default()),
            false => out.push(c),
        }
    }
    out
}

/// The metadata file next to a weights file (`X.safetensors` -> `X.json`).
pub fn meta_path(weights: &Path) -> PathBuf {
    weights.with_extension("json")
}

/// Reads and checks a metadata file (at most [`MAX_BYTES`]).
pub fn read_meta(path: &Path) -> Result<Metadata> {
    let cannot = || format!("cannot read checkpoint metadata {}", path.display());
    let file = std::fs::File::open(path).with_context(cannot)?;
    let mut text = String::new();
    file.take(MAX_BYTES + 1)
        .read_to_string(&mut text)
        .with_context(cannot)?;
    if text.len() as u64 > MAX_BYTES {
        bail!(
            "{}: larger than {MAX_BYTES} bytes, not rafle checkpoint metadata",
            path.display()
        );
    }
    Metadata::parse(&text, &path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shipped model's metadata with one value replaced.
    fn edited(path: &[&str], value: serde_json::Value) -> String {
        let text = include_str!("../../../python/rafle/zoo/english.json");
        let mut json: serde_json::Value = serde_json::from_str(text).unwrap();
        let (last, parents) = path.split_last().unwrap();
        let mut at = &mut json;
        for p in parents {
            at = &mut at[*p];
        }
        at[*last] = value;
        json.to_string()
    }

    /// Metadata that would make a network too large to allocate, or of
    /// another shape than its variant's, is refused before any tensor is
    /// made, in one line naming the file and the field.
    #[test]
    fn hostile_shapes_and_disagreements_are_refused() {
        let ok = edited(&["step"], 7.into());
        assert_eq!(Metadata::parse(&ok, "m.json").unwrap().step, 7);
        for (path, value, want) in [
            (
                &["shape", "channels"][..],
                1_000_000_000.into(),
                "shape.channels",
            ),
            (&["shape", "value_hidden"], 0.into(), "shape.value_hidden"),
            (&["shape", "actions"], 895.into(), "896 actions"),
            (&["shape", "variant"], "hexapawn".into(), "shape.variant"),
            (&["variant"], "thai".into(), "run.variant is english"),
            (&["elapsed_s"], (-1.0).into(), "elapsed_s"),
            (&["config", "train", "lr"], 0.into(), "train.lr"),
        ] {
            let e = format!(
                "{:#}",
                Metadata::parse(&edited(path, value), "m.json").unwrap_err()
            );
            assert!(
                e.starts_with("m.json: ") && e.contains(want) && !e.contains('\n'),
                "{path:?}: {e}"
            );
        }
    }
}
