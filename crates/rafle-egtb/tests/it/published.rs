//! Figures published by others (`tests/data/published.toml`, each with its
//! source) reproduced by rafle's index and tables. A figure rafle does not
//! reproduce is a finding, explained in the data file, never an entry
//! adjusted to pass.

use crate::common;

use rafle_core::{movegen, parse_fen, Variant};
use rafle_egtb::index::Indexer;
use rafle_egtb::{Material, Value};
use serde::Deserialize;

#[derive(Deserialize)]
struct Data {
    chinook: Chinook,
    kings_only: KingsOnly,
    slice: Vec<SliceFigures>,
    kingsrow: Vec<Known>,
    longest: Vec<Longest>,
}

#[derive(Deserialize)]
struct Chinook {
    positions: Vec<u64>,
}

#[derive(Deserialize)]
struct KingsOnly {
    counts: Vec<[u64; 3]>,
}

#[derive(Deserialize)]
struct SliceFigures {
    variant: String,
    slice: String,
    positions: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    longest_win: u16,
    longest_wins: u64,
    source: String,
}

#[derive(Deserialize)]
struct Known {
    fen: String,
    value: String,
}

#[derive(Deserialize)]
struct Longest {
    variant: String,
    fen: String,
    plies: u16,
    #[serde(default = "yes")]
    longest: bool,
}

fn yes() -> bool {
    true
}

fn data() -> Data {
    toml::from_str(include_str!("../data/published.toml")).unwrap()
}

/// Every material of `n` pieces, a side without pieces included.
fn materials(n: u32) -> Vec<Material> {
    let mut out = Vec::new();
    for om in 0..=n {
        for ok in 0..=n - om {
            for pm in 0..=n - om - ok {
                out.push(Material {
                    own_men: om as u8,
                    own_kings: ok as u8,
                    opp_men: pm as u8,
                    opp_kings: (n - om - ok - pm) as u8,
                });
            }
        }
    }
    out
}

#[test]
fn the_position_counts_of_the_32_square_boards_are_chinooks() {
    let data = data();
    let mut boards = 0;
    for v in Variant::ALL
        .into_iter()
        .filter(|v| v.geometry().squares == 32)
    {
        let ix = Indexer::new(v);
        for (i, &want) in data.chinook.positions.iter().enumerate() {
            let n = i as u32 + 1;
            let got: u64 = materials(n)
                .into_iter()
                .map(|m| ix.positions(&ix.slice(m).unwrap()))
                .sum();
            assert_eq!(got, want, "{v}: positions with {n} pieces");
        }
        for &[own, opp, want] in &data.kings_only.counts {
            let m = Material {
                own_men: 0,
                own_kings: own as u8,
                opp_men: 0,
                opp_kings: opp as u8,
            };
            let s = ix.slice(m).unwrap();
            assert_eq!((s.size, ix.positions(&s)), (want, want), "{v} {m}");
        }
        boards += 1;
    }
    assert!(boards >= 9, "{boards}");
}

#[test]
fn slice_figures_are_reproduced() {
    let data = data();
    for f in &data.slice {
        let v: Variant = f.variant.parse().unwrap();
        let m: Material = f.slice.parse().unwrap();
        let (tb, dir) = common::built(
            "published-slice",
            v,
            &rafle_egtb::Selection::Slices(vec![m]),
        );
        let s = tb
            .stats()
            .unwrap()
            .into_iter()
            .find(|s| s.material == m)
            .unwrap();
        let ix = Indexer::new(v);
        let si = ix.slice(m).unwrap();
        let at_longest = (0..si.size)
            .filter_map(|i| ix.position(&si, i))
            .filter(|p| tb.probe(p).unwrap() == Value::Win(s.longest_win))
            .count() as u64;
        eprintln!(
            "{v} {m}: {} positions, {} / {} / {}, longest win {} ({at_longest} of them); published: {} / {} / {}, {} ({}) [{}]",
            s.positions, s.wins, s.draws, s.losses, s.longest_win,
            f.wins, f.draws, f.losses, f.longest_win, f.longest_wins, f.source
        );
        assert_eq!(
            (s.positions, s.wins, s.draws, s.losses, s.longest_win),
            (f.positions, f.wins, f.draws, f.losses, f.longest_win),
            "{v} {m} ({})",
            f.source
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn kingsrows_international_values_are_reproduced() {
    let v = Variant::International;
    let data = data();
    let limit = common::piece_limit(v, 3);
    let mut wanted = Vec::new();
    let mut known = Vec::new();
    for k in &data.kingsrow {
        let pos = parse_fen(v, &k.fen).unwrap();
        let capture = movegen::has_capture::<rafle_core::International>(&pos);
        let m = Material::of(&pos);
        if !capture && m.pieces() <= limit {
            wanted.push((v, m));
            known.push((pos, k));
        }
    }
    let tables = common::built_for("published-kingsrow", &wanted);
    let (_, tb, dir) = &tables[0];
    for (pos, k) in &known {
        let got = tb.probe(pos).unwrap();
        assert_eq!(
            got.kind(),
            k.value,
            "{}: {got} (Kingsrow: {})",
            k.fen,
            k.value
        );
    }
    eprintln!("{} of Kingsrow's positions checked (up to {limit} pieces, no capture for the side to move)", known.len());
    assert!(known.len() >= 10);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn grimmincks_longest_wins_are_reproduced() {
    let data = data();
    let mut wanted = Vec::new();
    let mut known = Vec::new();
    for l in &data.longest {
        let v: Variant = l.variant.parse().unwrap();
        let pos = parse_fen(v, &l.fen).unwrap();
        let m = Material::of(&pos);
        if m.pieces() <= common::piece_limit(v, 3) {
            wanted.push((v, m));
            known.push((v, pos, l));
        }
    }
    let tables = common::built_for("published-longest", &wanted);
    let mut found = Vec::new();
    for (v, pos, l) in &known {
        let (_, tb, _) = tables.iter().find(|t| t.0 == *v).unwrap();
        let got = tb.probe(pos).unwrap();
        let m = Material::of(pos);
        let longest = tb
            .stats()
            .unwrap()
            .into_iter()
            .find(|s| s.material == m)
            .unwrap()
            .longest_win;
        if got != Value::Win(l.plies) || (l.longest && longest != l.plies) {
            found.push(format!(
                "{v} {} ({m}): rafle {got}, slice's longest win {longest}; Grimminck {} plies",
                l.fen, l.plies
            ));
        }
    }
    eprintln!("{} of Grimminck's positions checked", known.len());
    assert!(found.is_empty(), "not reproduced:\n{}", found.join("\n"));
    for (_, _, dir) in tables {
        std::fs::remove_dir_all(dir).unwrap();
    }
}
