//! Perft from start and reference positions against the tables of
//! `tests/data/perft.toml` (published numbers, and numbers computed by this
//! project, each with its source). Shallow depths run by default; set
//! RAFLE_DEEP_PERFT=1 for the full tables.

use crate::perft_data;

use perft_data::{tables, Origin};
use rafle_core::movegen::{capture_paths, direction_between, legal_moves};
use rafle_core::{perft::perft_variant, Game, Geometry, Move, Position, Rules, Variant};

/// Leaf budget of the default run; deeper entries need RAFLE_DEEP_PERFT=1.
const DEFAULT_MAX_LEAVES: u64 = 5_000_000;
/// Start positions run at least to this depth by default.
const START_DEPTH: u32 = 9;

fn budget() -> u64 {
    let deep = std::env::var("RAFLE_DEEP_PERFT").is_ok_and(|v| v == "1");
    if deep {
        u64::MAX
    } else {
        DEFAULT_MAX_LEAVES
    }
}

#[test]
fn perft_matches_the_tables() {
    for t in tables() {
        let pos = t.position();
        let start_depth = if t.name == "start" { START_DEPTH } else { 0 };
        for (depth, expect) in (1..).zip(t.counts.iter().copied()) {
            if expect > budget() && depth > start_depth {
                break;
            }
            let got = perft_variant(t.variant(), &pos, depth);
            assert_eq!(got, expect, "{} depth {depth}", t.label());
        }
    }
}

/// Does `m` pause on a square other than the one right behind its victim
/// only to jump on along the same line? dctl's "keep duplicates" paths slide
/// a king on in that case (one path where rafle lists one per pause), so
/// only the path pausing right behind the victim stands for them.
fn pauses_in_line(g: &Geometry, m: &Move) -> bool {
    let mut at = m.from;
    let landings = m.landings();
    for w in landings.windows(2) {
        let (land, next) = (w[0], w[1]);
        let d = direction_between(g, at as u32, land as u32);
        if d == direction_between(g, land as u32, next as u32) {
            let victim = m.captured_between(g, at, land);
            if g.step(victim, d) != rafle_core::bit(land) {
                return true;
            }
        }
        at = land;
    }
    false
}

/// Perft counting capture paths as dctl's "keep duplicates" series does:
/// every path, a king's pauses on one line counted once.
fn path_perft<R: Rules>(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = capture_paths::<R>(pos);
    moves.retain(|m| !pauses_in_line(&R::GEO, m));
    if moves.is_empty() {
        moves = legal_moves::<R>(pos);
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut next = *pos;
            next.apply::<R>(m);
            path_perft::<R>(&next, depth - 1)
        })
        .sum()
}

#[test]
fn path_perft_matches_the_published_keep_duplicates_series() {
    let mut checked = 0;
    for t in tables() {
        let pos = t.position();
        for (depth, expect) in t.path_depths_within(budget()) {
            let got = rafle_core::with_rules!(t.variant(), R => path_perft::<R>(&pos, depth));
            assert_eq!(got, expect, "{} depth {depth} (paths)", t.label());
            checked += 1;
        }
    }
    assert!(checked > 50, "{checked} depths checked");
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
