//! The policy/value network (tch).
//!
//! ```text
//! obs [B, C, N, N] (rafle-env planes, mover's frame)
//!   stem   conv3x3(C -> ch) - BN - ReLU
//!   blocks x `blocks`: conv3x3 - BN - ReLU - conv3x3 - BN, + skip, ReLU
//!   policy conv1x1(ch -> pc) - BN - ReLU - flatten - linear(pc*N*N -> A)   logits [B, A]
//!   value  conv1x1(ch -> 2)  - BN - ReLU - flatten - linear(2*N*N -> h)
//!          - ReLU - linear(h -> 3)                                        WDL logits [B, 3]
//! ```
//!
//! A = `Env::num_actions` step actions. WDL is ordered
//! (win, draw, loss) for the player to act; the scalar value is
//! P(win) - P(loss). Logits are raw: callers mask illegal actions
//! ([`masked_logits`]) before any softmax. Variable names (`stem.conv.weight`,
//! `blocks.0.bn1.running_mean`, ...) are the ones `python/rafle/model.py` uses.

use anyhow::{bail, Result};
use tch::nn;
use tch::{Device, Kind, Tensor};

use rafle_search::network::evaluator::{cpu_has_fast_bf16, BF16_BATCH, SMALL_BATCH};
use rafle_search::network::{EvalError, Evaluator, Leaves};
use rafle_train::config::{ConvDtype, Device as DeviceChoice, InferenceDtype};

mod folded;
pub use folded::Folded;

/// Batch norm's epsilon (torch's default, as `python/rafle/model.py` has it).
pub const BN_EPS: f64 = 1e-5;
/// 1x1 channels of the value head.
pub const VALUE_CHANNELS: i64 = 2;
/// Logit given to illegal actions (finite, so 0 * logit stays 0 in the loss).
pub const ILLEGAL_LOGIT: f64 = -1e9;

/// Everything needed to rebuild the network; stored in checkpoint metadata.
pub use rafle_train::checkpoint::NetShape;

/// The device a config names: `auto` picks CUDA when present.
pub fn device(choice: DeviceChoice) -> Result<Device> {
    Ok(match choice {
        DeviceChoice::Auto => Device::cuda_if_available(),
        DeviceChoice::Cpu => Device::Cpu,
        DeviceChoice::Cuda if tch::Cuda::is_available() => Device::Cuda(0),
        DeviceChoice::Cuda => bail!("run.device is cuda but no CUDA device is available"),
    })
}

#[derive(Debug)]
struct ConvBn {
    conv: nn::Conv2D,
    bn: nn::BatchNorm,
}

impl ConvBn {
    fn new(p: &nn::Path, cin: i64, cout: i64, k: i64) -> ConvBn {
        let cfg = nn::ConvConfig {
            padding: k / 2,
            bias: false,
            ..Default::default()
        };
        ConvBn {
            conv: nn::conv2d(p / "conv", cin, cout, k, cfg),
            bn: nn::batch_norm2d(
                p / "bn",
                cout,
                nn::BatchNormConfig {
                    eps: BN_EPS,
                    ..Default::default()
                },
            ),
        }
    }

    /// Convolution then batch norm; the convolution's arithmetic in
    /// `conv_kind` (the input and weights cast to it, the output cast back)
    /// where that is not the variables' own kind.
    fn forward(&self, xs: &Tensor, train: bool, conv_kind: Kind) -> Tensor {
        let own = self.conv.ws.kind();
        if conv_kind == own {
            return xs.apply(&self.conv).apply_t(&self.bn, train);
        }
        let p = self.conv.ws.size()[2] / 2;
        let w = self.conv.ws.to_kind(conv_kind);
        xs.to_kind(conv_kind)
            .conv2d(&w, None::<&Tensor>, [1, 1], [p, p], [1, 1], 1)
            .to_kind(own)
            .apply_t(&self.bn, train)
    }
}

#[derive(Debug)]
struct Block {
    a: ConvBn,
    b: ConvBn,
}

impl Block {
    fn forward(&self, xs: &Tensor, train: bool, conv_kind: Kind) -> Tensor {
        let ys = self.a.forward(xs, train, conv_kind).relu();
        (self.b.forward(&ys, train, conv_kind) + xs).relu()
    }
}

/// The network and the variables it owns.
#[derive(Debug)]
pub struct Net {
    pub vs: nn::VarStore,
    pub shape: NetShape,
    stem: ConvBn,
    blocks: Vec<Block>,
    policy: ConvBn,
    policy_fc: nn::Linear,
    value: ConvBn,
    value_fc1: nn::Linear,
    value_fc2: nn::Linear,
    /// The convolutions' arithmetic ([`Net::set_conv_kind`]); `None`: the
    /// variables' own kind.
    conv_kind: Option<Kind>,
}

impl Net {
    /// A freshly initialised network on `device`; `seed` fixes the weights.
    pub fn new(shape: NetShape, device: Device, seed: u64) -> Net {
        tch::manual_seed(seed as i64);
        let vs = nn::VarStore::new(device);
        let root = vs.root();
        let (c, ch, n) = (
            shape.planes as i64,
            shape.channels as i64,
            shape.board as i64,
        );
        let pc = shape.policy_channels as i64;
        let stem = ConvBn::new(&(&root / "stem"), c, ch, 3);
        let blocks = (0..shape.blocks)
            .map(|i| {
                let p = &root / "blocks" / i;
                Block {
                    a: ConvBn::new(&(&p / "a"), ch, ch, 3),
                    b: ConvBn::new(&(&p / "b"), ch, ch, 3),
                }
            })
            .collect();
        let policy = ConvBn::new(&(&root / "policy"), ch, pc, 1);
        let policy_fc = nn::linear(
            &root / "policy_fc",
            pc * n * n,
            shape.actions as i64,
            Default::default(),
        );
        let value = ConvBn::new(&(&root / "value"), ch, VALUE_CHANNELS, 1);
        let h = shape.value_hidden as i64;
        let value_fc1 = nn::linear(
            &root / "value_fc1",
            VALUE_CHANNELS * n * n,
            h,
            Default::default(),
        );
        let value_fc2 = nn::linear(&root / "value_fc2", h, 3, Default::default());
        Net {
            vs,
            shape,
            stem,
            blocks,
            policy,
            policy_fc,
            value,
            value_fc1,
            value_fc2,
            conv_kind: None,
        }
    }

    /// Runs the training step's convolutions (`forward` with `train`) in
    /// `kind` (`None`: the variables' own), the rest in the variables' kind:
    /// bf16 convolutions over f32 weights make a mixed-precision training
    /// step, the gradients reaching the f32 weights through the casts
    /// (`rafle bench train` measures it). Evaluation mode keeps the
    /// variables' kind, so probes and copies see the weights as they are.
    pub fn set_conv_kind(&mut self, kind: Option<Kind>) {
        self.conv_kind = kind;
    }

    /// The convolutions' arithmetic of a config's `train.conv_dtype`.
    pub fn set_conv_dtype(&mut self, dtype: ConvDtype) {
        let bf16 = match dtype {
            ConvDtype::F32 => false,
            ConvDtype::Bf16 => true,
            ConvDtype::Auto => bf16_is_fast(self.device()),
        };
        self.set_conv_kind(bf16.then_some(Kind::BFloat16));
    }

    pub fn device(&self) -> Device {
        self.vs.device()
    }

    /// (policy logits [B, A], WDL logits [B, 3]) for observations [B, C, N, N].
    /// `train` switches batch norm to batch statistics (and updates the
    /// running ones).
    pub fn forward(&self, obs: &Tensor, train: bool) -> (Tensor, Tensor) {
        let own = self.vs.kind();
        let k = if train {
            self.conv_kind.unwrap_or(own)
        } else {
            own
        };
        let mut x = self.stem.forward(obs, train, k).relu();
        for b in &self.blocks {
            x = b.forward(&x, train, k);
        }
        let p = self
            .policy
            .forward(&x, train, k)
            .relu()
            .flatten(1, -1)
            .apply(&self.policy_fc);
        let v = self
            .value
            .forward(&x, train, k)
            .relu()
            .flatten(1, -1)
            .apply(&self.value_fc1)
            .relu()
            .apply(&self.value_fc2);
        (p, v)
    }

    /// Inference for search: `obs` holds `n` observations back to back.
    /// Returns (raw policy logits, n * A) and (scalar values P(win) - P(loss), n),
    /// both for the player to act.
    pub fn infer(&self, obs: &[f32], n: usize) -> (Vec<f32>, Vec<f32>) {
        infer_with(&self.shape, self.device(), self.vs.kind(), obs, n, |x| {
            self.forward(x, false)
        })
    }

    /// A copy for inference in `dtype` (see [`bf16_is_fast`] for `auto`);
    /// refresh it with [`Net::copy_from`] after training.
    pub fn inference_copy(&self, dtype: InferenceDtype) -> Result<Net> {
        let mut copy = Net::new(self.shape.clone(), self.device(), 0);
        let bf16 = match dtype {
            InferenceDtype::Auto => bf16_is_fast(self.device()),
            InferenceDtype::F32 => false,
            InferenceDtype::Bf16 => true,
        };
        if bf16 {
            copy.vs.set_kind(Kind::BFloat16);
        }
        copy.copy_from(self)?;
        Ok(copy)
    }

    /// Copies the variables of `other` (same shape), converting the number type.
    pub fn copy_from(&mut self, other: &Net) -> Result<()> {
        self.vs.copy(&other.vs)?;
        Ok(())
    }

    /// Number of trainable parameters.
    pub fn num_params(&self) -> usize {
        self.vs
            .trainable_variables()
            .iter()
            .map(|t| t.numel())
            .sum()
    }
}

/// [`Net::infer`] of a network whose `forward` takes [B, C, N, N]
/// observations in `kind` on `device`: the (policy logits, WDL logits) of
/// `forward` turned into what the search takes, on the CPU.
fn infer_with(
    s: &NetShape,
    device: Device,
    kind: Kind,
    obs: &[f32],
    n: usize,
    forward: impl Fn(&Tensor) -> (Tensor, Tensor),
) -> (Vec<f32>, Vec<f32>) {
    let (logits, value) = tch::no_grad(|| {
        let x = Tensor::from_slice(&obs[..n * s.obs_len()])
            .view([n as i64, s.planes as i64, s.board as i64, s.board as i64])
            .to_device(device)
            .to_kind(kind);
        let (p, v) = forward(&x);
        let (p, v) = (p.to_kind(Kind::Float), v.to_kind(Kind::Float));
        let probs = v.softmax(-1, Kind::Float);
        let scalar = probs.select(1, 0) - probs.select(1, 2);
        (p.to_device(Device::Cpu), scalar.to_device(Device::Cpu))
    });
    (to_vec(&logits), to_vec(&value))
}

/// The network as the search's evaluator, batch norm folded in
/// ([`Folded`]): an f32 copy, and a bf16 one where bf16 pays (see
/// [`bf16_is_fast`]) for batches of [`BF16_BATCH`] leaves or more. Refresh
/// both with [`Inference::copy_from`] after training.
#[derive(Debug)]
pub struct Inference {
    f32: Folded,
    bf16: Option<Folded>,
}

impl Inference {
    /// Copies of `net` for `dtype` (`auto`: bf16 only where it is fast).
    pub fn new(net: &Net, dtype: InferenceDtype) -> Result<Inference> {
        let bf16 = match dtype {
            InferenceDtype::Auto => bf16_is_fast(net.device()),
            InferenceDtype::F32 => false,
            InferenceDtype::Bf16 => true,
        };
        Ok(Inference {
            f32: Folded::new(net, Kind::Float),
            bf16: bf16.then(|| Folded::new(net, Kind::BFloat16)),
        })
    }

    /// Folds the weights of `net` (after training) into every copy anew.
    pub fn copy_from(&mut self, net: &Net) -> Result<()> {
        anyhow::ensure!(
            net.shape == self.f32.shape,
            "the network's shape differs from the inference copy's"
        );
        self.f32 = Folded::new(net, Kind::Float);
        if self.bf16.is_some() {
            self.bf16 = Some(Folded::new(net, Kind::BFloat16));
        }
        Ok(())
    }

    pub fn device(&self) -> Device {
        self.f32.device()
    }
}

/// Answers the search's leaves (the legal mask is not needed: the search
/// masks illegal actions itself). Small batches run on one torch thread
/// ([`SMALL_BATCH`]) and in f32 ([`BF16_BATCH`]).
impl Evaluator for Inference {
    fn evaluate(
        &mut self,
        leaves: &Leaves,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), EvalError> {
        let threads = tch::get_num_threads();
        let small = leaves.n < SMALL_BATCH && threads > 1;
        if small {
            tch::set_num_threads(1);
        }
        let net = match &self.bf16 {
            Some(b) if leaves.n >= BF16_BATCH => b,
            _ => &self.f32,
        };
        let (l, v) = net.infer(leaves.obs, leaves.n);
        if small {
            tch::set_num_threads(threads);
        }
        logits.copy_from_slice(&l);
        values.copy_from_slice(&v);
        Ok(())
    }
}

/// Whether bf16 inference pays off on `device`: CUDA, or a CPU with AMX or
/// AVX-512 BF16 ([`cpu_has_fast_bf16`]).
pub fn bf16_is_fast(device: Device) -> bool {
    device.is_cuda() || cpu_has_fast_bf16()
}

/// Flattens a CPU float tensor into a Vec.
pub fn to_vec(t: &Tensor) -> Vec<f32> {
    let t = t.to_kind(Kind::Float).contiguous().view([-1]);
    let n = t.numel();
    let mut out = vec![0f32; n];
    t.copy_data(&mut out, n);
    out
}

/// Logits with illegal actions set to [`ILLEGAL_LOGIT`]; `mask` is bool [B, A].
pub fn masked_logits(logits: &Tensor, mask: &Tensor) -> Tensor {
    logits.masked_fill(&mask.logical_not(), ILLEGAL_LOGIT)
}
