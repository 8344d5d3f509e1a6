//! A trained checkpoint as an arena side: `model:RUN_DIR/latest.safetensors[:sims]`,
//! or a shipped one, `zoo:VARIANT[:sims]` (read from [`zoo_dir`]).
//!
//! The side is a [`NetworkSide`]: rafle-search's network search over the
//! tch network, every game of a match batched into one forward pass per
//! round (see `rafle_search::arena`). Without `:sims` the checkpoint's
//! `eval.simulations` is used; the search settings are the checkpoint's
//! `[search]` table.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use rafle_arena::{NetworkSide, Side};
use rafle_core::Variant;
use rafle_search::network::{self, SearchParams};
use rafle_search::spec::{Checkpoint, PlayerSpec};
use rafle_train::config::InferenceDtype;

use crate::checkpoint;
use crate::net::{self, Inference, Net};

/// The folder of the shipped models: `RAFLE_ZOO` if set, else
/// `python/rafle/zoo` of the source tree this binary was built from (the
/// Python package ships the same files).
pub fn zoo_dir() -> PathBuf {
    match std::env::var_os("RAFLE_ZOO") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python/rafle/zoo"),
    }
}

/// The variants with a model in [`zoo_dir`], in the order of the variant list.
pub fn shipped_models() -> Vec<Variant> {
    Variant::ALL
        .into_iter()
        .filter(|v| checkpoint_path(&Checkpoint::Zoo(*v)).is_file())
        .collect()
}

/// The weights file of a checkpoint named by a spec.
pub fn checkpoint_path(c: &Checkpoint) -> PathBuf {
    match c {
        Checkpoint::File(p) => PathBuf::from(p),
        Checkpoint::Zoo(v) => zoo_dir().join(format!("{}.safetensors", v.name())),
    }
}

/// The side of a `model:PATH[:sims]` or `zoo:VARIANT[:sims]` spec given as
/// text (None for any other spec).
pub fn model_side(spec: &str, variant: Variant) -> Option<Result<Side>> {
    let (checkpoint, simulations) = match rafle_search::spec::model_spec(spec)? {
        Ok(x) => x,
        Err(e) => return Some(Err(e.into())),
    };
    let name = PlayerSpec::Network {
        checkpoint: checkpoint.clone(),
        simulations,
    };
    Some(network_player(
        &checkpoint,
        simulations,
        variant,
        &name.to_string(),
    ))
}

/// The side of a network spec (`model:PATH[:sims]`, `zoo:VARIANT[:sims]`):
/// its checkpoint loaded, `sims` simulations per move (the checkpoint's
/// `eval.simulations` without), named `name` (the spec).
pub fn network_player(
    checkpoint: &Checkpoint,
    sims: Option<usize>,
    variant: Variant,
    name: &str,
) -> Result<Side> {
    if let Checkpoint::Zoo(v) = checkpoint {
        if !checkpoint_path(checkpoint).is_file() {
            let shipped: Vec<&str> = shipped_models().into_iter().map(Variant::name).collect();
            bail!(
                "{name}: no model is shipped for {v} (shipped: {})",
                shipped.join(", ")
            );
        }
    }
    load_side(name, &checkpoint_path(checkpoint), sims, variant)
}

fn load_side(spec: &str, path: &Path, sims: Option<usize>, variant: Variant) -> Result<Side> {
    let (net, meta) = checkpoint::load_net(path, net::device(Default::default())?)?;
    if meta.variant != variant.name() {
        bail!(
            "{spec} was trained for {} but the game is {}",
            meta.variant,
            variant.name()
        );
    }
    let sims = sims.unwrap_or(meta.config.eval.simulations);
    let params = meta.config.search.clone();
    network_side(&net, params, sims, spec.to_string())
}

/// A side playing with inference copies of `net` (`run.inference_dtype =
/// auto`: bf16 for large batches where it is fast).
pub fn network_side(
    net: &Net,
    params: SearchParams,
    simulations: usize,
    name: String,
) -> Result<Side> {
    let copy = Inference::new(net, InferenceDtype::Auto)?;
    Ok(Side::Network(NetworkSide {
        name,
        evaluator: network::shared(copy),
        params,
        simulations,
    }))
}
