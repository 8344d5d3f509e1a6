//! A deterministic stand-in for a network: logits and value are a fixed
//! pseudo-random function of the observation (values in [-0.3, 0.3]), like
//! an untrained network. For tests and for measuring the search without one.

use super::{EvalError, Leaves};
use rafle_core::rng::Rng;

/// Fills `logits` and `values` for `leaves` from a hash of each observation.
pub fn hashed_answers(
    seed: u64,
    l: &Leaves,
    logits: &mut [f32],
    values: &mut [f32],
) -> Result<(), EvalError> {
    let len = l.obs.len() / l.n;
    let na = logits.len() / l.n;
    for k in 0..l.n {
        let mut h = seed ^ 0xcbf2_9ce4_8422_2325;
        for &x in &l.obs[k * len..(k + 1) * len] {
            h = (h ^ x.to_bits() as u64).wrapping_mul(0x100_0000_01b3);
        }
        let mut rng = Rng::new(h);
        for x in &mut logits[k * na..(k + 1) * na] {
            *x = rng.unit_f64() as f32 * 2.0 - 1.0;
        }
        values[k] = (rng.unit_f64() as f32 - 0.5) * 0.6;
    }
    Ok(())
}
