//! Many games stepped together. Buffers (B = number of envs, A = num_actions,
//! C = NUM_PLANES):
//!
//! ```text
//!   obs        (B, C, N, N) f32   observation of the state each env is in now
//!   legal_mask (B, A)       bool  legal next steps of that state
//!   rewards    (B,)         f32   to the player who acted in the last step
//!   terminated (B,)         bool  the last step ended the game by the rules
//!   truncated  (B,)         bool  the last step hit max_plies
//!   final_obs  (B, C, N, N) f32   where terminated|truncated: the observation
//!                                 of the final state (stale elsewhere)
//!   to_play    (B,)         u8    who acts next: 0 white, 1 black
//! ```
//!
//! An env that finishes is reset in the same `step` (auto-reset): `obs`,
//! `legal_mask` and `to_play` already show the new episode's first state,
//! while `final_obs`, `rewards`, `terminated`, `truncated` and
//! `episode_stats` tell how the old one ended. The legal mask is therefore
//! never all false (a single [`Env`] shows the all-false mask of a finished
//! episode instead).
//!
//! Steps run on the current rayon pool, over chunks of envs. Each env draws
//! from its own random stream (`Rng::stream(seed, index)`), so trajectories
//! depend on the seed only, not on the number of threads or the chunking.
//!
//! Writing is incremental: each env remembers what its `obs` row shows (the
//! bitboards of planes 0-5 and the two constants) and which mask entries it
//! set, clears only those cells, sets the new ones, and refills a constant
//! plane only when its value changes. The buffers are only handed out as
//! read-only views, so they hold exactly what was written. No step allocates
//! (move and action lists spill to the heap only in rare king-rich 10x10
//! positions, and keep that room afterwards).

use crate::action::{self, Tables};
use crate::env::{Env, EnvConfig, IllegalActionMode};
use crate::error::{EnvError, VecEnvError};
use crate::obs::{self, ObsBoard};
use ndarray::{Array1, Array2, Array4, ArrayView1, ArrayView2, ArrayView4};
use rafle_core::rng::Rng;
use rafle_core::{Color, EndReason, Variant};
use rayon::prelude::*;
use smallvec::SmallVec;

/// How one episode ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EpisodeStat {
    /// Index of the env.
    pub env: usize,
    /// Full moves (plies) played.
    pub length: u32,
    /// `None` for a draw or a truncation.
    pub winner: Option<Color>,
    /// Why the game ended; `None` when truncated.
    pub reason: Option<EndReason>,
    pub truncated: bool,
    /// Lost by an illegal action (mode `Lose`).
    pub illegal_action: bool,
}

impl EpisodeStat {
    fn of(index: usize, env: &Env) -> EpisodeStat {
        let o = env.outcome();
        EpisodeStat {
            env: index,
            length: env.ply(),
            winner: o.and_then(|o| o.winner),
            reason: o.map(|o| o.reason),
            truncated: env.is_truncated(),
            illegal_action: env.lost_by_illegal_action(),
        }
    }
}

/// One env and what it last wrote into the shared buffers.
#[derive(Clone, Debug)]
struct Slot {
    env: Env,
    rng: Rng,
    /// What its row of `obs` shows.
    obs: ObsBoard,
    mask: SmallVec<[u16; 64]>,
    /// How the last finished episode ended.
    last_episode: EpisodeStat,
}

/// Many games stepped together (rayon over chunks), writing into preallocated buffers.
#[derive(Debug)]
pub struct VecEnv {
    variant: Variant,
    num_actions: usize,
    obs_len: usize,
    illegal: IllegalActionMode,
    tables: &'static Tables,
    slots: Vec<Slot>,
    obs: Array4<f32>,
    final_obs: Array4<f32>,
    mask: Array2<bool>,
    rewards: Array1<f32>,
    terminated: Array1<bool>,
    truncated: Array1<bool>,
    to_play: Array1<u8>,
    stats: Vec<EpisodeStat>,
    /// The last output of `sample_legal_actions`, legal by construction while
    /// `sampled_fresh` (no step or reset since): `step` skips checking it.
    sampled: Vec<i64>,
    sampled_fresh: bool,
}

/// Envs per rayon task: a few tasks per thread so work stealing can balance.
fn chunk_len(num_envs: usize) -> usize {
    num_envs.div_ceil(4 * rayon::current_num_threads()).max(1)
}

impl VecEnv {
    /// `num_envs` games at the start position of `cfg`, seeded with `seed`.
    /// A start position that is already over is refused (`EpisodeOver`).
    pub fn new(v: Variant, num_envs: usize, seed: u64, cfg: EnvConfig) -> Result<VecEnv, EnvError> {
        let illegal = cfg.illegal;
        let env = Env::new(v, cfg)?;
        if env.is_done() {
            return Err(EnvError::EpisodeOver);
        }
        let n = v.board_size();
        let na = action::num_actions(v);
        let c = obs::NUM_PLANES;
        let slots = (0..num_envs)
            .map(|i| Slot {
                env: env.clone(),
                rng: Rng::stream(seed, i as u64),
                obs: ObsBoard::ZERO,
                mask: SmallVec::new(),
                last_episode: EpisodeStat::of(i, &env),
            })
            .collect();
        let mut ve = VecEnv {
            variant: v,
            num_actions: na,
            obs_len: obs::observation_len(v),
            illegal,
            tables: action::tables(v),
            slots,
            obs: Array4::zeros((num_envs, c, n, n)),
            final_obs: Array4::zeros((num_envs, c, n, n)),
            mask: Array2::from_elem((num_envs, na), false),
            rewards: Array1::zeros(num_envs),
            terminated: Array1::from_elem(num_envs, false),
            truncated: Array1::from_elem(num_envs, false),
            to_play: Array1::zeros(num_envs),
            stats: Vec::with_capacity(num_envs),
            sampled: vec![0; num_envs],
            sampled_fresh: false,
        };
        ve.reset(None);
        Ok(ve)
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn num_envs(&self) -> usize {
        self.slots.len()
    }

    pub fn num_actions(&self) -> usize {
        self.num_actions
    }

    pub fn observation_shape(&self) -> [usize; 3] {
        obs::observation_shape(self.variant)
    }

    pub fn illegal_action_mode(&self) -> IllegalActionMode {
        self.illegal
    }

    /// Resets every env (and, with `Some(seed)`, reseeds every random stream);
    /// fills `obs`, `legal_mask` and `to_play`, zeroes rewards and done flags.
    pub fn reset(&mut self, seed: Option<u64>) {
        let (t, nn, ol, na) = self.dims();
        let chunk = chunk_len(self.slots.len());
        let obs = self.obs.as_slice_mut().expect("standard layout");
        let mask = self.mask.as_slice_mut().expect("standard layout");
        let to_play = self.to_play.as_slice_mut().expect("standard layout");
        (
            self.slots.par_chunks_mut(chunk),
            obs.par_chunks_mut(chunk * ol),
            mask.par_chunks_mut(chunk * na),
            to_play.par_chunks_mut(chunk),
        )
            .into_par_iter()
            .enumerate()
            .for_each(|(c, (slots, obs, mask, to_play))| {
                for (j, s) in slots.iter_mut().enumerate() {
                    if let Some(seed) = seed {
                        s.rng = Rng::stream(seed, (c * chunk + j) as u64);
                    }
                    s.env.reset();
                    s.publish(
                        t,
                        nn,
                        &mut obs[j * ol..(j + 1) * ol],
                        &mut mask[j * na..(j + 1) * na],
                    );
                    to_play[j] = s.env.to_play().index() as u8;
                }
            });
        self.rewards.fill(0.0);
        self.terminated.fill(false);
        self.truncated.fill(false);
        self.stats.clear();
        self.sampled_fresh = false;
    }

    fn dims(&self) -> (&'static Tables, usize, usize, usize) {
        let n = self.variant.board_size();
        (self.tables, n * n, self.obs_len, self.num_actions)
    }

    /// Plays one step in every env (`actions[i]` for env `i`). Errors (wrong
    /// length, an id out of range, an illegal step in mode `Error`) leave every
    /// env unchanged and name the first env at fault. Finished envs auto-reset.
    pub fn step(&mut self, actions: &[i64]) -> Result<(), VecEnvError> {
        let num_envs = self.slots.len();
        if actions.len() != num_envs {
            return Err(VecEnvError {
                index: 0,
                error: EnvError::BadShape {
                    expected: num_envs,
                    got: actions.len(),
                },
            });
        }
        let known_legal = self.sampled_fresh && actions == self.sampled.as_slice();
        let bad = (!known_legal)
            .then(|| {
                actions
                    .par_iter()
                    .zip(self.slots.par_iter())
                    .enumerate()
                    .find_map_first(|(i, (&a, s))| {
                        s.env
                            .check_action(a)
                            .err()
                            .map(|error| VecEnvError { index: i, error })
                    })
            })
            .flatten();
        if let Some(e) = bad {
            return Err(e);
        }

        let (t, nn, ol, na) = self.dims();
        let chunk = chunk_len(num_envs);
        (
            self.slots.par_chunks_mut(chunk),
            actions.par_chunks(chunk),
            self.obs
                .as_slice_mut()
                .expect("standard layout")
                .par_chunks_mut(chunk * ol),
            self.final_obs
                .as_slice_mut()
                .expect("standard layout")
                .par_chunks_mut(chunk * ol),
            self.mask
                .as_slice_mut()
                .expect("standard layout")
                .par_chunks_mut(chunk * na),
            self.rewards
                .as_slice_mut()
                .expect("standard layout")
                .par_chunks_mut(chunk),
            self.terminated
                .as_slice_mut()
                .expect("standard layout")
                .par_chunks_mut(chunk),
            self.truncated
                .as_slice_mut()
                .expect("standard layout")
                .par_chunks_mut(chunk),
            self.to_play
                .as_slice_mut()
                .expect("standard layout")
                .par_chunks_mut(chunk),
        )
            .into_par_iter()
            .enumerate()
            .for_each(
                |(c, (slots, acts, obs, fin, mask, rew, term, trunc, to_play))| {
                    for (j, s) in slots.iter_mut().enumerate() {
                        // Checked above, so this cannot fail; a failure would leave
                        // the env as it was and report nothing.
                        let info = s.env.step(acts[j] as usize).unwrap_or_default();
                        rew[j] = info.reward;
                        term[j] = info.terminated;
                        trunc[j] = info.truncated;
                        let row = j * ol..(j + 1) * ol;
                        if info.terminated || info.truncated {
                            s.env.obs_board().write(t, nn, &mut fin[row.clone()]);
                            s.last_episode = EpisodeStat::of(c * chunk + j, &s.env);
                            s.env.reset();
                        }
                        s.publish(t, nn, &mut obs[row], &mut mask[j * na..(j + 1) * na]);
                        to_play[j] = s.env.to_play().index() as u8;
                    }
                },
            );

        self.sampled_fresh = false;
        // Only the envs that finished are touched here.
        self.stats.clear();
        for (i, (&te, &tr)) in self
            .terminated
            .iter()
            .zip(self.truncated.iter())
            .enumerate()
        {
            if te || tr {
                self.stats.push(self.slots[i].last_episode);
            }
        }
        Ok(())
    }

    /// Writes one uniformly drawn legal step id per env into `out`, from each
    /// env's own random stream. A `step` with exactly these actions (before
    /// any other step or reset) skips the legality check.
    ///
    /// # Panics
    /// If `out.len() != num_envs`.
    pub fn sample_legal_actions(&mut self, out: &mut [i64]) {
        assert_eq!(out.len(), self.slots.len(), "actions buffer length");
        let chunk = chunk_len(self.slots.len());
        self.slots
            .par_chunks_mut(chunk)
            .zip(out.par_chunks_mut(chunk))
            .for_each(|(slots, out)| {
                for (s, o) in slots.iter_mut().zip(out) {
                    let ids = s.env.legal_action_ids();
                    *o = match ids.len() {
                        0 => -1,
                        n => ids[s.rng.below(n)] as i64,
                    };
                }
            });
        self.sampled.copy_from_slice(out);
        self.sampled_fresh = true;
    }

    /// (B, C, N, N) observations of the current states.
    pub fn obs(&self) -> ArrayView4<'_, f32> {
        self.obs.view()
    }

    /// (B, A) legal next steps of the current states.
    pub fn legal_mask(&self) -> ArrayView2<'_, bool> {
        self.mask.view()
    }

    /// (B,) reward of the last step to the player who acted in it.
    pub fn rewards(&self) -> ArrayView1<'_, f32> {
        self.rewards.view()
    }

    pub fn terminated(&self) -> ArrayView1<'_, bool> {
        self.terminated.view()
    }

    pub fn truncated(&self) -> ArrayView1<'_, bool> {
        self.truncated.view()
    }

    /// (B, C, N, N) observations at episode end, valid where the last step
    /// terminated or truncated the env (in the frame of the player to move
    /// in the final state).
    pub fn final_obs(&self) -> ArrayView4<'_, f32> {
        self.final_obs.view()
    }

    /// (B,) who acts next: 0 white, 1 black.
    pub fn to_play(&self) -> ArrayView1<'_, u8> {
        self.to_play.view()
    }

    /// The episodes that finished in the last step, by env index.
    pub fn episode_stats(&self) -> &[EpisodeStat] {
        &self.stats
    }

    /// Env `i` (panics if out of range, like slice indexing).
    pub fn env(&self, i: usize) -> &Env {
        &self.slots[i].env
    }
}

impl Slot {
    /// Writes this env's observation and mask over what it wrote last time.
    #[inline]
    fn publish(&mut self, t: &Tables, nn: usize, obs: &mut [f32], mask: &mut [bool]) {
        let board = self.env.obs_board();
        board.write_over(t, nn, obs, &self.obs);
        self.obs = board;
        for &a in &self.mask {
            mask[a as usize] = false;
        }
        self.mask.clear();
        for &a in self.env.legal_action_ids() {
            mask[a as usize] = true;
            self.mask.push(a);
        }
    }
}
