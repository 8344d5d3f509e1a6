//! Legal move generation, generic over the variant's [`Rules`].
//!
//! Captures are searched depth-first per piece. Captured pieces stay on the
//! board as obstacles until the sequence ends (they are neither empty nor
//! capturable again); the moving piece's start square counts as empty. A
//! piece keeps its kind during the whole sequence, so a man that passes the
//! far row mid-capture stays a man (international), unless the variant
//! crowns it there and lets it go on as a king (russian: the move then
//! carries [`Move::crowned`]); where men capture forward only a man reaching
//! the far row cannot go on, so its move ends there and it is crowned by
//! `Position::apply`. Which sequences are legal among those found is the
//! capture precedence of the variant (rule book C7), applied as each one is
//! recorded.

use std::cmp::Ordering;

use crate::board::{BitWord, Bits, Dir, Geometry};
use crate::moves::{Move, MoveList, MAX_JUMPS};
use crate::position::Position;
use crate::types::Color;
use crate::variant::{KingKind, Precedence, Rules};

// Bitboards are held in the variant's own word (`Rules::Word`, see
// `board`): narrowed from the position on entry, widened into each move.
type W<R> = <R as Rules>::Word;

/// The word of a position's bitboard.
#[inline(always)]
fn word<R: Rules>(b: crate::Bitboard) -> W<R> {
    W::<R>::narrow(b)
}

// The direction loops below are macros that copy their body once per
// direction, so that each copy sees a constant direction and
// `Geometry::step` folds to a shift and a mask; a closure called for each
// direction is not always inlined, and then the direction is a run-time
// value. A body may `return` from the enclosing function.

/// Runs `$body` with `$d` bound to each of the listed directions.
macro_rules! unroll {
    ($d:ident in [$($dir:ident),+] => $body:expr) => {{
        $({
            let $d = Dir::$dir;
            $body;
        })+
    }};
}

/// Each direction a man of `$side` moves in without capturing: diagonally
/// forward, or forward and sideways where pieces move along rows and
/// columns (turkish).
macro_rules! man_moves {
    ($R:ty, $side:expr, $d:ident => $body:expr) => {
        match (<$R as Rules>::ORTHOGONAL_MOVES, $side) {
            (false, Color::White) => unroll!($d in [UpLeft, UpRight] => $body),
            (false, Color::Black) => unroll!($d in [DownLeft, DownRight] => $body),
            (true, Color::White) => unroll!($d in [Up, Left, Right] => $body),
            (true, Color::Black) => unroll!($d in [Down, Left, Right] => $body),
        }
    };
}

/// Each direction a king moves in without capturing: the diagonals, or the
/// rows and columns (turkish).
macro_rules! king_moves {
    ($R:ty, $d:ident => $body:expr) => {
        if <$R as Rules>::ORTHOGONAL_MOVES {
            unroll!($d in [Up, Down, Left, Right] => $body);
        } else {
            unroll!($d in [UpLeft, UpRight, DownLeft, DownRight] => $body);
        }
    };
}

/// Each direction a king captures in: the diagonals, and the rows and
/// columns too where the variant has orthogonal captures (frisian), or only
/// the rows and columns (turkish).
macro_rules! king_captures {
    ($R:ty, $d:ident => $body:expr) => {
        king_moves!($R, $d => $body);
        if !<$R as Rules>::ORTHOGONAL_MOVES && <$R as Rules>::ORTHOGONAL_CAPTURES {
            unroll!($d in [Up, Down, Left, Right] => $body);
        }
    };
}

/// Each direction a man of `$side` captures in: forward (and sideways where
/// men move so), or every king direction where men capture backward.
macro_rules! man_captures {
    ($R:ty, $side:expr, $d:ident => $body:expr) => {
        if <$R as Rules>::MEN_CAPTURE_BACKWARD {
            king_captures!($R, $d => $body);
        } else {
            man_moves!($R, $side, $d => $body);
        }
    };
}

/// Direction of the line from bit `a` to bit `b` (one diagonal, row or
/// column assumed).
pub fn direction_between(g: &Geometry, a: u32, b: u32) -> Dir {
    let (sa, sb) = (g.square_of(a), g.square_of(b));
    let (ra, ca) = g.row_col(sa);
    let (rb, cb) = g.row_col(sb);
    match (rb.cmp(&ra), cb.cmp(&ca)) {
        (Ordering::Less, Ordering::Less) => Dir::UpLeft,
        (Ordering::Less, Ordering::Greater) => Dir::UpRight,
        (Ordering::Greater, Ordering::Less) => Dir::DownLeft,
        (Ordering::Greater, Ordering::Greater) => Dir::DownRight,
        (Ordering::Less, Ordering::Equal) => Dir::Up,
        (Ordering::Greater, Ordering::Equal) => Dir::Down,
        (Ordering::Equal, Ordering::Less) => Dir::Left,
        _ => Dir::Right,
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

/// [`generate`] with every path of a capture kept: two paths that take the
/// same pieces and end on the same square are one move (equal as [`Move`]s)
/// and both appear here. What a step-by-step player (rafle-env) walks: the
/// steps open in the middle of a chain then depend only on the chain's
/// state, not on which of a move's paths a merged list happened to keep.
pub fn generate_paths<R: Rules>(pos: &Position, out: &mut MoveList) {
    out.clear();
    search_captures::<R>(pos, out, false);
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
    let empty = word::<R>(g.valid & !pos.occupied());
    let own = word::<R>(pos.own());
    let all_kings = word::<R>(pos.kings);
    let men = own & !all_kings;
    let kings = own & all_kings & !word::<R>(pos.restricted_king::<R>());
    let mut n = 0;
    man_moves!(R, pos.side, d => n += (g.step(men, d) & empty).count_ones());
    if kings.any() {
        king_moves!(R, d => {
            let mut s = g.step(kings, d) & empty;
            n += s.count_ones();
            if R::KINGS != KingKind::Short {
                // Two kings on one ray: the rear fill stops at the front king,
                // so each target is counted once.
                while s.any() {
                    s = g.step(s, d) & empty;
                    n += s.count_ones();
                }
            }
        });
    }
    n as usize
}

/// Does the side to move have a capture (so capturing is mandatory)?
pub fn has_capture<R: Rules>(pos: &Position) -> bool {
    let g = &R::GEO;
    let empty = word::<R>(g.valid & !pos.occupied());
    let opp = word::<R>(pos.opp());
    let own = word::<R>(pos.own());
    let all_kings = word::<R>(pos.kings);
    let men = own & !all_kings;
    let kings = own & all_kings;
    let man_victims = man_victims::<R>(opp, all_kings);
    man_captures!(R, pos.side, d => {
        if (g.step(g.step(men, d) & man_victims, d) & empty).any() {
            return true;
        }
    });
    if !kings.any() {
        return false;
    }
    king_captures!(R, d => {
        let hit = match R::KINGS {
            KingKind::Short => (g.step(g.step(kings, d) & opp, d) & empty).any(),
            _ => {
                // Slide every king over empty squares, then look for an
                // enemy piece with an empty square behind it.
                let mut s = g.step(kings, d);
                let mut reach = s;
                while (s & empty).any() {
                    s = g.step(s & empty, d);
                    reach |= s;
                }
                (g.step(reach & opp, d) & empty).any()
            }
        };
        if hit {
            return true;
        }
    });
    false
}

/// The enemy pieces a man may capture: all of `opp`, or its men only where
/// men may not capture kings (italian, rule book N4).
#[inline(always)]
fn man_victims<R: Rules>(opp: W<R>, kings: W<R>) -> W<R> {
    if R::MEN_CAPTURE_KINGS {
        opp
    } else {
        opp & !kings
    }
}

/// State of the depth-first capture search of one piece.
struct CaptureSearch<'a, B> {
    /// Merge paths with the same (from, to, captured) into one move.
    dedup: bool,
    opp: B,
    /// Kings of the opponent (for the precedence keys and the king rules).
    opp_kings: B,
    empty: B,
    from: u32,
    /// Is the piece searched a king from the start?
    by_king: bool,
    path: [u8; MAX_JUMPS],
    /// Which jumps of the current path took a king: bit `MAX_JUMPS - 1 - i`
    /// for the i-th jump, so that a greater number means kings met earlier
    /// (EarliestKing precedence only).
    king_order: u32,
    /// Was the man of the current path crowned on the way (R4)?
    crowned: bool,
    /// The direction of the path's last jump, where a jump may not turn
    /// back along it (immediate removal, turkish).
    last: Option<Dir>,
    /// Greatest precedence key recorded so far.
    best: u64,
    out: &'a mut MoveList,
}

impl<B: BitWord> CaptureSearch<'_, B> {
    /// The precedence key of a finished sequence: each key of
    /// [`Rules::PRECEDENCE`] packed into a bit field, the first the highest.
    #[inline(always)]
    fn key<R: Rules<Word = B>>(&self, depth: usize, captured: B) -> u64 {
        let mut k = 0u64;
        let mut i = 0;
        while i < R::PRECEDENCE.len() {
            k = match R::PRECEDENCE[i] {
                Precedence::Quantity => k << 5 | depth as u64,
                Precedence::WithKing => k << 1 | self.by_king as u64,
                Precedence::KingsCaptured => {
                    k << 5 | (captured & self.opp_kings).count_ones() as u64
                }
                Precedence::EarliestKing => k << MAX_JUMPS | self.king_order as u64,
                Precedence::Value => {
                    let kings = (captured & self.opp_kings).count_ones() as u64;
                    k << 12 | (64 * (depth as u64 + kings) - kings)
                }
            };
            i += 1;
        }
        k
    }

    #[inline]
    fn record<R: Rules<Word = B>>(&mut self, depth: usize, captured: B) {
        if !R::PRECEDENCE.is_empty() {
            let key = self.key::<R>(depth, captured);
            if key < self.best {
                return;
            }
            if key > self.best {
                self.out.clear();
                self.best = key;
            }
        }
        let to = self.path[depth - 1];
        let from = self.from as u8;
        let captured = captured.widen();
        // Different paths with the same (from, to, captured) are one move;
        // that needs at least two captures.
        if self.dedup
            && depth >= 2
            && self
                .out
                .iter()
                .any(|m| m.captured == captured && m.to() == to && m.from == from)
        {
            return;
        }
        let mut m = Move::capture(self.from, &self.path[..depth], captured);
        m.set_crowned(self.crowned);
        self.out.push(m);
    }

    fn man<R: Rules<Word = B>>(&mut self, cur: B, captured: B, depth: usize, side: Color) {
        let mut extended = false;
        man_captures!(R, side, d => extended |= self.man_jump::<R>(d, cur, captured, depth, side));
        if !extended && depth > 0 {
            self.record::<R>(depth, captured);
        }
    }

    /// The man on `cur` jumps in direction `d` if it can, and searches on;
    /// whether it jumped.
    #[inline(always)]
    fn man_jump<R: Rules<Word = B>>(
        &mut self,
        d: Dir,
        cur: B,
        captured: B,
        depth: usize,
        side: Color,
    ) -> bool {
        let g = R::GEO;
        if R::IMMEDIATE_REMOVAL && self.last == Some(d.reverse()) {
            return false;
        }
        let victims = man_victims::<R>(self.opp, self.opp_kings);
        let victim = g.step(cur, d) & victims & !captured;
        if !victim.any() {
            return false;
        }
        let land = g.step(victim, d) & self.empty;
        if !land.any() {
            return false;
        }
        self.path[depth] = land.trailing_zeros() as u8;
        let last = self.leave::<R>(victim, d);
        if R::CROWN_MID_CAPTURE && (land & word::<R>(g.promotion_row(side))).any() {
            // Crowned on the far row: the capture goes on as a king's.
            self.crowned = true;
            self.king::<R>(land, captured | victim, depth + 1, true);
            self.crowned = false;
        } else {
            self.man::<R>(land, captured | victim, depth + 1, side);
        }
        self.restore::<R>(victim, last);
        true
    }

    /// Where captured pieces leave at once (turkish), `victim`'s square is
    /// empty for the rest of the path and `d` is the jump not to reverse;
    /// returns the direction to restore.
    #[inline(always)]
    fn leave<R: Rules<Word = B>>(&mut self, victim: B, d: Dir) -> Option<Dir> {
        if R::IMMEDIATE_REMOVAL {
            self.empty |= victim;
            self.last.replace(d)
        } else {
            None
        }
    }

    /// Undoes [`CaptureSearch::leave`] when the search backs up.
    #[inline(always)]
    fn restore<R: Rules<Word = B>>(&mut self, victim: B, last: Option<Dir>) {
        if R::IMMEDIATE_REMOVAL {
            self.empty &= !victim;
            self.last = last;
        }
    }

    /// Can a flying king on `cur` jump again, `captured` being taken already?
    fn flying_king_can_jump<R: Rules<Word = B>>(&self, cur: B, captured: B) -> bool {
        let g = R::GEO;
        king_captures!(R, d => {
            let mut sq = g.step(cur, d);
            while (sq & self.empty).any() {
                sq = g.step(sq, d);
            }
            let victim = sq & self.opp & !captured;
            if victim.any() && (g.step(victim, d) & self.empty).any() {
                return true;
            }
        });
        false
    }

    /// Captures of a king on `cur`. `may_end`: may the sequence end here
    /// (false where a variant's landing rule forbids stopping on `cur`).
    fn king<R: Rules<Word = B>>(&mut self, cur: B, captured: B, depth: usize, may_end: bool) {
        let mut extended = false;
        king_captures!(R, d => extended |= self.king_jump::<R>(d, cur, captured, depth));
        if !extended && depth > 0 && may_end {
            self.record::<R>(depth, captured);
        }
    }

    /// The king on `cur` captures in direction `d` if it can, and searches
    /// on from each landing square; whether it captured.
    #[inline(always)]
    fn king_jump<R: Rules<Word = B>>(&mut self, d: Dir, cur: B, captured: B, depth: usize) -> bool {
        let g = R::GEO;
        if R::IMMEDIATE_REMOVAL && self.last == Some(d.reverse()) {
            return false;
        }
        let mut sq = g.step(cur, d);
        if R::KINGS != KingKind::Short {
            while (sq & self.empty).any() {
                sq = g.step(sq, d);
            }
        }
        let victim = sq & self.opp & !captured;
        if !victim.any() {
            return false;
        }
        let first = g.step(victim, d) & self.empty;
        if !first.any() {
            return false;
        }
        let taken = captured | victim;
        let order_bit = if R::PRECEDENCE.contains(&Precedence::EarliestKing)
            && (victim & self.opp_kings).any()
        {
            1 << (MAX_JUMPS - 1 - depth)
        } else {
            0
        };
        self.king_order |= order_bit;
        // Russian: if some landing square lets the capture go on, only
        // those may be chosen.
        let continues = R::LAND_TO_CONTINUE && R::KINGS == KingKind::FlyingLandAnywhere && {
            let mut land = first;
            let mut any = false;
            while land.any() && !any {
                any = self.flying_king_can_jump::<R>(land, taken);
                land = g.step(land, d) & self.empty;
            }
            any
        };
        // Killer: a capture that ends by jumping a king halts right behind it.
        let halt = R::HALT_BEHIND_KING && (victim & self.opp_kings).any();
        let last = self.leave::<R>(victim, d);
        let mut land = first;
        while land.any() {
            self.path[depth] = land.trailing_zeros() as u8;
            let end_here = !continues && (!halt || land == first);
            self.king::<R>(land, taken, depth + 1, end_here);
            if R::KINGS != KingKind::FlyingLandAnywhere {
                break;
            }
            land = g.step(land, d) & self.empty;
        }
        self.restore::<R>(victim, last);
        self.king_order &= !order_bit;
        true
    }
}

/// All legal captures (the variant's capture precedence applied).
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
    let own = word::<R>(pos.own());
    let kings = word::<R>(pos.kings);
    let mut s = CaptureSearch {
        dedup,
        opp: word::<R>(pos.opp()),
        opp_kings: word::<R>(pos.opp() & pos.kings),
        empty: word::<R>(g.valid & !pos.occupied()),
        from: 0,
        by_king: false,
        path: [0; MAX_JUMPS],
        king_order: 0,
        crowned: false,
        last: None,
        best: 0,
        out,
    };
    let base_empty = s.empty;
    for b in Bits(own & !kings) {
        s.from = b;
        s.empty = base_empty | W::<R>::bit(b);
        s.man::<R>(W::<R>::bit(b), W::<R>::ZERO, 0, pos.side);
    }
    s.by_king = true;
    for b in Bits(own & kings) {
        s.from = b;
        s.empty = base_empty | W::<R>::bit(b);
        s.king::<R>(W::<R>::bit(b), W::<R>::ZERO, 0, true);
    }
}

/// All quiet moves (only legal when there is no capture).
pub fn generate_quiet<R: Rules>(pos: &Position, out: &mut MoveList) {
    let g = R::GEO;
    let empty = word::<R>(g.valid & !pos.occupied());
    let own = word::<R>(pos.own());
    let all_kings = word::<R>(pos.kings);
    let men = own & !all_kings;
    let kings = own & all_kings & !word::<R>(pos.restricted_king::<R>());
    man_moves!(R, pos.side, d => {
        let back = d.reverse();
        for t in Bits(g.step(men, d) & empty) {
            let from = g.step(W::<R>::bit(t), back).trailing_zeros();
            out.push(Move::quiet(from, t));
        }
    });
    for k in Bits(kings) {
        king_moves!(R, d => {
            let mut sq = g.step(W::<R>::bit(k), d) & empty;
            while sq.any() {
                out.push(Move::quiet(k, sq.trailing_zeros()));
                if R::KINGS == KingKind::Short {
                    break;
                }
                sq = g.step(sq, d) & empty;
            }
        });
    }
}
