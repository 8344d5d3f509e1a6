//! The variants: one small zero-sized rules description per variant (for
//! the hot loops, which are generic over [`Rules`]) and the runtime enum
//! [`Variant`] that picks one. Every constant cites the rule of the rule book
//! ([`crate::rules`], `crates/rafle-core/RULES.md`) it implements by its id.
//!
//! The descriptions live in one file per family (each rule set is written
//! "as X, but" its family's first): `international.rs`, `flying_8x8.rs`,
//! `short_king.rs`, `orthogonal.rs`. Adding a variant means one description
//! (a type implementing [`Rules`]) in its family's file, its `pub use`
//! below, and one line in the list given to `variants!` in this file.

mod flying_8x8;
mod international;
mod orthogonal;
mod short_king;

pub use flying_8x8::{Brazilian, Pool, Russian, Thai};
pub use international::{Antidraughts, Breakthrough, Canadian, Frisian, International, Killer};
pub use orthogonal::Turkish;
pub use short_king::{Checkers, Czech, English, Italian, Spanish};

use crate::board::{BitWord, Geometry};
use crate::error::Error;
use crate::types::Color;
use std::fmt;
use std::str::FromStr;

/// How kings move and capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingKind {
    /// One square in any direction; captures by jumping an adjacent piece.
    Short,
    /// Any distance; after a capture lands on the square right behind the piece.
    FlyingLandBehind,
    /// Any distance; after a capture lands on any empty square beyond the piece.
    FlyingLandAnywhere,
}

/// One key of the capture precedence (rule book C7): among the legal
/// capture sequences only those with the greatest key survive, keys compared
/// in the order the variant lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precedence {
    /// The number of pieces captured (a king counts as one).
    Quantity,
    /// Capturing with a king rather than with a man.
    WithKing,
    /// The number of kings captured.
    KingsCaptured,
    /// The sequence that meets kings the earliest: the jumps that take a
    /// king, compared in order (the first king earlier wins; then the next).
    /// Packs 20 bits, so it comes last in a list.
    EarliestKing,
    /// The value captured, a king worth a little less than two men (frisian,
    /// rule book F5): `64 * (pieces + kings) - kings`, so that k kings beat
    /// 2k - 1 men and lose to 2k men.
    Value,
}

/// How a game is won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The side to move without a legal move loses (G1).
    LastMoveWins,
    /// The side to move without a legal move wins (antidraughts, A1).
    NoMoveWins,
    /// The first player to crown a king wins (breakthrough, X1); without a
    /// legal move one loses, as in G1.
    FirstKingWins,
}

/// How squares are written in moves and FENs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// PDN square numbers 1..N*N/2 (B2).
    Numeric,
    /// Files and ranks: `c3`, `d4` (B8).
    Algebraic,
}

/// A lone-king ending: one side has a single king and nothing else, the
/// other `min_pieces..=max_pieces` pieces, at least one of them a king (all
/// of them kings when `kings_only`). The game is drawn `plies` plies after
/// that material is reached (the count restarts whenever a capture changes
/// it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoneKingLimit {
    pub min_pieces: u32,
    pub max_pieces: u32,
    pub kings_only: bool,
    pub plies: u16,
}

/// An ending in which both sides have a king and the board holds
/// `min_pieces..=max_pieces` pieces in all: drawn after `plies` plies
/// without a capture or a crowning (FMJD-64 7.2.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaterialLimit {
    pub min_pieces: u32,
    pub max_pieces: u32,
    pub plies: u16,
}

/// A variant's rules as one value. Each variant's description below is a
/// `RuleSet` constant, often written "as X, but" with `..X::SET`; every field
/// cites the rule of the rule book it implements.
#[derive(Clone, Copy, Debug)]
pub struct RuleSet {
    /// The name used everywhere: CLI, Python, configs, the PDN `Variant` tag.
    pub name: &'static str,
    /// Other names accepted on input (any case).
    pub aliases: &'static [&'static str],
    pub geo: Geometry,
    /// Which side plays the first move of a game.
    pub first: Color,
    /// Number of rows each side fills at the start.
    pub start_rows: usize,
    /// Rows left empty behind them (turkish: the back row).
    pub empty_back_rows: usize,
    pub men_capture_backward: bool,
    /// May a man capture a king? (Not in italian.)
    pub men_capture_kings: bool,
    pub kings: KingKind,
    /// Capture precedence keys, most important first; empty = free choice.
    pub precedence: &'static [Precedence],
    /// A man reaching the far row during a capture is crowned there and goes
    /// on capturing as a king (russian); otherwise it stays a man.
    pub crown_mid_capture: bool,
    /// A flying king must land on a square from which its capture goes on,
    /// when one of the squares beyond its victim allows that (russian).
    pub land_to_continue: bool,
    /// A king whose capture ends by jumping a king halts right behind that
    /// king (killer).
    pub halt_behind_king: bool,
    /// Men and kings also capture along rows and columns (frisian); quiet
    /// moves stay diagonal.
    pub orthogonal_captures: bool,
    /// Men and kings move and capture along rows and columns only, men
    /// forward or sideways (turkish, on a full board).
    pub orthogonal_moves: bool,
    /// A captured piece leaves the board at once, so a later jump of the
    /// same capture may cross its square; a jump may then not turn back
    /// along the line of the jump before it (turkish).
    pub immediate_removal: bool,
    /// While its side has men, one king may make at most this many quiet
    /// moves in a row (frisian); 0: no limit.
    pub king_move_limit: u8,
    pub goal: Goal,
    /// The game is drawn when a position stands for this many times (G2).
    pub repetitions: u8,
    /// Plies without a capture or a man move after which the game is drawn;
    /// 0: no such rule.
    pub no_progress_plies: u16,
    /// One king each, no men, no capture for the mover -> draw
    /// ([`crate::EndReason::OneKingEach`]).
    pub one_king_each_draw: bool,
    /// Lone-king endings that are drawn after a number of plies
    /// ([`crate::EndReason::LoneKing`]); empty when the variant has none.
    pub lone_king_limits: &'static [LoneKingLimit],
    /// Endings with kings on both sides drawn when the material stays the
    /// same ([`crate::EndReason::UnchangedMaterial`]); empty when none.
    pub material_limits: &'static [MaterialLimit],
    /// PDN `GameType` number (pdn.fmjd.org/gametype.html).
    pub pdn_game_type: u32,
    /// PDN result tokens [White wins, Black wins, draw] of the game type.
    pub pdn_results: [&'static str; 3],
    /// How moves and FENs are printed (both forms are read).
    pub notation: Notation,
}

/// A variant's rules at compile time: move generation is generic over this
/// trait so that each variant gets its own specialised code. The constants
/// are the fields of [`Rules::SET`].
pub trait Rules: Copy + Default + Send + Sync + fmt::Debug + 'static {
    const VARIANT: Variant;
    /// The integer the hot loops hold this board's bitboards in: `u64` up to
    /// 10x10, `u128` on 12x12 (see [`crate::board`]).
    type Word: BitWord;
    const SET: RuleSet;
    const GEO: Geometry = Self::SET.geo;
    const FIRST: Color = Self::SET.first;
    const START_ROWS: usize = Self::SET.start_rows;
    const MEN_CAPTURE_BACKWARD: bool = Self::SET.men_capture_backward;
    const MEN_CAPTURE_KINGS: bool = Self::SET.men_capture_kings;
    const KINGS: KingKind = Self::SET.kings;
    const PRECEDENCE: &'static [Precedence] = Self::SET.precedence;
    const CROWN_MID_CAPTURE: bool = Self::SET.crown_mid_capture;
    const LAND_TO_CONTINUE: bool = Self::SET.land_to_continue;
    const HALT_BEHIND_KING: bool = Self::SET.halt_behind_king;
    const ORTHOGONAL_CAPTURES: bool = Self::SET.orthogonal_captures;
    const ORTHOGONAL_MOVES: bool = Self::SET.orthogonal_moves;
    const IMMEDIATE_REMOVAL: bool = Self::SET.immediate_removal;
    const KING_MOVE_LIMIT: u8 = Self::SET.king_move_limit;
    const GOAL: Goal = Self::SET.goal;
    const REPETITIONS: usize = Self::SET.repetitions as usize;
    const NO_PROGRESS_PLIES: u16 = Self::SET.no_progress_plies;
    const ONE_KING_EACH_DRAW: bool = Self::SET.one_king_each_draw;
    const LONE_KING_LIMITS: &'static [LoneKingLimit] = Self::SET.lone_king_limits;
    const MATERIAL_LIMITS: &'static [MaterialLimit] = Self::SET.material_limits;
}

/// The result tokens of PDN game types 20 (international) and 21 (English).
const PDN_RESULTS_20: [&str; 3] = ["2-0", "0-2", "1-1"];
const PDN_RESULTS_21: [&str; 3] = ["1-0", "0-1", "1/2-1/2"];

/// Majority rule (C7): the most pieces.
const MAJORITY: &[Precedence] = &[Precedence::Quantity];

/// Declares the runtime enum [`Variant`] (one value per rules description,
/// of the same name), [`Variant::ALL`], and the [`with_rules!`] macro that
/// reaches the rules of a runtime variant. `$d` is a `$` token, so that this
/// macro can write the metavariables of the macro it defines.
macro_rules! variants {
    ($d:tt $($name:ident),+ $(,)?) => {
        /// The variant chosen at run time (from Python, a config or the CLI).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Variant {
            $($name),+
        }

        impl Variant {
            /// Every variant, in the order of the list.
            pub const ALL: [Variant; [$(Variant::$name),+].len()] = [$(Variant::$name),+];
        }

        /// Runs `$body` with the type alias `$R` bound to the rules of
        /// variant `$v`, so runtime code reaches the monomorphised hot loops.
        #[macro_export]
        macro_rules! with_rules {
            ($d v:expr, $d R:ident => $d body:expr) => {
                match $d v {
                    $($d crate::Variant::$name => {
                        type $d R = $d crate::variant::$name;
                        $d body
                    })+
                }
            };
        }
    };
}

// The list of variants: each name is a rules description of a family file.
variants!($
    Thai,
    International,
    English,
    Checkers,
    Russian,
    Brazilian,
    Pool,
    Italian,
    Spanish,
    Czech,
    Killer,
    Antidraughts,
    Breakthrough,
    Frisian,
    Turkish,
    Canadian,
);

impl Variant {
    /// The variant's rules as a value (for code that reads them at run
    /// time; hot loops use [`Rules`]).
    pub fn rules(self) -> &'static RuleSet {
        with_rules!(self, R => &R::SET)
    }

    pub fn name(self) -> &'static str {
        self.rules().name
    }

    /// Other names accepted on input.
    pub fn aliases(self) -> &'static [&'static str] {
        self.rules().aliases
    }

    /// The names of all variants, comma separated (for error messages).
    pub fn list() -> String {
        Variant::ALL.map(Variant::name).join(", ")
    }

    /// Board geometry of the variant.
    pub fn geometry(self) -> Geometry {
        self.rules().geo
    }

    /// Board side length N.
    pub fn board_size(self) -> usize {
        self.geometry().n
    }

    /// Number of playable squares N*N/2.
    pub fn num_squares(self) -> usize {
        self.geometry().squares
    }

    pub fn first_player(self) -> Color {
        self.rules().first
    }

    /// Plies without a capture or a man move after which the game is drawn
    /// (0: the variant has no such rule).
    pub fn no_progress_plies(self) -> u16 {
        self.rules().no_progress_plies
    }

    /// PDN `GameType` number.
    pub fn pdn_game_type(self) -> u32 {
        self.rules().pdn_game_type
    }

    /// PDN result token of a winner (`None`: a draw) in the variant's game type.
    pub fn pdn_result(self, winner: Option<Color>) -> &'static str {
        let [white, black, draw] = self.rules().pdn_results;
        match winner {
            Some(Color::White) => white,
            Some(Color::Black) => black,
            None => draw,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = Error;
    /// A variant's name or alias, in any case, surrounding spaces ignored.
    fn from_str(s: &str) -> Result<Self, Error> {
        let want = s.trim().to_ascii_lowercase();
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == want || v.aliases().contains(&want.as_str()))
            .ok_or_else(|| Error::UnknownVariant(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_board_fits_its_word() {
        for v in Variant::ALL {
            let g = v.geometry();
            let fits = with_rules!(v, R => <R as Rules>::Word::narrow(g.valid).widen() == g.valid);
            assert!(fits, "{v}: {} bits", g.span());
        }
    }
}
