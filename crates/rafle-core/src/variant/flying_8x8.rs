//! The 8x8 boards with flying kings: thai, and the FMJD-64 family of
//! russian draughts with brazilian (international on 8x8) and pool.

use super::{
    Goal, International, KingKind, LoneKingLimit, MaterialLimit, Notation, RuleSet, Rules, Variant,
    PDN_RESULTS_21,
};
use crate::board::Geometry;
use crate::types::Color;

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
