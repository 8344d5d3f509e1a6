//! The international family: international draughts (10x10, flying kings,
//! majority capture) and the variants written "as international, but":
//! killer, antidraughts, breakthrough, frisian and canadian (12x12).

use super::{
    Goal, KingKind, LoneKingLimit, Notation, Precedence, RuleSet, Rules, Variant, MAJORITY,
    PDN_RESULTS_20,
};
use crate::board::Geometry;
use crate::types::Color;

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

/// Canadian draughts, 12x12 (rule book section 20, "canadian"):
/// international draughts on a bigger board.
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
