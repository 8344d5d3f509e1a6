//! PDN FEN parsing and printing: `W:W31,32,K10:B1-12` (side to move, then each
//! colour's pieces; `K` marks a king; ranges accepted on input). Squares
//! are read as numbers or algebraic names (`W:Wc3,Ke1:Bd6`) and printed in
//! the variant's notation ([`crate::notation::square_name`]).
//!
//! Where a variant limits a king's quiet moves in a row (frisian, rule book
//! F6), a last section `R` gives the runs under way, colour, king's square
//! and moves made: `W:W45,K21:B20:RW21/3` (White's king on 21 made three
//! quiet moves in a row). It is printed only when a run is under way.

use crate::board::{bit, Geometry};
use crate::error::Error;
use crate::moves::MAX_JUMPS;
use crate::position::{Piece, Position};
use crate::types::Color;
use crate::variant::Variant;

fn color_of(tok: &str, what: &str) -> Result<Color, Error> {
    match tok {
        "W" | "w" => Ok(Color::White),
        "B" | "b" => Ok(Color::Black),
        _ => Err(Error::Fen(format!(
            "unknown colour {tok:?} in {what} (expected W or B)"
        ))),
    }
}

fn parse_square(g: &Geometry, tok: &str) -> Result<usize, Error> {
    crate::notation::parse_square(g, tok).map_err(Error::Fen)
}

/// Reads a PDN FEN for variant `v`.
///
/// Rejected: unknown colours, squares out of range, two pieces on a square, a
/// man on its own crowning row, and more than [`MAX_JUMPS`] (30, a full
/// canadian side) pieces of one colour, which would let a capture sequence
/// outgrow [`crate::Move`]'s path.
pub fn parse_fen(v: Variant, fen: &str) -> Result<Position, Error> {
    let g = v.geometry();
    let most = MAX_JUMPS;
    let mut s = fen.trim();
    if s.len() >= 2 && s.starts_with('"') && s.ends_with('"') {
        s = &s[1..s.len() - 1];
    }
    let s = s.trim().trim_end_matches('.');
    if s.is_empty() {
        return Err(Error::Fen("empty string".into()));
    }
    let mut parts = s.split(':');
    let side_tok = parts.next().unwrap_or("").trim();
    let side = color_of(side_tok, "the side to move")?;
    let mut pos = Position::EMPTY;
    pos.side = side;
    let mut seen = [false; 2];
    for part in parts {
        let part = part.trim();
        if let Some(runs) = part.strip_prefix('R') {
            parse_runs(v, runs, &mut pos)?;
            continue;
        }
        let mut chars = part.chars();
        let c = chars
            .next()
            .ok_or_else(|| Error::Fen("empty piece section".into()))?;
        let color = color_of(&c.to_string(), "a piece section")?;
        if std::mem::replace(&mut seen[color.index()], true) {
            return Err(Error::Fen(format!("two piece sections for {color}")));
        }
        for item in chars.as_str().split(',') {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            // A king is marked K (or k). Where the board has a k file
            // (12x12) a lowercase k before a rank is that file: "k1" is a
            // square there, "Kk1" a king on it.
            let (king, body) = match item.strip_prefix(['K', 'k']) {
                Some(rest)
                    if !(item.starts_with('k')
                        && g.n > 10
                        && rest.starts_with(|c: char| c.is_ascii_digit())) =>
                {
                    (true, rest)
                }
                _ => (false, item),
            };
            let (lo, hi) = match body.split_once('-') {
                Some((a, b)) => (parse_square(&g, a)?, parse_square(&g, b)?),
                None => {
                    let q = parse_square(&g, body)?;
                    (q, q)
                }
            };
            if lo > hi {
                return Err(Error::Fen(format!("empty range {item:?}")));
            }
            for q in lo..=hi {
                if pos.piece_at(&g, q).is_some() {
                    return Err(Error::Fen(format!("two pieces on square {q}")));
                }
                let b = bit(g.bit_of(q));
                if !king && b & g.promotion_row(color) != 0 {
                    return Err(Error::Fen(format!(
                        "a {color} man on square {q}, its own crowning row"
                    )));
                }
                let p = if king {
                    Piece::King(color)
                } else {
                    Piece::Man(color)
                };
                pos.set(&g, q, Some(p));
            }
        }
    }
    for c in [Color::White, Color::Black] {
        let n = pos.pieces(c).count_ones() as usize;
        if n > most {
            return Err(Error::Fen(format!("{n} {c} pieces (at most {most})")));
        }
        let run = pos.king_runs[c.index()];
        if run.moves > 0 && pos.kings_of(c) & bit(run.bit) == 0 {
            let q = g.square_of(u32::from(run.bit));
            return Err(Error::Fen(format!(
                "a {c} king run on {q}, where no {c} king stands"
            )));
        }
    }
    Ok(pos)
}

/// Reads the `R` section: `W21/3,B5/1`.
fn parse_runs(v: Variant, text: &str, pos: &mut Position) -> Result<(), Error> {
    let g = v.geometry();
    let limit = v.rules().king_move_limit;
    if limit == 0 {
        return Err(Error::Fen(format!(
            "a king-move run section in {v}, which does not count king moves"
        )));
    }
    for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let bad = || Error::Fen(format!("king-move run {item:?} (expected like W21/3)"));
        let (head, moves) = item.split_once('/').ok_or_else(bad)?;
        let mut chars = head.chars();
        let tag = chars.next().ok_or_else(bad)?;
        let color = color_of(&tag.to_string(), "a king-move run")?;
        let q = parse_square(&g, chars.as_str())?;
        let moves: u8 = moves.trim().parse().map_err(|_| bad())?;
        if moves == 0 || moves > limit {
            return Err(Error::Fen(format!(
                "king-move run {item:?}: moves must be 1..={limit}"
            )));
        }
        pos.king_runs[color.index()] = crate::position::KingRun {
            bit: g.bit_of(q) as u8,
            moves,
        };
    }
    Ok(())
}

/// Writes a position as PDN FEN, squares ascending, kings marked with `K`.
pub fn to_fen(v: Variant, pos: &Position) -> String {
    let g = v.geometry();
    let mut out = String::new();
    out.push(if pos.side == Color::White { 'W' } else { 'B' });
    for c in [Color::White, Color::Black] {
        out.push(':');
        out.push(if c == Color::White { 'W' } else { 'B' });
        let mut first = true;
        for s in g.squares_of(pos.pieces(c)) {
            if !first {
                out.push(',');
            }
            first = false;
            if pos.kings & bit(g.bit_of(s)) != 0 {
                out.push('K');
            }
            out.push_str(&crate::notation::square_name(v, s));
        }
    }
    let runs: Vec<String> = [Color::White, Color::Black]
        .into_iter()
        .filter(|c| pos.king_runs[c.index()].moves > 0)
        .map(|c| {
            let run = pos.king_runs[c.index()];
            let q = g.square_of(u32::from(run.bit));
            let tag = if c == Color::White { 'W' } else { 'B' };
            format!("{tag}{}/{}", crate::notation::square_name(v, q), run.moves)
        })
        .collect();
    if !runs.is_empty() {
        out.push_str(":R");
        out.push_str(&runs.join(","));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_side_fits_a_move_path() {
        for v in Variant::ALL {
            let side = v.rules().start_rows * v.geometry().h;
            assert!(side <= MAX_JUMPS, "{v}: {side} men a side");
        }
    }
}
