//! The tables of every variant (the slices of `common::selection`) agree
//! with the rules, position by position: each
//! win at distance d has a move to a loss at d - 1 and none to a nearer
//! loss; each loss has only moves to wins, the longest at d - 1; each draw
//! has a move to a draw and none to a loss of the opponent; finished games
//! have the value the rules give them. The builder works backwards through
//! predecessor lists, this check forwards through the move generator.

use crate::common;

use rafle_core::draws::outcome_of;
use rafle_core::{movegen, Counters, Variant};
use rafle_egtb::index::Indexer;
use rafle_egtb::{Material, Tablebase, Value};

fn check(v: Variant, tb: &Tablebase, m: Material) -> (u64, [u64; 3]) {
    let ix = Indexer::new(v);
    let s = ix.slice(m).unwrap();
    let mut counts = [0u64; 3];
    let mut positions = 0;
    for i in 0..s.size {
        let Some(pos) = ix.position(&s, i) else {
            continue;
        };
        positions += 1;
        let value = tb.probe(&pos).unwrap();
        counts[match value {
            Value::Win(_) => 0,
            Value::Draw => 1,
            Value::Loss(_) => 2,
        }] += 1;
        let moves = rafle_core::with_rules!(v, R => movegen::legal_moves::<R>(&pos));
        let over = rafle_core::with_rules!(v, R => outcome_of::<R>(&pos, moves.len(), &Counters::default(), 1));
        let fen = rafle_core::to_fen(v, &pos);
        if let Some(o) = over {
            let want = match o.winner {
                None => Value::Draw,
                Some(c) if c == pos.side => Value::Win(0),
                Some(_) => Value::Loss(0),
            };
            assert_eq!(value, want, "{v} {fen}: a finished game");
            continue;
        }
        let after: Vec<Value> = tb
            .move_values(&pos)
            .unwrap()
            .into_iter()
            .map(|(_, x)| x)
            .collect();
        assert_eq!(after.len(), moves.len());
        let best = *after.iter().max().unwrap();
        assert_eq!(value, best, "{v} {fen}: the value is the best move's");
        match value {
            Value::Win(d) => assert!(d >= 1),
            Value::Loss(d) => {
                assert!(after.iter().all(|x| matches!(x, Value::Loss(_))));
                assert!(d >= 1);
            }
            Value::Draw => assert!(after.iter().all(|x| !matches!(x, Value::Win(_)))),
        }
    }
    (positions, counts)
}

#[test]
fn every_position_of_the_small_tables_agrees_with_its_moves() {
    for v in Variant::ALL {
        let t = std::time::Instant::now();
        let selection = common::selection(v);
        let (tb, summary) = common::default_tables(v);
        assert_eq!(tb.slices().len(), selection.slices(v).len(), "{v}");
        let mut total = 0;
        for stats in &summary.written {
            let (positions, [w, d, l]) = check(v, tb, stats.material);
            assert_eq!(positions, stats.positions, "{v} {}", stats.material);
            assert_eq!(
                [w, d, l],
                [stats.wins, stats.draws, stats.losses],
                "{v} {}",
                stats.material
            );
            total += positions;
        }
        assert!(total > 0);
        eprintln!(
            "{v}: {total} positions in {:.1} s",
            t.elapsed().as_secs_f64()
        );
    }
}
