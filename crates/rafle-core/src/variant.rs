//! The variants: one small zero-sized rules description per variant (for
//! the hot loops, which are generic over [`Rules`]) and the runtime enum
//! [`Variant`] that picks one. Every constant cites the rule of the rule book
//! ([`crate::rules`], `crates/rafle-core/RULES.md`) it implements by its id.
//!
//! Adding a variant means one description (a type implementing [`Rules`])
//! and one line in the list given to `variants!` at the end of this file.

use crate::board::Geometry;
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

/// A lone-king ending: one side has a single king and nothing else, the
/// other `min_pieces..=max_pieces` pieces, at least one of them a king. The
/// game is drawn `plies` plies after that material is reached (the count
/// restarts whenever a capture changes it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoneKingLimit {
    pub min_pieces: u32,
    pub max_pieces: u32,
    pub plies: u16,
}

/// A variant's rules, as compile-time constants. Move generation is generic
/// over this trait so that each variant gets its own specialised code.
pub trait Rules: Copy + Default + Send + Sync + fmt::Debug + 'static {
    const VARIANT: Variant;
    const GEO: Geometry;
    /// Which side plays the first move of a game.
    const FIRST: Color;
    /// Number of rows each side fills at the start.
    const START_ROWS: usize;
    const MEN_CAPTURE_BACKWARD: bool;
    const KINGS: KingKind;
    /// Must the capture sequence taking the most pieces be chosen?
    const MAJORITY: bool;
    /// Plies without a capture or a man move after which the game is drawn.
    const NO_PROGRESS_PLIES: u16;
    /// One king each, no men, no capture for the mover -> draw
    /// ([`crate::EndReason::OneKingEach`]).
    const ONE_KING_EACH_DRAW: bool;
    /// Lone-king endings that are drawn after a number of plies
    /// ([`crate::EndReason::LoneKing`]); empty when the variant has none.
    const LONE_KING_LIMITS: &'static [LoneKingLimit];
    /// The name used everywhere: CLI, Python, configs, the PDN `Variant` tag.
    const NAME: &'static str;
    /// Other names accepted on input (any case).
    const ALIASES: &'static [&'static str];
    /// PDN `GameType` number (pdn.fmjd.org/gametype.html).
    const PDN_GAME_TYPE: u32;
    /// PDN result tokens [White wins, Black wins, draw] of the game type.
    const PDN_RESULTS: [&'static str; 3];
}

/// The result tokens of PDN game types 20 (international) and 21 (English).
const PDN_RESULTS_20: [&str; 3] = ["2-0", "0-2", "1-1"];
const PDN_RESULTS_21: [&str; 3] = ["1-0", "0-1", "1/2-1/2"];

/// Thai draughts (rule book section 3, "thai").
#[derive(Clone, Copy, Default, Debug)]
pub struct Thai;
impl Rules for Thai {
    const VARIANT: Variant = Variant::Thai;
    const GEO: Geometry = Geometry::new(8); // T1: 8x8
    const FIRST: Color = Color::Black; // T2
    const START_ROWS: usize = 2; // T1: 8 men each on two rows
    const MEN_CAPTURE_BACKWARD: bool = false; // T4: forward only
    const KINGS: KingKind = KingKind::FlyingLandBehind; // T6, T7: land right behind
    const MAJORITY: bool = false; // T8
    const NO_PROGRESS_PLIES: u16 = 100; // T10: 50 moves each
    const ONE_KING_EACH_DRAW: bool = true; // T9
    const LONE_KING_LIMITS: &'static [LoneKingLimit] = &[];
    const NAME: &'static str = "thai";
    const ALIASES: &'static [&'static str] = &[];
    const PDN_GAME_TYPE: u32 = 31;
    const PDN_RESULTS: [&'static str; 3] = PDN_RESULTS_21;
}

/// International draughts, 10x10 (rule book section 4, "international").
#[derive(Clone, Copy, Default, Debug)]
pub struct International;
impl Rules for International {
    const VARIANT: Variant = Variant::International;
    const GEO: Geometry = Geometry::new(10); // I1: 10x10
    const FIRST: Color = Color::White; // I2
    const START_ROWS: usize = 4; // I1: Black on 1-20, White on 31-50
    const MEN_CAPTURE_BACKWARD: bool = true; // I3
    const KINGS: KingKind = KingKind::FlyingLandAnywhere; // I4: any square beyond
    const MAJORITY: bool = true; // I5
    const NO_PROGRESS_PLIES: u16 = 50; // I7: 25 moves each, only kings
    const ONE_KING_EACH_DRAW: bool = false;
    const LONE_KING_LIMITS: &'static [LoneKingLimit] = &[
        // I8: against three pieces, one a king or more: 16 moves each
        LoneKingLimit {
            min_pieces: 3,
            max_pieces: 3,
            plies: 32,
        },
        // I9: against one or two pieces, one a king or more: 5 moves each
        LoneKingLimit {
            min_pieces: 1,
            max_pieces: 2,
            plies: 10,
        },
    ];
    const NAME: &'static str = "international";
    const ALIASES: &'static [&'static str] = &["intl", "10x10"];
    const PDN_GAME_TYPE: u32 = 20;
    const PDN_RESULTS: [&'static str; 3] = PDN_RESULTS_20;
}

/// English draughts as the rule book gives it (section 5, "english"): short
/// kings, majority rule.
#[derive(Clone, Copy, Default, Debug)]
pub struct English;
impl Rules for English {
    const VARIANT: Variant = Variant::English;
    const GEO: Geometry = Geometry::new(8); // E1: 8x8
    const FIRST: Color = Color::Black; // E2
    const START_ROWS: usize = 3; // E1: Black on 1-12, White on 21-32
    const MEN_CAPTURE_BACKWARD: bool = false; // E3
    const KINGS: KingKind = KingKind::Short; // E4: one square
    const MAJORITY: bool = true; // E5
    const NO_PROGRESS_PLIES: u16 = 80; // E7: 40 moves each
    const ONE_KING_EACH_DRAW: bool = false;
    const LONE_KING_LIMITS: &'static [LoneKingLimit] = &[];
    const NAME: &'static str = "english";
    const ALIASES: &'static [&'static str] = &[];
    const PDN_GAME_TYPE: u32 = 21;
    const PDN_RESULTS: [&'static str; 3] = PDN_RESULTS_21;
}

/// Standard checkers (rule book section 6, "checkers"): English without the
/// majority rule.
#[derive(Clone, Copy, Default, Debug)]
pub struct Checkers;
impl Rules for Checkers {
    const VARIANT: Variant = Variant::Checkers;
    // K1: as english, but for the majority rule.
    const GEO: Geometry = English::GEO;
    const FIRST: Color = English::FIRST;
    const START_ROWS: usize = English::START_ROWS;
    const MEN_CAPTURE_BACKWARD: bool = English::MEN_CAPTURE_BACKWARD;
    const KINGS: KingKind = English::KINGS;
    const MAJORITY: bool = false; // K2
    const NO_PROGRESS_PLIES: u16 = English::NO_PROGRESS_PLIES;
    const ONE_KING_EACH_DRAW: bool = English::ONE_KING_EACH_DRAW;
    const LONE_KING_LIMITS: &'static [LoneKingLimit] = English::LONE_KING_LIMITS;
    const NAME: &'static str = "checkers";
    const ALIASES: &'static [&'static str] = &[];
    // PDN has one game type for English draughts and checkers; the
    // `Variant` tag tells them apart.
    const PDN_GAME_TYPE: u32 = English::PDN_GAME_TYPE;
    const PDN_RESULTS: [&'static str; 3] = English::PDN_RESULTS;
}

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

// The list of variants: each name is a rules description above.
variants!($
    Thai,
    International,
    English,
    Checkers,
);

impl Variant {
    pub fn name(self) -> &'static str {
        with_rules!(self, R => R::NAME)
    }

    /// Other names accepted on input.
    pub fn aliases(self) -> &'static [&'static str] {
        with_rules!(self, R => R::ALIASES)
    }

    /// The names of all variants, comma separated (for error messages).
    pub fn list() -> String {
        Variant::ALL.map(Variant::name).join(", ")
    }

    /// Board geometry of the variant.
    pub fn geometry(self) -> Geometry {
        with_rules!(self, R => R::GEO)
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
        with_rules!(self, R => R::FIRST)
    }

    /// Plies without a capture or a man move after which the game is drawn.
    pub fn no_progress_plies(self) -> u16 {
        with_rules!(self, R => R::NO_PROGRESS_PLIES)
    }

    /// PDN `GameType` number.
    pub fn pdn_game_type(self) -> u32 {
        with_rules!(self, R => R::PDN_GAME_TYPE)
    }

    /// PDN result token of a winner (`None`: a draw) in the variant's game type.
    pub fn pdn_result(self, winner: Option<Color>) -> &'static str {
        let [white, black, draw] = with_rules!(self, R => R::PDN_RESULTS);
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
