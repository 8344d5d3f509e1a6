//! Legal move generation, generic over the variant's [`Rules`].
//!
//! Captures are searched depth-first per piece. Captured pieces stay on the
//! board as obstacles until the sequence ends (they are neither empty nor
//! capturable again); the moving piece's start square counts as empty. A
//! piece keeps its kind during the whole sequence, so a man that passes the
//! far row mid-capture stays a man (international); in the other variants men
//! capture forward only and a man reaching the far row cannot go on, so its
//! move ends there and it is crowned by `Position::apply`.

use crate::board::{Bits, Dir, Geometry};
use crate::moves::{Move, MoveList, MAX_JUMPS};
use crate::position::Position;
use crate::types::Color;
use crate::variant::{KingKind, Rules};

#[inline(always)]
fn forward_dirs(c: Color) -> [Dir; 2] {
    match c {
        Color::White => [Dir::UpLeft, Dir::UpRight],
        Color::Black => [Dir::DownLeft, Dir::DownRight],
    }
}

/// Direction of the diagonal from bit `a` to bit `b` (same diagonal assumed).
pub fn direction_between(g: &Geometry, a: u32, b: u32) -> Dir {
    let (sa, sb) = (g.square_of(a), g.square_of(b));
    let (ra, ca) = g.row_col(sa);
    let (rb, cb) = g.row_col(sb);
    match (rb < ra, cb < ca) {
        (true, true) => Dir::UpLeft,
        (true, false) => Dir::UpRight,
        (false, true) => Dir::DownLeft,
        (false, false) => Dir::DownRight,
    }
}

/// All legal moves of the side to move, in `out` (cleared first).
pub fn generate<R: Rules>(pos: &Position, out: &mut MoveList) {
    out.clear();
    generate_captures::<R>(pos, out);
    if out.is_empty() {
        generate_quiet::<R>(pos, out);
    }
}

/// The legal moves as a new list.
pub fn legal_moves<R: Rules>(pos: &Position) -> MoveList {
    let mut out = MoveList::new();
    generate::<R>(pos, &mut out);
    out
}

/// Number of legal moves, without building quiet moves (bulk counting).
pub fn count<R: Rules>(pos: &Position) -> usize {
    if has_capture::<R>(pos) {
        let mut out = MoveList::new();
        generate_captures::<R>(pos, &mut out);
        return out.len();
    }
    let g = &R::GEO;
    let empty = g.valid & !pos.occupied();
    let own = pos.own();
    let men = own & !pos.kings;
    let kings = own & pos.kings;
    let mut n = 0;
    for d in forward_dirs(pos.side) {
        n += (g.step(men, d) & empty).count_ones();
    }
    if kings != 0 {
        for d in Dir::ALL {
            let mut s = g.step(kings, d) & empty;
            n += s.count_ones();
            if R::KINGS != KingKind::Short {
                // Two kings on one ray: the rear fill stops at the front king,
                // so each target is counted once.
                while s != 0 {
                    s = g.step(s, d) & empty;
                    n += s.count_ones();
                }
            }
        }
    }
    n as usize
}

/// Does the side to move have a capture (so capturing is mandatory)?
pub fn has_capture<R: Rules>(pos: &Position) -> bool {
    let g = &R::GEO;
    let empty = g.valid & !pos.occupied();
    let opp = pos.opp();
    let own = pos.own();
    let men = own & !pos.kings;
    let kings = own & pos.kings;
    let man_dirs: &[Dir] = if R::MEN_CAPTURE_BACKWARD {
        &Dir::ALL
    } else {
        match pos.side {
            Color::White => &[Dir::UpLeft, Dir::UpRight],
            Color::Black => &[Dir::DownLeft, Dir::DownRight],
        }
    };
    for &d in man_dirs {
        if g.step(g.step(men, d) & opp, d) & empty != 0 {
            return true;
        }
    }
    if kings == 0 {
        return false;
    }
    for d in Dir::ALL {
        match R::KINGS {
            KingKind::Short => {
                if g.step(g.step(kings, d) & opp, d) & empty != 0 {
                    return true;
                }
            }
            _ => {
                // Slide every king over empty squares, then look for an
                // enemy piece with an empty square behind it.
                let mut s = g.step(kings, d);
                let mut reach = s;
                while s & empty != 0 {
                    s = g.step(s & empty, d);
                    reach |= s;
                }
                if g.step(reach & opp, d) & empty != 0 {
                    return true;
                }
            }
        }
    }
    false
}

/// State of the depth-first capture search of one piece.
struct CaptureSearch<'a> {
    g: Geometry,
    majority: bool,
    /// Merge paths with the same (from, to, captured) into one move.
    dedup: bool,
    opp: u64,
    empty: u64,
    from: u32,
    path: [u8; MAX_JUMPS],
    best: u32,
    out: &'a mut MoveList,
}

impl CaptureSearch<'_> {
    #[inline]
    fn record(&mut self, depth: usize, captured: u64) {
        let n = depth as u32;
        if self.majority {
            if n < self.best {
                return;
            }
            if n > self.best {
                self.out.clear();
                self.best = n;
            }
        }
        let to = self.path[depth - 1];
        let from = self.from as u8;
        // Different paths with the same (from, to, captured) are one move;
        // that needs at least two captures.
        if self.dedup
            && n >= 2
            && self
                .out
                .iter()
                .any(|m| m.captured == captured && m.to == to && m.from == from)
        {
            return;
        }
        self.out
            .push(Move::capture(self.from, &self.path[..depth], captured));
    }

    fn man<R: Rules>(&mut self, cur: u64, captured: u64, depth: usize, side: Color) {
        let g = self.g;
        let mut extended = false;
        let dirs: &[Dir] = if R::MEN_CAPTURE_BACKWARD {
            &Dir::ALL
        } else {
            match side {
                Color::White => &[Dir::UpLeft, Dir::UpRight],
                Color::Black => &[Dir::DownLeft, Dir::DownRight],
            }
        };
        for &d in dirs {
            let victim = g.step(cur, d) & self.opp & !captured;
            if victim == 0 {
                continue;
            }
            let land = g.step(victim, d) & self.empty;
            if land == 0 {
                continue;
            }
            extended = true;
            self.path[depth] = land.trailing_zeros() as u8;
            self.man::<R>(land, captured | victim, depth + 1, side);
        }
        if !extended && depth > 0 {
            self.record(depth, captured);
        }
    }

    fn king<R: Rules>(&mut self, cur: u64, captured: u64, depth: usize) {
        let g = self.g;
        let mut extended = false;
        for d in Dir::ALL {
            let mut sq = g.step(cur, d);
            if R::KINGS != KingKind::Short {
                while sq & self.empty != 0 {
                    sq = g.step(sq, d);
                }
            }
            let victim = sq & self.opp & !captured;
            if victim == 0 {
                continue;
            }
            let mut land = g.step(victim, d) & self.empty;
            while land != 0 {
                extended = true;
                self.path[depth] = land.trailing_zeros() as u8;
                self.king::<R>(land, captured | victim, depth + 1);
                if R::KINGS != KingKind::FlyingLandAnywhere {
                    break;
                }
                land = g.step(land, d) & self.empty;
            }
        }
        if !extended && depth > 0 {
            self.record(depth, captured);
        }
    }
}

/// All legal captures (majority rule applied where the variant has it).
pub fn generate_captures<R: Rules>(pos: &Position, out: &mut MoveList) {
    search_captures::<R>(pos, out, true);
}

/// Every legal capture PATH, without merging paths of the same move (used to
/// check a path written by a user against the one the move list kept).
pub fn capture_paths<R: Rules>(pos: &Position) -> MoveList {
    let mut out = MoveList::new();
    search_captures::<R>(pos, &mut out, false);
    out
}

fn search_captures<R: Rules>(pos: &Position, out: &mut MoveList, dedup: bool) {
    if !has_capture::<R>(pos) {
        return;
    }
    let g = R::GEO;
    let own = pos.own();
    let mut s = CaptureSearch {
        g,
        majority: R::MAJORITY,
        dedup,
        opp: pos.opp(),
        empty: g.valid & !pos.occupied(),
        from: 0,
        path: [0; MAX_JUMPS],
        best: 1,
        out,
    };
    let base_empty = s.empty;
    for b in Bits(own & !pos.kings) {
        s.from = b;
        s.empty = base_empty | 1 << b;
        s.man::<R>(1 << b, 0, 0, pos.side);
    }
    for b in Bits(own & pos.kings) {
        s.from = b;
        s.empty = base_empty | 1 << b;
        s.king::<R>(1 << b, 0, 0);
    }
}

/// All quiet moves (only legal when there is no capture).
pub fn generate_quiet<R: Rules>(pos: &Position, out: &mut MoveList) {
    let g = R::GEO;
    let empty = g.valid & !pos.occupied();
    let own = pos.own();
    let men = own & !pos.kings;
    let kings = own & pos.kings;
    for d in forward_dirs(pos.side) {
        let back = d.reverse();
        for t in Bits(g.step(men, d) & empty) {
            let from = g.step(1 << t, back).trailing_zeros();
            out.push(Move::quiet(from, t));
        }
    }
    for k in Bits(kings) {
        for d in Dir::ALL {
            let mut sq = g.step(1 << k, d) & empty;
            while sq != 0 {
                out.push(Move::quiet(k, sq.trailing_zeros()));
                if R::KINGS == KingKind::Short {
                    break;
                }
                sq = g.step(sq, d) & empty;
            }
        }
    }
}
