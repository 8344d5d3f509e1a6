//! Training batches as tensors: [`Batch`] puts rafle-train's dense arrays
//! of samples on the training device (the replay window itself is
//! `rafle_train::replay`).

use rafle_train::sample::{Dense, Sample};
use tch::{Device, Kind, Tensor};

use crate::net::NetShape;

/// The tensors of one training batch, on the training device.
#[derive(Debug)]
pub struct Batch {
    /// [B, C, N, N] float
    pub obs: Tensor,
    /// [B, A] bool, true on legal actions
    pub mask: Tensor,
    /// [B, A] float, policy target (0 off the mask)
    pub policy: Tensor,
    /// [B, 3] float, value target over (win, draw, loss), see [`Sample::value_target`]
    pub value: Tensor,
}

impl Batch {
    /// Stacks `samples` for a network of `shape`; `search_weight` is the
    /// share of the search value in the value target.
    pub fn new(samples: &[&Sample], shape: &NetShape, search_weight: f32, device: Device) -> Batch {
        let b = samples.len() as i64;
        let (c, n, actions) = (
            shape.planes as i64,
            shape.board as i64,
            shape.actions as i64,
        );
        let d = Dense::new(samples.iter().copied(), shape.actions, search_weight);
        Batch {
            obs: Tensor::from_slice(&d.obs)
                .view([b, c, n, n])
                .to_device(device),
            mask: Tensor::from_slice(&d.mask)
                .view([b, actions])
                .to_device(device),
            policy: Tensor::from_slice(&d.policy)
                .view([b, actions])
                .to_kind(Kind::Float)
                .to_device(device),
            value: Tensor::from_slice(&d.value).view([b, 3]).to_device(device),
        }
    }
}
