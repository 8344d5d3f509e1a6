//! Optimisers written over tch tensors so that their state can be saved in
//! a checkpoint (safetensors, next to the weights): AdamW (decoupled weight
//! decay) and SGD with momentum (L2 weight decay). Weight decay applies to
//! conv and linear weights only (tensors of rank >= 2), not to biases or
//! batch-norm parameters. The learning rate schedule is [`lr_at`].

use std::path::Path;

use anyhow::{Context, Result};
use tch::{nn::VarStore, Tensor};

use rafle_train::config::{LrSchedule, OptimizerKind, TrainConfig};

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPS: f64 = 1e-8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Adam,
    Sgd,
}

#[derive(Debug)]
struct Param {
    name: String,
    value: Tensor,
    /// Adam: first moment; SGD: momentum buffer.
    m: Tensor,
    /// Adam: second moment (unused by SGD).
    v: Tensor,
    decay: bool,
}

/// The optimiser and its state.
#[derive(Debug)]
pub struct Optimizer {
    kind: Kind,
    weight_decay: f64,
    momentum: f64,
    params: Vec<Param>,
    /// Steps taken (Adam's bias correction counts them).
    pub steps: u64,
}

impl Optimizer {
    pub fn new(vs: &VarStore, cfg: &TrainConfig) -> Optimizer {
        let mut named: Vec<(String, Tensor)> = vs
            .variables()
            .into_iter()
            .filter(|(_, t)| t.requires_grad())
            .collect();
        named.sort_by(|a, b| a.0.cmp(&b.0));
        let params = named
            .into_iter()
            .map(|(name, value)| Param {
                m: value.zeros_like(),
                v: value.zeros_like(),
                decay: value.dim() >= 2,
                name,
                value,
            })
            .collect();
        Optimizer {
            kind: match cfg.optimizer {
                OptimizerKind::Sgd => Kind::Sgd,
                OptimizerKind::Adam => Kind::Adam,
            },
            weight_decay: cfg.weight_decay,
            momentum: cfg.momentum,
            params,
            steps: 0,
        }
    }

    pub fn zero_grad(&mut self) {
        for p in &mut self.params {
            p.value.zero_grad();
        }
    }

    /// One update with learning rate `lr` from the gradients in place.
    pub fn step(&mut self, lr: f64) {
        self.steps += 1;
        let t = self.steps as i32;
        let (bc1, bc2) = (1.0 - BETA1.powi(t), 1.0 - BETA2.powi(t));
        let (kind, wd, mom) = (self.kind, self.weight_decay, self.momentum);
        tch::no_grad(|| {
            for p in &mut self.params {
                let g = p.value.grad();
                if !g.defined() {
                    continue;
                }
                match kind {
                    Kind::Adam => {
                        let _ = p.m.g_mul_scalar_(BETA1).g_add_(&(&g * (1.0 - BETA1)));
                        let _ = p.v.g_mul_scalar_(BETA2).g_add_(&(&g * &g * (1.0 - BETA2)));
                        let denom = (&p.v / bc2).sqrt() + EPS;
                        let mut update = (&p.m / bc1) / denom;
                        if p.decay && wd > 0.0 {
                            update += &p.value * wd;
                        }
                        let _ = p.value.g_sub_(&(update * lr));
                    }
                    Kind::Sgd => {
                        let g = if p.decay && wd > 0.0 {
                            g + &p.value * wd
                        } else {
                            g
                        };
                        let _ = p.m.g_mul_scalar_(mom).g_add_(&g);
                        let _ = p.value.g_sub_(&(&p.m * lr));
                    }
                }
            }
        });
    }

    /// Writes the moments to `path` (safetensors, names `m.<var>` and `v.<var>`).
    pub fn save(&self, path: &Path) -> Result<()> {
        let mut named: Vec<(String, &Tensor)> = Vec::new();
        for p in &self.params {
            named.push((format!("m.{}", p.name), &p.m));
            named.push((format!("v.{}", p.name), &p.v));
        }
        Tensor::write_safetensors(&named, path)
            .with_context(|| format!("cannot write {}", path.display()))
    }

    /// Reads moments written by [`Optimizer::save`]; `steps` comes from the metadata.
    pub fn load(&mut self, path: &Path, steps: u64) -> Result<()> {
        let tensors = Tensor::read_safetensors(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let map: std::collections::HashMap<String, Tensor> = tensors.into_iter().collect();
        tch::no_grad(|| -> Result<()> {
            for p in &mut self.params {
                for (prefix, dst) in [("m", &mut p.m), ("v", &mut p.v)] {
                    let key = format!("{prefix}.{}", p.name);
                    let src = map.get(&key).with_context(|| {
                        format!("{}: optimizer state lacks {key}", path.display())
                    })?;
                    // A file of another network: an error, not tch's panic.
                    dst.f_copy_(&src.to_device(dst.device()))
                        .with_context(|| format!("{}: {key} does not fit", path.display()))?;
                }
            }
            Ok(())
        })?;
        self.steps = steps;
        Ok(())
    }
}

/// Learning rate at training step `step`, `progress` in [0, 1] being how far
/// the run is (`train.schedule_by`: [`rafle_train::config::ScheduleBy::progress`]):
/// linear warm-up over `warmup_steps`, then constant or cosine decay to
/// `lr * lr_final_frac`.
pub fn lr_at(cfg: &TrainConfig, step: u64, progress: f64) -> f64 {
    if step < cfg.warmup_steps {
        return cfg.lr * (step + 1) as f64 / cfg.warmup_steps as f64;
    }
    match cfg.lr_schedule {
        LrSchedule::Cosine => {
            let x = progress.clamp(0.0, 1.0);
            let lo = cfg.lr * cfg.lr_final_frac;
            lo + 0.5 * (cfg.lr - lo) * (1.0 + (std::f64::consts::PI * x).cos())
        }
        LrSchedule::Constant => cfg.lr,
    }
}
