//! The board as an SVG image: pure string generation, no I/O. Used by
//! Python's `Game.to_svg()` and by the arena.
//!
//! Layout: one `<rect>` per square (light, dark, or highlighted dark), one
//! `<circle>` per piece (so a reader can count pieces), a crown `<polygon>` on
//! each king, optional square numbers as `<text>`, and the last move's path as
//! a `<polyline>` over highlighted squares.

use crate::position::{Piece, Position};
use crate::types::Color;
use crate::variant::Variant;
use std::fmt::Write;

/// How to draw the board.
#[derive(Clone, Debug, PartialEq)]
pub struct SvgOptions {
    /// Side of one square in pixels (at least 8; a fraction where a board
    /// size in pixels is not a multiple of N).
    pub square_px: f64,
    /// Write the PDN number in a corner of each dark square.
    pub numbers: bool,
    /// Path of the last move as PDN squares (from, then every landing);
    /// empty for none. Squares out of range are ignored.
    pub last_move: Vec<usize>,
    /// Draw with Black at the bottom (the board turned half a turn).
    pub flipped: bool,
}

impl Default for SvgOptions {
    fn default() -> Self {
        SvgOptions {
            square_px: 48.0,
            numbers: false,
            last_move: Vec::new(),
            flipped: false,
        }
    }
}

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const HIGHLIGHT: &str = "#aaa23a";
const WHITE_PIECE: &str = "#fafafa";
const BLACK_PIECE: &str = "#202020";
const CROWN: &str = "#d4a017";

/// The board of variant `v` with position `pos` as a standalone SVG document.
pub fn board_svg(v: Variant, pos: &Position, opts: &SvgOptions) -> String {
    let g = v.geometry();
    let n = g.n;
    let sq = opts.square_px.max(8.0);
    // Rounded, so that 320 px over 12 squares reads 320, not 320.00000000000006.
    let size = (sq * n as f64 * 100.0).round() / 100.0;
    let on_path = |s: usize| opts.last_move.contains(&s);
    // Top-left corner of the cell at board (row, col), after flipping.
    let corner = |row: usize, col: usize| {
        let (r, c) = if opts.flipped {
            (n - 1 - row, n - 1 - col)
        } else {
            (row, col)
        };
        (c as f64 * sq, r as f64 * sq)
    };
    let mut out = String::with_capacity(4096);
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}">"#
    );
    // Squares.
    for row in 0..n {
        for col in 0..n {
            let (x, y) = corner(row, col);
            let fill = match g.square_at(row, col) {
                None => LIGHT,
                Some(s) if on_path(s) => HIGHLIGHT,
                Some(_) => DARK,
            };
            let _ = write!(
                out,
                r#"<rect x="{x}" y="{y}" width="{sq}" height="{sq}" fill="{fill}"/>"#
            );
        }
    }
    // Square numbers.
    if opts.numbers {
        let font = (sq * 0.24).round();
        for s in 1..=g.squares {
            let (row, col) = g.row_col(s);
            let (x, y) = corner(row, col);
            let _ = write!(
                out,
                r##"<text x="{}" y="{}" font-family="sans-serif" font-size="{font}" fill="#f8f0e0">{s}</text>"##,
                x + sq * 0.06,
                y + font
            );
        }
    }
    // Last move: a line through the centres of its path.
    let centre = |s: usize| {
        let (row, col) = g.row_col(s);
        let (x, y) = corner(row, col);
        (x + sq / 2.0, y + sq / 2.0)
    };
    let path: Vec<usize> = opts
        .last_move
        .iter()
        .copied()
        .filter(|&s| (1..=g.squares).contains(&s))
        .collect();
    if path.len() >= 2 {
        let points: Vec<String> = path
            .iter()
            .map(|&s| {
                let (x, y) = centre(s);
                format!("{x},{y}")
            })
            .collect();
        let _ = write!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{HIGHLIGHT}" stroke-width="{}" stroke-opacity="0.8"/>"#,
            points.join(" "),
            sq * 0.08
        );
    }
    // Pieces: one circle each; kings also get a crown.
    let radius = sq * 0.4;
    for s in 1..=g.squares {
        let Some(p) = pos.piece_at(&g, s) else {
            continue;
        };
        let (cx, cy) = centre(s);
        let (fill, stroke) = match p.color() {
            Color::White => (WHITE_PIECE, BLACK_PIECE),
            Color::Black => (BLACK_PIECE, WHITE_PIECE),
        };
        let _ = write!(
            out,
            r#"<circle cx="{cx}" cy="{cy}" r="{radius}" fill="{fill}" stroke="{stroke}" stroke-width="{}"/>"#,
            sq * 0.04
        );
        if let Piece::King(_) = p {
            // A three-pointed crown inside the disc.
            let (w, h) = (radius * 1.1, radius * 0.7);
            let (l, r, t, b) = (cx - w / 2.0, cx + w / 2.0, cy - h / 2.0, cy + h / 2.0);
            let pts = [
                (l, b),
                (l, t),
                (l + w / 4.0, cy),
                (cx, t),
                (r - w / 4.0, cy),
                (r, t),
                (r, b),
            ];
            let pts: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
            let _ = write!(
                out,
                r#"<polygon points="{}" fill="{CROWN}" stroke="{stroke}" stroke-width="{}"/>"#,
                pts.join(" "),
                sq * 0.02
            );
        }
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_fen;

    /// Checks that tags nest properly; returns the count of each element.
    fn elements(svg: &str) -> std::collections::BTreeMap<String, usize> {
        let mut stack: Vec<String> = Vec::new();
        let mut counts = std::collections::BTreeMap::new();
        let mut rest = svg;
        while let Some(i) = rest.find('<') {
            let j = rest[i..].find('>').expect("unclosed tag") + i;
            let tag = &rest[i + 1..j];
            assert!(!tag.contains('<'), "{tag}");
            if let Some(name) = tag.strip_prefix('/') {
                assert_eq!(stack.pop().as_deref(), Some(name), "mismatched </{name}>");
            } else {
                let name = tag.split_whitespace().next().unwrap().trim_end_matches('/');
                *counts.entry(name.to_string()).or_default() += 1;
                if !tag.ends_with('/') {
                    stack.push(name.to_string());
                }
            }
            rest = &rest[j + 1..];
        }
        assert!(stack.is_empty(), "unclosed {stack:?}");
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>"));
        counts
    }

    #[test]
    fn one_circle_per_piece_and_one_crown_per_king() {
        for (v, fen, pieces, kings) in [
            (Variant::Thai, "B:W25-32:B1-8", 16, 0),
            (Variant::International, "W:W31-50:B1-20", 40, 0),
            (Variant::English, "W:WK1,20:B5,K32", 4, 2),
            (Variant::Checkers, "W:W:B", 0, 0),
        ] {
            let pos = parse_fen(v, fen).unwrap();
            let svg = board_svg(v, &pos, &SvgOptions::default());
            let e = elements(&svg);
            let n = v.board_size();
            assert_eq!(e.get("circle").copied().unwrap_or(0), pieces, "{v} {fen}");
            assert_eq!(e.get("polygon").copied().unwrap_or(0), kings, "{v} {fen}");
            assert_eq!(e["rect"], n * n);
            assert_eq!(e["svg"], 1);
            assert!(!e.contains_key("text") && !e.contains_key("polyline"));
        }
    }

    #[test]
    fn numbers_last_move_and_flipping() {
        let v = Variant::International;
        let pos = parse_fen(v, "B:W28:B").unwrap();
        let opts = SvgOptions {
            numbers: true,
            last_move: vec![32, 28, 99],
            ..SvgOptions::default()
        };
        let svg = board_svg(v, &pos, &opts);
        let e = elements(&svg);
        assert_eq!(e["text"], 50);
        assert_eq!(e["polyline"], 1);
        assert_eq!(svg.matches(HIGHLIGHT).count(), 3); // two squares and the line
        assert!(svg.contains(">50</text>"));
        // Square 28 is (row 5, col 4): centre (4.5, 5.5) squares; flipped (5.5, 4.5).
        assert!(svg.contains(r#"<circle cx="216" cy="264""#), "{svg}");
        let flipped = board_svg(
            v,
            &pos,
            &SvgOptions {
                flipped: true,
                ..SvgOptions::default()
            },
        );
        assert!(flipped.contains(r#"<circle cx="264" cy="216""#));
    }
}
