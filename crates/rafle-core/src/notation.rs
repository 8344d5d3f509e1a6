//! Move notation: `32-28` for a quiet move, `28x19x10` for a capture with every
//! landing square. The short form `28x10` is accepted when it names one move.

use crate::board::Geometry;
use crate::error::Error;
use crate::moves::Move;
use crate::position::Position;

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

/// The captured set of a capture path on `pos`, walking each segment; None if
/// a segment is not a diagonal jump over exactly one enemy piece.
fn captured_along(g: &Geometry, pos: &Position, path: &[usize]) -> Option<u64> {
    let opp = pos.opp();
    let mut captured = 0u64;
    for w in path.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (ra, ca) = g.row_col(a);
        let (rb, cb) = g.row_col(b);
        if ra.abs_diff(rb) != ca.abs_diff(cb) || a == b {
            return None;
        }
        let d = crate::movegen::direction_between(g, g.bit_of(a), g.bit_of(b));
        let target = 1u64 << g.bit_of(b);
        let mut sq = g.step(1u64 << g.bit_of(a), d);
        let mut found = 0u64;
        while sq != 0 && sq != target {
            if sq & opp != 0 {
                if found != 0 {
                    return None;
                }
                found = sq;
            }
            sq = g.step(sq, d);
        }
        if found == 0 {
            return None;
        }
        captured |= found;
    }
    Some(captured)
}

/// Finds the legal move named by `text` among `legal`.
pub fn parse_move(g: &Geometry, pos: &Position, legal: &[Move], text: &str) -> Result<Move, Error> {
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
    // Another path of a move already listed under a different path.
    if capture {
        if let Some(c) = captured_along(g, pos, &path) {
            if c.count_ones() as usize == path.len() - 1 {
                if let Some(m) = cands.iter().find(|m| m.captured == c) {
                    return Ok(**m);
                }
            }
        }
    }
    Err(Error::IllegalMove(text.trim().to_string()))
}
