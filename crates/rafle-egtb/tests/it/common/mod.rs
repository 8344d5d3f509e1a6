//! What the tablebase tests share: where they build, which slices the
//! default run builds for each variant, and those tables, built once per
//! run for every test that reads them.

use rafle_core::{Goal, Variant};
use rafle_egtb::{build, BuildSummary, Material, Selection, Tablebase};
use std::path::PathBuf;
use std::sync::OnceLock;

/// The default run's tables: every slice up to 3 pieces on the 32-square
/// boards and in breakthrough (men only: kings end its games); on the
/// larger boards the slices one man and one king against a king lead into
/// (men, kings, captures, crowning and, in frisian, the king-move runs;
/// about 0.4M positions on 10x10). `RAFLE_EGTB_PIECES=N` builds every slice
/// up to N pieces on every board instead.
pub fn selection(v: Variant) -> Selection {
    if let Some(n) = std::env::var("RAFLE_EGTB_PIECES")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        return Selection::UpTo(n);
    }
    if v.geometry().squares <= 32 || v.rules().goal == Goal::FirstKingWins {
        Selection::UpTo(3)
    } else {
        Selection::Slices(vec!["1m1k-0m1k".parse::<Material>().unwrap()])
    }
}

/// The tables of [`selection`]`(v)` and their build's summary, built on
/// first use and shared by the tests after it (in this run's target
/// folder, rebuilt by the next run).
pub fn default_tables(v: Variant) -> &'static (Tablebase, BuildSummary) {
    static BUILT: OnceLock<Vec<OnceLock<(Tablebase, BuildSummary)>>> = OnceLock::new();
    let all = BUILT.get_or_init(|| Variant::ALL.iter().map(|_| OnceLock::new()).collect());
    let i = Variant::ALL.iter().position(|&w| w == v).unwrap();
    all[i].get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("egtb-default-{v}"));
        let _ = std::fs::remove_dir_all(&dir);
        let summary = build(v, &dir, &selection(v), &|_| {}).unwrap();
        (Tablebase::open(v, &dir).unwrap(), summary)
    })
}

/// A fresh folder for one test's tables of `v`.
pub fn fresh_dir(test: &str, v: Variant) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rafle-egtb-{test}-{}-{v}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Builds `selection` of `v` in a fresh folder and opens it.
pub fn built(test: &str, v: Variant, selection: &Selection) -> (Tablebase, PathBuf) {
    let dir = fresh_dir(test, v);
    build(v, &dir, selection, &|_| {}).unwrap();
    (Tablebase::open(v, &dir).unwrap(), dir)
}

/// The most pieces a data-table test builds for: 4 on the 32-square boards
/// and `larger` on the others by default, `RAFLE_EGTB_PIECES` everywhere.
pub fn piece_limit(v: Variant, larger: u32) -> u32 {
    std::env::var("RAFLE_EGTB_PIECES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if v.geometry().squares <= 32 {
            4
        } else {
            larger
        })
}

/// Builds, for each variant, the slices the given positions are in (and
/// every slice their moves lead into), in one folder per variant.
pub fn built_for(test: &str, wanted: &[(Variant, Material)]) -> Vec<(Variant, Tablebase, PathBuf)> {
    let mut out = Vec::new();
    for v in Variant::ALL {
        let mut slices: Vec<Material> = wanted
            .iter()
            .filter(|(w, _)| *w == v)
            .map(|&(_, m)| m)
            .filter(|m| !m.by_rule(v))
            .collect();
        slices.sort();
        slices.dedup();
        if slices.is_empty() {
            continue;
        }
        let (tb, dir) = built(test, v, &Selection::Slices(slices));
        out.push((v, tb, dir));
    }
    out
}
