//! A training position made by self-play: what the Rust replay buffer
//! stores and what Python's `SelfPlay.play` returns as arrays.
//!
//! The observation is quantised to bytes (planes are in [0, 1]: 0/1 piece
//! planes and fractional counter planes, error < 0.002); the policy target
//! covers exactly the legal actions; the result and the root search value are
//! for the player to act.

/// One training position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Observation, each float x stored as round(x * 255).
    pub obs: Vec<u8>,
    /// Policy target over the legal actions (the support is the legal mask).
    pub policy: Vec<(u16, f32)>,
    /// Result for the player to act: 0 win, 1 draw, 2 loss (the WDL index).
    pub wdl: u8,
    /// Root value of the search for the player to act, in [-1, 1].
    pub q: f32,
    /// The evaluator version that searched it ([`SelfPlay::set_version`];
    /// 0 unless the caller numbers its weights). Not stored in replay files.
    ///
    /// [`SelfPlay::set_version`]: crate::selfplay::SelfPlay::set_version
    pub version: u64,
}

impl Sample {
    pub fn quantise(obs: &[f32]) -> Vec<u8> {
        obs.iter()
            .map(|&x| (x.clamp(0.0, 1.0) * 255.0).round() as u8)
            .collect()
    }

    /// The observation as floats again.
    pub fn obs_f32(&self) -> impl Iterator<Item = f32> + '_ {
        self.obs.iter().map(|&q| q as f32 / 255.0)
    }

    /// Value target: `(1 - search_weight)` x the one-hot result +
    /// `search_weight` x [`wdl_of_value`]`(q)`. Mixing in the search value
    /// gives a lower-variance target than the result of one noisy game.
    pub fn value_target(&self, search_weight: f32) -> [f32; 3] {
        let mut t = wdl_of_value(self.q).map(|x| x * search_weight);
        t[self.wdl.min(2) as usize] += 1.0 - search_weight;
        t
    }
}

/// A WDL distribution with expected value `q`: [max(q, 0), 1 - |q|, max(-q, 0)].
pub fn wdl_of_value(q: f32) -> [f32; 3] {
    let q = q.clamp(-1.0, 1.0);
    [q.max(0.0), 1.0 - q.abs(), (-q).max(0.0)]
}

/// The scalar value of a WDL class: win 1, draw 0, loss -1.
pub fn value_of_wdl(wdl: u8) -> f32 {
    match wdl {
        0 => 1.0,
        1 => 0.0,
        _ => -1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_target_mixes_result_and_search_value() {
        for (wdl, q) in [(0, 0.3), (1, -0.8), (2, 1.0), (0, -1.0)] {
            let s = Sample {
                obs: vec![0, 128, 255],
                policy: vec![(3, 0.25), (7, 0.75)],
                wdl,
                q,
                version: 0,
            };
            let mut one_hot = [0.0; 3];
            one_hot[wdl as usize] = 1.0;
            assert_eq!(s.value_target(0.0), one_hot);
            let t = s.value_target(1.0);
            assert!((t[0] - t[2] - q).abs() < 1e-6, "{t:?} has value {q}");
            for w in [0.0, 0.25, 1.0] {
                let t = s.value_target(w);
                assert!(t.iter().all(|&x| x >= 0.0), "{t:?}");
                assert!((t.iter().sum::<f32>() - 1.0).abs() < 1e-6, "{t:?}");
                let expected = (1.0 - w) * value_of_wdl(wdl) + w * q;
                assert!((t[0] - t[2] - expected).abs() < 1e-6, "{t:?}");
            }
        }
        assert_eq!(wdl_of_value(0.0), [0.0, 1.0, 0.0]);
        assert_eq!(wdl_of_value(-0.5), [0.0, 0.5, 0.5]);
    }
}
