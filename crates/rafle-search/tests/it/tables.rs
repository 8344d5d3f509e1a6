//! The players with endgame tables, in every variant: at a position the
//! tables cover, alpha-beta and the `egtb` player play a move that keeps the
//! tables' value, and the `egtb` player converts a won position within the
//! tables' distance whatever the loser plays.

use rafle_core::rng::Rng;
use rafle_core::{Game, Variant};
use rafle_egtb::index::Indexer;
use rafle_egtb::{build, Material, Selection, Tablebase, Value};
use rafle_search::spec::{parse_player_with, PlayerOptions};
use rafle_search::Player;
use std::sync::Arc;

/// Won positions played out per variant, and the longest distance tried:
/// short enough that no move-counting draw rule (frisian's seven moves with
/// two kings against one is the shortest) can end the game first.
const WINS: usize = 6;
const LONGEST: u16 = 12;

/// Tables of the variant's example slice and every slice it leads into.
fn tables(v: Variant) -> (Arc<Tablebase>, Material, std::path::PathBuf) {
    let m = Material::example(v);
    let dir = std::env::temp_dir().join(format!("rafle-search-tables-{}-{v}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    build(v, &dir, &Selection::Slices(vec![m]), &|_| {}).unwrap();
    (Arc::new(Tablebase::open(v, &dir).unwrap()), m, dir)
}

/// Random covered positions of slice `m` that are not over, with their value.
fn positions(v: Variant, tb: &Tablebase, m: Material, n: usize, seed: u64) -> Vec<(Game, Value)> {
    let ix = Indexer::new(v);
    let slice = ix.slice(m).unwrap();
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..n * 50 {
        if out.len() == n {
            break;
        }
        let pos = ix.random_position(&slice, &mut rng);
        let game = Game::from_position(v, pos);
        if game.is_over() || !tb.covers(&pos) {
            continue;
        }
        out.push((game, tb.probe(&pos).unwrap()));
    }
    assert_eq!(out.len(), n, "{v}: too few positions of {m}");
    out
}

#[test]
fn players_with_tables_keep_the_value_and_convert_wins() {
    for v in Variant::ALL {
        let (tb, m, dir) = tables(v);
        let opts = PlayerOptions {
            egtb: Some(tb.clone()),
        };
        for spec in ["alphabeta:2", "egtb"] {
            let mut player = parse_player_with(spec, v, &opts).unwrap()(7);
            for (game, value) in positions(v, &tb, m, 20, 11) {
                let mv = player.choose(&game).unwrap();
                let keeps: Vec<_> = tb.best_moves(game.position()).unwrap();
                assert!(
                    keeps.iter().any(|(k, _)| *k == mv),
                    "{v} {spec} at {} ({value:?}) played {mv:?}, not one of the tables' best",
                    game.fen()
                );
            }
        }
        let wins: Vec<_> = positions(v, &tb, m, 400, 5)
            .into_iter()
            .filter(|(_, value)| matches!(value, Value::Win(n) if *n <= LONGEST))
            .take(WINS)
            .collect();
        assert!(
            !wins.is_empty(),
            "{v}: no short win among 400 positions of {m}"
        );
        let mut winner = parse_player_with("egtb", v, &opts).unwrap()(3);
        let mut loser = parse_player_with("random", v, &opts).unwrap()(4);
        for (mut game, value) in wins {
            let side = game.turn();
            let start = game.fen();
            for _ in 0..value.plies() {
                if game.is_over() {
                    break;
                }
                let p: &mut Box<dyn Player> = if game.turn() == side {
                    &mut winner
                } else {
                    &mut loser
                };
                let mv = p.choose(&game).unwrap();
                game.play(&mv).unwrap();
            }
            let outcome = game.outcome();
            assert_eq!(
                outcome.map(|o| o.winner),
                Some(Some(side)),
                "{v}: {start} is {value:?} and the egtb player did not win within it"
            );
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}
