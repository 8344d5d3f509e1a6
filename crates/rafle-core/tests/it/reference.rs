//! The bitboard move generator against a slow, plain reference written
//! straight from the rule book (`crates/rafle-core/RULES.md`; a row/column
//! grid, no bit tricks), on thousands
//! of random positions of every variant: the same legal moves (identity and
//! paths), the same positions after each move; and the same perft as the
//! tables of `tests/data/perft.toml` at small depths.

use crate::common;
use crate::perft_data;

use common::scale;
use rafle_core::rng::Rng;
use rafle_core::{
    parse_fen, to_fen, Color, Game, KingKind, Piece, Position, Precedence, RuleSet, Variant,
};
use std::collections::{BTreeMap, BTreeSet};

/// A move's identity (rule book B7): (from, to, captured squares).
type Identity = (usize, usize, BTreeSet<usize>);

/// A (row, column) of the grid.
type Cell = (isize, isize);

/// A capture sequence being built: its path (start square first), the
/// squares it jumped, in order, and how its piece started and ended.
#[derive(Clone, Debug)]
struct Capture {
    path: Vec<usize>,
    taken: Vec<(isize, isize)>,
    by_king: bool,
    /// A man crowned on the far row during the capture (russian).
    crowned: bool,
    /// The direction of the last jump (a jump may not turn back along it
    /// where captured pieces leave at once, U7).
    last: Option<Cell>,
}

/// The reference: the board as a grid of squares.
struct Board {
    v: Variant,
    n: usize,
    cells: Vec<Option<Piece>>, // by 0-based (row * n + col)
    side: Color,
    /// The king of the side to move that made `limit` quiet moves in a row
    /// while its side has men (F6): it makes no quiet move now.
    held_king: Option<usize>,
    /// Per colour, the square of the king whose quiet moves in a row are
    /// counted (F6) and how many: (0, 0) for none.
    runs: [(usize, u8); 2],
}

/// One step along a diagonal, in (rows, columns).
const DIAGONAL: [(isize, isize); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
/// One step along a row or column: to the next dark square, two away.
const ORTHOGONAL: [(isize, isize); 4] = [(-2, 0), (2, 0), (0, -2), (0, 2)];

impl Board {
    fn new(v: Variant, pos: &Position) -> Board {
        let g = v.geometry();
        let mut cells = vec![None; g.n * g.n];
        for s in 1..=g.squares {
            let (r, c) = g.row_col(s);
            cells[r * g.n + c] = pos.piece_at(&g, s);
        }
        let run = pos.king_runs[pos.side.index()];
        let limit = v.rules().king_move_limit;
        let has_men = cells.contains(&Some(Piece::Man(pos.side)));
        let held_king =
            (limit > 0 && run.moves >= limit && has_men).then(|| g.square_of(u32::from(run.bit)));
        let runs = pos.king_runs.map(|r| {
            if r.moves > 0 {
                (g.square_of(u32::from(r.bit)), r.moves)
            } else {
                (0, 0)
            }
        });
        Board {
            v,
            n: g.n,
            cells,
            side: pos.side,
            held_king,
            runs,
        }
    }

    /// One step along each row and column direction: to the next square
    /// of a full board (turkish), two squares on the others.
    fn orthogonal(&self) -> Vec<Cell> {
        if self.v.geometry().full {
            ORTHOGONAL.iter().map(|&(r, c)| (r / 2, c / 2)).collect()
        } else {
            ORTHOGONAL.to_vec()
        }
    }

    /// The directions of a capture: the diagonals, and the rows and columns
    /// where the variant captures along them (F3, F4); only rows and columns
    /// where pieces move along them (U3, U4).
    fn capture_dirs(&self) -> Vec<Cell> {
        if self.rules().orthogonal_moves {
            return self.orthogonal();
        }
        let mut dirs = DIAGONAL.to_vec();
        if self.rules().orthogonal_captures {
            dirs.extend(ORTHOGONAL);
        }
        dirs
    }

    /// May a man step (or capture) in direction (dr, dc) without going
    /// backward: forward, or sideways where men move along rows (U3).
    fn man_may(&self, dr: isize, dc: isize) -> bool {
        if self.rules().orthogonal_moves {
            (dr == self.forward() && dc == 0) || dr == 0
        } else {
            dr == self.forward()
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
        let mut caps: Vec<Capture> = Vec::new();
        for r in 0..self.n as isize {
            for c in 0..self.n as isize {
                if let Some(Some(p)) = self.at(r, c) {
                    if p.color() == self.side {
                        let mut seq = Capture {
                            path: vec![self.square(r, c)],
                            taken: Vec::new(),
                            by_king: p.is_king(),
                            crowned: false,
                            last: None,
                        };
                        self.captures(p, (r, c), (r, c), &mut seq, &mut caps);
                    }
                }
            }
        }
        // Capture precedence: keep the sequences with the greatest key.
        let best = caps.iter().map(|c| self.precedence_key(c)).max();
        let mut out: BTreeMap<Identity, BTreeSet<Vec<usize>>> = BTreeMap::new();
        for cap in &caps {
            if Some(self.precedence_key(cap)) == best {
                out.entry(self.identity(cap))
                    .or_default()
                    .insert(cap.path.clone());
            }
        }
        if out.is_empty() {
            self.quiet(&mut out);
        }
        out
    }

    /// The key of rule book C7 as a list compared lexicographically.
    fn precedence_key(&self, cap: &Capture) -> Vec<usize> {
        let kings: Vec<bool> = cap
            .taken
            .iter()
            .map(|&(r, c)| matches!(self.at(r, c), Some(Some(p)) if p.is_king()))
            .collect();
        let mut key = Vec::new();
        for p in self.rules().precedence {
            match p {
                Precedence::Quantity => key.push(cap.taken.len()),
                Precedence::WithKing => key.push(usize::from(cap.by_king)),
                Precedence::KingsCaptured => key.push(kings.iter().filter(|k| **k).count()),
                // Kings met earlier first: compare the king flags in order.
                Precedence::EarliestKing => {
                    key.extend((0..20).map(|i| usize::from(kings.get(i) == Some(&true))))
                }
                // A king worth two men less a sixty-fourth.
                Precedence::Value => {
                    let k = kings.iter().filter(|k| **k).count();
                    key.push(64 * (cap.taken.len() + k) - k)
                }
            }
        }
        key
    }

    fn identity(&self, cap: &Capture) -> Identity {
        let captured = cap.taken.iter().map(|&(r, c)| self.square(r, c)).collect();
        (cap.path[0], *cap.path.last().unwrap(), captured)
    }

    fn rules(&self) -> &'static RuleSet {
        self.v.rules()
    }

    /// Is (r, c) free to land on or pass over during a capture from `start`
    /// that took `taken` so far?
    fn free(&self, r: isize, c: isize, start: Cell, taken: &[Cell]) -> bool {
        // The capturing piece's own starting square counts as empty; so do
        // the captured pieces' squares where they leave at once (U7).
        matches!(self.at(r, c), Some(None))
            || (r, c) == start
            || (self.rules().immediate_removal && taken.contains(&(r, c)))
    }

    /// The jumps piece `p` on (r, c) can make after a jump in direction
    /// `last`: (victim, landing squares in order of distance, direction).
    fn jumps(
        &self,
        p: Piece,
        start: Cell,
        (r, c): Cell,
        taken: &[Cell],
        last: Option<Cell>,
    ) -> Vec<(Cell, Vec<Cell>, Cell)> {
        let rules = self.rules();
        let flying = p.is_king() && rules.kings != KingKind::Short;
        let anywhere = p.is_king() && rules.kings == KingKind::FlyingLandAnywhere;
        let backward = p.is_king() || rules.men_capture_backward;
        let mut out = Vec::new();
        for (dr, dc) in self.capture_dirs() {
            if !backward && !self.man_may(dr, dc) {
                continue;
            }
            if rules.immediate_removal && last == Some((-dr, -dc)) {
                continue;
            }
            // Find the first non-free square along the diagonal.
            let mut k = 1;
            while flying
                && self.at(r + k * dr, c + k * dc).is_some()
                && self.free(r + k * dr, c + k * dc, start, taken)
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
            if !p.is_king() && victim.is_king() && !rules.men_capture_kings {
                continue;
            }
            let mut lands = Vec::new();
            let mut j = 1;
            while self.at(vr + j * dr, vc + j * dc).is_some()
                && self.free(vr + j * dr, vc + j * dc, start, taken)
            {
                lands.push((vr + j * dr, vc + j * dc));
                if !anywhere {
                    break;
                }
                j += 1;
            }
            if !lands.is_empty() {
                out.push(((vr, vc), lands, (dr, dc)));
            }
        }
        out
    }

    fn captures(
        &self,
        p: Piece,
        start: (isize, isize),
        at: (isize, isize),
        seq: &mut Capture,
        out: &mut Vec<Capture>,
    ) {
        let rules = self.rules();
        let jumps = self.jumps(p, start, at, &seq.taken, seq.last);
        for (victim, lands, dir) in &jumps {
            seq.taken.push(*victim);
            // The piece on each landing square: a man on the far row is
            // crowned there where the variant says so.
            let piece_at = |l: (isize, isize)| {
                if !p.is_king() && rules.crown_mid_capture && l.0 == self.far_row() {
                    Piece::King(self.side)
                } else {
                    p
                }
            };
            let goes_on: Vec<bool> = lands
                .iter()
                .map(|&l| {
                    !self
                        .jumps(piece_at(l), start, l, &seq.taken, Some(*dir))
                        .is_empty()
                })
                .collect();
            let victim_king = matches!(self.at(victim.0, victim.1), Some(Some(v)) if v.is_king());
            for (i, &l) in lands.iter().enumerate() {
                let q = piece_at(l);
                // Where the capture cannot go on it ends, unless the landing
                // rules forbid ending there.
                let must_go_on = (q.is_king()
                    && rules.land_to_continue
                    && rules.kings == KingKind::FlyingLandAnywhere
                    && goes_on.iter().any(|g| *g))
                    || (q.is_king() && rules.halt_behind_king && victim_king && i > 0);
                if !goes_on[i] && must_go_on {
                    continue;
                }
                seq.path.push(self.square(l.0, l.1));
                let (crowned, last) = (seq.crowned, seq.last);
                seq.crowned |= q.is_king() && !p.is_king();
                seq.last = Some(*dir);
                if goes_on[i] {
                    self.captures(q, start, l, seq, out);
                } else {
                    out.push(seq.clone());
                }
                (seq.crowned, seq.last) = (crowned, last);
                seq.path.pop();
            }
            seq.taken.pop();
        }
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
                let flying = p.is_king() && self.rules().kings != KingKind::Short;
                if self.held_king == Some(self.square(r, c)) {
                    continue;
                }
                let dirs = if self.rules().orthogonal_moves {
                    self.orthogonal()
                } else {
                    DIAGONAL.to_vec()
                };
                for (dr, dc) in dirs {
                    if !p.is_king() && !self.man_may(dr, dc) {
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

    /// The position after the move with this identity played along `path`
    /// (start square first), as a FEN.
    fn play(&self, (from, to, captured): &Identity, path: &[usize]) -> String {
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
        // A man ending its move on the far row becomes a king; so does one
        // reaching it during a capture where the variant crowns it there.
        let on_far_row = |s: &usize| g.row_col(*s).0 as isize == self.far_row();
        let crowned = on_far_row(to)
            || (self.rules().crown_mid_capture
                && !captured.is_empty()
                && path.iter().any(on_far_row));
        pos.set(
            &g,
            *to,
            Some(if crowned { Piece::King(self.side) } else { p }),
        );
        // F6: a king's quiet move counts on from its run (up to the limit)
        // while its side has men; any other move ends the run. The other
        // side's run ends with its king or its last man.
        let limit = self.rules().king_move_limit;
        if limit > 0 {
            let has_men =
                |c: Color| (1..=g.squares).any(|s| pos.piece_at(&g, s) == Some(Piece::Man(c)));
            let (me, opp) = (self.side, self.side.opponent());
            let mine = self.runs[me.index()];
            let run = if p.is_king() && captured.is_empty() && has_men(me) {
                let before = if mine.1 > 0 && mine.0 == *from {
                    mine.1
                } else {
                    0
                };
                (*to, (before + 1).min(limit))
            } else {
                (0, 0)
            };
            let theirs = self.runs[opp.index()];
            let theirs = if theirs.1 > 0 && !captured.contains(&theirs.0) && has_men(opp) {
                theirs
            } else {
                (0, 0)
            };
            for (c, (q, moves)) in [(me, run), (opp, theirs)] {
                if moves > 0 {
                    pos.king_runs[c.index()] = rafle_core::KingRun {
                        bit: g.bit_of(q) as u8,
                        moves,
                    };
                }
            }
        }
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
        // Each jump of the path takes exactly one captured piece.
        let mut parts: rafle_core::Bitboard = 0;
        let victims = m.jump_victims(&g);
        assert_eq!(
            victims.len(),
            if m.is_capture() {
                m.landings().len()
            } else {
                0
            }
        );
        for &victim in &victims {
            assert_eq!(victim.count_ones(), 1, "{v} {fen}");
            parts |= victim;
        }
        assert_eq!(parts, m.captured, "{v} {fen}: {}", game.move_string(m));
        let mut after = *pos;
        after.apply_in(v, m);
        assert_eq!(
            to_fen(v, &after),
            board.play(&id, &m.path_squares(&g)),
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
    // Where kings' quiet moves are counted (F6), one king of the side to
    // move with a run of 1 to 4 moves.
    let kings = pos.kings_of(pos.side);
    if v.rules().king_move_limit > 0 && kings != 0 {
        let bits: Vec<u32> = rafle_core::Bits(kings).collect();
        pos.king_runs[pos.side.index()] = rafle_core::KingRun {
            bit: bits[rng.below(bits.len())] as u8,
            moves: 1 + rng.below(4) as u8,
        };
    }
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
    let b = |v: Variant, fen| Board::new(v, &parse_fen(v, fen).unwrap()).legal().len();
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
        .iter()
        .map(|(id, paths)| {
            let path = paths.first().expect("a move has a path");
            reference_perft(v, &board.play(id, path), depth - 1)
        })
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
