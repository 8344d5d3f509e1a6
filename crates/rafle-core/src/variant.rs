//! The variants: one small zero-sized rules description per variant (for
//! the hot loops, which are generic over [`Rules`]) and the runtime enum
//! [`Variant`] that picks one. Every constant cites the rule of the rule book
//! ([`crate::rules`], `crates/rafle-core/RULES.md`) it implements by its id.
//!
//! Adding a variant means one description (a type implementing [`Rules`])
//! and one line in the list given to `variants!` at the end of this file.

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

/// FMJD-64 rule 7.2.6 (rule book R11): kings on both sides, the material
/// unchanged for 30 moves each with 4 or 5 pieces, 60 with 6 or 7.
const RUSSIAN_MATERIAL: &[MaterialLimit] = &[
    MaterialLimit {
        min_pieces: 4,
        max_pieces: 5,
        plies: 60,
    },
    MaterialLimit {
        min_pieces: 6,
        max_pieces: 7,
        plies: 120,
    },
];

/// FMJD-64 rules 7.2.4 and 7.2.8 (rule book R9, R10).
const RUSSIAN_LONE_KING: &[LoneKingLimit] = &[
    // R9: three kings or more against a lone king: 15 moves each.
    LoneKingLimit {
        min_pieces: 3,
        max_pieces: 12,
        kings_only: true,
        plies: 30,
    },
    // R10: one or two pieces, one a king, against a lone king: 5 moves each.
    LoneKingLimit {
        min_pieces: 1,
        max_pieces: 2,
        kings_only: false,
        plies: 10,
    },
];

/// Thai draughts (rule book section 3, "thai").
#[derive(Clone, Copy, Default, Debug)]
pub struct Thai;
impl Rules for Thai {
    const VARIANT: Variant = Variant::Thai;
    type Word = u64;
    const SET: RuleSet = RuleSet {
        name: "thai",
        aliases: &[],
        geo: Geometry::new(8), // T1: 8x8
        first: Color::Black,   // T2
        start_rows: 2,         // T1: 8 men each on two rows
        empty_back_rows: 0,
        men_capture_backward: false, // T4: forward only
        men_capture_kings: true,
        kings: KingKind::FlyingLandBehind, // T6, T7: land right behind
        precedence: &[],                   // T8
        crown_mid_capture: false,          // T5: a man's capture ends on the far row
        land_to_continue: false,
        halt_behind_king: false,
        orthogonal_captures: false,
        orthogonal_moves: false,
        immediate_removal: false,
        king_move_limit: 0,
        goal: Goal::LastMoveWins,
        repetitions: 3,           // G2
        no_progress_plies: 100,   // T10: 50 moves each
        one_king_each_draw: true, // T9
        lone_king_limits: &[],
        material_limits: &[],
        pdn_game_type: 31,
        pdn_results: PDN_RESULTS_21,
        notation: Notation::Numeric,
    };
}

/// International draughts, 10x10 (rule book section 4, "international").
#[derive(Clone, Copy, Default, Debug)]
pub struct International;
impl Rules for International {
    const VARIANT: Variant = Variant::International;
    type Word = u64;
    const SET: RuleSet = RuleSet {
        name: "international",
        aliases: &["intl", "10x10"],
        geo: Geometry::new(10), // I1: 10x10
        first: Color::White,    // I2
        start_rows: 4,          // I1: Black on 1-20, White on 31-50
        empty_back_rows: 0,
        men_capture_backward: true, // I3
        men_capture_kings: true,
        kings: KingKind::FlyingLandAnywhere, // I4: any square beyond
        precedence: MAJORITY,                // I5
        crown_mid_capture: false,            // I6
        land_to_continue: false,
        halt_behind_king: false,
        orthogonal_captures: false,
        orthogonal_moves: false,
        immediate_removal: false,
        king_move_limit: 0,
        goal: Goal::LastMoveWins,
        repetitions: 3,        // G2
        no_progress_plies: 50, // I7: 25 moves each, only kings
        one_king_each_draw: false,
        lone_king_limits: &[
            // I8: against three pieces, one a king or more: 16 moves each
            LoneKingLimit {
                min_pieces: 3,
                max_pieces: 3,
                kings_only: false,
                plies: 32,
            },
            // I9: against one or two pieces, one a king or more: 5 moves each
            LoneKingLimit {
                min_pieces: 1,
                max_pieces: 2,
                kings_only: false,
                plies: 10,
            },
        ],
        material_limits: &[],
        pdn_game_type: 20,
        pdn_results: PDN_RESULTS_20,
        notation: Notation::Numeric,
    };
}

/// English draughts as the rule book gives it (section 5, "english"): short
/// kings, majority rule.
#[derive(Clone, Copy, Default, Debug)]
pub struct English;
impl Rules for English {
    const VARIANT: Variant = Variant::English;
    type Word = u64;
    const SET: RuleSet = RuleSet {
        name: "english",
        aliases: &[],
        geo: Geometry::new(8), // E1: 8x8
        first: Color::Black,   // E2
        start_rows: 3,         // E1: Black on 1-12, White on 21-32
        empty_back_rows: 0,
        men_capture_backward: false, // E3
        men_capture_kings: true,
        kings: KingKind::Short,   // E4: one square
        precedence: MAJORITY,     // E5
        crown_mid_capture: false, // E6: the move ends on the far row
        land_to_continue: false,
        halt_behind_king: false,
        orthogonal_captures: false,
        orthogonal_moves: false,
        immediate_removal: false,
        king_move_limit: 0,
        goal: Goal::LastMoveWins,
        repetitions: 3,        // G2
        no_progress_plies: 80, // E7: 40 moves each
        one_king_each_draw: false,
        lone_king_limits: &[],
        material_limits: &[],
        pdn_game_type: 21,
        pdn_results: PDN_RESULTS_21,
        notation: Notation::Numeric,
    };
}

/// Standard checkers (rule book section 6, "checkers"): English without the
/// majority rule.
#[derive(Clone, Copy, Default, Debug)]
pub struct Checkers;
impl Rules for Checkers {
    const VARIANT: Variant = Variant::Checkers;
    type Word = u64;
    // K1: as english, but for the majority rule. PDN has one game type for
    // English draughts and checkers; the `Variant` tag tells them apart.
    const SET: RuleSet = RuleSet {
        name: "checkers",
        precedence: &[], // K2
        ..English::SET
    };
}

/// Russian draughts, shashki (rule book section 9, "russian").
#[derive(Clone, Copy, Default, Debug)]
pub struct Russian;
impl Rules for Russian {
    const VARIANT: Variant = Variant::Russian;
    type Word = u64;
    const SET: RuleSet = RuleSet {
        name: "russian",
        aliases: &["shashki"],
        geo: Geometry::new(8), // R1: 8x8
        first: Color::White,   // R2
        start_rows: 3,         // R1: 12 men each
        empty_back_rows: 0,
        men_capture_backward: true, // R3
        men_capture_kings: true,
        kings: KingKind::FlyingLandAnywhere, // R5
        precedence: &[],                     // R6: free choice
        crown_mid_capture: true,             // R4
        land_to_continue: true,              // R5
        halt_behind_king: false,
        orthogonal_captures: false,
        orthogonal_moves: false,
        immediate_removal: false,
        king_move_limit: 0,
        goal: Goal::LastMoveWins,
        repetitions: 3,        // G2
        no_progress_plies: 30, // R7: 15 moves each with kings only
        one_king_each_draw: false,
        lone_king_limits: RUSSIAN_LONE_KING, // R9, R10
        material_limits: RUSSIAN_MATERIAL,   // R11
        pdn_game_type: 25,
        pdn_results: PDN_RESULTS_21,
        notation: Notation::Algebraic, // R8
    };
}

/// Brazilian draughts (rule book section 10, "brazilian"): international
/// rules on 8x8.
#[derive(Clone, Copy, Default, Debug)]
pub struct Brazilian;
impl Rules for Brazilian {
    const VARIANT: Variant = Variant::Brazilian;
    type Word = u64;
    const SET: RuleSet = RuleSet {
        name: "brazilian",
        aliases: &[],
        geo: Geometry::new(8),               // Z1: 8x8
        start_rows: 3,                       // Z1: 12 men each
        no_progress_plies: 40,               // Z3: 20 moves each with kings only (CBD)
        lone_king_limits: RUSSIAN_LONE_KING, // Z4: as russian (FMJD-64)
        material_limits: RUSSIAN_MATERIAL,   // Z4
        pdn_game_type: 26,
        pdn_results: PDN_RESULTS_21,
        notation: Notation::Algebraic, // Z5
        ..International::SET           // Z2: every other rule as international
    };
}

/// American pool checkers (rule book section 11, "pool").
#[derive(Clone, Copy, Default, Debug)]
pub struct Pool;
impl Rules for Pool {
    const VARIANT: Variant = Variant::Pool;
    type Word = u64;
    const SET: RuleSet = RuleSet {
        name: "pool",
        aliases: &["american-pool", "pool-checkers"],
        first: Color::Black,      // P2
        precedence: &[],          // P4: free choice
        crown_mid_capture: false, // P5: passing the far row, a man stays a man
        land_to_continue: true,   // P6: as russian
        // P7: 15 moves each with kings only (APCA rule 26); P8: three kings
        // against one: 13 moves each.
        no_progress_plies: 30,
        lone_king_limits: &[LoneKingLimit {
            min_pieces: 3,
            max_pieces: 3,
            kings_only: true,
            plies: 26,
        }],
        pdn_game_type: 23,
        notation: Notation::Numeric,
        ..Russian::SET // P1, P3: 8x8, 12 men, men capture backward, flying kings
    };
}

/// Italian draughts (rule book section 12, "italian").
#[derive(Clone, Copy, Default, Debug)]
pub struct Italian;
impl Rules for Italian {
    const VARIANT: Variant = Variant::Italian;
    type Word = u64;
    const SET: RuleSet = RuleSet {
        name: "italian",
        aliases: &[],
        geo: Geometry::mirrored(8), // N1: the mirrored board
        first: Color::White,        // N2
        men_capture_kings: false,   // N4
        // N5: most pieces; then with a king; then most kings; then the
        // first king taken earliest.
        precedence: &[
            Precedence::Quantity,
            Precedence::WithKing,
            Precedence::KingsCaptured,
            Precedence::EarliestKing,
        ],
        repetitions: 4,        // N6: a position for the fourth time (FID 9.3)
        no_progress_plies: 80, // N7: 40 moves each (FID 10.4)
        pdn_game_type: 22,
        ..English::SET // N3: men forward only, short kings, crowned on the far row
    };
}

/// Spanish (and Portuguese) draughts (rule book section 13, "spanish").
#[derive(Clone, Copy, Default, Debug)]
pub struct Spanish;
impl Rules for Spanish {
    const VARIANT: Variant = Variant::Spanish;
    type Word = u64;
    const SET: RuleSet = RuleSet {
        name: "spanish",
        aliases: &["portuguese"],
        kings: KingKind::FlyingLandAnywhere, // S3
        men_capture_kings: true,
        // S4: most pieces, then most kings.
        precedence: &[Precedence::Quantity, Precedence::KingsCaptured],
        // S1: numbered from White's side, h1 = 1 (PDN game type 24, N1).
        geo: Geometry::mirrored(8).numbered_from_white(),
        repetitions: 3,        // S5
        no_progress_plies: 40, // S6: 20 moves each (FPD 3.2.a)
        // S7: three kings against one: 12 moves each (FPD 3.2.b).
        lone_king_limits: &[LoneKingLimit {
            min_pieces: 3,
            max_pieces: 3,
            kings_only: true,
            plies: 24,
        }],
        pdn_game_type: 24,
        ..Italian::SET // S1, S2: mirrored 8x8, White first, men forward only
    };
}

/// Czech draughts (rule book section 14, "czech").
#[derive(Clone, Copy, Default, Debug)]
pub struct Czech;
impl Rules for Czech {
    const VARIANT: Variant = Variant::Czech;
    type Word = u64;
    const SET: RuleSet = RuleSet {
        name: "czech",
        aliases: &[],
        first: Color::White,                 // Q2
        kings: KingKind::FlyingLandAnywhere, // Q3
        land_to_continue: true,              // Q3
        precedence: &[Precedence::WithKing], // Q4: a king's capture first
        no_progress_plies: 0,                // Q5: no move-count rule
        pdn_game_type: 29,
        notation: Notation::Algebraic, // Q6
        ..English::SET                 // Q1: 8x8, 12 men, men forward only
    };
}

/// Killer draughts (rule book section 15, "killer"): international with
/// kings halting behind a captured king.
#[derive(Clone, Copy, Default, Debug)]
pub struct Killer;
impl Rules for Killer {
    const VARIANT: Variant = Variant::Killer;
    type Word = u64;
    const SET: RuleSet = RuleSet {
        name: "killer",
        aliases: &[],
        halt_behind_king: true, // L2
        ..International::SET    // L1
    };
}

/// Antidraughts, losing draughts on the international board (rule book
/// section 16, "antidraughts").
#[derive(Clone, Copy, Default, Debug)]
pub struct Antidraughts;
impl Rules for Antidraughts {
    const VARIANT: Variant = Variant::Antidraughts;
    type Word = u64;
    const SET: RuleSet = RuleSet {
        name: "antidraughts",
        aliases: &["losing", "giveaway"],
        goal: Goal::NoMoveWins, // A1
        no_progress_plies: 0,   // A3: repetition only
        lone_king_limits: &[],
        ..International::SET // A2
    };
}

/// Breakthrough draughts on the international board (rule book section 17,
/// "breakthrough").
#[derive(Clone, Copy, Default, Debug)]
pub struct Breakthrough;
impl Rules for Breakthrough {
    const VARIANT: Variant = Variant::Breakthrough;
    type Word = u64;
    const SET: RuleSet = RuleSet {
        name: "breakthrough",
        aliases: &[],
        goal: Goal::FirstKingWins, // X1
        no_progress_plies: 0,      // X3: no draw rule
        lone_king_limits: &[],
        ..International::SET // X2
    };
}

/// Frisian draughts (rule book section 18, "frisian"): international
/// draughts with captures along rows and columns too.
#[derive(Clone, Copy, Default, Debug)]
pub struct Frisian;
impl Rules for Frisian {
    const VARIANT: Variant = Variant::Frisian;
    type Word = u64;
    const SET: RuleSet = RuleSet {
        name: "frisian",
        aliases: &["frysk"],
        orthogonal_captures: true, // F3, F4
        // F5: the greatest value, a king just under two men; then with a king.
        precedence: &[Precedence::Value, Precedence::WithKing],
        king_move_limit: 3,   // F6
        no_progress_plies: 0, // F7: no move-count rule but the endings below
        lone_king_limits: &[
            // F7: two kings against one king: 7 moves each.
            LoneKingLimit {
                min_pieces: 2,
                max_pieces: 2,
                kings_only: true,
                plies: 14,
            },
            // F8: one king each: 2 moves each.
            LoneKingLimit {
                min_pieces: 1,
                max_pieces: 1,
                kings_only: true,
                plies: 4,
            },
        ],
        pdn_game_type: 40,
        ..International::SET // F1, F2: 10x10, 20 men, White first, flying kings
    };
}

/// Turkish draughts, dama (rule book section 19, "turkish").
#[derive(Clone, Copy, Default, Debug)]
pub struct Turkish;
impl Rules for Turkish {
    const VARIANT: Variant = Variant::Turkish;
    type Word = u64;
    const SET: RuleSet = RuleSet {
        name: "turkish",
        aliases: &["dama"],
        geo: Geometry::full(8), // U1: all 64 squares
        first: Color::White,    // U2
        start_rows: 2,          // U1: 16 men each on rows 2-3 and 6-7
        empty_back_rows: 1,
        men_capture_backward: false, // U3: forward and sideways only
        men_capture_kings: true,
        kings: KingKind::FlyingLandAnywhere, // U4
        precedence: MAJORITY,                // U5: most pieces, kings count one
        crown_mid_capture: true,             // U6: a man crowned mid-capture goes on as a king
        land_to_continue: false,
        halt_behind_king: false,
        orthogonal_captures: false,
        orthogonal_moves: true,  // U3, U4
        immediate_removal: true, // U7
        king_move_limit: 0,
        goal: Goal::LastMoveWins,
        repetitions: 3,           // U8
        no_progress_plies: 0,     // U8
        one_king_each_draw: true, // U8
        lone_king_limits: &[],
        material_limits: &[],
        pdn_game_type: 30,
        pdn_results: PDN_RESULTS_21,
        notation: Notation::Algebraic, // U9
    };
}

/// Declares the runtime enum [`Variant`] (one value per rules description,
/// of the same name), [`Variant::ALL`], and the [`with_rules!`] macro that
/// reaches the rules of a runtime variant. `$d` is a `$` token, so that this
/// macro can write the metavariables of the macro it defines.
#[derive(Clone, Copy, Default, Debug)]
pub struct Canadian;
impl Rules for Canadian {
    const VARIANT: Variant = Variant::Canadian;
    type Word = u128; // 72 squares and 5 ghost bits
    const SET: RuleSet = RuleSet {
        name: "canadian",
        aliases: &["12x12"],
        geo: Geometry::new(12), // D1: 12x12
        start_rows: 5,          // D1: 30 men each, on 1-30 and 43-72
        pdn_game_type: 27,
        ..International::SET // D2: every other rule as international
    };
}

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
