//! One test position per move rule of the rule book
//! (`crates/rafle-core/RULES.md`, sections 1-6), in every variant the rule
//! touches, as data: (variants, FEN, expected legal moves, rule cited).
//!
//! An expected move is written either as a full path (`29x18x8`; alternatives
//! for one deduplicated move separated by `|`), or, where the rule book names a
//! move by its end points, as `from x to [captured squares]`, which matches
//! any path with that identity. The engine's list must match the expected
//! list one to one, so a duplicate or a missing move fails.

use rafle_core::{Color, EndReason, Game, Geometry, Piece, Variant};
use std::collections::BTreeSet;

use Variant::{
    Antidraughts as A, Brazilian as Z, Breakthrough as X, Canadian as D, Checkers as C, Czech as Q,
    English as E, Frisian as F, International as I, Italian as N, Killer as L, Pool as P,
    Russian as R, Spanish as S, Thai as T, Turkish as U,
};

struct Case {
    variants: &'static [Variant],
    fen: &'static str,
    moves: &'static [&'static str],
    rule: &'static str,
}

const fn case(
    variants: &'static [Variant],
    fen: &'static str,
    moves: &'static [&'static str],
    rule: &'static str,
) -> Case {
    Case {
        variants,
        fen,
        moves,
        rule,
    }
}

const CASES: &[Case] = &[
    // --- Start positions and the side that moves first.
    case(
        &[D],
        "W:W43-72:B1-30",
        &[
            "43-37", "44-37", "44-38", "45-38", "45-39", "46-39", "46-40", "47-40", "47-41",
            "48-41", "48-42",
        ],
        "D1: canadian: 30 men each on 12x12, White first from its front row 43-48",
    ),
    case(
        &[T],
        "B:W25-32:B1-8",
        &["5-9", "6-9", "6-10", "7-10", "7-11", "8-11", "8-12"],
        "thai: men on the first two rows; men move one square diagonally forward",
    ),
    case(
        &[E, C],
        "B:W21-32:B1-12",
        &["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"],
        "english/checkers: Black on 1-12; men move one square forward",
    ),
    case(
        &[I],
        "W:W31-50:B1-20",
        &[
            "31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30",
        ],
        "international: White on 31-50; men move one square forward",
    ),
    // --- Mandatory capture.
    case(
        &[T, E, C],
        "W:W27,29:B23",
        &["27x18"],
        "capturing is mandatory (29-25 is not allowed)",
    ),
    case(
        &[I],
        "W:W33,46:B28",
        &["33x22"],
        "capturing is mandatory (46-41 is not allowed)",
    ),
    // --- Men: direction of capture.
    case(
        &[T, E, C],
        "W:W18:B22,23",
        &["18-14", "18-15"],
        "men capture forward only: no backward capture over 22 or 23",
    ),
    case(
        &[T, E, C],
        "B:W11,19:B15",
        &["15x24"],
        "black men capture forward (down) only: not backward over 11",
    ),
    case(
        &[I],
        "W:W28:B33",
        &["28x39"],
        "international men capture backward",
    ),
    case(
        &[I],
        "B:W18:B23",
        &["23x12"],
        "international men capture backward (black)",
    ),
    // --- A sequence must be played to its end; free choice vs majority.
    case(
        &[T, C],
        "W:W26:B14,22,23",
        &["26x17x10", "26x19"],
        "free choice among sequences (thai: no majority rule; checkers: WITHOUT the majority rule); 26x17 alone is not a move",
    ),
    case(
        &[E],
        "W:W26:B14,22,23",
        &["26x17x10"],
        "english majority rule: the sequence taking the most pieces",
    ),
    case(
        &[T, C],
        "W:W25,32:B14,22,27",
        &["25x18x9", "32x23"],
        "free choice between pieces",
    ),
    case(
        &[E],
        "W:W25,32:B14,22,27",
        &["25x18x9"],
        "english majority rule across pieces",
    ),
    // --- Crowning.
    case(
        &[T, E, C],
        "W:W11:B6,7",
        &["11x2"],
        "a man reaching the far row during a capture stops there and is crowned (no 11x2x9 as a king)",
    ),
    case(
        &[I],
        "W:W12:B7",
        &["12x1"],
        "international: a man ending its capture on the far row",
    ),
    // --- Kings: moving.
    case(
        &[T],
        "W:WK18:B1",
        &[
            "18-14", "18-9", "18-5", "18-15", "18-11", "18-8", "18-4", "18-22", "18-25", "18-29",
            "18-23", "18-27", "18-32",
        ],
        "thai kings fly: any number of empty squares along a diagonal",
    ),
    case(
        &[E, C],
        "W:WK18:B1",
        &["18-14", "18-15", "18-22", "18-23"],
        "english/checkers kings move ONE square, forward or backward",
    ),
    case(
        &[I],
        "W:WK28:B1",
        &[
            "28-22", "28-17", "28-11", "28-6", "28-23", "28-19", "28-14", "28-10", "28-5", "28-32",
            "28-37", "28-41", "28-46", "28-33", "28-39", "28-44", "28-50",
        ],
        "international kings fly",
    ),
    // --- Kings: capturing.
    case(
        &[T],
        "W:WK29:B22",
        &["29x18"],
        "thai king must land on the square right behind the captured piece",
    ),
    case(
        &[E, C],
        "W:WK29:B22",
        &["29-25"],
        "short king: a piece two squares away is not capturable",
    ),
    case(
        &[T],
        "W:WK29:B11,22",
        &["29x18x8"],
        "thai king lands right behind, then goes on along the same diagonal",
    ),
    case(
        &[T],
        "W:WK29:B18,22",
        &["29-25"],
        "two pieces in a row cannot be captured (no empty square right behind)",
    ),
    case(
        &[I],
        "W:WK46:B37",
        &[
            "46x32", "46x28", "46x23", "46x19", "46x14", "46x10", "46x5",
        ],
        "international king may land on ANY empty square beyond",
    ),
    case(
        &[I],
        "W:WK46:B32,37",
        &["46-41"],
        "two pieces in a row cannot be captured",
    ),
    case(
        &[E, C],
        "W:WK18:B14,22",
        &["18x9", "18x25"],
        "short kings capture forward and backward",
    ),
    // --- Captured pieces stay until the end; the start square is empty.
    case(
        &[T],
        "W:WK22:B9,10,18,26",
        &["22x15x6x13x31", "22x31"],
        "start square counts as empty (13x31 passes over 22); thai free choice between a long and a short sequence",
    ),
    case(
        &[C],
        "W:WK22:B9,10,18,26",
        &["22x15x6x13", "22x31"],
        "checkers free choice; short king stops at 13",
    ),
    case(
        &[E],
        "W:WK22:B9,10,18,26",
        &["22x15x6x13"],
        "english majority rule with a short king",
    ),
    case(
        &[T],
        "W:WK18:B9,16,17,23",
        &["18x5", "18x27"],
        "captured pieces stay as obstacles: from 5 the king may not pass 9 again (no 18x5x27), nor from 27 pass 23 (no 18x27x5)",
    ),
    case(
        &[E, C],
        "W:WK18:B9,16,17,23",
        &["18x27"],
        "short king: only the adjacent piece",
    ),
    case(
        &[I],
        "W:WK14:B9,20,21,24",
        &["14x3x26"],
        "Turkish strike: after 14x25 the captured 20 blocks the way back (no 14x25x3x26)",
    ),
    // --- Duplicate paths: one move.
    case(
        &[T, E, C],
        "W:WK22:B9,10,17,18",
        &["22x15x6x13x22|22x13x6x15x22"],
        "two paths with the same (from, to, captured) are ONE move; the king returns to its start square",
    ),
    case(
        &[I],
        "W:W28:B12,13,22,23",
        &["28x19x8x17x28|28x17x8x19x28"],
        "duplicate paths counted once; a man returns to its (empty) start square capturing backward",
    ),
    // --- FMJD reference positions (rule book section 4, kept in the dctl test suite).
    case(
        &[I],
        "W:WK47:B9,12,33",
        &["47x17 [9,12,33]", "47x21 [9,12,33]", "47x26 [9,12,33]"],
        "FMJD: king landing choices at the end",
    ),
    case(
        &[I],
        "W:WK41,49:B9,10,12,19,38",
        &["41x43 [9,12,19,38]"],
        "FMJD: majority rule",
    ),
    case(
        &[I],
        "W:W48:B24,K31,34,K42,43",
        &["48x19 [24,34,43]"],
        "FMJD: majority counts pieces, not kings",
    ),
    case(
        &[I],
        "B:W27,28,38,39,42:BK25",
        &["25x33 [27,28,39,42]"],
        "FMJD: captured pieces stay until the end",
    ),
    case(
        &[I],
        "W:WK48:B7,8,31,34,K42,44",
        &["48x50 [7,8,34,44]"],
        "FMJD reference position",
    ),
    case(
        &[I],
        "W:W26:B12,K21,31,32",
        &["26x17x8", "26x37x28"],
        "FMJD: two captures of two, free choice",
    ),
    case(
        &[I],
        "W:W15:B9,10",
        &["15x4x13"],
        "FMJD: a man passing the far row stays a man",
    ),
    case(
        &[I],
        "W:WK1:B7,9,17,19,20,30,31,33,43,44",
        &["1x15 [7,9,17,19,20,30,31,33,43,44]"],
        "FMJD: long king capture",
    ),
    case(
        &[I],
        "W:W35:B30,K40",
        &["35x24", "35x44"],
        "FMJD: men capture backward",
    ),
    // --- Rule book sections 9-17 (mirrored boards: italian numbers a8 as 1,
    // so 22 is d3 with forward neighbours 18 and 19; spanish numbers from
    // White's side, its s being italian's 33 - s).
    case(
        &[R],
        "W:W12:B8,14",
        &["12x3x17", "12x3x21"],
        "R4: a man crowned on the far row mid-capture goes on capturing as a flying king",
    ),
    case(
        &[P, Z, I],
        "W:W12:B8,14",
        &["12x3"],
        "P5/Z2/I6: a man reaching the far row mid-capture stays a man (here it ends there)",
    ),
    case(
        &[R, P, Z, Q],
        "W:WK29:B22,10",
        &["29x15x6", "29x15x1"],
        "R5/P6/Q3: a flying king must land where its capture goes on (not 29x18, 29x11, ...)",
    ),
    case(
        &[N],
        "W:W22:BK19",
        &["22-18"],
        "N4: a man may not capture a king",
    ),
    case(
        &[S],
        "W:W11:BK14",
        &["11x18"],
        "S3: spanish men capture kings (the N4 position)",
    ),
    case(
        &[N],
        "W:W21,K30:B18,27",
        &["30x23"],
        "N5: at equal count, capturing with the king comes first",
    ),
    case(
        &[N],
        "W:WK30:B27,K26",
        &["30x21"],
        "N5: then the sequence taking the most kings",
    ),
    case(
        &[S],
        "W:WK3:B6,K7",
        &["3x12", "3x16"],
        "S4: the sequence taking the most kings (a flying king)",
    ),
    case(
        &[N],
        "W:WK30:BK26,18,27,K20",
        &["30x21x14"],
        "N5: then the sequence meeting a king first",
    ),
    case(
        &[S],
        "W:WK3:BK7,15,6,K13",
        &["3x12x22x9"],
        "S3/S4: the flying king's three-piece sequence (26, 18, 20) beats the two-piece ones",
    ),
    case(
        &[Q],
        "W:W24,K29:B19,25",
        &["29x22", "29x18", "29x15", "29x11", "29x8", "29x4"],
        "Q4: a capture with a king must be taken (not 24x15)",
    ),
    case(
        &[R],
        "W:W24,K29:B19,25",
        &["29x22", "29x18", "29x15", "29x11", "29x8", "29x4", "24x15"],
        "R6: free choice between a man's and a king's capture",
    ),
    case(
        &[L],
        "W:WK46:BK37",
        &["46x32"],
        "L2: a capture ending on a king halts right behind it",
    ),
    case(
        &[I, L, A],
        "W:WK46:B37",
        &["46x32", "46x28", "46x23", "46x19", "46x14", "46x10", "46x5"],
        "I4/L2: any landing square beyond a man",
    ),
    // --- Frisian: captures along rows and columns, the value rule.
    case(
        &[F],
        "W:W31-50:B1-20",
        &[
            "31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30",
        ],
        "F1/F2: international's start; men move diagonally forward",
    ),
    case(
        &[F],
        "W:W28:B29",
        &["28x30"],
        "F3: a man captures along its row, over the next dark square",
    ),
    case(
        &[F],
        "W:W28:B18",
        &["28x8"],
        "F3: a man captures along its column, forward and backward",
    ),
    case(
        &[I],
        "W:W28:B29",
        &["28-22", "28-23"],
        "F3: no orthogonal capture in international (the F3 position)",
    ),
    case(
        &[F],
        "W:WK46:BK48",
        &["46x49", "46x50"],
        "F4: a king captures along a row at any distance, landing anywhere beyond",
    ),
    case(
        &[F],
        "W:WK46:B26",
        &["46x16", "46x6"],
        "F4: a king captures along a column at any distance, landing anywhere beyond",
    ),
    case(
        &[F],
        "W:WK46:B1",
        &["46-41", "46-37", "46-32", "46-28", "46-23", "46-19", "46-14", "46-10", "46-5"],
        "F4: a king's quiet moves are diagonal only",
    ),
    case(
        &[F],
        "W:W28:B11,22,K29",
        &["28x17x6"],
        "F5: two men are worth more than one king",
    ),
    case(
        &[F],
        "W:W28:B7,11,22,K29,K40",
        &["28x30x50"],
        "F5: two kings are worth more than three men",
    ),
    case(
        &[F],
        "W:W23,K46:B24,26",
        &["46x16", "46x6"],
        "F5: at equal value the king captures (one man each way)",
    ),
    // --- Turkish: all 64 squares, rows and columns, pieces leave at once.
    case(
        &[U],
        "W:Wd4:Bh7",
        &["d4-d5", "d4-c4", "d4-e4"],
        "U3: a man moves forward or sideways, never backward or diagonally",
    ),
    case(
        &[U],
        "W:Wd4:Bc4,d3",
        &["d4xb4"],
        "U3: a man captures forward or sideways, not backward (d3)",
    ),
    case(
        &[U],
        "W:WKa1:Ba4",
        &["a1xa5", "a1xa6", "a1xa7", "a1xa8"],
        "U4: a king flies along a column and lands anywhere beyond",
    ),
    case(
        &[U],
        "W:Wd4:Bb5,c4,d5",
        &["d4xb4xb6"],
        "U5: the most pieces (two sideways then forward, not one forward)",
    ),
    case(
        &[U],
        "W:Wc6:Bc7,f8",
        &["c6xc8xg8", "c6xc8xh8"],
        "U6: a man crowned mid-capture goes on capturing as a king",
    ),
    case(
        &[U],
        "W:WKa3:Bc3,c5,e2,Kd1",
        &["a3xc6 [c3,e2,d1,c5]", "a3xc7 [c3,e2,d1,c5]", "a3xc8 [c3,e2,d1,c5]"],
        "U7: captured pieces leave at once, so the king crosses c3 again",
    ),
    case(
        &[U],
        "W:WKc4:Bb4,d4",
        &["c4xa4", "c4xe4", "c4xf4", "c4xg4", "c4xh4"],
        "U7: no 180-degree turn between two jumps (not c4xe4xa4)",
    ),
    // --- No legal move.
    case(
        &[T, E, C],
        "W:W29:B22,25",
        &[],
        "every piece blocked: no legal move",
    ),
    case(&[I], "W:W46:B37,41", &[], "every piece blocked: no legal move"),
    case(&[T, E, C, I], "W:W:B1", &[], "no pieces left: no legal move"),
];

/// (from, to, captured squares) of `path` walked on the board of `game`:
/// each segment must run along one diagonal, row or column (dark squares
/// two files or two ranks apart) and jump exactly one enemy piece.
fn walk(game: &Game, path: &[usize]) -> (usize, usize, BTreeSet<usize>) {
    let g = game.geometry();
    let pos = game.position();
    let mut captured = BTreeSet::new();
    for w in path.windows(2) {
        let ((r0, c0), (r1, c1)) = (g.row_col(w[0]), g.row_col(w[1]));
        let (dr, dc) = (r1 as isize - r0 as isize, c1 as isize - c0 as isize);
        // Rows and columns step to the next playable square: the next one
        // on a full board, two away on a dark-square board.
        let unit = if g.full { 1 } else { 2 };
        let (step, n) = if dr.abs() == dc.abs() {
            ((dr.signum(), dc.signum()), dr.abs())
        } else if dr == 0 || dc == 0 {
            assert_eq!((dr + dc) % unit, 0, "{path:?}: not on dark squares");
            (
                (dr.signum() * unit, dc.signum() * unit),
                (dr + dc).abs() / unit,
            )
        } else {
            panic!("{path:?}: segment {w:?} is on no line");
        };
        let mut on_way = Vec::new();
        for k in 1..n {
            let r = (r0 as isize + k * step.0) as usize;
            let c = (c0 as isize + k * step.1) as usize;
            let s = g.square_at(r, c).unwrap();
            // The moving piece has left its start square; where captured
            // pieces leave at once (U7), so have the ones already jumped.
            let gone = game.variant().rules().immediate_removal && captured.contains(&s);
            if let Some(p) = pos.piece_at(&g, s).filter(|_| s != path[0] && !gone) {
                on_way.push((s, p));
            }
        }
        match on_way.as_slice() {
            [(s, p)] if p.color() != pos.side => {
                assert!(captured.insert(*s), "{path:?}: {s} jumped twice");
            }
            _ => panic!("{path:?}: segment {w:?} does not jump one enemy piece"),
        }
    }
    (path[0], *path.last().unwrap(), captured)
}

/// The squares of a path or list, written as numbers or names (`c3`).
fn squares(g: &Geometry, text: &str) -> Vec<usize> {
    text.split(['x', '-', ','])
        .map(|t| rafle_core::notation::parse_square(g, t.trim()).unwrap())
        .collect()
}

/// Does the engine's move (full path `got`) satisfy the spec `want`?
fn matches(game: &Game, want: &str, got: &str) -> bool {
    if let Some((ends, caps)) = want.split_once(" [") {
        let g = game.geometry();
        let e = squares(&g, ends);
        let caps: BTreeSet<usize> = squares(&g, caps.trim_end_matches(']'))
            .into_iter()
            .collect();
        let (f, t, c) = walk(game, &squares(&g, got));
        return got.contains('x') && (f, t) == (e[0], e[1]) && c == caps;
    }
    // A path written with names (turkish) compares as numbers.
    let g = game.geometry();
    want.split('|').any(|alt| {
        let sep = if alt.contains('x') { "x" } else { "-" };
        let numbers: Vec<String> = squares(&g, alt).iter().map(|s| s.to_string()).collect();
        numbers.join(sep) == got
    })
}

#[test]
fn every_rule_has_its_position() {
    let mut failures = Vec::new();
    for c in CASES {
        for &v in c.variants {
            let game = Game::from_fen(v, c.fen).unwrap_or_else(|e| panic!("{v} {}: {e}", c.fen));
            // Paths as square numbers, whatever the variant prints.
            let g: Geometry = game.geometry();
            let got: Vec<String> = game
                .legal_moves()
                .iter()
                .map(|m| {
                    let sep = if m.is_capture() { "x" } else { "-" };
                    let path: Vec<String> =
                        m.path_squares(&g).iter().map(|s| s.to_string()).collect();
                    path.join(sep)
                })
                .collect();
            // Every printed path must walk to the move's own captured set.
            for (m, s) in game.legal_moves().iter().zip(&got) {
                if m.is_capture() {
                    let (_, _, caps) = walk(&game, &squares(&g, s));
                    assert_eq!(caps, m.captured_squares(&g).into_iter().collect(), "{s}");
                }
            }
            let mut unmatched: Vec<&str> = c.moves.to_vec();
            let mut extra = Vec::new();
            for s in &got {
                match unmatched.iter().position(|w| matches(&game, w, s)) {
                    Some(i) => {
                        unmatched.remove(i);
                    }
                    None => extra.push(s.clone()),
                }
            }
            if !unmatched.is_empty() || !extra.is_empty() {
                failures.push(format!(
                    "{v} {}: missing {unmatched:?}, unexpected {extra:?} (rule: {})",
                    c.fen, c.rule
                ));
            }
            // The bulk count of perft agrees with the list.
            assert_eq!(game.perft(1) as usize, got.len(), "{v} {}", c.fen);
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn start_positions_and_first_player() {
    // The exact start FENs are the "start" tables of tests/data/perft.toml
    // (tests/perft.rs); here: the rows each side fills, who moves first.
    for v in Variant::ALL {
        let rules = v.rules();
        let g = Game::new(v);
        let geo = v.geometry();
        assert_eq!(g.turn(), rules.first, "{v}");
        assert_eq!(v.first_player(), rules.first, "{v}");
        let pos = g.position();
        // The men fill `start_rows` rows in front of `empty_back_rows` empty ones.
        let (rows, gap) = (
            rules.start_rows + rules.empty_back_rows,
            rules.empty_back_rows,
        );
        let white = geo.rows_from_bottom(rows) & !geo.rows_from_bottom(gap);
        let black = geo.rows_from_top(rows) & !geo.rows_from_top(gap);
        assert_eq!(pos.white, white, "{v}");
        assert_eq!(pos.black, black, "{v}");
        assert_eq!(
            pos.white.count_ones() as usize,
            rules.start_rows * geo.h,
            "{v}"
        );
        assert_eq!(pos.kings, 0, "{v}");
        assert!(g.outcome().is_none());
    }
    assert_eq!(
        Game::new(N).fen(),
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    assert_eq!(
        Game::new(R).fen(),
        // Squares in PDN order: 21-32 are a3 ... g1, 1-12 are b8 ... h6.
        "W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6"
    );
}

/// Plays `mv` on `fen` and checks the resulting FEN.
fn after(v: Variant, fen: &str, mv: &str) -> Game {
    let mut g = Game::from_fen(v, fen).unwrap();
    g.play_str(mv)
        .unwrap_or_else(|e| panic!("{v} {fen} {mv}: {e}"));
    g
}

#[test]
fn crowning_and_applying_moves() {
    // Crowned at the far row mid-capture; the move ends and 6 stays.
    for v in [T, E, C] {
        let g = after(v, "W:W11:B6,7", "11x2");
        assert_eq!(g.fen(), "B:WK2:B6", "{v}");
    }
    // International: passing the far row leaves a man; ending there crowns.
    assert_eq!(after(I, "W:W15:B9,10", "15x4x13").fen(), "B:W13:B");
    assert_eq!(after(I, "W:W12:B7", "12x1").fen(), "B:WK1:B");
    // Quiet moves onto the far row crown, for both colours.
    for v in [T, E, C] {
        assert_eq!(after(v, "W:W5:B28", "5-1").fen(), "B:WK1:B28", "{v}");
        assert_eq!(after(v, "B:W29:B28", "28-32").fen(), "W:W29:BK32", "{v}");
    }
    assert_eq!(after(I, "B:W46:B45", "45-50").fen(), "W:W46:BK50");
    // 12x12 (canadian, D2): crowned on rows 1-6 and 67-72; a man passing
    // the far row mid-capture stays a man, one ending there is crowned.
    assert_eq!(after(D, "W:W8:B30", "8-2").fen(), "B:WK2:B30");
    assert_eq!(after(D, "B:W43:B66", "66-72").fen(), "W:W43:BK72");
    assert_eq!(after(D, "W:W14:B9,10", "14x3x16").fen(), "B:W16:B");
    assert_eq!(after(D, "W:W14:B9", "14x3").fen(), "B:WK3:B");
    // A king stays a king; captured pieces leave only at the end.
    assert_eq!(
        after(T, "W:WK22:B9,10,18,26", "22x15x6x13x31").fen(),
        "B:WK31:B"
    );
    // A loop back to the start square: the king stays there, all four go.
    for v in [T, E, C] {
        let g = after(v, "W:WK22:B9,10,17,18", "22x13x6x15x22");
        assert_eq!(g.fen(), "B:WK22:B", "{v}");
        assert_eq!(
            g.position().piece_at(&g.geometry(), 22),
            Some(Piece::King(Color::White))
        );
    }
    assert_eq!(
        after(I, "W:W28:B12,13,22,23", "28x19x8x17x28").fen(),
        "B:W28:B"
    );
    // The other path of the same move names the same move.
    assert_eq!(
        after(I, "W:W28:B12,13,22,23", "28x17x8x19x28").fen(),
        "B:W28:B"
    );
}

#[test]
fn russian_crowning_during_a_capture_ends_the_move_a_king() {
    // R4: crowned on 3 (f8), the piece goes on to 17 as a king.
    let g = after(R, "W:W12:B8,14", "12x3x17");
    assert_eq!(
        g.position().piece_at(&g.geometry(), 17),
        Some(Piece::King(Color::White))
    );
    // P5: in pool the man stops on the far row and is crowned there.
    let g = after(P, "W:W12:B8,14", "12x3");
    assert_eq!(
        g.position().piece_at(&g.geometry(), 3),
        Some(Piece::King(Color::White))
    );
}

#[test]
fn goals_antidraughts_and_breakthrough() {
    // A1: the side without a legal move wins antidraughts; G1: it loses elsewhere.
    for v in [A, I] {
        let o = Game::from_fen(v, "W:W46:B37,41")
            .unwrap()
            .outcome()
            .unwrap();
        let winner = if v == A { Color::White } else { Color::Black };
        assert_eq!(
            (o.winner, o.reason),
            (Some(winner), EndReason::NoLegalMove),
            "{v}"
        );
    }
    // X1: the first king wins breakthrough at once; international plays on.
    let g = after(X, "W:W6:B45", "6-1");
    let o = g
        .outcome()
        .expect("breakthrough: the crowning move ends the game");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::White), EndReason::FirstKing)
    );
    assert!(g.legal_moves().is_empty());
    assert!(after(I, "W:W6:B45", "6-1").outcome().is_none());
}

#[test]
fn no_legal_move_loses() {
    for (v, fen, loser) in [
        (T, "W:W29:B22,25", Color::White),
        (E, "W:W29:B22,25", Color::White),
        (C, "W:W29:B22,25", Color::White),
        (I, "W:W46:B37,41", Color::White),
        (T, "W:W:B1", Color::White),
        (I, "W:W:B1", Color::White),
        (E, "B:W29:B", Color::Black),
        (C, "B:W23,27,28:BK32", Color::Black),
        (I, "B:W46:B", Color::Black),
    ] {
        let mut g = Game::from_fen(v, fen).unwrap();
        let o = g.outcome().unwrap_or_else(|| panic!("{v} {fen}: not over"));
        assert_eq!(o.winner, Some(loser.opponent()), "{v} {fen}");
        assert_eq!(o.reason, EndReason::NoLegalMove, "{v} {fen}");
        assert!(g.legal_moves().is_empty());
        assert!(g.play_str("1-5").is_err());
    }
}

#[test]
fn half_turn_maps_square_s_to_n_n_half_plus_one_minus_s() {
    use rafle_core::Dir;
    for v in [T, I] {
        let g = v.geometry();
        let last = g.squares;
        assert_eq!((g.rotate_square(1), g.rotate_square(last)), (last, 1));
        for s in 1..=last {
            let r = g.rotate_square(s);
            let ((r0, c0), (r1, c1)) = (g.row_col(s), g.row_col(r));
            assert_eq!((r0 + r1, c0 + c1), (g.n - 1, g.n - 1), "{v} {s}");
            // A step seen from the other side is the reversed step.
            for d in Dir::DIAGONAL {
                let here = g.step(rafle_core::bit(g.bit_of(s)), d);
                let there = g.step(rafle_core::bit(g.bit_of(r)), d.reverse());
                assert_eq!(here == 0, there == 0, "{v} {s} {d:?}");
                if here != 0 {
                    let a = g.square_of(here.trailing_zeros());
                    assert_eq!(g.rotate_square(a), g.square_of(there.trailing_zeros()));
                }
            }
        }
    }
}

#[test]
fn frisian_king_makes_at_most_three_quiet_moves_in_a_row() {
    // F6: White's king on 26 moves three times; then only the man (or the
    // other king) may move, until a move by another piece frees it.
    let mut g = Game::from_fen(F, "W:W45,K26:B5").unwrap();
    let king_moves = |g: &Game| {
        let at = [21, 26].map(|s| g.geometry().bit_of(s) as u8);
        g.legal_moves()
            .iter()
            .filter(|m| at.contains(&m.from))
            .count()
    };
    for (white, black) in [("26-21", "5-10"), ("21-26", "10-15"), ("26-21", "15-20")] {
        assert!(king_moves(&g) > 0, "{}", g.fen());
        g.play_str(white).unwrap();
        g.play_str(black).unwrap();
    }
    assert_eq!(
        king_moves(&g),
        0,
        "the king on 21 made three moves: {}",
        g.fen()
    );
    assert!(g.play_str("21-17").is_err());
    g.play_str("45-40").unwrap();
    g.play_str("20-25").unwrap();
    assert!(king_moves(&g) > 0, "a man move frees the king");
    // With a second king, the other one may move and restarts the count.
    let mut g = Game::from_fen(F, "W:W45,K26,K48:B5").unwrap();
    for (white, black) in [("26-21", "5-10"), ("21-26", "10-15"), ("26-21", "15-20")] {
        g.play_str(white).unwrap();
        g.play_str(black).unwrap();
    }
    assert!(g.play_str("21-17").is_err());
    g.play_str("48-42").unwrap();
    g.play_str("20-25").unwrap();
    g.play_str("21-17").unwrap();
    // Without men the limit does not apply.
    let mut g = Game::from_fen(F, "W:WK26:B5").unwrap();
    for (white, black) in [("26-21", "5-10"), ("21-26", "10-15"), ("26-21", "15-20")] {
        g.play_str(white).unwrap();
        g.play_str(black).unwrap();
    }
    g.play_str("21-17").unwrap();
    // The variants without the rule: international's king moves on.
    let mut g = Game::from_fen(I, "W:W45,K26:B5").unwrap();
    for (white, black) in [("26-21", "5-10"), ("21-26", "10-15"), ("26-21", "15-20")] {
        g.play_str(white).unwrap();
        g.play_str(black).unwrap();
    }
    g.play_str("21-17").unwrap();
}
