//! One game seen step by step: the state between steps of a multi-capture is
//! kept (same player to act, jumped pieces still on the board), the legal
//! steps come from the rule engine's full moves (majority rule included), and
//! the draw rules are rafle-core's (`DrawState`, `outcome_of`), so an episode
//! ends exactly where a `rafle_core::Game` would.

use crate::action::{self, Tables};
use crate::error::EnvError;
use crate::obs::{self, ObsBoard, ObsKey};
use rafle_core::draws::outcome_of;
use rafle_core::{
    movegen, parse_fen, BitWord, Bitboard, Color, Counters, DrawState, EndReason, Move, MoveList,
    Outcome, Position, Rules, Variant,
};
use smallvec::SmallVec;

/// What the env does with a legal-range action that is not a legal step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum IllegalActionMode {
    /// `step` returns `EnvError::IllegalAction` and the state is unchanged.
    #[default]
    Error,
    /// The player who made it loses at once (reward -1, terminated), as in pgx.
    Lose,
}

/// How episodes are set up and cut.
#[derive(Clone, Debug, Default)]
pub struct EnvConfig {
    /// Truncate an episode after this many full moves (plies); None = no limit.
    /// Checked after each full move, so `Some(0)` acts like `Some(1)`.
    pub max_plies: Option<u32>,
    pub illegal: IllegalActionMode,
    /// Start position (PDN FEN); None = the variant's start position.
    pub start_fen: Option<String>,
}

/// What one step did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepInfo {
    /// To the player who acted: +1 win, -1 loss, 0 otherwise (draws, truncation,
    /// steps inside a chain).
    pub reward: f32,
    /// Game over by the rules (win, loss or a rule draw).
    pub terminated: bool,
    /// Cut by `max_plies` (never together with `terminated`).
    pub truncated: bool,
    /// This step completed a full move (the turn passed or the game ended).
    pub move_done: bool,
}

/// Distinct legal step ids. Inline room for 64 covers all but king-rich
/// 10x10 positions (up to 20 kings x 17 squares of quiet steps).
pub type ActionList = SmallVec<[u16; 64]>;

/// One game as seen step by step. Clone is cheap enough for search: the only
/// heap part is the draw state's position keys (at most the no-progress limit
/// plus one, since older positions can never repeat).
///
/// Fields in declared order (`repr(C)`): the small ones every step reads,
/// then the board, then the move list (its length first, the moves in use
/// next), and the start position, read only at a reset, last.
#[derive(Clone, Debug)]
#[repr(C)]
pub struct Env {
    variant: Variant,
    illegal: IllegalActionMode,
    /// Steps of the pending chain taken so far (0 = no chain).
    chain_len: u8,
    /// Start bit and current bit of the piece making the chain.
    chain_from: u8,
    chain_at: u8,
    /// The chain's man was crowned on the far row and goes on as a king (R4).
    chain_crowned: bool,
    /// Times the current position has occurred (1 = first time), from `draws`.
    occurrences: u8,
    truncated: bool,
    illegal_loss: bool,
    /// How many of `legal` are distinct moves: those come first.
    moves: u16,
    max_plies: Option<u32>,
    ply: u32,
    outcome: Option<Outcome>,
    tables: &'static Tables,
    /// Counters and the positions that can still repeat (trimmed after each
    /// full move: an episode never goes back).
    draws: DrawState,
    /// Distinct next steps of `legal` (empty once done).
    actions: ActionList,
    /// The board before the pending chain (its jumps not yet applied).
    pos: Position,
    /// Pieces jumped so far by the pending chain.
    chain_captured: Bitboard,
    /// Full moves still consistent with the steps of the pending chain,
    /// every path of a capture: the first `moves` are distinct moves (one
    /// path each), the other paths of those moves follow. Walking all paths
    /// makes the open steps of a chain a function of what the observation
    /// shows (which path a merged list kept would depend on where the
    /// chain started).
    legal: MoveList,
    start: Position,
}

impl Env {
    /// A new env at its start position (`cfg.start_fen`, or the variant's).
    pub fn new(v: Variant, cfg: EnvConfig) -> Result<Env, EnvError> {
        let start = match &cfg.start_fen {
            Some(f) => parse_fen(v, f)?,
            None => Position::start(v),
        };
        Ok(Env::from_position(v, start, cfg))
    }

    /// A new env of `v` at its start position with the default settings
    /// (also what code that only knows the variant asks for the codec's sizes).
    pub fn of(v: Variant) -> Env {
        Env::from_position(v, Position::start(v), EnvConfig::default())
    }

    /// A new env that starts (and resets) at `pos`; `cfg.start_fen` is ignored.
    pub fn from_position(v: Variant, pos: Position, cfg: EnvConfig) -> Env {
        let mut env = Env {
            variant: v,
            max_plies: cfg.max_plies,
            illegal: cfg.illegal,
            start: pos,
            tables: action::tables(v),
            pos,
            draws: rafle_core::with_rules!(v, R => DrawState::new::<R>(&pos)),
            occurrences: 1,
            legal: MoveList::new(),
            actions: ActionList::new(),
            moves: 0,
            chain_len: 0,
            chain_from: 0,
            chain_at: 0,
            chain_captured: 0,
            chain_crowned: false,
            ply: 0,
            outcome: None,
            truncated: false,
            illegal_loss: false,
        };
        env.reset();
        env
    }

    /// The lookup tables of the env's board.
    pub(crate) fn tables(&self) -> &'static Tables {
        self.tables
    }

    /// Back to the start position.
    pub fn reset(&mut self) {
        self.pos = self.start;
        rafle_core::with_rules!(self.variant, R => self.draws.reset::<R>(&self.pos));
        // Room for the longest window (the no-progress limit), so that steps
        // never allocate (a clone starts with less).
        self.draws
            .reserve(self.variant.no_progress_plies() as usize + 1);
        self.ply = 0;
        self.truncated = false;
        self.illegal_loss = false;
        self.clear_chain();
        rafle_core::with_rules!(self.variant, R => self.refresh::<R>());
    }

    /// Changes the ply cap of the game from here on (None: no cap); a
    /// search copies the game's env and looks past its cap this way.
    pub fn set_max_plies(&mut self, max_plies: Option<u32>) {
        self.max_plies = max_plies;
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The acting player (unchanged during a chain).
    pub fn to_play(&self) -> Color {
        self.pos.side
    }

    /// The board with the pending chain NOT yet applied.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// In the middle of a multi-capture.
    pub fn chain_pending(&self) -> bool {
        self.chain_len > 0
    }

    /// Steps taken so far by the pending chain (0 without chain).
    pub fn chain_steps(&self) -> usize {
        self.chain_len as usize
    }

    /// Pieces jumped so far by the pending chain (bitboard; 0 without chain).
    pub fn chain_captured(&self) -> Bitboard {
        self.chain_captured
    }

    /// Bit of the square of the piece that must continue the chain.
    pub fn chain_square(&self) -> Option<u8> {
        self.chain_pending().then_some(self.chain_at)
    }

    /// Full moves (plies) played in this episode.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Draw counters of the current position.
    pub fn counters(&self) -> Counters {
        self.draws.counters()
    }

    /// Times the current position has occurred in this episode (1 = first).
    pub fn occurrences(&self) -> usize {
        self.occurrences as usize
    }

    /// The result, once terminated. A loss by an illegal action (mode `Lose`)
    /// reads as the opponent winning with reason `IllegalMove`.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn is_terminated(&self) -> bool {
        self.outcome.is_some()
    }

    pub fn is_truncated(&self) -> bool {
        self.truncated
    }

    /// Terminated or truncated.
    pub fn is_done(&self) -> bool {
        self.outcome.is_some() || self.truncated
    }

    /// The episode ended by an illegal action in mode `Lose`.
    pub fn lost_by_illegal_action(&self) -> bool {
        self.illegal_loss
    }

    /// The legal step ids, ascending; empty when done.
    pub fn legal_actions(&self) -> SmallVec<[u16; 64]> {
        let mut a = self.actions.clone();
        a.sort_unstable();
        a
    }

    /// The legal step ids in generation order, without copying; empty when done.
    pub fn legal_action_ids(&self) -> &[u16] {
        &self.actions
    }

    /// Writes the legal mask (true = legal next step) into `out`; all false
    /// when the episode is done.
    ///
    /// # Panics
    /// If `out.len() != num_actions` (use [`Env::try_write_legal_mask`] to check).
    pub fn write_legal_mask(&self, out: &mut [bool]) {
        let na = action::num_actions(self.variant);
        assert_eq!(out.len(), na, "legal mask buffer length");
        out.fill(false);
        for &a in &self.actions {
            out[a as usize] = true;
        }
    }

    /// [`Env::write_legal_mask`] with a length check instead of a panic.
    pub fn try_write_legal_mask(&self, out: &mut [bool]) -> Result<(), EnvError> {
        let na = action::num_actions(self.variant);
        if out.len() != na {
            return Err(EnvError::BadShape {
                expected: na,
                got: out.len(),
            });
        }
        self.write_legal_mask(out);
        Ok(())
    }

    /// Writes the observation (see `obs`) into `out`, which it overwrites whole.
    ///
    /// # Panics
    /// If `out.len() != NUM_PLANES * N * N` (use [`Env::try_write_obs`] to check).
    pub fn write_obs(&self, out: &mut [f32]) {
        let len = obs::observation_len(self.variant);
        assert_eq!(out.len(), len, "observation buffer length");
        let nn = self.variant.board_size().pow(2);
        rafle_core::with_rules!(self.variant, R => self.obs_board_in::<R>().write(self.tables, nn, out));
    }

    /// [`Env::write_obs`] with a length check instead of a panic.
    pub fn try_write_obs(&self, out: &mut [f32]) -> Result<(), EnvError> {
        let len = obs::observation_len(self.variant);
        if out.len() != len {
            return Err(EnvError::BadShape {
                expected: len,
                got: out.len(),
            });
        }
        self.write_obs(out);
        Ok(())
    }

    /// Full moves still consistent with the steps of the pending chain (all
    /// legal moves when no chain is pending); empty when done.
    pub fn legal_moves(&self) -> &[Move] {
        &self.legal[..self.moves as usize]
    }

    /// [`Env::legal_moves`] with every path of each capture (a move with
    /// several paths shows once per path; each path is equal, as a `Move`,
    /// to its move).
    pub fn legal_paths(&self) -> &[Move] {
        &self.legal
    }

    /// Would `step(action)` be accepted? Out-of-range ids, finished episodes
    /// and (in mode `Error`) illegal steps are errors.
    pub fn check_action(&self, action: i64) -> Result<(), EnvError> {
        if self.is_done() {
            return Err(EnvError::EpisodeOver);
        }
        let na = action::num_actions(self.variant);
        if action < 0 || action as u64 >= na as u64 {
            return Err(EnvError::ActionOutOfRange {
                action,
                num_actions: na,
            });
        }
        if self.illegal == IllegalActionMode::Error && !self.actions.contains(&(action as u16)) {
            return Err(EnvError::IllegalAction {
                action: action as usize,
            });
        }
        Ok(())
    }

    /// Plays one step (a quiet move or one jump). On an error the state is unchanged.
    pub fn step(&mut self, action: usize) -> Result<StepInfo, EnvError> {
        rafle_core::with_rules!(self.variant, R => self.step_in::<R>(action))
    }

    /// [`Env::step`] under the env's rules `R` (callers that step many envs
    /// of one variant pick `R` once).
    #[inline]
    pub(crate) fn step_in<R: Rules>(&mut self, action: usize) -> Result<StepInfo, EnvError> {
        if self.is_done() {
            return Err(EnvError::EpisodeOver);
        }
        let na = action::num_actions(self.variant);
        if action >= na {
            return Err(EnvError::ActionOutOfRange {
                action: i64::try_from(action).unwrap_or(i64::MAX),
                num_actions: na,
            });
        }
        let a = action as u16;
        match self.actions.iter().position(|&x| x == a) {
            Some(i) => Ok(self.step_legal::<R>(a, i)),
            None if self.illegal == IllegalActionMode::Lose => Ok(self.lose_by_illegal_action()),
            None => Err(EnvError::IllegalAction { action }),
        }
    }

    fn lose_by_illegal_action(&mut self) -> StepInfo {
        self.outcome = Some(Outcome {
            winner: Some(self.pos.side.opponent()),
            reason: EndReason::IllegalMove,
        });
        self.illegal_loss = true;
        self.legal.clear();
        self.moves = 0;
        self.actions.clear();
        StepInfo {
            reward: -1.0,
            terminated: true,
            truncated: false,
            move_done: true,
        }
    }

    /// The square (bit) the chain's next step starts from, for move `m`.
    #[inline(always)]
    fn step_from(&self, m: &Move) -> u8 {
        match self.chain_len {
            0 => m.from,
            k => m.landings()[k as usize - 1],
        }
    }

    /// Plays legal step `a`, which is `self.actions[i]`.
    fn step_legal<R: Rules>(&mut self, a: u16, i: usize) -> StepInfo {
        if self.chain_len == 0 && !self.legal[0].is_capture() {
            // Quiet moves: one step each, listed in the same order as `actions`.
            let m = self.legal[i];
            return self.finish_move::<R>(&m);
        }
        let (t, side, k) = (self.tables, self.pos.side, self.chain_len as usize);
        let chain_len = self.chain_len;
        self.legal.retain(|m| {
            let from = if chain_len == 0 {
                m.from
            } else {
                m.landings()[k - 1]
            };
            t.action(side, from, m.landings()[k]) == a
        });
        self.moves_first();
        let m0 = self.legal[0];
        let (from, to) = (self.step_from(&m0), m0.landings()[k]);
        // A move's path never extends another legal move's path (captures run
        // to the end), so at most one consistent move ends here.
        if let Some(m) = self
            .legal
            .iter()
            .find(|m| m.landings().len() == k + 1)
            .copied()
        {
            return self.finish_move::<R>(&m);
        }
        if k == 0 {
            self.chain_from = m0.from;
        }
        let w = R::Word::narrow;
        let jumped = w(t.between(from, to)) & w(m0.captured);
        self.chain_captured = (w(self.chain_captured) | jumped).widen();
        if R::CROWN_MID_CAPTURE && (R::Word::bit(to.into()) & w(R::GEO.promotion_row(side))).any() {
            self.chain_crowned = true;
        }
        self.chain_at = to;
        self.chain_len += 1;
        self.refresh_actions();
        StepInfo::default()
    }

    fn finish_move<R: Rules>(&mut self, m: &Move) -> StepInfo {
        let actor = self.pos.side;
        let before = self.pos;
        self.pos.apply::<R>(m);
        self.draws.push::<R>(&before, m, &self.pos);
        self.draws.trim();
        self.ply += 1;
        self.clear_chain();
        self.refresh::<R>();
        let reward = match self.outcome {
            Some(Outcome {
                winner: Some(c), ..
            }) => {
                if c == actor {
                    1.0
                } else {
                    -1.0
                }
            }
            _ => 0.0,
        };
        if self.outcome.is_none() && self.max_plies.is_some_and(|mp| self.ply >= mp) {
            self.truncated = true;
            self.legal.clear();
            self.moves = 0;
            self.actions.clear();
        }
        StepInfo {
            reward,
            terminated: self.outcome.is_some(),
            truncated: self.truncated,
            move_done: true,
        }
    }

    fn clear_chain(&mut self) {
        self.chain_len = 0;
        self.chain_from = 0;
        self.chain_at = 0;
        self.chain_captured = 0;
        self.chain_crowned = false;
    }

    /// Legal moves, repetition count and result of the (new) current position.
    fn refresh<R: Rules>(&mut self) {
        movegen::generate_paths::<R>(&self.pos, &mut self.legal);
        self.moves_first();
        let occ = self.draws.occurrences();
        self.occurrences = occ.min(u8::MAX as usize) as u8;
        let counters = self.draws.counters();
        self.outcome = outcome_of::<R>(&self.pos, self.moves as usize, &counters, occ);
        if self.outcome.is_some() {
            self.legal.clear();
            self.moves = 0;
            self.actions.clear();
        } else {
            self.refresh_actions();
        }
    }

    /// Orders `legal` as its doc says (each move's first path in front, in
    /// the generator's order; both parts keep their order) and counts the
    /// moves. Quiet moves are all distinct.
    fn moves_first(&mut self) {
        let legal = &mut self.legal;
        let mut moves = legal.len();
        if moves > 1 && legal[0].is_capture() {
            moves = 0;
            for i in 0..legal.len() {
                if !legal[..moves].contains(&legal[i]) {
                    legal[moves..=i].rotate_right(1);
                    moves += 1;
                }
            }
        }
        self.moves = moves as u16;
    }

    /// The distinct next steps of the consistent paths.
    fn refresh_actions(&mut self) {
        let (t, side, k) = (self.tables, self.pos.side, self.chain_len as usize);
        let actions = &mut self.actions;
        actions.clear();
        match self.legal.first() {
            // Quiet moves are distinct steps.
            Some(m) if !m.is_capture() => {
                for m in &self.legal {
                    actions.push(t.action(side, m.from, m.to()));
                }
            }
            // Capture paths may share their next step.
            _ => {
                for m in &self.legal {
                    let path = m.landings();
                    let from = if k == 0 { m.from } else { path[k - 1] };
                    let a = t.action(side, from, path[k]);
                    if !actions.contains(&a) {
                        actions.push(a);
                    }
                }
            }
        }
    }

    /// The exact key of the observation [`Env::write_obs`] writes and of
    /// the restricted king: equal keys mean equal observations and equal
    /// legal steps.
    pub fn obs_key(&self) -> ObsKey {
        let restricted =
            rafle_core::with_rules!(self.variant, R => self.pos.restricted_king::<R>());
        self.obs_board().key(restricted)
    }

    /// What the observation shows (see `obs` for the planes).
    pub(crate) fn obs_board(&self) -> ObsBoard {
        rafle_core::with_rules!(self.variant, R => self.obs_board_in::<R>().widen())
    }

    /// [`Env::obs_board`] in the variant's own word.
    #[inline]
    pub(crate) fn obs_board_in<R: Rules>(&self) -> ObsBoard<R::Word> {
        let w = R::Word::narrow;
        let p = &self.pos;
        let (white, black, kings) = (w(p.white), w(p.black), w(p.kings));
        let (own, mut opp) = match p.side {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let captured = w(self.chain_captured);
        if R::IMMEDIATE_REMOVAL {
            // Jumped pieces have left the board already (turkish).
            opp &= !captured;
        }
        let (mut own_men, mut own_kings) = (own & !kings, own & kings);
        let mut chain_piece = R::Word::ZERO;
        if self.chain_len > 0 {
            let bit = |b: u8| R::Word::bit(b.into());
            let (from, at) = (bit(self.chain_from), bit(self.chain_at));
            if (own_kings & from).any() {
                own_kings = (own_kings & !from) | at;
            } else if self.chain_crowned {
                own_men &= !from;
                own_kings |= at;
            } else {
                own_men = (own_men & !from) | at;
            }
            chain_piece = at;
        }
        let no_progress = match R::NO_PROGRESS_PLIES {
            0 => 0.0,
            limit => (self.draws.counters().reversible as f32 / f32::from(limit)).min(1.0),
        };
        let repeats = R::REPETITIONS.saturating_sub(1).max(1) as f32;
        ObsBoard {
            side: p.side,
            planes: [
                own_men,
                own_kings,
                opp & !kings,
                opp & kings,
                captured,
                chain_piece,
            ],
            constants: [
                no_progress,
                (f32::from(self.occurrences.saturating_sub(1)) / repeats).min(1.0),
            ],
        }
    }
}
