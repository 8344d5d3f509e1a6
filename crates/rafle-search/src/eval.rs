//! Static evaluation for alpha-beta, in centi-men (a man is worth 100), from
//! the point of view of the side to move.
//!
//! Terms, each computed for both colours and subtracted:
//! - material: men and kings ([`piece_values`]: a flying king is worth about
//!   three men, a short king one and a half);
//! - advance of men: a bonus growing with the rows a man has walked;
//! - back rank: men still on their own first row keep the opponent from
//!   crowning (weighted more on 8x8, and only while the board is full);
//! - mobility: free forward steps of men and free first steps of kings;
//! - king safety: flying kings on the long diagonal (hard to trap, they
//!   control both halves of the board); short kings near the centre;
//! - trades when ahead: the material lead counts more as pieces come off.
//!
//! The variant's goal ([`Goal`]) turns the sum: antidraughts, where a side
//! without moves wins, scores its negation (fewer pieces and fewer moves are
//! better); breakthrough, won by the first king, weighs the advance of men
//! four times and adds the rows of the most advanced man.

use rafle_core::{Bitboard, Bits, Color, Dir, Geometry, Goal, KingKind, Position, Rules, Variant};

/// (man, king) values in centi-men for the variant.
pub fn piece_values(v: Variant) -> (i32, i32) {
    rafle_core::with_rules!(v, R => values::<R>())
}

#[inline(always)]
const fn values<R: Rules>() -> (i32, i32) {
    match R::KINGS {
        KingKind::Short => (100, 150),
        KingKind::FlyingLandBehind => (100, 250),
        KingKind::FlyingLandAnywhere => (100, 300),
    }
}

/// Row (0 = top) of a real square's bit index in the ghost-bit layout.
#[inline(always)]
const fn row_of_bit(g: &Geometry, bit: u32) -> usize {
    if g.full {
        return bit as usize / g.n;
    }
    // A mirrored board is the plain layout started one row later.
    let m = g.mirrored as usize;
    let b = bit as usize + m * g.h;
    let pair = b / (2 * g.h + 1);
    let offset = b % (2 * g.h + 1);
    2 * pair + offset / g.h - m
}

/// Bonus of a man by rows advanced from its own first row (index 0..N-1).
#[inline(always)]
fn advance_bonus(rows: usize, n: usize) -> i32 {
    // Quadratic: small in the middle game, strong near the crowning row.
    let r = rows as i32;
    let scale = if n == 8 { 3 } else { 2 };
    r * r * scale / 2
}

/// The long diagonal (a1-h8 / a1-j10; h1-a8 on a mirrored board), which
/// White and Black kings both like.
const fn long_diagonal(g: &Geometry) -> Bitboard {
    // From the dark bottom corner, one row up and one file across at a time.
    let mirrored = g.mirrored;
    let mut mask: Bitboard = 0;
    let mut k = 0;
    while k < g.n {
        let col = if mirrored { g.n - 1 - k } else { k };
        match g.square_at(g.n - 1 - k, col) {
            Some(s) => mask |= 1 << g.bit_of(s),
            None => panic!("the corner diagonal is dark"),
        }
        k += 1;
    }
    mask
}

/// Squares of the board centre (the middle four rows and columns), where
/// short kings are strongest.
const fn centre(g: &Geometry) -> Bitboard {
    let mut mask = 0;
    let (lo, hi) = (g.n / 2 - 2, g.n / 2 + 1);
    let mut s = 1;
    while s <= g.squares {
        let (r, c) = g.row_col(s);
        if r >= lo && r <= hi && c >= lo && c <= hi {
            mask |= 1 << g.bit_of(s);
        }
        s += 1;
    }
    mask
}

/// Score of one colour's pieces (everything but the trade term).
#[inline(always)]
fn side_score<R: Rules>(pos: &Position, c: Color, total_pieces: u32) -> (i32, i32) {
    let g = &R::GEO;
    let (man_v, king_v) = values::<R>();
    let men = pos.men(c);
    let kings = pos.kings_of(c);
    let empty = g.valid & !pos.occupied();
    let material = men.count_ones() as i32 * man_v + kings.count_ones() as i32 * king_v;

    let mut pos_score = 0;
    let mut furthest = 0;
    for b in Bits(men) {
        let row = row_of_bit(g, b);
        let rows = match c {
            Color::White => g.n - 1 - row,
            Color::Black => row,
        };
        pos_score += advance_bonus(rows, g.n);
        furthest = furthest.max(rows);
    }
    if R::GOAL == Goal::FirstKingWins {
        pos_score = 4 * pos_score + 10 * (furthest * furthest) as i32;
    }

    // Back rank: worth guarding while the opponent still has many men.
    let back = match c {
        Color::White => g.bottom_row,
        Color::Black => g.top_row,
    };
    let back_weight = if g.n == 8 { 8 } else { 4 };
    if total_pieces > g.squares as u32 / 3 {
        pos_score += (men & back).count_ones() as i32 * back_weight;
    }

    // The directions men and kings move in (rows and columns in turkish).
    let fwd: &[Dir] = match (R::ORTHOGONAL_MOVES, c) {
        (false, Color::White) => &[Dir::UpLeft, Dir::UpRight],
        (false, Color::Black) => &[Dir::DownLeft, Dir::DownRight],
        (true, Color::White) => &[Dir::Up, Dir::Left, Dir::Right],
        (true, Color::Black) => &[Dir::Down, Dir::Left, Dir::Right],
    };
    let king_dirs: &[Dir] = if R::ORTHOGONAL_MOVES {
        &Dir::ORTHOGONAL
    } else {
        &Dir::DIAGONAL
    };
    let mut mobility = 0;
    for &d in fwd {
        mobility += (g.step(men, d) & empty).count_ones() as i32;
    }
    if kings != 0 {
        for &d in king_dirs {
            mobility += (g.step(kings, d) & empty).count_ones() as i32;
        }
        let (good, bonus) = match R::KINGS {
            KingKind::Short => (const { centre(&R::GEO) }, 10),
            _ => (const { long_diagonal(&R::GEO) }, 20),
        };
        pos_score += (kings & good).count_ones() as i32 * bonus;
    }
    pos_score += mobility * 2;
    (material, pos_score)
}

/// Evaluation of `pos` for the side to move.
#[inline]
pub fn evaluate<R: Rules>(pos: &Position) -> i32 {
    let total = pos.occupied().count_ones();
    let (wm, wp) = side_score::<R>(pos, Color::White, total);
    let (bm, bp) = side_score::<R>(pos, Color::Black, total);
    let lead = wm - bm;
    // Trading down when ahead: the same lead is worth more on an emptier board.
    let trade = lead * 8 / (total as i32 + 2);
    let mut white = lead + trade + wp - bp;
    if R::GOAL == Goal::NoMoveWins {
        white = -white;
    }
    match pos.side {
        Color::White => white,
        Color::Black => -white,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rafle_core::{parse_fen, Thai};

    #[test]
    fn start_positions_are_balanced_and_material_counts() {
        for v in Variant::ALL {
            let p = Position::start(v);
            let e = rafle_core::with_rules!(v, R => evaluate::<R>(&p));
            assert!(e.abs() < 30, "{v}: {e}");
            // More material is better, except where losing it all wins.
            let mut up = p;
            match p.side {
                Color::White => up.black &= up.black - 1,
                Color::Black => up.white &= up.white - 1,
            }
            let e = rafle_core::with_rules!(v, R => evaluate::<R>(&up));
            let gain = e > 50;
            assert_eq!(gain, v.rules().goal != Goal::NoMoveWins, "{v}: {e}");
        }
        // Thai: White a king up; good for White to move, bad for Black to move.
        let w = parse_fen(Variant::Thai, "W:WK29,22:B5").unwrap();
        let b = parse_fen(Variant::Thai, "B:WK29,22:B5").unwrap();
        assert!(evaluate::<Thai>(&w) > 200);
        assert!(evaluate::<Thai>(&b) < -200);
    }

    #[test]
    fn the_long_diagonal_runs_corner_to_corner() {
        for v in Variant::ALL {
            let g = v.geometry();
            let d = long_diagonal(&g);
            assert_eq!(d.count_ones() as usize, g.n, "{v}");
        }
    }

    #[test]
    fn rows_of_bits_match_the_geometry() {
        for v in Variant::ALL {
            let g = v.geometry();
            for s in 1..=g.squares {
                assert_eq!(row_of_bit(&g, g.bit_of(s)), g.row_col(s).0);
            }
        }
    }
}
