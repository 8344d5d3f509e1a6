//! Move notation: `32-28` for a quiet move, `28x19x10` for a capture with every
//! landing square. The short form `28x10` is accepted when it names one move.
//! Squares are PDN numbers or, in every variant, algebraic names (`c3`: file
//! letter from White's left, rank from White's side, rule book B8); a
//! variant whose notation is algebraic prints them so, captures joined by
//! `:` (`c3:e5:g3`), as its PDN game type does.

use crate::board::Geometry;
use crate::error::Error;
use crate::moves::Move;
use crate::position::Position;
use crate::variant::{Notation, Variant};

/// The name of square `s` in the variant's notation: `22` or `c3`.
pub fn square_name(v: Variant, s: usize) -> String {
    let g = v.geometry();
    match v.rules().notation {
        Notation::Numeric => s.to_string(),
        Notation::Algebraic => {
            let (row, col) = g.row_col(s);
            format!("{}{}", (b'a' + col as u8) as char, g.n - row)
        }
    }
}

/// The square named by `tok`: a number 1..=N*N/2 or an algebraic name of a
/// dark square. The error says what is wrong with the token.
pub fn parse_square(g: &Geometry, tok: &str) -> Result<usize, String> {
    let t = tok.trim();
    let bytes = t.as_bytes();
    if !t.is_empty() && t.len() <= 3 && bytes.iter().all(u8::is_ascii_digit) {
        let s: usize = t.parse().unwrap_or(0);
        if s == 0 || s > g.squares {
            return Err(format!("square {s} out of range 1-{}", g.squares));
        }
        return Ok(s);
    }
    let algebraic = bytes.len() >= 2
        && bytes.len() <= 3
        && bytes[0].is_ascii_alphabetic()
        && bytes[1..].iter().all(u8::is_ascii_digit);
    if !algebraic {
        return Err(format!(
            "{tok:?} is not a square (a number or a name such as c3)"
        ));
    }
    let col = (bytes[0].to_ascii_lowercase() - b'a') as usize;
    let rank: usize = t[1..].parse().unwrap_or(0);
    if col >= g.n || rank == 0 || rank > g.n {
        return Err(format!("square {t:?} is off the {n}x{n} board", n = g.n));
    }
    g.square_at(g.n - rank, col)
        .ok_or_else(|| format!("square {t:?} is a light square"))
}

/// Writes a move with its full path.
pub fn move_to_string(v: Variant, m: &Move) -> String {
    let g = v.geometry();
    let sep = match (m.is_capture(), v.rules().notation) {
        (false, _) => "-",
        (true, Notation::Numeric) => "x",
        (true, Notation::Algebraic) => ":",
    };
    m.path_squares(&g)
        .iter()
        .map(|&s| square_name(v, s))
        .collect::<Vec<_>>()
        .join(sep)
}

/// The squares of a move string and whether it was written as a capture.
pub fn parse_squares(text: &str, g: &Geometry) -> Result<(Vec<usize>, bool), Error> {
    let t = text.trim();
    let capture = t.contains(['x', 'X', ':']);
    let quiet = t.contains('-');
    if capture == quiet {
        return Err(Error::MoveSyntax(format!(
            "{text:?}: expected squares joined by '-' (quiet move) or 'x' (capture)"
        )));
    }
    let mut out = Vec::new();
    for tok in t.split(['x', 'X', ':', '-']) {
        let s = parse_square(g, tok).map_err(|e| Error::MoveSyntax(format!("{text:?}: {e}")))?;
        out.push(s);
    }
    if out.len() < 2 || (!capture && out.len() != 2) {
        return Err(Error::MoveSyntax(format!(
            "{text:?}: a move needs a start and a landing square"
        )));
    }
    Ok((out, capture))
}

/// Finds the legal move named by `text` among `legal` (the legal moves of
/// `pos` in variant `v`).
pub fn parse_move(v: Variant, pos: &Position, legal: &[Move], text: &str) -> Result<Move, Error> {
    let g = &v.geometry();
    let (path, capture) = parse_squares(text, g)?;
    let from = g.bit_of(path[0]) as u8;
    let to = g.bit_of(*path.last().unwrap_or(&path[0])) as u8;
    let cands: Vec<&Move> = legal
        .iter()
        .filter(|m| m.from == from && m.to() == to && m.is_capture() == capture)
        .collect();
    if cands.is_empty() {
        return Err(Error::IllegalMove(text.trim().to_string()));
    }
    if let Some(m) = cands.iter().find(|m| m.path_squares(g) == path) {
        return Ok(**m);
    }
    if capture && path.len() == 2 {
        // Short form: fine when only one legal move goes from..to.
        return match cands.as_slice() {
            [m] => Ok(**m),
            _ => Err(Error::AmbiguousMove(text.trim().to_string())),
        };
    }
    // Another legal path of a move the list keeps under a different path.
    if capture {
        let paths = with_rules!(v, R => crate::movegen::capture_paths::<R>(pos));
        if let Some(p) = paths.iter().find(|p| p.path_squares(g) == path) {
            if let Some(m) = cands.iter().find(|m| *m == &p) {
                return Ok(**m);
            }
        }
    }
    Err(Error::IllegalMove(text.trim().to_string()))
}
