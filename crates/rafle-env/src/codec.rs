//! The action codec of [`action`](crate::action) as methods of [`Env`]: the
//! sizes of its arrays, a full move as its chain of steps and back, one step
//! as squares and back, and an env that replays a [`Game`]. Callers ask the
//! env they hold, so the board's tables are always the env's own.

use crate::action::{self, NO_ACTION};
use crate::env::{Env, EnvConfig, StepInfo};
use crate::error::EnvError;
use crate::obs;
use rafle_core::{bit, Color, Game, Move, MAX_JUMPS};
use smallvec::SmallVec;

/// The step actions of one full move.
pub type Chain = SmallVec<[u16; MAX_JUMPS]>;

impl Env {
    /// Number of action ids: 896 on 8x8, 1800 on 10x10, 3600 for frisian,
    /// 1792 for turkish (see [`action`]).
    pub fn num_actions(&self) -> usize {
        action::num_actions(self.variant())
    }

    /// Shape of an observation, `[NUM_PLANES, N, N]`.
    pub fn observation_shape(&self) -> [usize; 3] {
        obs::observation_shape(self.variant())
    }

    /// Floats in an observation.
    pub fn observation_len(&self) -> usize {
        obs::observation_len(self.variant())
    }

    /// The chain of step actions of full move `m` of the turn under way (a
    /// legal move of [`Env::legal_moves`]): one action for a quiet move, one
    /// per jump for a capture.
    pub fn actions_of(&self, m: &Move) -> Chain {
        let (t, side) = (self.tables(), self.position().side);
        let mut from = m.from;
        let mut out = Chain::new();
        for &to in m.landings() {
            out.push(t.action(side, from, to));
            from = to;
        }
        out
    }

    /// The legal move of the turn under way made of exactly the steps
    /// `chain` (those already taken of a pending chain included): the path
    /// walked, equal as a `Move` to its move of [`Env::legal_moves`].
    pub fn move_of_chain(&self, chain: &[u16]) -> Option<Move> {
        self.legal_paths()
            .iter()
            .find(|m| self.actions_of(m).as_slice() == chain)
            .copied()
    }

    /// Plays full move `m` step by step, at the start of a turn; the info of
    /// its last step. A move that is not legal here is an error and leaves
    /// the env unchanged.
    pub fn play_move(&mut self, m: &Move) -> Result<StepInfo, EnvError> {
        if self.is_done() {
            return Err(EnvError::EpisodeOver);
        }
        if self.chain_pending() {
            return Err(EnvError::ChainPending);
        }
        let chain = self.actions_of(m);
        if self.move_of_chain(&chain).as_ref() != Some(m) {
            let action = chain.first().map_or(0, |&a| a as usize);
            return Err(EnvError::IllegalAction { action });
        }
        let mut last = None;
        for a in chain {
            last = Some(self.step(a as usize)?);
        }
        last.ok_or(EnvError::IllegalAction { action: 0 })
    }

    /// An env at `game`'s position with its moves replayed from its start,
    /// so that the draw counters, the repetitions and the planes built from
    /// them are the game's.
    pub fn from_game(game: &Game, cfg: EnvConfig) -> Result<Env, EnvError> {
        let mut env = Env::from_position(game.variant(), *game.start_position(), cfg);
        for m in game.history() {
            env.play_move(m)?;
        }
        Ok(env)
    }

    /// The step of action `a` for the side to move, as PDN squares
    /// `(from, to)` on the real board; `None` when `a` is out of range or
    /// steps off the board.
    pub fn step_squares(&self, a: usize) -> Option<(usize, usize)> {
        let v = self.variant();
        let (sq0, dir, dist) = action::decode(v, a)?;
        let g = v.geometry();
        let d = action::directions(v)[dir];
        let (from, d) = match self.position().side {
            Color::White => (g.square_of_index(sq0), d),
            Color::Black => (g.rotate_square(g.square_of_index(sq0)), d.reverse()),
        };
        let mut bb = bit(g.bit_of(from));
        for _ in 0..dist {
            bb = g.step(bb, d);
        }
        (bb != 0).then(|| (from, g.square_of(bb.trailing_zeros())))
    }

    /// The action of a step of the side to move between two PDN squares, or
    /// `None` when they are not on one line of the variant (or out of range).
    pub fn step_action(&self, from: usize, to: usize) -> Option<usize> {
        let g = self.variant().geometry();
        if from == 0 || to == 0 || from > g.squares || to > g.squares {
            return None;
        }
        let side = self.position().side;
        let a = self
            .tables()
            .action(side, g.bit_of(from) as u8, g.bit_of(to) as u8);
        (a != NO_ACTION).then_some(a as usize)
    }
}
