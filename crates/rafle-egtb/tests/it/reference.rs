//! The tables agree with a plain search to the end of the game, written
//! without the builder's machinery (no indices, no predecessor lists): on
//! random positions of the 3-piece slices every variant's default tables
//! hold, a memoised depth-first search finds the same win or loss at the
//! same distance and nothing one ply shorter (positions the tables put
//! within the horizon plies of the end), and no forced result within
//! the horizon plies where the tables say draw.

use crate::common;

use rafle_core::draws::outcome_of;
use rafle_core::rng::Rng;
use rafle_core::{movegen, Counters, Position, Rules, Variant};
use rafle_egtb::index::Indexer;
use rafle_egtb::Value;
use std::collections::HashMap;

/// Positions checked per variant, on the 32-square boards and on the larger
/// ones.
const SAMPLES: [usize; 2] = [40, 16];
/// The longest distance checked, and how far the search looks for a forced
/// result where the tables say draw, on the 32-square boards and on the
/// larger ones (the plain search's cost grows fast with it, most with
/// flying kings on a large board).
const HORIZON: [u16; 2] = [20, 10];

/// A plain solver: the exact value of a position when the game ends within
/// `d` plies under perfect play, `None` when it does not (a draw, or a
/// longer result). What it learned of a position is kept: a result, or the
/// depth up to which it has none.
struct Solver {
    memo: HashMap<Position, (Option<Value>, u16)>,
}

impl Solver {
    fn within<R: Rules>(&mut self, pos: &Position, d: u16) -> Option<Value> {
        if let Some(&(known, searched)) = self.memo.get(pos) {
            match known {
                Some(v) => return (v.plies() <= d).then_some(v),
                None if searched >= d => return None,
                None => {}
            }
        }
        let moves = movegen::legal_moves::<R>(pos);
        let result = if let Some(o) = outcome_of::<R>(pos, moves.len(), &Counters::default(), 1) {
            Some(match o.winner {
                None => Value::Draw,
                Some(c) if c == pos.side => Value::Win(0),
                Some(_) => Value::Loss(0),
            })
            .filter(|v| *v != Value::Draw)
        } else if d == 0 {
            None
        } else {
            let mut best_win: Option<u16> = None;
            let mut all_lose = true;
            let mut longest = 0;
            for m in &moves {
                let mut next = *pos;
                next.apply::<R>(m);
                match self.within::<R>(&next, d - 1) {
                    Some(Value::Loss(k)) => {
                        best_win = Some(best_win.map_or(k + 1, |w| w.min(k + 1)));
                    }
                    Some(Value::Win(k)) => longest = longest.max(k + 1),
                    _ => all_lose = false,
                }
            }
            match best_win {
                Some(w) => Some(Value::Win(w)),
                None if all_lose => Some(Value::Loss(longest)),
                None => None,
            }
        };
        let entry = self.memo.entry(*pos).or_insert((None, 0));
        match result {
            Some(v) => *entry = (Some(v), v.plies()),
            None => entry.1 = entry.1.max(d),
        }
        result
    }
}

#[test]
fn tables_agree_with_a_plain_search_to_the_end() {
    for v in Variant::ALL {
        let t = std::time::Instant::now();
        let (tb, _) = common::default_tables(v);
        let stats = tb.stats().unwrap();
        let ix = Indexer::new(v);
        let mut rng = Rng::new(17);
        let mut solver = Solver {
            memo: HashMap::new(),
        };
        let slices: Vec<_> = stats.iter().filter(|s| s.material.pieces() == 3).collect();
        assert!(!slices.is_empty(), "{v}");
        let large = (v.geometry().squares > 32) as usize;
        let most = HORIZON[large];
        let mut checked = 0;
        while checked < SAMPLES[large] {
            let s = slices[rng.below(slices.len())];
            let si = ix.slice(s.material).unwrap();
            let Some(p) = ix.position(&si, rng.next_u64() % si.size) else {
                continue;
            };
            // Either side to move: Black's positions go through the turn.
            let p = if rng.below(2) == 0 { p } else { turn(v, &p) };
            let table = tb.probe(&p).unwrap();
            let fen = rafle_core::to_fen(v, &p);
            let horizon = match table {
                Value::Draw => most,
                v if v.plies() > most => continue,
                v => v.plies(),
            };
            let plain = rafle_core::with_rules!(v, R => solver.within::<R>(&p, horizon));
            assert_eq!(plain.unwrap_or(Value::Draw), table, "{v} {fen}");
            if horizon > 0 && table != Value::Draw {
                let shorter = rafle_core::with_rules!(v, R => solver.within::<R>(&p, horizon - 1));
                assert_eq!(shorter, None, "{v} {fen}: a shorter result than {table}");
            }
            checked += 1;
        }
        eprintln!(
            "{v}: {:.1} s, {} positions searched",
            t.elapsed().as_secs_f64(),
            solver.memo.len()
        );
    }
}

/// `p` (White to move) turned half a turn with the colours swapped: the
/// same position for Black to move.
fn turn(v: Variant, p: &Position) -> Position {
    let g = v.geometry();
    let mut out = Position::EMPTY;
    out.side = p.side.opponent();
    for s in 1..=g.squares {
        let piece = p.piece_at(&g, s).map(|pc| match pc {
            rafle_core::Piece::Man(c) => rafle_core::Piece::Man(c.opponent()),
            rafle_core::Piece::King(c) => rafle_core::Piece::King(c.opponent()),
        });
        out.set(&g, g.rotate_square(s), piece);
    }
    for c in [rafle_core::Color::White, rafle_core::Color::Black] {
        let run = p.king_runs[c.index()];
        if run.moves > 0 {
            let s = g.rotate_square(g.square_of(run.bit as u32));
            out.king_runs[c.opponent().index()] = rafle_core::KingRun {
                bit: g.bit_of(s) as u8,
                moves: run.moves,
            };
        }
    }
    out
}
