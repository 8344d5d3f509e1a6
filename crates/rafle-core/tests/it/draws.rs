//! The rules that end a game (rule book, `crates/rafle-core/RULES.md`: T9,
//! T10, I7-I10, E7, G1-G4), each checked to fire exactly at its limit and not
//! one ply before, plus the Thai one-king-each rule.
//!
//! Long quiet sequences are found by a small depth-first search over real
//! games (`Game::play` / `Game::undo`) that only plays king moves, never lets
//! a position repeat and never lets a capture arise, so that exactly one draw
//! rule is in play.

use rafle_core::rng::Rng;
use rafle_core::{
    bit, draws::outcome_of, movegen, Color, Counters, EndReason, Game, Move, Position, Variant,
};
use std::collections::HashSet;

use Variant::{Checkers as C, English as E, International as I, Thai as T};

/// Extends `game` by quiet moves until it has `target` plies. The first
/// `men_first` plies are man moves, the rest king moves; every position is
/// new, and every position before the last is not over. Returns false if the
/// node budget runs out.
fn extend(
    game: &mut Game,
    target: usize,
    men_first: usize,
    seen: &mut HashSet<u64>,
    rng: &mut Rng,
    budget: &mut u32,
) -> bool {
    if game.ply() == target {
        return true;
    }
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let mut moves: Vec<Move> = game.legal_moves().to_vec();
    for i in (1..moves.len()).rev() {
        moves.swap(i, rng.below(i + 1));
    }
    let want_man = game.ply() < men_first;
    for m in moves {
        let is_king = game.position().kings & bit(m.from) != 0;
        if m.is_capture() || is_king == want_man {
            continue;
        }
        game.play(&m).unwrap();
        let h = game.position().zobrist();
        let last = game.ply() == target;
        // The move rules' moves: the last position is over, so has no legal move.
        let next = rafle_core::with_rules!(game.variant(), R => movegen::legal_moves::<R>(game.position()));
        let ok = !seen.contains(&h)
            && !next.is_empty()
            && !next[0].is_capture()
            && (last || game.outcome().is_none());
        if ok {
            seen.insert(h);
            if extend(game, target, men_first, seen, rng, budget) {
                return true;
            }
            seen.remove(&h);
        }
        game.undo().unwrap();
    }
    false
}

/// A game from `fen` extended to `plies` plies (see `extend`).
fn quiet_game(v: Variant, fen: &str, plies: usize, men_first: usize, seed: u64) -> Game {
    let mut g = Game::from_fen(v, fen).unwrap();
    let mut seen = HashSet::from([g.position().zobrist()]);
    let mut rng = Rng::new(seed);
    let mut budget = 200_000;
    assert!(
        extend(&mut g, plies, men_first, &mut seen, &mut rng, &mut budget),
        "{v} {fen}: no quiet line of {plies} plies found"
    );
    g
}

/// Asserts that the game is not over after `limit - 1` plies and is drawn for
/// `reason` after `limit`, by undoing the last move.
fn assert_fires_at(mut g: Game, limit: usize, reason: EndReason, what: &str) {
    assert_eq!(g.ply(), limit, "{what}");
    let o = g.outcome();
    assert_eq!(
        o.map(|o| (o.winner, o.reason)),
        Some((None, reason)),
        "{what}: at ply {limit} ({})",
        g.fen()
    );
    assert!(
        g.play_str("1-5").is_err(),
        "{what}: a finished game takes no move"
    );
    assert!(
        g.legal_moves().is_empty(),
        "{what}: a finished game has no legal move"
    );
    g.undo().unwrap();
    assert_eq!(g.outcome(), None, "{what}: one ply before ({})", g.fen());
    assert!(!g.legal_moves().is_empty(), "{what}: one ply before");
}

/// Variants whose games can be drawn: breakthrough ends with the first king,
/// so its positions with kings (used below) are over at once.
fn drawable() -> impl Iterator<Item = Variant> {
    Variant::ALL
        .into_iter()
        .filter(|v| v.rules().goal != rafle_core::Goal::FirstKingWins)
}

#[test]
fn no_progress_limits() {
    for v in drawable() {
        // A movable white man and kings on each side; the limit in plies
        // (0: the variant has no such rule).
        let g = v.geometry();
        let fen = match (g.n, g.from_white) {
            // All 64 squares (turkish): a man and a king each, by name.
            _ if g.full => "W:Wd4,Kh1:Be5,Ka8",
            (8, false) => "W:W27,K29,K32:B6,K1,K4",
            (8, true) => "W:W6,K4,K1:B27,K32,K29",
            (12, _) => "W:W51,K67,K72:B22,K1,K6",
            _ => "W:W38,K46,K50:B13,K1,K5",
        };
        let limit = v.no_progress_plies() as usize;
        if limit == 0 && v.rules().king_move_limit > 0 {
            // Kings alone cannot move for long while men stand (F6), and
            // there is no count to reach.
            continue;
        }
        if limit == 0 {
            let g = quiet_game(v, fen, 120, 1, 7);
            assert_eq!(g.outcome(), None, "{v}: no no-progress rule");
            continue;
        }
        // Ply 1 is a man move: the count starts after it.
        let g = quiet_game(v, fen, limit + 1, 1, 7);
        assert_eq!(g.counters().reversible as usize, limit, "{v}");
        assert_fires_at(
            g,
            limit + 1,
            EndReason::NoProgress,
            &format!("{v} no progress"),
        );
    }
}

#[test]
fn threefold_repetition() {
    // Two kings shuffle; the start position occurs for the k-th time at ply
    // 4(k - 1): the third time at ply 8, the fourth (italian) at ply 12.
    for v in drawable() {
        // The mirrored board's line is the plain one seen in a mirror.
        // Numbered from White's side (spanish), square s is the other's 33 - s.
        let g = v.geometry();
        let (fen, shuffle) = match (g.n, g.mirrored, g.from_white) {
            _ if g.full => ("W:Wd4,Kh1:Be5,Ka8", ["h1-h2", "a8-a7", "h2-h1", "a7-a8"]),
            (8, false, _) => ("W:W29,K32:B4,K1", ["32-28", "1-5", "28-32", "5-1"]),
            (8, true, false) => ("W:W32,K29:B1,K4", ["29-25", "4-8", "25-29", "8-4"]),
            (8, true, true) => ("W:W1,K4:B32,K29", ["4-8", "29-25", "8-4", "25-29"]),
            (12, _, _) => ("W:WK67,K72:BK6,K1", ["72-66", "1-7", "66-72", "7-1"]),
            // Kings only: a king-move limit (frisian, F6) holds no king then.
            _ => ("W:WK46,K50:BK5,K1", ["50-45", "1-6", "45-50", "6-1"]),
        };
        let fires = 4 * (v.rules().repetitions as usize - 1);
        let mut g = Game::from_fen(v, fen).unwrap();
        for ply in 1..=fires {
            assert_eq!(g.outcome(), None, "{v} before ply {ply}");
            g.play_str(shuffle[(ply - 1) % 4])
                .unwrap_or_else(|e| panic!("{v} {}: {e}", g.fen()));
        }
        assert_eq!(g.fen(), Game::from_fen(v, fen).unwrap().fen());
        assert_fires_at(g, fires, EndReason::Repetition, &format!("{v} repetition"));
    }
}

#[test]
fn repetition_needs_the_same_side_to_move() {
    // Same pieces, other side to move: not the same position.
    let mut g = Game::from_fen(T, "W:W29,K32:B4,K1").unwrap();
    let a = g.position().zobrist();
    g.play_str("32-28").unwrap();
    let mut p = *g.position();
    p.side = Color::White;
    assert_ne!(p.zobrist(), g.position().zobrist());
    assert_ne!(a, g.position().zobrist());
}

#[test]
fn international_lone_king_rules() {
    // Lone king against three kings: 16 moves each (32 plies).
    let g = quiet_game(I, "W:WK46:BK1,K2,K3", 32, 0, 11);
    assert_eq!(g.counters().lone_king_limit, 32);
    assert_fires_at(g, 32, EndReason::LoneKing, "16-move rule");
    // Lone king against a king and a man: 5 moves each (10 plies).
    let g = quiet_game(I, "W:WK46:BK1,K2", 10, 0, 12);
    assert_fires_at(g, 10, EndReason::LoneKing, "5-move rule, two kings");
    let g = quiet_game(I, "W:WK46:BK1,3", 10, 0, 13);
    assert_fires_at(g, 10, EndReason::LoneKing, "5-move rule, king and man");
    // Lone king against a lone king.
    let g = quiet_game(I, "W:WK46:BK1", 10, 0, 14);
    assert_fires_at(g, 10, EndReason::LoneKing, "5-move rule, king against king");
    // Lone king against three pieces without a king: no rule.
    let g = Game::from_fen(I, "W:WK46:B1,2,3").unwrap();
    assert_eq!(
        rafle_core::draws::lone_king_limit::<rafle_core::International>(g.position()),
        0
    );
    assert_eq!(g.counters().lone_king_limit, 0);
}

#[test]
fn frisian_king_endings() {
    use rafle_core::Variant::Frisian as F;
    // F7: two kings against one: 7 moves each (14 plies).
    let g = quiet_game(F, "W:WK46:BK1,K3", 14, 0, 21);
    assert_eq!(g.counters().lone_king_limit, 14);
    assert_fires_at(g, 14, EndReason::LoneKing, "frisian two kings against one");
    // F8: one king each: 2 moves each (4 plies).
    let g = quiet_game(F, "W:WK46:BK3", 4, 0, 22);
    assert_fires_at(g, 4, EndReason::LoneKing, "frisian one king each");
    // Three kings against one, or a king and a man against a king: no rule.
    for fen in ["W:WK46:BK1,K2,K3", "W:WK46:BK1,3"] {
        let g = Game::from_fen(F, fen).unwrap();
        assert_eq!(g.counters().lone_king_limit, 0, "{fen}");
    }
}

#[test]
fn lone_king_count_starts_when_the_material_is_reached() {
    // Lone king against four pieces: no rule until 46x5 takes 28; then 32 plies.
    let mut g = Game::from_fen(I, "W:WK46:BK1,K2,K3,28").unwrap();
    assert_eq!(g.counters().lone_king_limit, 0);
    g.play_str("46x5").unwrap();
    assert_eq!(
        (g.counters().lone_king, g.counters().lone_king_limit),
        (0, 32)
    );
    let fen = g.fen();
    let mut seen = HashSet::from([g.position().zobrist()]);
    let mut budget = 200_000;
    let ok = extend(&mut g, 33, 0, &mut seen, &mut Rng::new(21), &mut budget);
    assert!(ok, "no quiet line from {fen}");
    assert_fires_at(g, 33, EndReason::LoneKing, "16-move rule after a capture");
}

#[test]
fn lone_king_class_change_restarts_the_count() {
    // Three pieces -> two by a capture: the 5-move count starts again at 0.
    let before = rafle_core::parse_fen(I, "B:WK46:BK1,K2,K3").unwrap();
    let c = Counters {
        reversible: 20,
        lone_king: 20,
        lone_king_limit: 32,
        ..Counters::default()
    };
    // White to move in a lone-king-vs-three position, then a capture to two.
    let mut g = Game::from_fen(I, "W:WK28:BK1,K2,33").unwrap();
    g.play_str("28x39").unwrap();
    assert_eq!(
        (g.counters().lone_king, g.counters().lone_king_limit),
        (0, 10)
    );
    // A quiet king move in the same class counts one more.
    let mut after = before;
    let m = *Game::from_position(I, before)
        .legal_moves()
        .iter()
        .find(|m| m.from_square(&I.geometry()) == 1)
        .unwrap();
    after.apply_in(I, &m);
    let n = c.next::<rafle_core::International>(&before, &m, &after);
    assert_eq!((n.reversible, n.lone_king, n.lone_king_limit), (21, 21, 32));
}

#[test]
fn a_drawn_position_has_no_legal_moves_but_perft_counts_the_move_rules() {
    // Thai, one king each: drawn at once, so no legal move, although the move
    // rules give the white king six moves (what perft counts).
    let g = Game::from_fen(T, "W:WK29:BK4").unwrap();
    assert_eq!(g.outcome().map(|o| o.winner), Some(None));
    assert!(g.legal_moves().is_empty());
    let rule_moves = movegen::legal_moves::<rafle_core::Thai>(g.position());
    assert_eq!((rule_moves.len(), g.perft(1)), (6, 6));
}

#[test]
fn thai_one_king_each() {
    // One king each, no capture for the mover: drawn at once.
    let g = Game::from_fen(T, "W:WK29:BK4").unwrap();
    assert_eq!(
        g.outcome().map(|o| (o.winner, o.reason)),
        Some((None, EndReason::OneKingEach))
    );
    // The mover has a capture: no draw (and capturing wins).
    let mut g = Game::from_fen(T, "B:WK18:BK4").unwrap();
    assert_eq!(g.outcome(), None);
    assert_eq!(g.legal_moves().len(), 1);
    g.play_str("4x22").unwrap();
    assert_eq!(g.outcome().map(|o| o.winner), Some(Some(Color::Black)));
    // Reached by a capture that leaves the other side a capture: no draw.
    let mut g = Game::from_fen(T, "W:WK29:BK4,K22").unwrap();
    g.play_str("29x18").unwrap();
    assert_eq!(g.fen(), "B:WK18:BK4");
    assert_eq!(g.outcome(), None);
    // Reached by a capture that leaves no capture: drawn.
    let mut g = Game::from_fen(T, "W:WK29:BK1,K22").unwrap();
    g.play_str("29x18").unwrap();
    assert_eq!(g.outcome().map(|o| o.reason), Some(EndReason::OneKingEach));
    // A king and a man against a king: no draw.
    assert_eq!(Game::from_fen(T, "W:WK29,28:BK4").unwrap().outcome(), None);
    // The rule is Thai only.
    for v in [E, C] {
        assert_eq!(
            Game::from_fen(v, "W:WK29:BK4").unwrap().outcome(),
            None,
            "{v}"
        );
    }
}

#[test]
fn outcome_of_checks_each_limit_directly() {
    // The function used by callers that keep their own counters.
    let pos = Position::start(T);
    let n = movegen::count::<rafle_core::Thai>(&pos);
    let at = |reversible: u16, occ: usize| {
        outcome_of::<rafle_core::Thai>(
            &pos,
            n,
            &Counters {
                reversible,
                ..Counters::default()
            },
            occ,
        )
        .map(|o| o.reason)
    };
    assert_eq!(at(99, 2), None);
    assert_eq!(at(100, 1), Some(EndReason::NoProgress));
    assert_eq!(at(0, 3), Some(EndReason::Repetition));
    // No legal move comes before every draw rule.
    let o = outcome_of::<rafle_core::Thai>(
        &pos,
        0,
        &Counters {
            reversible: 500,
            ..Counters::default()
        },
        3,
    )
    .unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::White), EndReason::NoLegalMove)
    );
}

#[test]
fn lone_king_limits_of_the_8x8_variants() {
    use rafle_core::draws::lone_king_limit;
    use Variant::{Pool as P, Russian as R, Spanish as S};
    // (variant, FEN, plies): three kings against one (R9, P8, S7), then
    // kings and men against one (none of those rules), one king and a man
    // against one (R10).
    for (v, fen, plies) in [
        (R, "W:WK1,K2,K3:BK32", 30),
        (P, "W:WK1,K2,K3:BK32", 26),
        (S, "W:WK1,K2,K3:BK32", 24),
        (C, "W:WK1,K2,K3:BK32", 0),
        (R, "W:WK1,K2,17:BK32", 0),
        (R, "W:WK1,17:BK32", 10),
        (R, "W:WK1,K2,K3,K5:BK32", 30),
    ] {
        let pos = rafle_core::parse_fen(v, fen).unwrap();
        let got = rafle_core::with_rules!(v, R => lone_king_limit::<R>(&pos));
        assert_eq!(got, plies, "{v} {fen}");
    }
}

#[test]
fn russian_unchanged_material_rule() {
    use rafle_core::Russian;
    use Variant::Russian as R;
    // R11: kings on both sides, 4-5 pieces: 60 plies; 6-7 pieces: 120.
    let at = |fen: &str, material: u16| {
        let pos = rafle_core::parse_fen(R, fen).unwrap();
        let n = movegen::count::<Russian>(&pos);
        let c = Counters {
            material,
            ..Counters::default()
        };
        outcome_of::<Russian>(&pos, n, &c, 1).map(|o| o.reason)
    };
    let four = "W:WK1,22:BK32,11";
    let six = "W:WK1,22,23:BK32,10,11";
    assert_eq!(at(four, 59), None);
    assert_eq!(at(four, 60), Some(EndReason::UnchangedMaterial));
    assert_eq!(at(six, 119), None);
    assert_eq!(at(six, 120), Some(EndReason::UnchangedMaterial));
    // Without a king on each side, or with more pieces, no such rule.
    assert_eq!(at("W:W5,22:BK32,11", 500), None);
    assert_eq!(at("W:WK1,21,22,23:BK32,9,10,11", 500), None);
    // The count goes on over a man move and restarts on a crowning or a capture.
    let mut g = Game::from_fen(R, "W:WK32,10:BK4,12").unwrap();
    for m in ["g1-f2", "h6-g5", "d6-c7", "h8-g7"] {
        g.play_str(m).unwrap();
    }
    assert_eq!((g.counters().material, g.counters().reversible), (4, 1));
    g.play_str("c7-b8").unwrap(); // crowned
    assert_eq!(g.counters().material, 0);
}
