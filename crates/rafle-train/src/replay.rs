//! The replay window (the newest self-play positions, each a [`Sample`])
//! and its file, `RUN_DIR/replay.safetensors`, the one format both trainers
//! read and write (`rafle train` here, the Python learner through the
//! bindings), so a run started by one resumes under the other.
//!
//! ```text
//! tensor          dtype  shape   holds
//! obs             U8     [P, L]  quantised observations (Sample::obs)
//! policy_len      U32    [P]     entries of each position's policy target
//! policy_action   U16    [K]     the targets' actions, position after position
//! policy_prob     F32    [K]     their probabilities (K = sum of policy_len)
//! wdl             U8     [P]     result for the player to act: 0 win, 1 draw, 2 loss
//!                                 (3, 4: a cut game's, `sample::CUT_SEARCH`, `sample::NO_VALUE`)
//! q               F32    [P]     root search value for the player to act
//! metadata: format = "rafle-replay", version = "3", total_added = N
//! ```

use std::collections::VecDeque;
use std::path::Path;

use anyhow::{bail, Context, Result};
use rafle_core::rng::Rng;
use safetensors::tensor::{Dtype, SafeTensors, TensorView};

use crate::sample::Sample;

/// The newest `window` positions.
#[derive(Debug)]
pub struct Replay {
    window: usize,
    samples: VecDeque<Sample>,
    /// Positions ever added (including those dropped from the window).
    pub total_added: u64,
}

const FORMAT: &str = "rafle-replay";
const VERSION: &str = "3";

impl Replay {
    pub fn new(window: usize) -> Replay {
        Replay {
            window,
            samples: VecDeque::with_capacity(window.min(1 << 20)),
            total_added: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    pub fn push(&mut self, s: Sample) {
        if self.samples.len() == self.window {
            self.samples.pop_front();
        }
        self.samples.push_back(s);
        self.total_added += 1;
    }

    /// The positions, oldest first.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &Sample> {
        self.samples.iter()
    }

    /// The positions, oldest first, taken out of the window.
    pub fn into_samples(self) -> impl Iterator<Item = Sample> {
        self.samples.into_iter()
    }

    /// `n` samples drawn uniformly with replacement.
    pub fn sample<'a>(&'a self, n: usize, rng: &mut Rng) -> Vec<&'a Sample> {
        (0..n)
            .map(|_| &self.samples[rng.below(self.samples.len())])
            .collect()
    }

    /// Writes the window to `path` (see the module docs), through a
    /// temporary file ([`rafle_core::atomic`]).
    pub fn save(&self, path: &Path) -> Result<()> {
        let bytes = self.to_bytes()?;
        rafle_core::atomic::write(path, &bytes)?; // the error names the file
        Ok(())
    }

    /// The file's bytes (see the module docs).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let p = self.samples.len();
        let obs_len = self.samples.front().map_or(0, |s| s.obs.len());
        let mut obs = Vec::with_capacity(p * obs_len);
        let (mut lens, mut actions, mut probs) = (Vec::new(), Vec::new(), Vec::new());
        let (mut wdl, mut q) = (Vec::with_capacity(p), Vec::with_capacity(p));
        for s in &self.samples {
            if s.obs.len() != obs_len {
                bail!("replay: observations of different lengths");
            }
            obs.extend_from_slice(&s.obs);
            lens.push(s.policy.len() as u32);
            for &(a, pr) in &s.policy {
                actions.push(a);
                probs.push(pr);
            }
            wdl.push(s.wdl);
            q.push(s.q);
        }
        let bytes = |v: &[u8]| v.to_vec();
        let le16 = |v: &[u16]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let le32 = |v: &[u32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let lef = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let data = [
            ("obs", Dtype::U8, vec![p, obs_len], bytes(&obs)),
            ("policy_len", Dtype::U32, vec![p], le32(&lens)),
            (
                "policy_action",
                Dtype::U16,
                vec![actions.len()],
                le16(&actions),
            ),
            ("policy_prob", Dtype::F32, vec![probs.len()], lef(&probs)),
            ("wdl", Dtype::U8, vec![p], bytes(&wdl)),
            ("q", Dtype::F32, vec![p], lef(&q)),
        ];
        let views = data
            .iter()
            .map(|(name, dtype, shape, raw)| {
                Ok((*name, TensorView::new(*dtype, shape.clone(), raw)?))
            })
            .collect::<Result<Vec<_>, safetensors::SafeTensorError>>()?;
        let meta = [
            ("format".to_string(), FORMAT.to_string()),
            ("version".to_string(), VERSION.to_string()),
            ("total_added".to_string(), self.total_added.to_string()),
        ];
        Ok(safetensors::serialize(
            views,
            Some(meta.into_iter().collect()),
        )?)
    }

    /// Reads a file written by [`Replay::save`] (or the Python learner)
    /// into a window of `window` (the newest positions if it holds more).
    pub fn load(path: &Path, window: usize) -> Result<Replay> {
        let raw = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        Replay::from_bytes(&raw, window, &path.display().to_string())
    }

    /// Reads the bytes of a replay file; errors call it `name`.
    pub fn from_bytes(raw: &[u8], window: usize, name: &str) -> Result<Replay> {
        let what = || format!("{name} is not a rafle replay file");
        let (_, header) = SafeTensors::read_metadata(raw).with_context(what)?;
        let meta = header.metadata().clone().unwrap_or_default();
        if meta.get("format").map(String::as_str) != Some(FORMAT) {
            bail!("{}", what());
        }
        if meta.get("version").map(String::as_str) != Some(VERSION) {
            bail!(
                "{name}: replay file version {:?}, this rafle reads {VERSION}",
                meta.get("version")
            );
        }
        let total_added: u64 = meta
            .get("total_added")
            .and_then(|t| t.parse().ok())
            .with_context(what)?;
        let st = SafeTensors::deserialize(raw).with_context(what)?;
        let tensor = |name: &str, dtype: Dtype| -> Result<(Vec<usize>, &[u8])> {
            let t = st
                .tensor(name)
                .with_context(|| format!("{}: no tensor {name}", what()))?;
            if t.dtype() != dtype {
                bail!("{}: {name} is {:?}, not {dtype:?}", what(), t.dtype());
            }
            Ok((t.shape().to_vec(), t.data()))
        };
        let (shape, obs) = tensor("obs", Dtype::U8)?;
        let (p, obs_len) = match shape[..] {
            [p, l] => (p, l),
            _ => bail!("{}: obs is not two-dimensional", what()),
        };
        let u32s = |b: &[u8]| -> Vec<u32> {
            b.chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        };
        let f32s = |b: &[u8]| -> Vec<f32> {
            b.chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        };
        let lens = u32s(tensor("policy_len", Dtype::U32)?.1);
        let actions: Vec<u16> = tensor("policy_action", Dtype::U16)?
            .1
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        let probs = f32s(tensor("policy_prob", Dtype::F32)?.1);
        let wdl = tensor("wdl", Dtype::U8)?.1;
        let q = f32s(tensor("q", Dtype::F32)?.1);
        let k: usize = lens.iter().map(|&l| l as usize).sum();
        if lens.len() != p
            || wdl.len() != p
            || q.len() != p
            || actions.len() != k
            || probs.len() != k
        {
            bail!("{}: tensor lengths disagree", what());
        }
        let mut replay = Replay::new(window);
        let mut at = 0;
        for i in 0..p {
            let n = lens[i] as usize;
            let policy = actions[at..at + n]
                .iter()
                .copied()
                .zip(probs[at..at + n].iter().copied())
                .collect();
            at += n;
            replay.push(Sample {
                obs: obs[i * obs_len..(i + 1) * obs_len].to_vec(),
                policy,
                wdl: wdl[i],
                q: q[i],
                version: 0,
            });
        }
        replay.total_added = total_added;
        Ok(replay)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(wdl: u8, q: f32) -> Sample {
        Sample {
            obs: vec![0, 128, 255],
            policy: vec![(3, 0.25), (7, 0.75)],
            wdl,
            q,
            version: 0,
        }
    }

    #[test]
    fn replay_file_round_trip() {
        let dir = std::env::temp_dir().join(format!("rafle-replay-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("replay.safetensors");
        let mut r = Replay::new(10);
        r.push(sample(0, 0.5));
        r.push(Sample {
            policy: vec![(1, 1.0)],
            ..sample(2, -0.25)
        });
        r.save(&path).unwrap();
        let back = Replay::load(&path, 10).unwrap();
        assert_eq!(back.samples, r.samples);
        assert_eq!(back.total_added, 2);
        // A smaller window keeps the newest positions.
        let small = Replay::load(&path, 1).unwrap();
        assert_eq!(small.samples.front(), r.samples.back());
        assert_eq!(Replay::new(4).save(&path).map(|_| ()).ok(), Some(()));
        assert!(Replay::load(&path, 4).unwrap().is_empty());

        std::fs::write(&path, b"NOTRAFLE").unwrap();
        let err = Replay::load(&path, 10).unwrap_err().to_string();
        assert!(err.contains("not a rafle replay file"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
