//! Plain-text board diagrams (for terminals and `repr`).

use crate::position::{Piece, Position};
use crate::types::Color;
use crate::variant::Variant;

/// The board as text, White at the bottom, rank numbers on the left and file
/// letters below: `w`/`b` men, `W`/`B` kings, `.` empty dark squares, blanks
/// for light squares. No trailing newline.
pub fn board_text(v: Variant, pos: &Position) -> String {
    let g = v.geometry();
    let mut out = String::new();
    for row in 0..g.n {
        out.push_str(&format!("{:>2} ", g.n - row));
        for col in 0..g.n {
            let c = match g.square_at(row, col) {
                None => ' ',
                Some(s) => match pos.piece_at(&g, s) {
                    None => '.',
                    Some(Piece::Man(Color::White)) => 'w',
                    Some(Piece::Man(Color::Black)) => 'b',
                    Some(Piece::King(Color::White)) => 'W',
                    Some(Piece::King(Color::Black)) => 'B',
                },
            };
            out.push(' ');
            out.push(c);
        }
        out.push('\n');
    }
    out.push_str("   ");
    for col in 0..g.n {
        out.push(' ');
        out.push((b'a' + col as u8) as char);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_diagram_counts_pieces() {
        for v in Variant::ALL {
            let t = board_text(v, &Position::start(v));
            let n = v.board_size();
            assert_eq!(t.lines().count(), n + 1);
            let (w, b) = (t.matches('w').count(), t.matches('b').count());
            let pos = Position::start(v);
            assert_eq!(w as u32, pos.white.count_ones());
            // 'b' also appears once in the file letters.
            assert_eq!(b as u32, pos.black.count_ones() + 1);
        }
    }
}
