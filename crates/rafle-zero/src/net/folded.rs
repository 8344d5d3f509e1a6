//! The network for inference with each batch norm folded into the
//! convolution before it. In eval mode a batch norm is affine per channel,
//! `y = s * (x - mean) + beta` with `s = gamma / sqrt(var + eps)`, so a
//! convolution then its batch norm is one convolution with weights `W * s`
//! and bias `beta - s * mean`: one op a layer fewer on the search's hot
//! path, the outputs of [`Net::forward`] in eval mode up to rounding.

use tch::{Device, Kind, Tensor};

use super::{infer_with, ConvBn, Net, NetShape, BN_EPS};

/// A convolution with its batch norm folded in.
#[derive(Debug)]
struct Conv {
    w: Tensor,
    b: Tensor,
    padding: i64,
}

impl Conv {
    fn fold(cb: &ConvBn, kind: Kind) -> Conv {
        let bn = &cb.bn;
        let sd = (&bn.running_var + BN_EPS).sqrt();
        let s = match &bn.ws {
            Some(gamma) => gamma / sd,
            None => sd.reciprocal(),
        };
        let beta = match &bn.bs {
            Some(beta) => beta.shallow_clone(),
            None => s.zeros_like(),
        };
        let w = &cb.conv.ws * s.view([-1, 1, 1, 1]);
        Conv {
            padding: w.size()[2] / 2,
            b: (beta - &bn.running_mean * &s).to_kind(kind),
            w: w.to_kind(kind),
        }
    }

    fn apply(&self, x: &Tensor) -> Tensor {
        let p = self.padding;
        x.conv2d(&self.w, Some(&self.b), [1, 1], [p, p], [1, 1], 1)
    }
}

/// A linear layer's (weight, bias).
#[derive(Debug)]
struct Linear {
    w: Tensor,
    b: Option<Tensor>,
}

impl Linear {
    fn copy(l: &tch::nn::Linear, kind: Kind) -> Linear {
        Linear {
            w: l.ws.to_kind(kind),
            b: l.bs.as_ref().map(|b| b.to_kind(kind)),
        }
    }

    fn apply(&self, x: &Tensor) -> Tensor {
        x.linear(&self.w, self.b.as_ref())
    }
}

/// [`Net`] folded for inference in one number type (see the module docs).
#[derive(Debug)]
pub struct Folded {
    pub shape: NetShape,
    kind: Kind,
    device: Device,
    stem: Conv,
    blocks: Vec<(Conv, Conv)>,
    policy: Conv,
    policy_fc: Linear,
    value: Conv,
    value_fc1: Linear,
    value_fc2: Linear,
}

impl Folded {
    /// `net`'s weights and batch-norm statistics now, folded, in `kind`.
    pub fn new(net: &Net, kind: Kind) -> Folded {
        tch::no_grad(|| Folded {
            shape: net.shape.clone(),
            kind,
            device: net.device(),
            stem: Conv::fold(&net.stem, kind),
            blocks: net
                .blocks
                .iter()
                .map(|b| (Conv::fold(&b.a, kind), Conv::fold(&b.b, kind)))
                .collect(),
            policy: Conv::fold(&net.policy, kind),
            policy_fc: Linear::copy(&net.policy_fc, kind),
            value: Conv::fold(&net.value, kind),
            value_fc1: Linear::copy(&net.value_fc1, kind),
            value_fc2: Linear::copy(&net.value_fc2, kind),
        })
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }

    pub fn device(&self) -> Device {
        self.device
    }

    /// (policy logits [B, A], WDL logits [B, 3]) for observations
    /// [B, C, N, N] in this copy's number type; call under `no_grad`.
    pub fn forward(&self, obs: &Tensor) -> (Tensor, Tensor) {
        let mut x = self.stem.apply(obs).relu_();
        for (a, b) in &self.blocks {
            let y = a.apply(&x).relu_();
            let mut z = b.apply(&y);
            let _ = z.g_add_(&x);
            x = z.relu_();
        }
        let p = self
            .policy_fc
            .apply(&self.policy.apply(&x).relu_().flatten(1, -1));
        let h = self.value.apply(&x).relu_().flatten(1, -1);
        let v = self.value_fc2.apply(&self.value_fc1.apply(&h).relu_());
        (p, v)
    }

    /// What [`Net::infer`] returns, from the folded layers.
    pub fn infer(&self, obs: &[f32], n: usize) -> (Vec<f32>, Vec<f32>) {
        infer_with(&self.shape, self.device, self.kind, obs, n, |x| {
            self.forward(x)
        })
    }
}
