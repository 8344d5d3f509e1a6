//! Speed measurement of [`VecEnv`] (used by `rafle bench env` and
//! `cargo bench -p rafle-env`): env steps per second with the built-in
//! sampler, observations and masks written every step, and the bytes those
//! steps hand to the caller against a plain memcpy of as many bytes.

use crate::{EnvConfig, EnvError, VecEnv};
use rafle_core::Variant;
use rayon::prelude::*;
use std::fmt;
use std::time::Instant;

/// One measurement, on the current rayon pool.
#[derive(Clone, Copy, Debug)]
pub struct EnvBench {
    pub variant: Variant,
    pub threads: usize,
    pub envs: usize,
    /// Env steps (one action of one game) per second, sampler included.
    pub steps_per_s: f64,
    /// Bytes one env step hands to the caller (see [`bytes_per_env_step`]).
    pub bytes_per_step: usize,
    /// `steps_per_s * bytes_per_step`, in GB/s.
    pub written_gb_per_s: f64,
    /// A plain parallel copy of the same buffers (`envs * bytes_per_step`), GB/s.
    pub memcpy_gb_per_s: f64,
    /// CPU time the process got during the timed steps / (wall time * threads):
    /// below 1 when other programs share the cores (Linux only, else NaN).
    pub cpu_share: f64,
}

impl EnvBench {
    pub const HEADER: &'static str =
        "variant        threads   envs      steps/s  cpu share     B/step  written GB/s  memcpy GB/s   ratio";
}

impl fmt::Display for EnvBench {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:<14} {:>7} {:>6} {:>12.3e} {:>10.2} {:>10} {:>13.2} {:>12.2} {:>7.3}",
            self.variant.name(),
            self.threads,
            self.envs,
            self.steps_per_s,
            self.cpu_share,
            self.bytes_per_step,
            self.written_gb_per_s,
            self.memcpy_gb_per_s,
            self.written_gb_per_s / self.memcpy_gb_per_s
        )
    }
}

/// Bytes one env step hands to the caller: observation (f32), mask (bool),
/// reward (f32), terminated, truncated and to_play (one byte each).
pub fn bytes_per_env_step(v: Variant) -> usize {
    crate::obs::observation_len(v) * 4 + crate::action::num_actions(v) + 4 + 3
}

/// Measures `steps` batched steps of `envs` games (after a short warm-up).
pub fn measure(v: Variant, envs: usize, steps: usize) -> Result<EnvBench, EnvError> {
    let mut ve = VecEnv::new(v, envs, 0, EnvConfig::default())?;
    let mut acts = vec![0i64; envs];
    let mut run = |n: usize| -> Result<f64, EnvError> {
        let t = Instant::now();
        for _ in 0..n {
            ve.sample_legal_actions(&mut acts);
            ve.step(&acts).map_err(|e| e.error)?;
        }
        Ok(t.elapsed().as_secs_f64())
    };
    run(steps.div_ceil(10))?;
    let cpu0 = process_cpu_seconds();
    let secs = run(steps)?;
    let cpu = process_cpu_seconds()
        .zip(cpu0)
        .map_or(f64::NAN, |(b, a)| b - a);
    let threads = rayon::current_num_threads();
    let steps_per_s = (steps * envs) as f64 / secs;
    let b = bytes_per_env_step(v);
    Ok(EnvBench {
        variant: v,
        threads,
        envs,
        steps_per_s,
        bytes_per_step: b,
        written_gb_per_s: steps_per_s * b as f64 / 1e9,
        memcpy_gb_per_s: memcpy_gb_per_s(envs * b),
        cpu_share: cpu / (secs * threads as f64),
    })
}

/// User + system CPU seconds of this process so far, from /proc (Linux; the
/// kernel counts in ticks of 1/100 s).
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) start at field 3.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// GB/s of a plain copy of `bytes` bytes, in chunks over the current pool.
pub fn memcpy_gb_per_s(bytes: usize) -> f64 {
    let src = vec![1u8; bytes.max(1)];
    let mut dst = vec![0u8; bytes.max(1)];
    let chunk = dst.len().div_ceil(4 * rayon::current_num_threads());
    let mut copy = || {
        dst.par_chunks_mut(chunk)
            .zip(src.par_chunks(chunk))
            .for_each(|(d, s)| d.copy_from_slice(s));
        std::hint::black_box(&mut dst);
    };
    copy();
    let reps = (4_000_000_000 / src.len()).clamp(3, 2000);
    let t = Instant::now();
    for _ in 0..reps {
        copy();
    }
    (reps * src.len()) as f64 / t.elapsed().as_secs_f64() / 1e9
}
