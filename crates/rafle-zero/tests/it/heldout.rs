//! `rafle heldout` as the built binary: a small held-out set from games and
//! from tables built here, read back as the trainers read it; bad input as
//! one line and a non-zero exit.

use crate::common::rafle;
use rafle_core::Variant;
use rafle_train::evaltrain::games;
use rafle_train::heldout::{HeldOut, ValueStats};

#[test]
fn a_held_out_set_from_games_and_tables_reads_back() {
    let v = Variant::Thai;
    let dir = std::env::temp_dir().join(format!("rafle-cli-heldout-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let tables = dir.join("tables");
    let (t, d) = (tables.to_str().unwrap(), dir.to_str().unwrap());
    let (code, _, err) = rafle(&[
        "egtb",
        "build",
        "--variant",
        "thai",
        "--slices",
        "1m0k-1m0k",
        "--dir",
        t,
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = rafle(&[
        "heldout",
        "--variant",
        "thai",
        "--games",
        "6",
        "--depth",
        "2",
        "--positions",
        "40",
        "--egtb",
        t,
        "--table-positions",
        "12",
        "--out",
        d,
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("held-out set: 40 positions from 6 games"),
        "{out}"
    );
    let g = games::load(&dir.join("thai.safetensors"), v).unwrap();
    let tb = games::load(&dir.join("thai.tables.safetensors"), v).unwrap();
    assert_eq!((g.len(), tb.len()), (40, 12));
    assert!(g
        .iter()
        .chain(&tb)
        .all(|l| [0.0, 0.5, 1.0].contains(&l.result)));
    let held = HeldOut::from_labelled(&g, &tb);
    assert_eq!(held.len(), 52);
    assert_eq!(held.from_tables.iter().filter(|&&t| t).count(), 12);
    // A head that says the base rates everywhere correlates with nothing.
    let flat = vec![[0.4f32, 0.2, 0.4]; held.len()];
    let s: ValueStats = rafle_train::heldout::measure(&held, &flat).unwrap();
    assert_eq!(s.corr, 0.0);
    assert!(s.corr_material.is_finite() && s.ce > 0.0, "{s:?}");
    for (args, says) in [
        (
            vec!["heldout", "--variant", "thai", "--games", "0"],
            "--games",
        ),
        (
            vec!["heldout", "--variant", "thai", "--depth", "0", "--out", d],
            "--depth",
        ),
        (
            vec![
                "heldout",
                "--variant",
                "thai",
                "--games",
                "1",
                "--egtb",
                "/nonexistent",
                "--out",
                d,
            ],
            "--egtb",
        ),
    ] {
        let (code, _, err) = rafle(&args);
        assert_ne!(code, 0, "{args:?}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
