//! A game: position, history, draw counters and the result.
//!
//! Draw rules (RULES.md): threefold repetition; no progress (plies without a
//! capture or a man move: 100 thai, 80 english/checkers, 50 international);
//! international lone-king endings (lone king against three pieces with a
//! king: 32 plies; against one or two pieces with a king: 10 plies, counted
//! from the position where that material first stands on the board and
//! restarted whenever a capture changes it); Thai one king each with no
//! capture for the mover. A side with no legal move loses; that is checked
//! before any draw rule.

use crate::board::Geometry;
use crate::error::Error;
use crate::fen::{parse_fen, to_fen};
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::notation;
use crate::position::Position;
use crate::types::Color;
use crate::variant::{Rules, Variant};
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move has no legal move and loses.
    NoLegalMove,
    /// The same position for the third time.
    Repetition,
    /// Too many plies without a capture or a man move.
    NoProgress,
    /// Thai: one king each and no capture for the side to move.
    OneKingEach,
    /// International: 16-move or 5-move lone-king rule.
    LoneKing,
    /// The loser played an illegal move (RL environments and arenas that
    /// choose to punish it; the rules themselves never end a game this way).
    IllegalMove,
}

impl EndReason {
    pub fn name(self) -> &'static str {
        match self {
            EndReason::NoLegalMove => "no legal move",
            EndReason::Repetition => "threefold repetition",
            EndReason::NoProgress => "no progress",
            EndReason::OneKingEach => "one king each",
            EndReason::LoneKing => "lone king rule",
            EndReason::IllegalMove => "illegal move",
        }
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub reason: EndReason,
}

impl Outcome {
    /// "white", "black" or "draw".
    pub fn result_str(&self) -> &'static str {
        match self.winner {
            Some(c) => c.name(),
            None => "draw",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(c) => write!(f, "{c} wins ({})", self.reason.name()),
            None => write!(f, "draw ({})", self.reason.name()),
        }
    }
}

/// Draw counters carried from ply to ply; `Copy` so searches can keep them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Counters {
    /// Plies since the last capture or man move.
    pub reversible: u16,
    /// Plies since the current lone-king material was reached (international).
    pub lone_king: u16,
    /// Limit of the current lone-king class (0 = not in such an ending).
    pub lone_king_limit: u16,
}

/// The ply limit of the lone-king ending `pos` is in under rules `R`
/// ([`Rules::LONE_KING_LIMITS`]), 0 when none applies.
pub fn lone_king_limit<R: Rules>(pos: &Position) -> u16 {
    if R::LONE_KING_LIMITS.is_empty() {
        return 0;
    }
    for c in [Color::White, Color::Black] {
        let (m, k) = pos.material(c);
        let (om, ok) = pos.material(c.opponent());
        if m == 0 && k == 1 && ok >= 1 {
            let pieces = om + ok;
            if let Some(l) = R::LONE_KING_LIMITS
                .iter()
                .find(|l| (l.min_pieces..=l.max_pieces).contains(&pieces))
            {
                return l.plies;
            }
        }
    }
    0
}

impl Counters {
    /// Counters after `m` was played from `before`, giving `after`.
    pub fn next<R: Rules>(&self, before: &Position, m: &Move, after: &Position) -> Counters {
        let man_moved = before.kings & (1u64 << m.from) == 0;
        let reversible = if m.is_capture() || man_moved {
            0
        } else {
            self.reversible.saturating_add(1)
        };
        let limit = lone_king_limit::<R>(after);
        let (lone_king, lone_king_limit) = if limit == 0 {
            (0, 0)
        } else if limit != self.lone_king_limit || m.is_capture() {
            (0, limit)
        } else {
            (self.lone_king.saturating_add(1), limit)
        };
        Counters {
            reversible,
            lone_king,
            lone_king_limit,
        }
    }

    /// Counters for a game set up from a position.
    pub fn initial<R: Rules>(pos: &Position) -> Counters {
        Counters {
            reversible: 0,
            lone_king: 0,
            lone_king_limit: lone_king_limit::<R>(pos),
        }
    }
}

/// The outcome of a position given its legal-move count, counters and the
/// number of times it has occurred (1 = first time).
pub fn outcome_of<R: Rules>(
    pos: &Position,
    num_legal: usize,
    counters: &Counters,
    occurrences: usize,
) -> Option<Outcome> {
    if num_legal == 0 {
        return Some(Outcome {
            winner: Some(pos.side.opponent()),
            reason: EndReason::NoLegalMove,
        });
    }
    let draw = |reason| {
        Some(Outcome {
            winner: None,
            reason,
        })
    };
    if occurrences >= 3 {
        return draw(EndReason::Repetition);
    }
    if counters.reversible >= R::NO_PROGRESS_PLIES {
        return draw(EndReason::NoProgress);
    }
    if counters.lone_king_limit > 0 && counters.lone_king >= counters.lone_king_limit {
        return draw(EndReason::LoneKing);
    }
    if R::ONE_KING_EACH_DRAW
        && pos.kings == pos.occupied()
        && pos.white.count_ones() == 1
        && pos.black.count_ones() == 1
        && !movegen::has_capture::<R>(pos)
    {
        return draw(EndReason::OneKingEach);
    }
    None
}

#[derive(Clone, Copy, Debug)]
struct Undo {
    pos: Position,
    counters: Counters,
    mv: Move,
}

/// A game of any variant with full history (for undo and repetition).
#[derive(Clone, Debug)]
pub struct Game {
    variant: Variant,
    pos: Position,
    counters: Counters,
    /// Hash of every position of the game so far, the current one last.
    hashes: Vec<u64>,
    undo: Vec<Undo>,
    legal: MoveList,
    outcome: Option<Outcome>,
}

impl Game {
    /// A game from the variant's start position.
    pub fn new(variant: Variant) -> Game {
        Game::from_position(variant, Position::start(variant))
    }

    /// A game from a PDN FEN.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Game, Error> {
        Ok(Game::from_position(variant, parse_fen(variant, fen)?))
    }

    pub fn from_position(variant: Variant, pos: Position) -> Game {
        let counters = with_rules!(variant, R => Counters::initial::<R>(&pos));
        let mut g = Game {
            variant,
            pos,
            counters,
            hashes: vec![pos.zobrist()],
            undo: Vec::new(),
            legal: MoveList::new(),
            outcome: None,
        };
        g.refresh();
        g
    }

    fn refresh(&mut self) {
        let v = self.variant;
        with_rules!(v, R => {
            movegen::generate::<R>(&self.pos, &mut self.legal);
            let occ = self.occurrences();
            self.outcome = outcome_of::<R>(&self.pos, self.legal.len(), &self.counters, occ);
        });
    }

    /// How many times the current position has occurred (same pieces, same
    /// side to move). Only positions since the last capture or man move can
    /// repeat it.
    fn occurrences(&self) -> usize {
        let cur = *self.hashes.last().unwrap_or(&0);
        let window = self.counters.reversible as usize;
        self.hashes
            .iter()
            .rev()
            .take(window + 1)
            .step_by(2)
            .filter(|&&h| h == cur)
            .count()
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }
    pub fn geometry(&self) -> Geometry {
        self.variant.geometry()
    }
    pub fn position(&self) -> &Position {
        &self.pos
    }
    pub fn turn(&self) -> Color {
        self.pos.side
    }
    pub fn counters(&self) -> Counters {
        self.counters
    }
    /// Plies played since the start of the game (or the set-up position).
    pub fn ply(&self) -> usize {
        self.undo.len()
    }
    /// The position the game started from (before the first move of
    /// [`Game::history`]).
    pub fn start_position(&self) -> &Position {
        self.undo.first().map_or(&self.pos, |u| &u.pos)
    }
    /// The moves played so far.
    pub fn history(&self) -> impl Iterator<Item = &Move> {
        self.undo.iter().map(|u| &u.mv)
    }

    /// Legal moves of the side to move (empty once the game is over by a draw
    /// rule is NOT implied: check `outcome`).
    pub fn legal_moves(&self) -> &[Move] {
        &self.legal
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    pub fn fen(&self) -> String {
        to_fen(self.variant, &self.pos)
    }

    /// Plays a move (identified by from, to and captured set).
    pub fn play(&mut self, m: &Move) -> Result<(), Error> {
        if self.outcome.is_some() {
            return Err(Error::GameOver);
        }
        let Some(m) = self.legal.iter().find(|l| *l == m).copied() else {
            return Err(Error::IllegalMove(self.move_string(m)));
        };
        let g = self.geometry();
        let before = self.pos;
        let prev = self.counters;
        self.pos.apply(&g, &m);
        let v = self.variant;
        self.counters = with_rules!(v, R => self.counters.next::<R>(&before, &m, &self.pos));
        self.undo.push(Undo {
            pos: before,
            counters: prev,
            mv: m,
        });
        self.hashes.push(self.pos.zobrist());
        self.refresh();
        Ok(())
    }

    /// Parses a move in path notation (or the short capture form) and plays it.
    pub fn play_str(&mut self, text: &str) -> Result<Move, Error> {
        if self.outcome.is_some() {
            return Err(Error::GameOver);
        }
        let m = self.parse_move(text)?;
        self.play(&m)?;
        Ok(m)
    }

    /// The legal move named by `text`.
    pub fn parse_move(&self, text: &str) -> Result<Move, Error> {
        notation::parse_move(self.variant, &self.pos, &self.legal, text)
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Result<Move, Error> {
        let u = self.undo.pop().ok_or(Error::NothingToUndo)?;
        self.pos = u.pos;
        self.counters = u.counters;
        self.hashes.pop();
        self.refresh();
        Ok(u.mv)
    }

    /// A move in full path notation.
    pub fn move_string(&self, m: &Move) -> String {
        notation::move_to_string(&self.geometry(), m)
    }

    /// Perft from the current position.
    pub fn perft(&self, depth: u32) -> u64 {
        crate::perft::perft_variant(self.variant, &self.pos, depth)
    }
}
