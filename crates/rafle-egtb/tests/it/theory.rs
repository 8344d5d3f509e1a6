//! Endgame theory: the known results of `tests/data/theory.toml`, each with
//! its source, against rafle's tables. Positions with more pieces than
//! `common::piece_limit` are skipped (and counted): the default run checks
//! up to 4 pieces on every board.

use crate::common;

use rafle_core::{parse_fen, Bitboard, Position, Variant};
use rafle_egtb::index::Indexer;
use rafle_egtb::{Material, Tablebase, Value};
use serde::Deserialize;

#[derive(Deserialize)]
struct Data {
    position: Vec<Known>,
    share: Vec<Share>,
}

#[derive(Deserialize)]
struct Known {
    variant: String,
    fen: String,
    value: String,
    plies: Option<u16>,
    source: String,
}

#[derive(Deserialize)]
struct Share {
    variant: String,
    slice: String,
    value: String,
    at_least: f64,
    #[serde(default)]
    lone_king_on_long_diagonal: bool,
    #[serde(default)]
    strong_side_holds_long_diagonal: bool,
    source: String,
}

fn data() -> Data {
    toml::from_str(include_str!("../data/theory.toml")).unwrap()
}

/// The long diagonal: from the corner at the bottom left (a1) to the top
/// right.
fn long_diagonal(v: Variant) -> Bitboard {
    let g = v.geometry();
    (0..g.n)
        .filter_map(|i| g.square_at(g.n - 1 - i, i))
        .fold(0, |acc, s| acc | rafle_core::bit(g.bit_of(s)))
}

fn tables(test: &str, data: &Data) -> Vec<(Variant, Tablebase, std::path::PathBuf)> {
    let mut wanted = Vec::new();
    for k in &data.position {
        let v: Variant = k.variant.parse().unwrap();
        let m = Material::of(&parse_fen(v, &k.fen).unwrap());
        if m.pieces() <= common::piece_limit(v, 4) {
            wanted.push((v, m));
        }
    }
    for s in &data.share {
        let v: Variant = s.variant.parse().unwrap();
        let m: Material = s.slice.parse().unwrap();
        if m.pieces() <= common::piece_limit(v, 4) {
            wanted.push((v, m));
        }
    }
    common::built_for(test, &wanted)
}

#[test]
fn known_endings_have_their_known_values() {
    let data = data();
    let tables = tables("theory-positions", &data);
    let (mut checked, mut skipped) = (0, 0);
    for k in &data.position {
        let v: Variant = k.variant.parse().unwrap();
        let pos = parse_fen(v, &k.fen).unwrap();
        let Some((_, tb, _)) = tables.iter().find(|t| t.0 == v && t.1.covers(&pos)) else {
            skipped += 1;
            continue;
        };
        let got = tb.probe(&pos).unwrap();
        assert_eq!(got.kind(), k.value, "{v} {}: {} ({})", k.fen, got, k.source);
        if let Some(p) = k.plies {
            assert_eq!(got.plies(), p, "{v} {}: {got} ({})", k.fen, k.source);
        }
        checked += 1;
    }
    eprintln!("{checked} known positions checked, {skipped} beyond the piece limit");
    assert!(checked >= 20, "only {checked} positions checked");
    for (_, _, dir) in tables {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn general_claims_hold_over_their_slices() {
    let data = data();
    let tables = tables("theory-shares", &data);
    let mut checked = 0;
    for s in &data.share {
        let v: Variant = s.variant.parse().unwrap();
        let m: Material = s.slice.parse().unwrap();
        let Some((_, tb, _)) = tables.iter().find(|t| t.0 == v) else {
            continue;
        };
        let ix = Indexer::new(v);
        let si = ix.slice(m).unwrap();
        let diagonal = long_diagonal(v);
        let (mut yes, mut all) = (0u64, 0u64);
        for i in 0..si.size {
            let Some(p) = ix.position(&si, i) else {
                continue;
            };
            if !fits(&p, s, diagonal)
                || rafle_core::with_rules!(v, R => rafle_core::movegen::has_capture::<R>(&p))
            {
                continue;
            }
            all += 1;
            yes += (tb.probe(&p).unwrap().kind() == s.value) as u64;
        }
        let share = yes as f64 / all as f64;
        eprintln!(
            "{v} {m}: {yes} of {all} ({:.1}%) {}",
            100.0 * share,
            s.value
        );
        assert!(all > 0);
        assert!(
            share >= s.at_least,
            "{v} {m}: {:.1}% {} (claimed at least {:.0}%: {})",
            100.0 * share,
            s.value,
            100.0 * s.at_least,
            s.source
        );
        checked += 1;
    }
    assert!(checked >= 4, "{checked}");
    for (_, _, dir) in tables {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// Does a position of the claim's slice (the side to move is White, the
/// side with more kings) meet the claim's condition? Positions where the
/// side to move can capture at once are left out by the caller: the claims
/// are about manoeuvring, not about a piece left hanging.
fn fits(p: &Position, s: &Share, diagonal: Bitboard) -> bool {
    if s.lone_king_on_long_diagonal && p.black & diagonal == 0 {
        return false;
    }
    if s.strong_side_holds_long_diagonal && (p.white & diagonal == 0 || p.black & diagonal != 0) {
        return false;
    }
    true
}

#[test]
fn values_are_the_same_for_either_side_to_move_after_the_turn() {
    // The tables store White-to-move positions; a probe of a Black-to-move
    // position turns the board. Check the turn on the known positions.
    let data = data();
    for k in &data.position {
        let v: Variant = k.variant.parse().unwrap();
        let pos = parse_fen(v, &k.fen).unwrap();
        let ix = Indexer::new(v);
        let n = ix.normalize(&pos);
        assert_eq!(Material::of(&n), Material::of(&pos));
        assert_eq!(n.side, rafle_core::Color::White);
        if pos.side == rafle_core::Color::White {
            assert_eq!(n, pos);
        }
        let _ = Value::Draw;
    }
}
