//! The four variants: a runtime enum and, for the hot loops, one small
//! zero-sized rules description per variant. Every constant cites the rule of
//! `RULES.md` it implements.

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
    /// Thai: one king each, no men, no capture for the mover -> draw.
    const ONE_KING_EACH_DRAW: bool;
    /// International 16-move / 5-move endgame rules.
    const LONE_KING_RULES: bool;
}

/// Thai draughts (RULES.md "thai").
#[derive(Clone, Copy, Default, Debug)]
pub struct Thai;
impl Rules for Thai {
    const VARIANT: Variant = Variant::Thai;
    const GEO: Geometry = Geometry::new(8); // "8x8"
    const FIRST: Color = Color::Black; // "Black moves first"
    const START_ROWS: usize = 2; // "8 men each on the first two rows"
    const MEN_CAPTURE_BACKWARD: bool = false; // "Men capture FORWARD ONLY"
    const KINGS: KingKind = KingKind::FlyingLandBehind; // "MUST land on that square right behind"
    const MAJORITY: bool = false; // "there is NO majority rule"
    const NO_PROGRESS_PLIES: u16 = 100; // "for thai, 50 moves by each player (100 plies)"
    const ONE_KING_EACH_DRAW: bool = true; // "each side has exactly one king and no men"
    const LONE_KING_RULES: bool = false;
}

/// International draughts, 10x10 (RULES.md "international").
#[derive(Clone, Copy, Default, Debug)]
pub struct International;
impl Rules for International {
    const VARIANT: Variant = Variant::International;
    const GEO: Geometry = Geometry::new(10); // "10x10"
    const FIRST: Color = Color::White; // "White moves first"
    const START_ROWS: usize = 4; // "Black on 1-20, White on 31-50"
    const MEN_CAPTURE_BACKWARD: bool = true; // "men capture forward AND backward"
    const KINGS: KingKind = KingKind::FlyingLandAnywhere; // "may land on ANY empty square beyond"
    const MAJORITY: bool = true; // "Majority rule ... a king counts as one piece"
    const NO_PROGRESS_PLIES: u16 = 50; // "25 moves by each player (50 plies) ... only kings moved"
    const ONE_KING_EACH_DRAW: bool = false;
    const LONE_KING_RULES: bool = true; // "after 16 moves ... after 5 moves"
}

/// English draughts as RULES.md gives it: short kings, majority rule.
#[derive(Clone, Copy, Default, Debug)]
pub struct English;
impl Rules for English {
    const VARIANT: Variant = Variant::English;
    const GEO: Geometry = Geometry::new(8); // "8x8"
    const FIRST: Color = Color::Black; // "Black moves first"
    const START_ROWS: usize = 3; // "Black on 1-12, White on 21-32"
    const MEN_CAPTURE_BACKWARD: bool = false; // "capture forward only"
    const KINGS: KingKind = KingKind::Short; // "Kings move ONE square"
    const MAJORITY: bool = true; // "Majority rule (as the seed states it)"
    const NO_PROGRESS_PLIES: u16 = 80; // "40 moves by each player (80 plies)"
    const ONE_KING_EACH_DRAW: bool = false;
    const LONE_KING_RULES: bool = false;
}

/// Standard checkers: English without the majority rule.
#[derive(Clone, Copy, Default, Debug)]
pub struct Checkers;
impl Rules for Checkers {
    const VARIANT: Variant = Variant::Checkers;
    const GEO: Geometry = Geometry::new(8);
    const FIRST: Color = Color::Black;
    const START_ROWS: usize = 3;
    const MEN_CAPTURE_BACKWARD: bool = false;
    const KINGS: KingKind = KingKind::Short;
    const MAJORITY: bool = false; // "WITHOUT the majority rule"
    const NO_PROGRESS_PLIES: u16 = 80;
    const ONE_KING_EACH_DRAW: bool = false;
    const LONE_KING_RULES: bool = false;
}

/// The variant chosen at run time (from Python, a config or the CLI).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    Thai,
    International,
    English,
    Checkers,
}

impl Variant {
    pub const ALL: [Variant; 4] = [
        Variant::Thai,
        Variant::International,
        Variant::English,
        Variant::Checkers,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Variant::Thai => "thai",
            Variant::International => "international",
            Variant::English => "english",
            Variant::Checkers => "checkers",
        }
    }

    /// Board geometry of the variant.
    pub fn geometry(self) -> Geometry {
        crate::with_rules!(self, R => R::GEO)
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
        crate::with_rules!(self, R => R::FIRST)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        match s.trim().to_ascii_lowercase().as_str() {
            "thai" => Ok(Variant::Thai),
            "international" | "intl" | "10x10" => Ok(Variant::International),
            "english" => Ok(Variant::English),
            "checkers" => Ok(Variant::Checkers),
            _ => Err(Error::UnknownVariant(s.to_string())),
        }
    }
}

/// Runs `$body` with the type alias `$R` bound to the rules of variant `$v`,
/// so runtime code reaches the monomorphised hot loops.
#[macro_export]
macro_rules! with_rules {
    ($v:expr, $R:ident => $body:expr) => {
        match $v {
            $crate::Variant::Thai => {
                type $R = $crate::variant::Thai;
                $body
            }
            $crate::Variant::International => {
                type $R = $crate::variant::International;
                $body
            }
            $crate::Variant::English => {
                type $R = $crate::variant::English;
                $body
            }
            $crate::Variant::Checkers => {
                type $R = $crate::variant::Checkers;
                $body
            }
        }
    };
}
