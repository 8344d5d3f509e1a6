//! The replay buffer (a window of the newest self-play positions, each a
//! [`Sample`]) and its file; [`Batch`] turns samples into the training tensors.

use std::collections::VecDeque;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use rafle_core::rng::Rng;
use rafle_train::sample::{value_of_wdl, Sample};
use tch::{Device, Kind, Tensor};

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
    /// Stacks `samples`; `obs_shape` is [C, N, N], `actions` the policy size,
    /// `search_weight` the share of the search value in the value target.
    pub fn new(
        samples: &[&Sample],
        obs_shape: [usize; 3],
        actions: usize,
        search_weight: f32,
        device: Device,
    ) -> Batch {
        let b = samples.len();
        let obs_len = obs_shape.iter().product::<usize>();
        let mut obs = Vec::with_capacity(b * obs_len);
        let mut mask = vec![false; b * actions];
        let mut policy = vec![0f32; b * actions];
        let mut value = Vec::with_capacity(b * 3);
        for (i, s) in samples.iter().enumerate() {
            obs.extend(s.obs_f32());
            for &(a, p) in &s.policy {
                mask[i * actions + a as usize] = true;
                policy[i * actions + a as usize] = p;
            }
            value.extend(s.value_target(search_weight));
        }
        let [c, n, m] = obs_shape.map(|x| x as i64);
        Batch {
            obs: Tensor::from_slice(&obs)
                .view([b as i64, c, n, m])
                .to_device(device),
            mask: Tensor::from_slice(&mask)
                .view([b as i64, actions as i64])
                .to_device(device),
            policy: Tensor::from_slice(&policy)
                .view([b as i64, actions as i64])
                .to_kind(Kind::Float)
                .to_device(device),
            value: Tensor::from_slice(&value)
                .view([b as i64, 3])
                .to_device(device),
        }
    }
}

/// The newest `window` positions.
#[derive(Debug)]
pub struct Replay {
    window: usize,
    samples: VecDeque<Sample>,
    /// Positions ever added (including those dropped from the window).
    pub total_added: u64,
}

/// Replay file magic; version 1 files (no search value) still load.
const MAGIC: &[u8; 8] = b"RFLRPLY2";
const MAGIC_V1: &[u8; 8] = b"RFLRPLY1";

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

    /// `n` samples drawn uniformly with replacement.
    pub fn sample<'a>(&'a self, n: usize, rng: &mut Rng) -> Vec<&'a Sample> {
        (0..n)
            .map(|_| &self.samples[rng.below(self.samples.len())])
            .collect()
    }

    /// Writes the buffer (binary, little-endian) to `path`.
    pub fn save(&self, path: &Path) -> Result<()> {
        let f = std::fs::File::create(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        let mut w = BufWriter::new(f);
        w.write_all(MAGIC)?;
        w.write_all(&self.total_added.to_le_bytes())?;
        w.write_all(&(self.samples.len() as u64).to_le_bytes())?;
        for s in &self.samples {
            w.write_all(&(s.obs.len() as u32).to_le_bytes())?;
            w.write_all(&s.obs)?;
            w.write_all(&(s.policy.len() as u32).to_le_bytes())?;
            for &(a, p) in &s.policy {
                w.write_all(&a.to_le_bytes())?;
                w.write_all(&p.to_le_bytes())?;
            }
            w.write_all(&[s.wdl])?;
            w.write_all(&s.q.to_le_bytes())?;
        }
        w.flush()?;
        Ok(())
    }

    /// Reads a buffer written by [`Replay::save`] into a window of `window`.
    pub fn load(path: &Path, window: usize) -> Result<Replay> {
        let f =
            std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
        let mut r = BufReader::new(f);
        let mut magic = [0u8; 8];
        r.read_exact(&mut magic)?;
        let v1 = &magic == MAGIC_V1;
        if &magic != MAGIC && !v1 {
            bail!("{} is not a rafle replay file", path.display());
        }
        let total_added = read_u64(&mut r)?;
        let n = read_u64(&mut r)? as usize;
        let mut replay = Replay::new(window);
        for _ in 0..n {
            let len = read_u32(&mut r)? as usize;
            let mut obs = vec![0u8; len];
            r.read_exact(&mut obs)?;
            let k = read_u32(&mut r)? as usize;
            let mut policy = Vec::with_capacity(k);
            for _ in 0..k {
                let mut a = [0u8; 2];
                let mut p = [0u8; 4];
                r.read_exact(&mut a)?;
                r.read_exact(&mut p)?;
                policy.push((u16::from_le_bytes(a), f32::from_le_bytes(p)));
            }
            let mut wdl = [0u8; 1];
            r.read_exact(&mut wdl)?;
            let q = if v1 {
                // No search value stored: the result stands in for it.
                value_of_wdl(wdl[0])
            } else {
                let mut q = [0u8; 4];
                r.read_exact(&mut q)?;
                f32::from_le_bytes(q)
            };
            replay.push(Sample {
                obs,
                policy,
                wdl: wdl[0],
                q,
                version: 0,
            });
        }
        replay.total_added = total_added;
        Ok(replay)
    }
}

fn read_u64(r: &mut impl Read) -> Result<u64> {
    let mut b = [0u8; 8];
    r.read_exact(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

fn read_u32(r: &mut impl Read) -> Result<u32> {
    let mut b = [0u8; 4];
    r.read_exact(&mut b)?;
    Ok(u32::from_le_bytes(b))
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
    fn replay_file_round_trip_and_version_1() {
        let dir = std::env::temp_dir().join(format!("rafle-replay-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("replay.bin");
        let mut r = Replay::new(10);
        r.push(sample(0, 0.5));
        r.push(sample(2, -0.25));
        r.save(&path).unwrap();
        let back = Replay::load(&path, 10).unwrap();
        assert_eq!(back.samples, r.samples);
        assert_eq!(back.total_added, 2);

        // Version 1: the same records without the search value.
        let mut v1 = Vec::new();
        v1.extend_from_slice(MAGIC_V1);
        v1.extend_from_slice(&2u64.to_le_bytes());
        v1.extend_from_slice(&2u64.to_le_bytes());
        for s in &r.samples {
            v1.extend_from_slice(&(s.obs.len() as u32).to_le_bytes());
            v1.extend_from_slice(&s.obs);
            v1.extend_from_slice(&(s.policy.len() as u32).to_le_bytes());
            for &(a, p) in &s.policy {
                v1.extend_from_slice(&a.to_le_bytes());
                v1.extend_from_slice(&p.to_le_bytes());
            }
            v1.push(s.wdl);
        }
        std::fs::write(&path, v1).unwrap();
        let old = Replay::load(&path, 10).unwrap();
        let qs: Vec<f32> = old.samples.iter().map(|s| s.q).collect();
        assert_eq!(qs, vec![1.0, -1.0]);
        assert_eq!(old.samples[1].policy, r.samples[1].policy);

        std::fs::write(&path, b"NOTRAFLE").unwrap();
        assert!(Replay::load(&path, 10).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
