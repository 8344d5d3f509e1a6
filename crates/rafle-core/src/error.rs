//! Errors of the rule engine: every bad input becomes one of these, never a panic.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    UnknownVariant(String),
    /// A FEN that could not be read; the string says what is wrong.
    Fen(String),
    /// A move string that could not be read at all.
    MoveSyntax(String),
    /// A well-formed move that is not legal in the position.
    IllegalMove(String),
    /// A move string matching several legal moves (short capture notation).
    AmbiguousMove(String),
    /// The game is over; no move can be played.
    GameOver,
    /// `undo` with nothing to undo.
    NothingToUndo,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownVariant(v) => write!(
                f,
                "unknown variant {v:?} (expected one of: {})",
                crate::Variant::list()
            ),
            Error::Fen(msg) => write!(f, "invalid FEN: {msg}"),
            Error::MoveSyntax(msg) => write!(f, "malformed move: {msg}"),
            Error::IllegalMove(m) => write!(f, "illegal move: {m}"),
            Error::AmbiguousMove(m) => {
                write!(f, "ambiguous move {m}: give the full path")
            }
            Error::GameOver => write!(f, "the game is over"),
            Error::NothingToUndo => write!(f, "no move to undo"),
        }
    }
}

impl std::error::Error for Error {}
