//! A game: position, moves played (for undo), the draw rules' state
//! ([`DrawState`]) and the result. The rules that end a game are in the rule
//! book ([`crate::rules`], section 7 and the variants' sections);
//! [`crate::draws`] applies them.

use crate::board::Geometry;
use crate::draws::{Counters, DrawState, Mark};
use crate::error::Error;
use crate::fen::{parse_fen, to_fen};
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::notation;
use crate::position::Position;
use crate::types::Color;
use crate::variant::Variant;
use std::fmt;

/// How a game ended: by a rule of the game, or by what a caller enforces on
/// top of the rules (a loss by an illegal move, the ply cap of an
/// environment or an arena). The one model of a game's end for every layer:
/// the env's infos carry [`EndReason::code`] (Python's
/// `rafle.END_REASONS[code]` is the name), the arena's records and PDN its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move has no legal move: it loses (it wins in antidraughts).
    NoLegalMove,
    /// The same position for the third time.
    Repetition,
    /// Too many plies without a capture or a man move.
    NoProgress,
    /// Thai: one king each and no capture for the side to move.
    OneKingEach,
    /// International: 16-move or 5-move lone-king rule.
    LoneKing,
    /// The loser played an illegal move (an env in mode `Lose`, an arena
    /// player; the rules themselves never end a game this way).
    IllegalMove,
    /// Cut by a ply cap (an env's `max_plies`, the arena's adjudicated draw;
    /// not a rule of the game).
    MaxPlies,
    /// Breakthrough: a player crowned the first king and wins.
    FirstKing,
    /// Russian: kings on both sides and the material unchanged too long.
    UnchangedMaterial,
    /// An engine player ran past its time (the arena's loss, not a rule).
    TimeForfeit,
    /// An engine player's process exited or its connection closed.
    EngineFailure,
    /// An engine player sent what its protocol does not allow.
    ProtocolError,
    /// The game reached the endgame tables and ended with their result (an
    /// arena's adjudication, not a rule of the game).
    Tablebase,
}

impl EndReason {
    /// Every reason, in code order (`ALL[r.code()] == r`; codes never change
    /// meaning, new reasons go at the end).
    pub const ALL: [EndReason; 13] = [
        EndReason::NoLegalMove,
        EndReason::Repetition,
        EndReason::NoProgress,
        EndReason::OneKingEach,
        EndReason::LoneKing,
        EndReason::IllegalMove,
        EndReason::MaxPlies,
        EndReason::FirstKing,
        EndReason::UnchangedMaterial,
        EndReason::TimeForfeit,
        EndReason::EngineFailure,
        EndReason::ProtocolError,
        EndReason::Tablebase,
    ];

    /// The index in [`EndReason::ALL`].
    pub fn code(self) -> u8 {
        self as u8
    }

    /// Ended by a rule of the game (not a forfeit, a cap or an
    /// adjudication by the tables).
    pub fn by_rule(self) -> bool {
        !self.is_forfeit() && !matches!(self, EndReason::MaxPlies | EndReason::Tablebase)
    }

    /// A player lost by failing to move (an illegal move, or an engine's
    /// time, crash or protocol fault), not by the position.
    pub fn is_forfeit(self) -> bool {
        matches!(
            self,
            EndReason::IllegalMove
                | EndReason::TimeForfeit
                | EndReason::EngineFailure
                | EndReason::ProtocolError
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            EndReason::NoLegalMove => "no legal move",
            EndReason::FirstKing => "first king",
            EndReason::Repetition => "threefold repetition",
            EndReason::NoProgress => "no progress",
            EndReason::OneKingEach => "one king each",
            EndReason::LoneKing => "lone king rule",
            EndReason::UnchangedMaterial => "unchanged material",
            EndReason::IllegalMove => "illegal move",
            EndReason::MaxPlies => "max plies",
            EndReason::TimeForfeit => "time forfeit",
            EndReason::EngineFailure => "engine failure",
            EndReason::ProtocolError => "protocol error",
            EndReason::Tablebase => "tablebase",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod end_reason_tests {
    use super::EndReason;

    #[test]
    fn codes_index_the_list() {
        for (i, r) in EndReason::ALL.iter().enumerate() {
            assert_eq!(r.code() as usize, i, "{r:?}");
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

#[derive(Clone, Copy, Debug)]
struct Undo {
    pos: Position,
    draws: Mark,
    mv: Move,
}

/// A game of any variant with full history (for undo and repetition).
#[derive(Clone, Debug)]
pub struct Game {
    variant: Variant,
    pos: Position,
    /// Every position of the game (never trimmed, so undo can rewind it).
    draws: DrawState,
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
        let draws = with_rules!(variant, R => DrawState::new::<R>(&pos));
        let mut g = Game {
            variant,
            pos,
            draws,
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
            self.outcome = self.draws.outcome::<R>(&self.pos, self.legal.len());
        });
        // A finished game has no legal moves (rule book G4).
        if self.outcome.is_some() {
            self.legal.clear();
        }
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
        self.draws.counters()
    }
    /// The draw rules' state of the game (a search starting here takes
    /// [`DrawState::recent`]).
    pub fn draw_state(&self) -> &DrawState {
        &self.draws
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

    /// Legal moves of the side to move, each move once; empty once the game
    /// is over, whether won or drawn. (The moves the move rules alone give
    /// in a position, draw rules ignored, are `movegen::legal_moves`; perft
    /// counts those.)
    pub fn legal_moves(&self) -> &[Move] {
        &self.legal
    }

    /// [`Game::legal_moves`] with every path of each capture: a capture that
    /// takes the same pieces to the same square along several paths shows
    /// once per path (equal as [`Move`]s). These are the chains of steps
    /// rafle-env accepts. Empty once the game is over.
    pub fn legal_paths(&self) -> MoveList {
        let mut out = MoveList::new();
        if self.outcome.is_none() {
            with_rules!(self.variant, R => movegen::generate_paths::<R>(&self.pos, &mut out));
        }
        out
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
        let before = self.pos;
        let mark = self.draws.mark();
        self.pos.apply_in(self.variant, &m);
        let v = self.variant;
        with_rules!(v, R => self.draws.push::<R>(&before, &m, &self.pos));
        self.undo.push(Undo {
            pos: before,
            draws: mark,
            mv: m,
        });
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
        self.draws.rewind(u.draws);
        self.refresh();
        Ok(u.mv)
    }

    /// A move in full path notation.
    pub fn move_string(&self, m: &Move) -> String {
        notation::move_to_string(self.variant, m)
    }

    /// Perft from the current position: the leaves of the move rules' tree
    /// (draw rules end games, not perft, as in published perft tables).
    pub fn perft(&self, depth: u32) -> u64 {
        crate::perft::perft_variant(self.variant, &self.pos, depth)
    }
}
