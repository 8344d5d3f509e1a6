//! The lockstep driver: many clients (self-play games, arena games, root
//! searches) share the evaluators. One round:
//!
//! ```text
//! 1. every client works until it needs leaves      (rayon over clients)
//!    and writes them into its slot: up to L leaves, L = max leaves per client
//! 2. per evaluator: its clients' leaves packed     -> ONE evaluate() call
//! 3. every client gets its answers back            (rayon over clients)
//! ```
//!
//! The batch an evaluator sees is the sum of its clients' leaves: one per
//! client with `leaves_per_round = 1`, more when searches gather several
//! leaves per round (see [`super::search`]).

use std::time::Instant;

use rafle_core::Variant;
use rafle_env::Env;
use rayon::prelude::*;

use super::{EvalError, Evaluator, LeafSlots, Leaves};

/// What a client wants evaluated this round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// Index into the round's evaluators.
    pub evaluator: usize,
    /// Leaves written (0: nothing this round).
    pub leaves: usize,
}

/// One participant of the lockstep rounds.
pub trait Client: Send {
    /// Works until leaves are needed and writes them into `out` (room for
    /// the driver's leaves per client); says for which evaluator.
    fn advance(&mut self, out: &mut LeafSlots) -> Request;
    /// The answers for the leaves of the last request.
    fn receive(&mut self, logits: &[f32], values: &[f32]);
    /// Drops the leaves of the last request (their evaluation failed).
    fn abandon(&mut self);
}

/// Calls, leaves and time of one evaluator.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EvalStats {
    pub calls: u64,
    pub evals: u64,
    pub seconds: f64,
}

impl EvalStats {
    pub fn avg_batch(&self) -> f64 {
        self.evals as f64 / self.calls.max(1) as f64
    }

    pub fn evals_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.evals as f64 / self.seconds
        } else {
            0.0
        }
    }

    pub fn add(&mut self, o: &EvalStats) {
        self.calls += o.calls;
        self.evals += o.evals;
        self.seconds += o.seconds;
    }
}

/// The buffers and counters of the rounds.
#[derive(Debug)]
pub struct Lockstep {
    obs_len: usize,
    actions: usize,
    max_leaves: usize,
    slot_obs: Vec<f32>,
    slot_mask: Vec<bool>,
    batch_obs: Vec<f32>,
    batch_mask: Vec<bool>,
    logits: Vec<f32>,
    values: Vec<f32>,
    /// Per client: its evaluator and first row in that evaluator's batch.
    rows: Vec<(Request, usize)>,
    /// Per evaluator index.
    pub stats: Vec<EvalStats>,
    /// Seconds in client work (steps 1 and 3).
    pub client_seconds: f64,
    pub rounds: u64,
    /// Clients that asked for leaves in the last round.
    active: usize,
}

/// Rounds with fewer waiting clients than this do their client work on the
/// calling thread: waking rayon's threads for a few searches costs more than
/// it gives, and their spinning slows the next forward pass (the tail of a
/// match, where a few long games remain).
const PARALLEL_CLIENTS: usize = 8;

impl Lockstep {
    /// A driver for clients of `variant` writing at most `max_leaves` each.
    pub fn new(variant: Variant, max_leaves: usize) -> Lockstep {
        let env = Env::of(variant);
        Lockstep {
            obs_len: env.observation_len(),
            actions: env.num_actions(),
            max_leaves: max_leaves.max(1),
            slot_obs: Vec::new(),
            slot_mask: Vec::new(),
            batch_obs: Vec::new(),
            batch_mask: Vec::new(),
            logits: Vec::new(),
            values: Vec::new(),
            rows: Vec::new(),
            stats: Vec::new(),
            client_seconds: 0.0,
            rounds: 0,
            active: usize::MAX,
        }
    }

    /// One round over `clients`; returns the leaves evaluated (0: every
    /// client is idle). On an evaluator error every client drops its
    /// leaves, so the clients can go on in a later round.
    pub fn round<C: Client>(
        &mut self,
        clients: &mut [C],
        evaluators: &mut [&mut dyn Evaluator],
    ) -> Result<usize, EvalError> {
        let t0 = Instant::now();
        let (len, na, l) = (self.obs_len, self.actions, self.max_leaves);
        self.slot_obs.resize(clients.len() * l * len, 0.0);
        self.slot_mask.resize(clients.len() * l * na, false);
        let advance = |((c, obs), mask): ((&mut C, &mut [f32]), &mut [bool])| {
            c.advance(&mut LeafSlots { obs, mask })
        };
        let requests: Vec<Request> = if self.active >= PARALLEL_CLIENTS {
            clients
                .par_iter_mut()
                .zip(self.slot_obs.par_chunks_mut(l * len))
                .zip(self.slot_mask.par_chunks_mut(l * na))
                .map(advance)
                .collect()
        } else {
            clients
                .iter_mut()
                .zip(self.slot_obs.chunks_mut(l * len))
                .zip(self.slot_mask.chunks_mut(l * na))
                .map(advance)
                .collect()
        };
        self.active = requests.iter().filter(|r| r.leaves > 0).count();
        self.client_seconds += t0.elapsed().as_secs_f64();
        if self.stats.len() < evaluators.len() {
            self.stats.resize(evaluators.len(), EvalStats::default());
        }
        self.rows.clear();
        self.rows.extend(requests.iter().map(|&r| (r, usize::MAX)));
        let mut total = 0;
        let mut outputs: Vec<(Vec<f32>, Vec<f32>)> = Vec::with_capacity(evaluators.len());
        for (e, evaluator) in evaluators.iter_mut().enumerate() {
            self.batch_obs.clear();
            self.batch_mask.clear();
            let mut n = 0;
            for (i, (r, row)) in self.rows.iter_mut().enumerate() {
                if r.evaluator == e && r.leaves > 0 {
                    *row = n;
                    let (o, m) = (i * l * len, i * l * na);
                    self.batch_obs
                        .extend_from_slice(&self.slot_obs[o..o + r.leaves * len]);
                    self.batch_mask
                        .extend_from_slice(&self.slot_mask[m..m + r.leaves * na]);
                    n += r.leaves;
                }
            }
            let mut logits = std::mem::take(&mut self.logits);
            let mut values = std::mem::take(&mut self.values);
            if n > 0 {
                logits.resize(n * na, 0.0);
                values.resize(n, 0.0);
                let leaves = Leaves {
                    obs: &self.batch_obs,
                    mask: &self.batch_mask,
                    n,
                };
                let t = Instant::now();
                let result = evaluator.evaluate(&leaves, &mut logits, &mut values);
                let s = &mut self.stats[e];
                s.seconds += t.elapsed().as_secs_f64();
                if let Err(err) = result {
                    clients.par_iter_mut().for_each(|c| c.abandon());
                    return Err(err);
                }
                s.calls += 1;
                s.evals += n as u64;
                total += n;
            }
            outputs.push((logits, values));
        }
        let t1 = Instant::now();
        let rows = &self.rows;
        let receive = |(i, c): (usize, &mut C)| {
            let (r, row) = rows[i];
            if r.leaves > 0 {
                if let Some((logits, values)) = outputs.get(r.evaluator) {
                    c.receive(
                        &logits[row * na..(row + r.leaves) * na],
                        &values[row..row + r.leaves],
                    );
                }
            }
        };
        if self.active >= PARALLEL_CLIENTS {
            clients.par_iter_mut().enumerate().for_each(receive);
        } else {
            clients.iter_mut().enumerate().for_each(receive);
        }
        // Keep the first evaluator's buffers for the next round.
        if let Some((logits, values)) = outputs.into_iter().next() {
            self.logits = logits;
            self.values = values;
        }
        self.client_seconds += t1.elapsed().as_secs_f64();
        self.rounds += 1;
        Ok(total)
    }
}

impl Client for super::Search {
    fn advance(&mut self, out: &mut LeafSlots) -> Request {
        Request {
            evaluator: 0,
            leaves: super::Search::advance(self, out),
        }
    }

    fn receive(&mut self, logits: &[f32], values: &[f32]) {
        super::Search::receive(self, logits, values);
    }

    fn abandon(&mut self) {
        super::Search::abandon(self);
    }
}

/// Runs `searches` (of `variant`) to the end in lockstep with one
/// evaluator; returns their outcomes and the evaluator's counters.
/// `stop` is checked every round.
pub fn run_searches(
    variant: Variant,
    searches: &mut [super::Search],
    evaluator: &mut dyn Evaluator,
    stop: Option<&std::sync::atomic::AtomicBool>,
) -> Result<(Vec<super::SearchOutcome>, EvalStats), EvalError> {
    let max = searches.iter().map(|s| s.max_leaves()).max().unwrap_or(1);
    let mut driver = Lockstep::new(variant, max);
    loop {
        if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed)) {
            return Err(EvalError::Interrupted);
        }
        if driver.round(searches, &mut [&mut *evaluator])? == 0 {
            break;
        }
    }
    let outcomes = searches.iter_mut().map(|s| s.result()).collect();
    Ok((outcomes, driver.stats.first().copied().unwrap_or_default()))
}
