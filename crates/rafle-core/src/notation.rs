//! Move notation: `32-28` for a quiet move, `28x19x10` for a capture with every
//! landing square. The short form `28x10` is accepted when it names one move.

use crate::board::Geometry;
use crate::error::Error;
use crate::moves::Move;
use crate::position::Position;
use crate::variant::Variant;

/// Writes a move with its full path.
pub fn move_to_string(g: &Geometry, m: &Move) -> String {
    let sep = if m.is_capture() { "x" } else { "-" };
    m.path_squares(g)
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

/// The squares of a move string and whether it was written as a capture.
pub fn parse_squares(text: &str, squares: usize) -> Result<(Vec<usize>, bool), Error> {
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
        let tok = tok.trim();
        if tok.is_empty() || tok.len() > 3 || !tok.bytes().all(|c| c.is_ascii_digit()) {
            return Err(Error::MoveSyntax(format!(
                "{text:?}: {tok:?} is not a square number"
            )));
        }
        let s: usize = tok.parse().unwrap_or(0);
        if s == 0 || s > squares {
            return Err(Error::MoveSyntax(format!(
                "{text:?}: square {s} out of range 1-{squares}"
            )));
        }
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
    let (path, capture) = parse_squares(text, g.squares)?;
    let from = g.bit_of(path[0]) as u8;
    let to = g.bit_of(*path.last().unwrap_or(&path[0])) as u8;
    let cands: Vec<&Move> = legal
        .iter()
        .filter(|m| m.from == from && m.to == to && m.is_capture() == capture)
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
