//! Training positions and the replay buffer (a window of the newest positions).
//!
//! A [`Sample`] keeps its observation quantised to bytes (planes are in
//! [0, 1]: 0/1 piece planes and fractional counter planes, error < 0.002),
//! the policy target over the legal actions, and the game result for the
//! player to act. [`Batch`] turns samples into the training tensors.

use std::collections::VecDeque;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use rafle_core::rng::Rng;
use tch::{Device, Kind, Tensor};

/// One training position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Observation, each float x stored as round(x * 255).
    pub obs: Vec<u8>,
    /// Policy target over the legal actions (the support is the legal mask).
    pub policy: Vec<(u16, f32)>,
    /// Result for the player to act: 0 win, 1 draw, 2 loss (the WDL index).
    pub wdl: u8,
}

impl Sample {
    pub fn quantise(obs: &[f32]) -> Vec<u8> {
        obs.iter()
            .map(|&x| (x.clamp(0.0, 1.0) * 255.0).round() as u8)
            .collect()
    }
}

/// The tensors of one training batch, on the training device.
#[derive(Debug)]
pub struct Batch {
    /// [B, C, N, N] float
    pub obs: Tensor,
    /// [B, A] bool, true on legal actions
    pub mask: Tensor,
    /// [B, A] float, policy target (0 off the mask)
    pub policy: Tensor,
    /// [B] int64, WDL class of the result
    pub wdl: Tensor,
}

impl Batch {
    /// Stacks `samples`; `obs_shape` is [C, N, N], `actions` the policy size.
    pub fn new(
        samples: &[&Sample],
        obs_shape: [usize; 3],
        actions: usize,
        device: Device,
    ) -> Batch {
        let b = samples.len();
        let obs_len = obs_shape.iter().product::<usize>();
        let mut obs = Vec::with_capacity(b * obs_len);
        let mut mask = vec![false; b * actions];
        let mut policy = vec![0f32; b * actions];
        let mut wdl = Vec::with_capacity(b);
        for (i, s) in samples.iter().enumerate() {
            obs.extend(s.obs.iter().map(|&q| q as f32 / 255.0));
            for &(a, p) in &s.policy {
                mask[i * actions + a as usize] = true;
                policy[i * actions + a as usize] = p;
            }
            wdl.push(s.wdl as i64);
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
            wdl: Tensor::from_slice(&wdl).to_device(device),
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

const MAGIC: &[u8; 8] = b"RFLRPLY1";

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
        if &magic != MAGIC {
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
            replay.push(Sample {
                obs,
                policy,
                wdl: wdl[0],
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
