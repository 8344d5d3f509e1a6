//! Perft from start and reference positions against the tables of
//! `tests/data/perft.toml` (published numbers, and numbers computed by this
//! project, each with its source). Shallow depths run by default; set
//! RAFLE_DEEP_PERFT=1 for the full tables.

#[path = "common/perft_data.rs"]
mod perft_data;

use perft_data::{tables, Origin};
use rafle_core::{perft::perft_variant, Game, Position, Variant};

/// Leaf budget of the default run; deeper entries need RAFLE_DEEP_PERFT=1.
const DEFAULT_MAX_LEAVES: u64 = 2_000_000;

#[test]
fn perft_matches_the_tables() {
    let deep = std::env::var("RAFLE_DEEP_PERFT").is_ok_and(|v| v == "1");
    let budget = if deep { u64::MAX } else { DEFAULT_MAX_LEAVES };
    for t in tables() {
        let pos = t.position();
        for (depth, expect) in t.depths_within(budget) {
            let got = perft_variant(t.variant(), &pos, depth);
            assert_eq!(got, expect, "{} depth {depth}", t.label());
        }
    }
}

#[test]
fn each_variant_has_a_start_table_and_each_table_an_origin() {
    let tables = tables();
    for v in Variant::ALL {
        let start: Vec<_> = tables
            .iter()
            .filter(|t| t.variant() == v && t.name == "start")
            .collect();
        assert_eq!(start.len(), 1, "{v}: one start table");
        assert_eq!(start[0].position(), Position::start(v), "{v}: start FEN");
    }
    // Every computed table says so in its source; published ones cite one.
    for t in &tables {
        let computed = t.source.starts_with("computed by this project");
        assert_eq!(computed, t.origin == Origin::Computed, "{}", t.label());
        assert!(!t.counts.is_empty(), "{}", t.label());
    }
}

#[test]
fn game_perft_uses_the_same_engine() {
    let g = Game::new(Variant::Checkers);
    assert_eq!(g.perft(3), 302);
}
