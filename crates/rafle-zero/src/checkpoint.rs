//! Checkpoints in a run folder, each file written to a temporary name and
//! renamed into place ([`rafle_core::atomic`]: a kill never leaves a
//! half-written file):
//!
//! ```text
//! RUN_DIR/latest.safetensors   network weights (VarStore names, see net.rs)
//! RUN_DIR/latest.json          Metadata: config, step, variant, network shape
//!                              (rafle_train::checkpoint, shared with the
//!                              Python learner)
//! RUN_DIR/optimizer.safetensors optimiser moments
//! RUN_DIR/replay.safetensors   replay window (rafle_train::replay, shared
//!                              with the Python learner)
//! RUN_DIR/latest.probe.safetensors  a few observations and the network's
//!                              outputs on them (`obs`, `policy_logits`,
//!                              `wdl_logits`), and a training batch on them
//!                              (`mask`, `policy_target`, `value_target`) with
//!                              its losses in eval and train mode
//!                              (`losses_eval`, `losses_train`: policy, value,
//!                              total at value weight 1), so any
//!                              reimplementation (python/rafle/model.py,
//!                              python/rafle/learner.py) can check itself
//! ```
//!
//! The metadata is renamed last: it names the step the other files belong to.

use std::path::Path;

use anyhow::{bail, Context, Result};
use rafle_core::atomic::replace_with as atomic;
use rafle_env::{Env, EnvConfig};
use tch::{Device, Tensor};

use crate::net::Net;
use crate::optim::Optimizer;
use crate::replay::Batch;
use crate::train::batch_losses;
use rafle_train::config::InferenceDtype;
use rafle_train::replay::Replay;

pub use rafle_train::checkpoint::{meta_path, read_meta, Metadata, META};

pub const WEIGHTS: &str = "latest.safetensors";
pub const OPTIMIZER: &str = "optimizer.safetensors";
pub const REPLAY: &str = "replay.safetensors";
pub const PROBE: &str = "latest.probe.safetensors";
/// Positions in the probe file.
pub const PROBE_POSITIONS: usize = 4;

/// Saves everything a resume needs into `dir`.
pub fn save(
    dir: &Path,
    net: &Net,
    opt: &Optimizer,
    replay: Option<&Replay>,
    meta: &Metadata,
) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    atomic(&dir.join(WEIGHTS), |p| {
        net.vs
            .save(p)
            .with_context(|| format!("cannot write {}", p.display()))
    })?;
    atomic(&dir.join(OPTIMIZER), |p| opt.save(p))?;
    if let Some(r) = replay {
        r.save(&dir.join(REPLAY))?; // atomic itself
    }
    atomic(&dir.join(PROBE), |p| write_probe(net, p))?;
    atomic(&dir.join(META), |p| {
        std::fs::write(p, meta.to_json()).with_context(|| format!("cannot write {}", p.display()))
    })
}

/// Loads a network from a weights file and its metadata.
pub fn load_net(weights: &Path, device: Device) -> Result<(Net, Metadata)> {
    if !weights.is_file() {
        bail!("model file {} not found", weights.display());
    }
    let meta = read_meta(&meta_path(weights))?;
    let mut net = Net::new(meta.shape.clone(), device, 0);
    net.vs
        .load(weights)
        .with_context(|| format!("cannot load weights {}", weights.display()))?;
    Ok((net, meta))
}

/// Observations and legal masks of the start position and of the positions
/// after the first few steps (step i plays legal action i mod count), back
/// to back.
pub fn probe_positions(net: &Net) -> Result<(Vec<f32>, Vec<bool>)> {
    let v = net.shape.variant()?;
    let mut env = Env::new(v, EnvConfig::default())?;
    let (len, na) = (net.shape.obs_len(), net.shape.actions);
    let mut obs = vec![0f32; PROBE_POSITIONS * len];
    let mut mask = vec![false; PROBE_POSITIONS * na];
    for i in 0..PROBE_POSITIONS {
        env.write_obs(&mut obs[i * len..(i + 1) * len]);
        env.write_legal_mask(&mut mask[i * na..(i + 1) * na]);
        let legal = env.legal_action_ids();
        if legal.is_empty() {
            env.reset();
        } else {
            let a = legal[i % legal.len()];
            env.step(a as usize)?;
        }
    }
    Ok((obs, mask))
}

/// Value targets of the probe batch, cycled over its positions.
const PROBE_VALUES: [[f32; 3]; 4] = [
    [1.0, 0.0, 0.0],
    [0.2, 0.5, 0.3],
    [0.0, 0.0, 1.0],
    [0.25, 0.5, 0.25],
];

/// The probe batch: policy targets proportional to 1, 2, 3, ... over each
/// position's legal actions (ascending), value targets [`PROBE_VALUES`].
fn probe_batch(net: &Net) -> Result<Batch> {
    let s = &net.shape;
    let (obs, mask) = probe_positions(net)?;
    let na = s.actions;
    let mut policy = vec![0f32; mask.len()];
    for (row, m) in policy.chunks_mut(na).zip(mask.chunks(na)) {
        let legal: Vec<usize> = (0..na).filter(|&a| m[a]).collect();
        let z = (legal.len() * (legal.len() + 1) / 2) as f32;
        for (j, &a) in legal.iter().enumerate() {
            row[a] = (j + 1) as f32 / z;
        }
    }
    let value: Vec<f32> = (0..PROBE_POSITIONS)
        .flat_map(|i| PROBE_VALUES[i % PROBE_VALUES.len()])
        .collect();
    let (n, c, b) = (PROBE_POSITIONS as i64, s.planes as i64, s.board as i64);
    let d = net.device();
    Ok(Batch {
        obs: Tensor::from_slice(&obs).view([n, c, b, b]).to_device(d),
        mask: Tensor::from_slice(&mask).view([n, na as i64]).to_device(d),
        policy: Tensor::from_slice(&policy)
            .view([n, na as i64])
            .to_device(d),
        value: Tensor::from_slice(&value).view([n, 3]).to_device(d),
    })
}

fn write_probe(net: &Net, path: &Path) -> Result<()> {
    let batch = probe_batch(net)?;
    let cpu = |t: &Tensor| t.to_device(Device::Cpu);
    let losses = |net: &Net, train: bool| {
        let (p, v, t) = tch::no_grad(|| batch_losses(net, &batch, 1.0, train));
        Tensor::stack(&[p, v, t], 0).to_device(Device::Cpu)
    };
    let (p, w) = tch::no_grad(|| net.forward(&batch.obs, false));
    let eval = losses(net, false);
    // Train-mode batch norm updates running statistics: use a copy.
    let train = losses(&net.inference_copy(InferenceDtype::F32)?, true);
    Tensor::write_safetensors(
        &[
            ("obs", &cpu(&batch.obs)),
            ("policy_logits", &cpu(&p)),
            ("wdl_logits", &cpu(&w)),
            ("mask", &cpu(&batch.mask)),
            ("policy_target", &cpu(&batch.policy)),
            ("value_target", &cpu(&batch.value)),
            ("losses_eval", &eval),
            ("losses_train", &train),
        ],
        path,
    )
    .with_context(|| format!("cannot write {}", path.display()))
}
