//! `rafle egtb build|probe|stats` as the built binary, in every variant:
//! a build of a small slice, its statistics, probes that agree with the
//! crate's, and bad input as one line on stderr with a non-zero exit.

use crate::common;

use rafle_core::rng::Rng;
use rafle_core::{Game, Variant};
use rafle_egtb::index::Indexer;
use rafle_egtb::{Material, Tablebase};

use common::rafle;

fn ok(args: &[&str]) -> String {
    let (code, out, err) = rafle(args);
    assert_eq!(code, 0, "{args:?}: stderr {err}");
    out
}

fn fails(args: &[&str], says: &str) {
    let (code, _, err) = rafle(args);
    assert_ne!(code, 0, "{args:?} succeeded");
    assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: {err} lacks {says:?}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn build_stats_and_probe_agree_with_the_tables() {
    // Each call loads the binary (and libtorch, a quarter second): one
    // build and one probe per variant, the other verbs in the first.
    for (k, v) in Variant::ALL.into_iter().enumerate() {
        // A man each: a small build (with the slices crowning leads
        // into), as the plumbing, not the tables, is tested here.
        let m: Material = "1m0k-1m0k".parse().unwrap();
        let dir = std::env::temp_dir().join(format!("rafle-cli-egtb-{}-{v}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let d = dir.to_str().unwrap();
        let name = m.to_string();
        let args = [
            "egtb",
            "build",
            "--variant",
            v.name(),
            "--slices",
            &name,
            "--dir",
            d,
            "--quiet",
        ];
        assert!(ok(&args).contains("slices built"));
        if k == 0 {
            // A second build finds everything there.
            assert!(ok(&args).contains(" 0 slices built"), "{v}");
            let stats = ok(&["egtb", "stats", "--variant", v.name(), "--dir", d]);
            assert!(stats.lines().any(|l| l.starts_with(&name)), "{v}: {stats}");
            let start = Game::new(v).fen();
            fails(
                &[
                    "egtb",
                    "probe",
                    "--variant",
                    v.name(),
                    "--dir",
                    d,
                    "--fen",
                    &start,
                ],
                "",
            );
        }
        let tb = Tablebase::open(v, &dir).unwrap();
        let ix = Indexer::new(v);
        let slice = ix.slice(m).unwrap();
        let mut rng = Rng::new(9);
        let mut probed = 0;
        while probed < 1 {
            let game = Game::from_position(v, ix.random_position(&slice, &mut rng));
            if game.is_over() {
                continue;
            }
            probed += 1;
            let out = ok(&[
                "egtb",
                "probe",
                "--variant",
                v.name(),
                "--dir",
                d,
                "--fen",
                &game.fen(),
            ]);
            let mut lines = out.lines();
            let value = tb.probe(game.position()).unwrap();
            assert_eq!(lines.next(), Some(value.to_string().as_str()), "{v}");
            assert_eq!(lines.count(), game.legal_moves().len(), "{v}: {out}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
    fails(
        &[
            "egtb",
            "probe",
            "--variant",
            "thai",
            "--dir",
            "/nonexistent/rafle",
            "--fen",
            "W:W1:B32",
        ],
        "/nonexistent/rafle",
    );
    fails(
        &[
            "egtb",
            "build",
            "--variant",
            "thai",
            "--pieces",
            "99",
            "--quiet",
        ],
        "--pieces 99",
    );
    fails(
        &[
            "egtb",
            "build",
            "--variant",
            "thai",
            "--slices",
            "2m1k",
            "--quiet",
        ],
        "2m1k",
    );
}
