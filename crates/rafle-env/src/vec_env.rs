//! Many games stepped together. Outputs (B = number of envs, A = num_actions,
//! C = NUM_PLANES):
//!
//! ```text
//!   obs        (B, C, N, N) f32   observation of the state each env is in now
//!   legal_mask (B, A)       bool  legal next steps of that state
//!   rewards    (B,)         f32   to the player who acted in the last step
//!   terminated (B,)         bool  the last step ended the game by the rules
//!   truncated  (B,)         bool  the last step hit max_plies
//!   final_obs  (B, C, N, N) f32   SameStep mode, where terminated|truncated:
//!                                 the observation of the final state (stale elsewhere)
//!   to_play    (B,)         u8    who acts next: 0 white, 1 black
//! ```
//!
//! What happens after a game ends is the [`AutoresetMode`]. In `SameStep`
//! (the default of [`VecEnv::new`]) the env is reset in the step that ends
//! it: `obs`, `legal_mask` and `to_play` already show the new episode's
//! first state, while `final_obs`, `rewards`, `terminated`, `truncated` and
//! `episode_stats` tell how the old one ended. In `NextStep` and `Disabled`
//! the outputs show the final state (mask all false; `to_play` the side to
//! move in it) until the next step or an explicit reset.
//!
//! Steps run on the current rayon pool, over chunks of envs. Each env draws
//! from its own random stream (`Rng::stream(seed, index)`), so trajectories
//! depend on the seed only, not on the number of threads or the chunking.
//!
//! Writing is incremental: each env remembers what its `obs` row shows (the
//! bitboards of planes 0-5 and the two constants) and which mask entries it
//! set, clears only those cells, sets the new ones, and refills a constant
//! plane only when its value changes. So a [`Batch`] must be given the same
//! output arrays at every call, unchanged since it last wrote them; a
//! [`VecEnv`] owns its arrays and hands them out read-only. No step allocates
//! (move and action lists spill to the heap only in rare king-rich 10x10
//! positions, and an env's step record grows only past its longest episode
//! so far; both keep that room afterwards).

use crate::action::{self, Tables};
use crate::autoreset::AutoresetMode;
use crate::env::{Env, EnvConfig, IllegalActionMode, StepInfo};
use crate::error::{EnvError, VecEnvError};
use crate::obs::{self, ObsBoard};
use crate::replay::replay;
use crate::snapshot::{EnvSnapshot, Snapshot};
use ndarray::{Array1, Array2, Array4, ArrayView1, ArrayView2, ArrayView4};
use rafle_core::rng::Rng;
use rafle_core::{notation, BitWord, Bitboard, Color, EndReason, Game, Rules, Variant, MAX_JUMPS};
use rayon::prelude::*;
use smallvec::SmallVec;
use std::ops::Deref;

/// How one episode ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EpisodeStat {
    /// Index of the env.
    pub env: usize,
    /// Plies (full moves by either side; a multi-capture counts once) played.
    pub length: u32,
    /// `None` for a draw or a truncation.
    pub winner: Option<Color>,
    /// Why the game ended: `MaxPlies` when truncated, `IllegalMove` when
    /// lost by an illegal action (mode `Lose`).
    pub reason: EndReason,
}

impl EpisodeStat {
    fn of(index: usize, env: &Env) -> EpisodeStat {
        let o = env.outcome();
        EpisodeStat {
            env: index,
            length: env.ply(),
            winner: o.and_then(|o| o.winner),
            reason: o.map_or(EndReason::MaxPlies, |o| o.reason),
        }
    }
}

/// The arrays a [`Batch`] writes, row `i` for env `i`, in standard layout
/// (lengths: B times the row lengths of the table above).
#[derive(Debug)]
pub struct Outputs<'a> {
    pub obs: &'a mut [f32],
    pub final_obs: &'a mut [f32],
    pub mask: &'a mut [bool],
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
    pub truncated: &'a mut [bool],
    pub to_play: &'a mut [u8],
}

/// One env and what it last wrote into the outputs. In declared order
/// (`repr(C)`): what every step reads and writes first, then the env (whose
/// own hot fields lead), then what only 12x12 boards and finished episodes
/// touch, so that a step touches few cache lines of its slot.
#[derive(Clone, Debug)]
#[repr(C)]
struct Slot {
    /// Finished in the last step; resets at the next (NextStep).
    reset_next: bool,
    rng: Rng,
    /// The steps of the current episode (see `replay`).
    steps: Vec<u16>,
    /// What its row of `obs` shows: the low 64 bits of each plane here ...
    obs: ObsBoard<u64>,
    mask: SmallVec<[u16; 64]>,
    env: Env,
    /// ... and the high ones here (boards of more than 64 bits only).
    obs_high: [u64; 6],
    /// How the last finished episode ended.
    last_episode: EpisodeStat,
}

/// Room reserved in each env's step record: most games fit.
const STEPS_RESERVED: usize = 256;

/// An error, not the allocator's abort, for a batch whose buffers (its
/// games and a caller's arrays of observations and masks, twice over)
/// cannot be had: asked of the allocator up front, and given back.
fn check_memory(v: Variant, num_envs: usize) -> Result<(), EnvError> {
    let per_env = std::mem::size_of::<Slot>()
        + STEPS_RESERVED * std::mem::size_of::<u16>()
        + 2 * (2 * obs::observation_len(v) * 4 + action::num_actions(v));
    let bytes = per_env.checked_mul(num_envs);
    let too_large = EnvError::TooLarge { num_envs, bytes };
    let mut probe: Vec<u8> = Vec::new();
    probe
        .try_reserve_exact(bytes.ok_or(too_large.clone())?)
        .map_err(|_| too_large)
}

/// Many games stepped together (rayon over chunks), writing into output
/// arrays that the caller keeps (see the module doc: the same arrays at
/// every call). [`VecEnv`] is a Batch with its own arrays.
#[derive(Clone, Debug)]
pub struct Batch {
    variant: Variant,
    num_actions: usize,
    obs_len: usize,
    illegal: IllegalActionMode,
    autoreset: AutoresetMode,
    tables: &'static Tables,
    slots: Vec<Slot>,
    stats: Vec<EpisodeStat>,
    /// The last output of `sample_legal_actions`, legal by construction while
    /// `sampled_fresh` (no step or reset since, and every env had a legal
    /// action or was due to reset): `step` skips checking it.
    sampled: Vec<i64>,
    sampled_fresh: bool,
}

/// Envs per rayon task: a few tasks per thread so work stealing can balance.
fn chunk_len(num_envs: usize) -> usize {
    num_envs.div_ceil(4 * rayon::current_num_threads()).max(1)
}

impl Batch {
    /// `num_envs` games at the start position of `cfg`, seeded with `seed`;
    /// nothing is written until [`Batch::write_outputs`] or a reset. A start
    /// position that is already over is refused (`EpisodeOver`).
    pub fn new(
        v: Variant,
        num_envs: usize,
        seed: u64,
        cfg: EnvConfig,
        autoreset: AutoresetMode,
    ) -> Result<Batch, EnvError> {
        let illegal = cfg.illegal;
        check_memory(v, num_envs)?;
        let env = Env::new(v, cfg)?;
        if env.is_done() {
            return Err(EnvError::EpisodeOver);
        }
        let slots = (0..num_envs)
            .map(|i| Slot {
                env: env.clone(),
                rng: Rng::stream(seed, i as u64),
                obs: ObsBoard::ZERO,
                obs_high: [0; 6],
                mask: SmallVec::new(),
                steps: Vec::with_capacity(STEPS_RESERVED),
                reset_next: false,
                last_episode: EpisodeStat::of(i, &env),
            })
            .collect();
        Ok(Batch {
            variant: v,
            num_actions: action::num_actions(v),
            obs_len: obs::observation_len(v),
            illegal,
            autoreset,
            tables: action::tables(v),
            slots,
            stats: Vec::with_capacity(num_envs),
            sampled: vec![0; num_envs],
            sampled_fresh: false,
        })
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

    pub fn autoreset_mode(&self) -> AutoresetMode {
        self.autoreset
    }

    fn dims(&self) -> (&'static Tables, usize, usize, usize) {
        let n = self.variant.board_size();
        (self.tables, n * n, self.obs_len, self.num_actions)
    }

    /// `BadShape` unless every output has the length of B rows.
    fn check_outputs(&self, out: &Outputs<'_>) -> Result<(), EnvError> {
        let b = self.slots.len();
        let (_, _, ol, na) = self.dims();
        let lens = [
            (out.obs.len(), b * ol),
            (out.final_obs.len(), b * ol),
            (out.mask.len(), b * na),
            (out.rewards.len(), b),
            (out.terminated.len(), b),
            (out.truncated.len(), b),
            (out.to_play.len(), b),
        ];
        match lens.iter().find(|(got, expected)| got != expected) {
            Some(&(got, expected)) => Err(EnvError::BadShape { expected, got }),
            None => Ok(()),
        }
    }

    /// Writes every env's current observation, mask and player to act, and
    /// zeroes rewards and done flags (after `new` or `restore`).
    pub fn write_outputs(&mut self, out: &mut Outputs<'_>) -> Result<(), EnvError> {
        self.reset_where(None, None, false, out)
    }

    /// Resets the envs where `only` is true (all when `None`); with `seeds`
    /// (one per env) each of them draws from `Rng::stream(seeds[i], i)`
    /// from now on. Their rows of the outputs show the new games, with
    /// rewards and done flags zeroed; other rows are untouched.
    pub fn reset(
        &mut self,
        seeds: Option<&[u64]>,
        only: Option<&[bool]>,
        out: &mut Outputs<'_>,
    ) -> Result<(), EnvError> {
        self.reset_where(seeds, only, true, out)
    }

    fn reset_where(
        &mut self,
        seeds: Option<&[u64]>,
        only: Option<&[bool]>,
        reset_envs: bool,
        out: &mut Outputs<'_>,
    ) -> Result<(), EnvError> {
        self.check_outputs(out)?;
        let b = self.slots.len();
        for len in [seeds.map(|s| s.len()), only.map(|o| o.len())]
            .into_iter()
            .flatten()
        {
            if len != b {
                return Err(EnvError::BadShape {
                    expected: b,
                    got: len,
                });
            }
        }
        let (t, nn, ol, na) = self.dims();
        let chunk = chunk_len(b);
        (
            self.slots.par_chunks_mut(chunk),
            out.obs.par_chunks_mut(chunk * ol),
            out.mask.par_chunks_mut(chunk * na),
            out.rewards.par_chunks_mut(chunk),
            out.terminated.par_chunks_mut(chunk),
            out.truncated.par_chunks_mut(chunk),
            out.to_play.par_chunks_mut(chunk),
        )
            .into_par_iter()
            .enumerate()
            .for_each(|(c, (slots, obs, mask, rew, term, trunc, to_play))| {
                for (j, s) in slots.iter_mut().enumerate() {
                    let i = c * chunk + j;
                    if only.is_some_and(|o| !o[i]) {
                        continue;
                    }
                    if let Some(seeds) = seeds {
                        s.rng = Rng::stream(seeds[i], i as u64);
                    }
                    if reset_envs {
                        s.restart();
                    }
                    s.publish(
                        t,
                        nn,
                        &mut obs[j * ol..(j + 1) * ol],
                        &mut mask[j * na..(j + 1) * na],
                    );
                    (rew[j], term[j], trunc[j]) = (0.0, false, false);
                    to_play[j] = s.env.to_play().index() as u8;
                }
            });
        self.stats.clear();
        self.sampled_fresh = false;
        Ok(())
    }

    /// Plays one step in every env (`actions[i]` for env `i`; ignored for an
    /// env that resets in this step, see [`AutoresetMode::NextStep`]).
    /// Errors (wrong length, an id out of range, an illegal step in mode
    /// `Error`, a finished env in mode `Disabled`) leave every env unchanged
    /// and name the first env at fault.
    pub fn step(&mut self, actions: &[i64], out: &mut Outputs<'_>) -> Result<(), VecEnvError> {
        let whole = |error| VecEnvError { index: 0, error };
        self.check_outputs(out).map_err(whole)?;
        let num_envs = self.slots.len();
        if actions.len() != num_envs {
            return Err(whole(EnvError::BadShape {
                expected: num_envs,
                got: actions.len(),
            }));
        }
        let known_legal = self.sampled_fresh && actions == self.sampled.as_slice();
        let bad = (!known_legal)
            .then(|| {
                actions
                    .par_iter()
                    .zip(self.slots.par_iter())
                    .enumerate()
                    .find_map_first(|(i, (&a, s))| {
                        let checked = if s.reset_next {
                            Ok(())
                        } else {
                            s.env.check_action(a)
                        };
                        checked.err().map(|error| VecEnvError { index: i, error })
                    })
            })
            .flatten();
        if let Some(e) = bad {
            return Err(e);
        }

        let (t, nn, ol, na) = self.dims();
        let autoreset = self.autoreset;
        let variant = self.variant;
        let chunk = chunk_len(num_envs);
        (
            self.slots.par_chunks_mut(chunk),
            actions.par_chunks(chunk),
            out.obs.par_chunks_mut(chunk * ol),
            out.final_obs.par_chunks_mut(chunk * ol),
            out.mask.par_chunks_mut(chunk * na),
            out.rewards.par_chunks_mut(chunk),
            out.terminated.par_chunks_mut(chunk),
            out.truncated.par_chunks_mut(chunk),
            out.to_play.par_chunks_mut(chunk),
        )
            .into_par_iter()
            .enumerate()
            .for_each(
                |(c, (slots, acts, obs, fin, mask, rew, term, trunc, to_play))| {
                    let rows = Outputs {
                        obs,
                        final_obs: fin,
                        mask,
                        rewards: rew,
                        terminated: term,
                        truncated: trunc,
                        to_play,
                    };
                    let rows = Rows {
                        first: c * chunk,
                        tables: t,
                        dims: (nn, ol, na),
                        autoreset,
                        out: rows,
                    };
                    rafle_core::with_rules!(variant, R => rows.step::<R>(slots, acts));
                },
            );

        self.sampled_fresh = false;
        // Only the envs that finished are touched here.
        self.stats.clear();
        for (i, (&te, &tr)) in out.terminated.iter().zip(out.truncated.iter()).enumerate() {
            if te || tr {
                self.stats.push(self.slots[i].last_episode);
            }
        }
        Ok(())
    }

    /// Writes one uniformly drawn legal step id per env into `out`, from each
    /// env's own random stream (-1 where the env has none: it is finished).
    /// A `step` with exactly these actions (before any other step or reset)
    /// skips the legality check when every env had one or resets anyway.
    ///
    /// # Panics
    /// If `out.len() != num_envs`.
    pub fn sample_legal_actions(&mut self, out: &mut [i64]) {
        assert_eq!(out.len(), self.slots.len(), "actions buffer length");
        let chunk = chunk_len(self.slots.len());
        let all_playable = self
            .slots
            .par_chunks_mut(chunk)
            .zip(out.par_chunks_mut(chunk))
            .map(|(slots, out)| {
                let mut playable = true;
                for (s, o) in slots.iter_mut().zip(out) {
                    let ids = s.env.legal_action_ids();
                    *o = match ids.len() {
                        0 => {
                            playable &= s.reset_next;
                            -1
                        }
                        n => ids[s.rng.below(n)] as i64,
                    };
                }
                playable
            })
            .reduce(|| true, |a, b| a && b);
        self.sampled.copy_from_slice(out);
        self.sampled_fresh = all_playable;
    }

    /// The episodes that finished in the last step, by env index.
    pub fn episode_stats(&self) -> &[EpisodeStat] {
        &self.stats
    }

    /// Env `i` (panics if out of range, like slice indexing).
    pub fn env(&self, i: usize) -> &Env {
        &self.slots[i].env
    }

    /// Env `i`'s observation in the frame of `viewer` (the player to act
    /// sees what `obs` shows; the other player the same state from its side).
    pub fn write_obs_seen_by(&self, i: usize, viewer: Color, out: &mut [f32]) {
        let (t, nn, ol, _) = self.dims();
        assert_eq!(out.len(), ol, "observation buffer length");
        self.slots[i]
            .env
            .obs_board()
            .seen_by(viewer)
            .write(t, nn, out);
    }

    /// Env `i`'s episode as a game of full moves from its start position (a
    /// capture under way is not in it: the game shows the board before it).
    pub fn game(&self, i: usize) -> Result<Game, EnvError> {
        let s = &self.slots[i];
        let mut env = s.env.clone();
        env.reset();
        let mut game = Game::from_position(self.variant, *env.position());
        for m in replay(&mut env, &s.steps)? {
            game.play(&m).map_err(EnvError::Move)?;
        }
        Ok(game)
    }

    /// The step actions of the full move `text` (path notation) in env `i`,
    /// which must be at the start of a turn.
    pub fn move_actions(
        &self,
        i: usize,
        text: &str,
    ) -> Result<SmallVec<[u16; MAX_JUMPS]>, EnvError> {
        let env = &self.slots[i].env;
        if env.is_done() {
            return Err(EnvError::EpisodeOver);
        }
        if env.chain_pending() {
            return Err(EnvError::ChainPending);
        }
        let m = notation::parse_move(self.variant, env.position(), env.legal_moves(), text)
            .map_err(EnvError::Move)?;
        Ok(env.actions_of(&m))
    }

    /// Everything needed to rebuild this batch's games exactly (with
    /// [`Batch::restore`] on a batch made with the same arguments).
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            envs: self
                .slots
                .iter()
                .map(|s| EnvSnapshot {
                    rng: s.rng.state(),
                    steps: s.steps.clone(),
                    reset_next: s.reset_next,
                })
                .collect(),
        }
    }

    /// Puts the games of `snap` in place by replaying their steps; on an
    /// error nothing changes. Call [`Batch::write_outputs`] next.
    pub fn restore(&mut self, snap: &Snapshot) -> Result<(), EnvError> {
        if snap.envs.len() != self.slots.len() {
            return Err(EnvError::BadSnapshot("another number of envs"));
        }
        let mut slots = self.slots.clone();
        for (s, e) in slots.iter_mut().zip(&snap.envs) {
            s.rng = Rng::from_state(e.rng).ok_or(EnvError::BadSnapshot("zero random state"))?;
            s.env.reset();
            replay(&mut s.env, &e.steps)?;
            s.steps.clone_from(&e.steps);
            if e.reset_next && !(s.env.is_done() && self.autoreset == AutoresetMode::NextStep) {
                return Err(EnvError::BadSnapshot("reset flag on an env that goes on"));
            }
            if s.env.is_done() && self.autoreset == AutoresetMode::SameStep {
                return Err(EnvError::BadSnapshot("a finished env in SameStep mode"));
            }
            s.reset_next = e.reset_next;
        }
        self.slots = slots;
        self.stats.clear();
        self.sampled_fresh = false;
        Ok(())
    }
}

/// One rayon task's rows of the outputs, from env `first` on.
struct Rows<'a> {
    first: usize,
    tables: &'static Tables,
    /// Cells of a plane, observation length, number of actions.
    dims: (usize, usize, usize),
    autoreset: AutoresetMode,
    out: Outputs<'a>,
}

impl Rows<'_> {
    /// Steps `slots` (this task's envs) with `acts` under the rules `R` of
    /// the batch, and writes their rows (the actions were checked before).
    fn step<R: Rules>(self, slots: &mut [Slot], acts: &[i64]) {
        let Rows {
            first,
            tables: t,
            dims: (nn, ol, na),
            autoreset,
            out,
        } = self;
        for (j, s) in slots.iter_mut().enumerate() {
            let row = j * ol..(j + 1) * ol;
            let (r, te, tr) = if s.reset_next {
                s.restart();
                (0.0, false, false)
            } else {
                // Checked by the caller, so this cannot fail; a failure
                // would leave the env as it was and report nothing.
                let info = match s.env.step_in::<R>(acts[j] as usize) {
                    Ok(info) => {
                        s.steps.push(acts[j] as u16);
                        info
                    }
                    Err(_) => StepInfo::default(),
                };
                if info.terminated || info.truncated {
                    s.last_episode = EpisodeStat::of(first + j, &s.env);
                    match autoreset {
                        AutoresetMode::SameStep => {
                            s.env
                                .obs_board_in::<R>()
                                .write(t, nn, &mut out.final_obs[row.clone()]);
                            s.restart();
                        }
                        AutoresetMode::NextStep => s.reset_next = true,
                        AutoresetMode::Disabled => {}
                    }
                }
                (info.reward, info.terminated, info.truncated)
            };
            (out.rewards[j], out.terminated[j], out.truncated[j]) = (r, te, tr);
            s.publish_in::<R>(
                t,
                nn,
                &mut out.obs[row],
                &mut out.mask[j * na..(j + 1) * na],
            );
            out.to_play[j] = s.env.to_play().index() as u8;
        }
    }
}

impl Slot {
    /// A new episode (the random stream goes on).
    fn restart(&mut self) {
        self.env.reset();
        self.steps.clear();
        self.reset_next = false;
    }

    /// Writes this env's observation and mask over what it wrote last time.
    #[inline]
    fn publish(&mut self, t: &Tables, nn: usize, obs: &mut [f32], mask: &mut [bool]) {
        rafle_core::with_rules!(self.env.variant(), R => self.publish_in::<R>(t, nn, obs, mask));
    }

    /// [`Slot::publish`] under the env's rules `R`, in its own word.
    #[inline]
    fn publish_in<R: Rules>(&mut self, t: &Tables, nn: usize, obs: &mut [f32], mask: &mut [bool]) {
        let board = self.env.obs_board_in::<R>();
        let mut prev: ObsBoard<R::Word> = self.obs.narrow();
        if R::Word::BITS > 64 {
            for (p, &high) in prev.planes.iter_mut().zip(&self.obs_high) {
                *p = R::Word::narrow(p.widen() | Bitboard::from(high) << 64);
            }
        }
        board.write_over(t, nn, obs, &prev);
        self.obs = board.narrow();
        if R::Word::BITS > 64 {
            self.obs_high = board.planes.map(|p| (p.widen() >> 64) as u64);
        }
        for &a in &self.mask {
            mask[a as usize] = false;
        }
        let ids = self.env.legal_action_ids();
        for &a in ids {
            mask[a as usize] = true;
        }
        self.mask.clear();
        self.mask.extend_from_slice(ids);
    }
}

/// The output arrays of a [`VecEnv`].
#[derive(Clone, Debug)]
struct Buffers {
    obs: Array4<f32>,
    final_obs: Array4<f32>,
    mask: Array2<bool>,
    rewards: Array1<f32>,
    terminated: Array1<bool>,
    truncated: Array1<bool>,
    to_play: Array1<u8>,
}

impl Buffers {
    fn zeros(v: Variant, b: usize) -> Buffers {
        let n = v.board_size();
        let (c, na) = (obs::NUM_PLANES, action::num_actions(v));
        Buffers {
            obs: Array4::zeros((b, c, n, n)),
            final_obs: Array4::zeros((b, c, n, n)),
            mask: Array2::from_elem((b, na), false),
            rewards: Array1::zeros(b),
            terminated: Array1::from_elem(b, false),
            truncated: Array1::from_elem(b, false),
            to_play: Array1::zeros(b),
        }
    }

    fn outputs(&mut self) -> Outputs<'_> {
        let layout = "standard layout";
        Outputs {
            obs: self.obs.as_slice_mut().expect(layout),
            final_obs: self.final_obs.as_slice_mut().expect(layout),
            mask: self.mask.as_slice_mut().expect(layout),
            rewards: self.rewards.as_slice_mut().expect(layout),
            terminated: self.terminated.as_slice_mut().expect(layout),
            truncated: self.truncated.as_slice_mut().expect(layout),
            to_play: self.to_play.as_slice_mut().expect(layout),
        }
    }
}

/// A [`Batch`] with its own output arrays, read through views (it derefs to
/// the batch for everything else).
#[derive(Clone, Debug)]
pub struct VecEnv {
    batch: Batch,
    buf: Buffers,
}

impl Deref for VecEnv {
    type Target = Batch;

    fn deref(&self) -> &Batch {
        &self.batch
    }
}

impl VecEnv {
    /// `num_envs` games at the start position of `cfg`, seeded with `seed`,
    /// reset in the step that ends them. A start position that is already
    /// over is refused (`EpisodeOver`).
    pub fn new(v: Variant, num_envs: usize, seed: u64, cfg: EnvConfig) -> Result<VecEnv, EnvError> {
        VecEnv::with_autoreset(v, num_envs, seed, cfg, AutoresetMode::SameStep)
    }

    /// [`VecEnv::new`] with another autoreset mode.
    pub fn with_autoreset(
        v: Variant,
        num_envs: usize,
        seed: u64,
        cfg: EnvConfig,
        autoreset: AutoresetMode,
    ) -> Result<VecEnv, EnvError> {
        let mut ve = VecEnv {
            batch: Batch::new(v, num_envs, seed, cfg, autoreset)?,
            buf: Buffers::zeros(v, num_envs),
        };
        ve.batch.write_outputs(&mut ve.buf.outputs())?;
        Ok(ve)
    }

    /// Resets every env (and, with `Some(seed)`, reseeds every random stream);
    /// fills `obs`, `legal_mask` and `to_play`, zeroes rewards and done flags.
    pub fn reset(&mut self, seed: Option<u64>) {
        let seeds = seed.map(|s| vec![s; self.batch.num_envs()]);
        // The lengths are right by construction.
        let _ = self
            .batch
            .reset(seeds.as_deref(), None, &mut self.buf.outputs());
    }

    /// [`Batch::reset`] of the envs where `only` is true, with per-env seeds.
    pub fn reset_some(
        &mut self,
        seeds: Option<&[u64]>,
        only: Option<&[bool]>,
    ) -> Result<(), EnvError> {
        self.batch.reset(seeds, only, &mut self.buf.outputs())
    }

    /// [`Batch::step`] into this env's arrays.
    pub fn step(&mut self, actions: &[i64]) -> Result<(), VecEnvError> {
        self.batch.step(actions, &mut self.buf.outputs())
    }

    /// [`Batch::sample_legal_actions`].
    pub fn sample_legal_actions(&mut self, out: &mut [i64]) {
        self.batch.sample_legal_actions(out);
    }

    /// [`Batch::restore`], then the arrays show the restored games.
    pub fn restore(&mut self, snap: &Snapshot) -> Result<(), EnvError> {
        self.batch.restore(snap)?;
        self.batch.write_outputs(&mut self.buf.outputs())
    }

    /// (B, C, N, N) observations of the current states.
    pub fn obs(&self) -> ArrayView4<'_, f32> {
        self.buf.obs.view()
    }

    /// (B, A) legal next steps of the current states.
    pub fn legal_mask(&self) -> ArrayView2<'_, bool> {
        self.buf.mask.view()
    }

    /// (B,) reward of the last step to the player who acted in it.
    pub fn rewards(&self) -> ArrayView1<'_, f32> {
        self.buf.rewards.view()
    }

    pub fn terminated(&self) -> ArrayView1<'_, bool> {
        self.buf.terminated.view()
    }

    pub fn truncated(&self) -> ArrayView1<'_, bool> {
        self.buf.truncated.view()
    }

    /// (B, C, N, N) observations at episode end, valid in SameStep mode
    /// where the last step terminated or truncated the env (in the frame of
    /// the player to move in the final state).
    pub fn final_obs(&self) -> ArrayView4<'_, f32> {
        self.buf.final_obs.view()
    }

    /// (B,) who acts next: 0 white, 1 black.
    pub fn to_play(&self) -> ArrayView1<'_, u8> {
        self.buf.to_play.view()
    }
}
