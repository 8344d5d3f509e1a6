//! The bitboard move generator against a slow, plain reference written
//! straight from the rule book (`crates/rafle-core/RULES.md`; a row/column
//! grid, no bit tricks), on thousands
//! of random positions of every variant: the same legal moves (identity and
//! paths), the same positions after each move; and the same perft as the
//! tables of `tests/data/perft.toml` at small depths.

mod common;
#[path = "common/perft_data.rs"]
mod perft_data;

use common::scale;
use rafle_core::rng::Rng;
use rafle_core::{parse_fen, to_fen, Color, Game, Piece, Position, Variant};
use std::collections::{BTreeMap, BTreeSet};

/// A move's identity (rule book B7): (from, to, captured squares).
type Identity = (usize, usize, BTreeSet<usize>);

/// The reference: the board as a grid of squares.
struct Board {
    v: Variant,
    n: usize,
    cells: Vec<Option<Piece>>, // by 0-based (row * n + col)
    side: Color,
}

const DIRS: [(isize, isize); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

impl Board {
    fn new(v: Variant, pos: &Position) -> Board {
        let g = v.geometry();
        let mut cells = vec![None; g.n * g.n];
        for s in 1..=g.squares {
            let (r, c) = g.row_col(s);
            cells[r * g.n + c] = pos.piece_at(&g, s);
        }
        Board {
            v,
            n: g.n,
            cells,
            side: pos.side,
        }
    }

    fn at(&self, r: isize, c: isize) -> Option<Option<Piece>> {
        let n = self.n as isize;
        (r >= 0 && c >= 0 && r < n && c < n).then(|| self.cells[(r * n + c) as usize])
    }

    fn square(&self, r: isize, c: isize) -> usize {
        self.v
            .geometry()
            .square_at(r as usize, c as usize)
            .expect("dark square")
    }

    /// "White moves up (towards square 1)".
    fn forward(&self) -> isize {
        if self.side == Color::White {
            -1
        } else {
            1
        }
    }

    fn far_row(&self) -> isize {
        if self.side == Color::White {
            0
        } else {
            self.n as isize - 1
        }
    }

    /// All legal moves as identity -> every path (landing squares) giving it.
    fn legal(&self) -> BTreeMap<Identity, BTreeSet<Vec<usize>>> {
        let mut caps: Vec<(Identity, Vec<usize>)> = Vec::new();
        for r in 0..self.n as isize {
            for c in 0..self.n as isize {
                if let Some(Some(p)) = self.at(r, c) {
                    if p.color() == self.side {
                        let mut path = vec![self.square(r, c)];
                        self.captures(p, (r, c), (r, c), &mut Vec::new(), &mut path, &mut caps);
                    }
                }
            }
        }
        // Majority rule (international, english): the most pieces, kings count one.
        let majority = matches!(self.v, Variant::International | Variant::English);
        let most = caps.iter().map(|(id, _)| id.2.len()).max().unwrap_or(0);
        let mut out: BTreeMap<Identity, BTreeSet<Vec<usize>>> = BTreeMap::new();
        for (id, path) in caps {
            if !majority || id.2.len() == most {
                out.entry(id).or_default().insert(path);
            }
        }
        if out.is_empty() {
            self.quiet(&mut out);
        }
        out
    }

    /// Is (r, c) free to land on or pass over during a capture from `start`?
    fn free(&self, r: isize, c: isize, start: (isize, isize)) -> bool {
        // The capturing piece's own starting square counts as empty.
        matches!(self.at(r, c), Some(None)) || (r, c) == start
    }

    fn captures(
        &self,
        p: Piece,
        start: (isize, isize),
        (r, c): (isize, isize),
        taken: &mut Vec<(isize, isize)>,
        path: &mut Vec<usize>,
        out: &mut Vec<(Identity, Vec<usize>)>,
    ) {
        let flying = p.is_king() && matches!(self.v, Variant::Thai | Variant::International);
        // Men capture forward only, except in international.
        let backward = p.is_king() || self.v == Variant::International;
        let mut went_on = false;
        for (dr, dc) in DIRS {
            if !backward && dr != self.forward() {
                continue;
            }
            // Find the first non-free square along the diagonal.
            let mut k = 1;
            while flying
                && self.at(r + k * dr, c + k * dc).is_some()
                && self.free(r + k * dr, c + k * dc, start)
            {
                k += 1;
            }
            let (vr, vc) = (r + k * dr, c + k * dc);
            let Some(Some(victim)) = self.at(vr, vc) else {
                continue;
            };
            // Captured pieces stay: they are never captured twice.
            if victim.color() == self.side || taken.contains(&(vr, vc)) {
                continue;
            }
            let mut j = 1;
            while self.at(vr + j * dr, vc + j * dc).is_some()
                && self.free(vr + j * dr, vc + j * dc, start)
            {
                let (lr, lc) = (vr + j * dr, vc + j * dc);
                went_on = true;
                taken.push((vr, vc));
                path.push(self.square(lr, lc));
                // Non-international men stop on the far row (crowned, move over).
                let stops =
                    !p.is_king() && self.v != Variant::International && lr == self.far_row();
                if stops {
                    self.record(taken, path, out);
                } else {
                    self.captures(p, start, (lr, lc), taken, path, out);
                }
                path.pop();
                taken.pop();
                // Thai kings land right behind; short kings and men too.
                if !(p.is_king() && self.v == Variant::International) {
                    break;
                }
                j += 1;
            }
        }
        if !went_on && path.len() > 1 {
            self.record(taken, path, out);
        }
    }

    fn record(
        &self,
        taken: &[(isize, isize)],
        path: &[usize],
        out: &mut Vec<(Identity, Vec<usize>)>,
    ) {
        let captured = taken.iter().map(|&(r, c)| self.square(r, c)).collect();
        out.push(((path[0], *path.last().unwrap(), captured), path.to_vec()));
    }

    fn quiet(&self, out: &mut BTreeMap<Identity, BTreeSet<Vec<usize>>>) {
        for r in 0..self.n as isize {
            for c in 0..self.n as isize {
                let Some(Some(p)) = self.at(r, c) else {
                    continue;
                };
                if p.color() != self.side {
                    continue;
                }
                let flying =
                    p.is_king() && matches!(self.v, Variant::Thai | Variant::International);
                for (dr, dc) in DIRS {
                    if !p.is_king() && dr != self.forward() {
                        continue;
                    }
                    let mut k = 1;
                    while let Some(None) = self.at(r + k * dr, c + k * dc) {
                        let (f, t) = (self.square(r, c), self.square(r + k * dr, c + k * dc));
                        out.entry((f, t, BTreeSet::new()))
                            .or_default()
                            .insert(vec![f, t]);
                        if !flying {
                            break;
                        }
                        k += 1;
                    }
                }
            }
        }
    }

    /// The position after the move with this identity (as a FEN).
    fn play(&self, (from, to, captured): &Identity) -> String {
        let g = self.v.geometry();
        let mut pos = Position::EMPTY;
        for s in 1..=g.squares {
            let (r, c) = g.row_col(s);
            pos.set(&g, s, self.cells[r * self.n + c]);
        }
        let p = pos.piece_at(&g, *from).unwrap();
        pos.set(&g, *from, None);
        for &s in captured {
            pos.set(&g, s, None);
        }
        // A man ending its move on the far row becomes a king.
        let (row, _) = g.row_col(*to);
        let crowned = row as isize == self.far_row();
        pos.set(
            &g,
            *to,
            Some(if crowned { Piece::King(self.side) } else { p }),
        );
        pos.side = self.side.opponent();
        to_fen(self.v, &pos)
    }
}

/// Compares engine and reference on one position; returns the number of moves.
fn compare(v: Variant, pos: &Position) -> usize {
    let fen = to_fen(v, pos);
    let game = Game::from_position(v, *pos);
    // The move generator's list (a game's list is empty once the game is over).
    let moves = rafle_core::with_rules!(v, R => rafle_core::movegen::legal_moves::<R>(pos));
    let g = v.geometry();
    let board = Board::new(v, pos);
    let want = board.legal();
    let mut got: BTreeMap<Identity, Vec<usize>> = BTreeMap::new();
    for m in &moves {
        let id = (
            m.from_square(&g),
            m.to_square(&g),
            m.captured_squares(&g).into_iter().collect(),
        );
        let dup = got.insert(id, m.path_squares(&g));
        assert!(
            dup.is_none(),
            "{v} {fen}: {} listed twice",
            game.move_string(m)
        );
    }
    // Bulk counting (perft's last ply) and the capture test agree with the list.
    assert_eq!(game.perft(1) as usize, want.len(), "{v} {fen}: count");
    let has = rafle_core::with_rules!(v, R => rafle_core::movegen::has_capture::<R>(pos));
    assert_eq!(
        has,
        want.keys().any(|id| !id.2.is_empty()),
        "{v} {fen}: has_capture"
    );
    let want_ids: BTreeSet<&Identity> = want.keys().collect();
    let got_ids: BTreeSet<&Identity> = got.keys().collect();
    assert_eq!(got_ids, want_ids, "{v} {fen}: legal move identities differ");
    for m in &moves {
        let id = (
            m.from_square(&g),
            m.to_square(&g),
            m.captured_squares(&g).into_iter().collect(),
        );
        let paths = &want[&id];
        assert!(
            paths.contains(&m.path_squares(&g)),
            "{v} {fen}: {} is not a legal path of its move (paths {paths:?})",
            game.move_string(m)
        );
        // Each jump of the path holds exactly one captured piece.
        let mut parts = 0u64;
        let mut at = m.from;
        for &l in m.landings() {
            let c = m.captured_between(&g, at, l);
            assert_eq!(c.count_ones(), u32::from(m.is_capture()), "{v} {fen}");
            parts |= c;
            at = l;
        }
        assert_eq!(parts, m.captured, "{v} {fen}: {}", game.move_string(m));
        let mut after = *pos;
        after.apply(&g, m);
        assert_eq!(
            to_fen(v, &after),
            board.play(&id),
            "{v} {fen}: {}",
            game.move_string(m)
        );
    }
    want.len()
}

/// A random position: each square empty, man or king of either colour, men
/// never on their own crowning row.
fn random_position(v: Variant, rng: &mut Rng) -> Position {
    let g = v.geometry();
    let density = 10 + rng.below(50);
    let king_share = rng.below(60);
    let mut pos = Position::EMPTY;
    for s in 1..=g.squares {
        if rng.below(100) >= density {
            continue;
        }
        let c = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let crown_row = match c {
            Color::White => s <= g.h,
            Color::Black => s > g.squares - g.h,
        };
        let king = crown_row || rng.below(100) < king_share;
        pos.set(
            &g,
            s,
            Some(if king { Piece::King(c) } else { Piece::Man(c) }),
        );
    }
    pos.side = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    pos
}

#[test]
fn engine_matches_reference_on_random_positions() {
    let mut rng = Rng::new(314);
    for v in Variant::ALL {
        let (mut moves, mut captures) = (0, 0);
        for _ in 0..10_000 * scale() {
            let pos = random_position(v, &mut rng);
            moves += compare(v, &pos);
            let has = rafle_core::with_rules!(v, R => rafle_core::movegen::has_capture::<R>(&pos));
            captures += usize::from(has);
        }
        // The sample must exercise captures, not only quiet moves.
        assert!(
            captures > 1_000 && moves > 10_000,
            "{v}: {captures} {moves}"
        );
    }
}

#[test]
fn engine_matches_reference_along_random_games() {
    let mut rng = Rng::new(2718);
    for v in Variant::ALL {
        for _ in 0..30 * scale() {
            let mut g = Game::new(v);
            while !g.is_over() && g.ply() < 200 {
                compare(v, g.position());
                let m = g.legal_moves()[rng.below(g.legal_moves().len())];
                g.play(&m).unwrap();
            }
        }
    }
}

#[test]
fn reference_agrees_on_rule_book_examples() {
    // The reference itself, on positions of the rules table.
    let b = |v, fen| Board::new(v, &parse_fen(v, fen).unwrap()).legal().len();
    assert_eq!(b(Variant::Thai, "W:WK29:B11,22"), 1);
    assert_eq!(b(Variant::International, "W:WK47:B9,12,33"), 3);
    assert_eq!(b(Variant::English, "W:W26:B14,22,23"), 1);
    assert_eq!(b(Variant::Checkers, "W:W26:B14,22,23"), 2);
}

/// Perft by the reference alone, from a FEN.
fn reference_perft(v: Variant, fen: &str, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let board = Board::new(v, &parse_fen(v, fen).unwrap());
    board
        .legal()
        .keys()
        .map(|id| reference_perft(v, &board.play(id), depth - 1))
        .sum()
}

#[test]
fn reference_perft_matches_the_tables_at_small_depths() {
    // Computed tables too: the reference is the second implementation.
    for t in perft_data::tables() {
        for (depth, expect) in t.depths_within(10_000) {
            let got = reference_perft(t.variant(), &t.fen, depth);
            assert_eq!(got, expect, "{} depth {depth}", t.label());
        }
    }
}
