//! The short-king family: english draughts and the variants written "as
//! english, but": checkers, italian, spanish (as italian) and czech.

use super::{
    Goal, KingKind, LoneKingLimit, Notation, Precedence, RuleSet, Rules, Variant, MAJORITY,
    PDN_RESULTS_21,
};
use crate::board::Geometry;
use crate::types::Color;

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
