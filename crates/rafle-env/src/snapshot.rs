//! A batch's state as bytes, for pickling: per env its random stream, the
//! steps of its current episode and whether it resets at the next step.
//! The bytes hold no rule state of their own: restoring replays the steps
//! (see `replay`), so a damaged snapshot is refused rather than trusted.
//!
//! ```text
//!   "rafleVE1"  num_envs: u64
//!   per env:    rng state: 4 x u64   reset_next: u8   steps: u32 count, then u16 each
//! ```
//! (little-endian).

use crate::error::EnvError;

const MAGIC: &[u8; 8] = b"rafleVE1";

/// What one env needs to come back exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvSnapshot {
    pub rng: [u64; 4],
    /// Steps since the episode began.
    pub steps: Vec<u16>,
    /// Finished in the last step, resets at the next (`AutoresetMode::NextStep`).
    pub reset_next: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub envs: Vec<EnvSnapshot>,
}

impl Snapshot {
    pub fn to_bytes(&self) -> Vec<u8> {
        let steps: usize = self.envs.iter().map(|e| e.steps.len()).sum();
        let mut out = Vec::with_capacity(16 + self.envs.len() * 37 + steps * 2);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.envs.len() as u64).to_le_bytes());
        for e in &self.envs {
            for w in e.rng {
                out.extend_from_slice(&w.to_le_bytes());
            }
            out.push(e.reset_next as u8);
            out.extend_from_slice(&(e.steps.len() as u32).to_le_bytes());
            for s in &e.steps {
                out.extend_from_slice(&s.to_le_bytes());
            }
        }
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Snapshot, EnvError> {
        let mut r = Reader(bytes);
        if r.take(MAGIC.len())? != MAGIC {
            return Err(EnvError::BadSnapshot("not a rafle VecEnv snapshot"));
        }
        let n = r.u64()?;
        let mut envs = Vec::new();
        for _ in 0..n {
            let rng = [r.u64()?, r.u64()?, r.u64()?, r.u64()?];
            let reset_next = match r.take(1)?[0] {
                0 => false,
                1 => true,
                _ => return Err(EnvError::BadSnapshot("bad reset flag")),
            };
            let len = u32::from_le_bytes(r.array()?) as usize;
            let raw = r.take(len.checked_mul(2).ok_or(TRUNCATED)?)?;
            let steps = raw
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect();
            envs.push(EnvSnapshot {
                rng,
                steps,
                reset_next,
            });
        }
        if !r.0.is_empty() {
            return Err(EnvError::BadSnapshot("trailing bytes"));
        }
        Ok(Snapshot { envs })
    }
}

const TRUNCATED: EnvError = EnvError::BadSnapshot("truncated");

/// Reads the front of a byte slice, failing (not panicking) past its end.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], EnvError> {
        if n > self.0.len() {
            return Err(TRUNCATED);
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], EnvError> {
        let mut a = [0; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }

    fn u64(&mut self) -> Result<u64, EnvError> {
        Ok(u64::from_le_bytes(self.array()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_and_damage_is_refused() {
        let s = Snapshot {
            envs: vec![
                EnvSnapshot {
                    rng: [1, 2, 3, 4],
                    steps: vec![5, 600, 7],
                    reset_next: true,
                },
                EnvSnapshot {
                    rng: [9, 0, 0, 0],
                    steps: vec![],
                    reset_next: false,
                },
            ],
        };
        let b = s.to_bytes();
        assert_eq!(Snapshot::from_bytes(&b).unwrap(), s);
        for cut in [0, 7, 16, b.len() - 1] {
            assert!(Snapshot::from_bytes(&b[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = b.clone();
        longer.push(0);
        assert!(Snapshot::from_bytes(&longer).is_err());
        let mut flag = b.clone();
        flag[16 + 32] = 2;
        assert!(Snapshot::from_bytes(&flag).is_err());
    }
}
