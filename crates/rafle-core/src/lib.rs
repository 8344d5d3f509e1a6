//! rafle-core: the rule engine of rafle.
//!
//! Bitboard positions ([`Position`]), one rules description per variant
//! ([`variant`]), a move generator generic over it ([`movegen`]), PDN FEN and
//! move notation ([`fen`], [`notation`]), the draw rules' state of a line of
//! play ([`draws`]), games ([`Game`]), random openings ([`opening`]), perft ([`perft`]) and an SVG picture
//! of the board ([`svg`]); [`atomic`] replaces files whole for every crate
//! that writes them. The rules are those of the rule book, [`rules`]
//! (`crates/rafle-core/RULES.md`): every rule with the code that enforces it
//! and the tests that check it.

// First: the `with_rules!` macro it declares is used by the modules below.
#[macro_use]
pub mod variant;

pub mod atomic;
pub mod board;
pub mod draws;
pub mod error;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod opening;
pub mod perft;
pub mod position;
pub mod rng;
#[doc = include_str!("../RULES.md")]
pub mod rules {}
pub mod svg;
pub mod text;
pub mod types;

pub use board::{bit, BitWord, Bitboard, Bits, Dir, Geometry, MAX_BITS};
pub use draws::{Counters, DrawState};
pub use error::Error;
pub use fen::{parse_fen, to_fen};
pub use game::{EndReason, Game, Outcome};
pub use moves::{Move, MoveList, MAX_JUMPS};
pub use opening::random_opening;
pub use position::{KingRun, Piece, Position};
pub use svg::{board_svg, SvgOptions};
pub use text::board_text;
pub use types::Color;
pub use variant::{
    Antidraughts, Brazilian, Breakthrough, Checkers, Czech, English, Goal, International, Italian,
    Killer, KingKind, MaterialLimit, Notation, Pool, Precedence, RuleSet, Rules, Russian, Spanish,
    Thai, Variant,
};
