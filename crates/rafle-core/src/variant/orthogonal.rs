//! The orthogonal variant: turkish draughts, whose pieces move and capture
//! along rows and columns.

use super::{Goal, KingKind, Notation, RuleSet, Rules, Variant, MAJORITY, PDN_RESULTS_21};
use crate::board::Geometry;
use crate::types::Color;

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
