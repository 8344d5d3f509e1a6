//! What answers the leaves: the [`Evaluator`] trait (shapes in the module
//! docs of [`crate::network`]).

use std::sync::{Arc, Mutex};

/// A batch of `n` leaves: observations and legal masks, leaf after leaf.
#[derive(Clone, Copy, Debug)]
pub struct Leaves<'a> {
    /// `n * C * N * N` floats (rafle-env observation planes).
    pub obs: &'a [f32],
    /// `n * A` flags, true on the legal next steps.
    pub mask: &'a [bool],
    pub n: usize,
}

/// Why an evaluation (and the search, self-play or match it served) stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// The evaluator failed; the message says why.
    Failed(String),
    /// Stopped from outside (a stop flag, Ctrl-C in Python).
    Interrupted,
    /// The arena gave up the match; the message says why (an engine
    /// forfeiting game after game).
    Aborted(String),
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalError::Failed(why) => write!(f, "evaluator failed: {why}"),
            EvalError::Interrupted => f.write_str("interrupted"),
            EvalError::Aborted(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for EvalError {}

/// Batches of fewer leaves should run their forward pass on one intra-op
/// thread (rafle-zero's network does; so does `rafle.model.evaluator` in
/// Python): a second thread saves little on them (one leaf: 0.25 ms against
/// 0.22 ms, thai 4x32 net in f32, `rafle bench infer`), and when another
/// process holds a core, two torch threads made rounds of about 5 leaves
/// 40-150x slower on 2 cores (43 evals/s against 7.8k with one thread).
/// Larger batches use every thread: 32 leaves took 1.05 ms on 2 threads
/// against 1.52 ms on one (bf16).
pub const SMALL_BATCH: usize = 8;

/// Batches of at least this many leaves run in bf16 when the evaluator can
/// (rafle-zero's `Inference`, `rafle.model.evaluator`); smaller ones are
/// faster in f32 (one leaf: 0.22 ms in f32 against 0.53 ms in bf16; 32
/// leaves: 1.33 ms against 1.05 ms; thai 4x32 net, 2 threads, an AVX-512
/// BF16 CPU, `rafle bench infer`).
pub const BF16_BATCH: usize = 16;

/// Whether this CPU runs bf16 networks fast (AMX or AVX-512 BF16, read from
/// /proc/cpuinfo; false where it cannot be read): where `run.inference_dtype
/// = "auto"` picks bf16 in rafle train and in the Python trainers.
pub fn cpu_has_fast_bf16() -> bool {
    std::fs::read_to_string("/proc/cpuinfo")
        .map(|info| {
            info.lines().filter(|l| l.starts_with("flags")).any(|l| {
                l.split_whitespace()
                    .any(|f| f == "amx_bf16" || f == "avx512_bf16")
            })
        })
        .unwrap_or(false)
}

/// Maps a batch of leaves to policy logits and values.
pub trait Evaluator: Send {
    /// Fills `logits` (`n * A`, raw, over every action; illegal ones are
    /// ignored) and `values` (`n`, in [-1, 1] for the player to act).
    fn evaluate(
        &mut self,
        leaves: &Leaves,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), EvalError>;
}

/// Any `FnMut(leaves, logits, values)` is an evaluator (handy in tests).
impl<F> Evaluator for F
where
    F: FnMut(&Leaves, &mut [f32], &mut [f32]) -> Result<(), EvalError> + Send,
{
    fn evaluate(
        &mut self,
        leaves: &Leaves,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), EvalError> {
        self(leaves, logits, values)
    }
}

/// An evaluator shared by the sides of matches (one lock per batch).
pub type SharedEvaluator = Arc<Mutex<dyn Evaluator>>;

/// A shared handle to `e`.
pub fn shared(e: impl Evaluator + 'static) -> SharedEvaluator {
    Arc::new(Mutex::new(e))
}
