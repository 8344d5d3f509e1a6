//! `rafle ladder` as the built binary: a tiny calibration written to a file,
//! grown by a learned-evaluation rung, a placement on it printing the contract line `elo E [lo, hi]`, the
//! built-in ladders listed by `show`, and bad input (an unknown spec, a
//! ladder of another variant or none, no games) as one line on stderr with
//! a non-zero exit. Few processes: each start loads libtorch.

use crate::common;

use common::rafle;

/// The Elo and interval of the line `elo E [lo, hi]`.
fn elo_line(out: &str) -> (f64, f64, f64) {
    let line = out
        .lines()
        .find(|l| l.starts_with("elo "))
        .unwrap_or_else(|| panic!("no elo line in {out}"));
    let nums: Vec<f64> = line
        .trim_start_matches("elo ")
        .split(['[', ']', ',', ' '])
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap_or_else(|_| panic!("{line}")))
        .collect();
    assert_eq!(nums.len(), 3, "{line}");
    (nums[0], nums[1], nums[2])
}

#[test]
fn calibrate_then_place_and_bad_input() {
    let dir = std::env::temp_dir().join(format!("rafle-ladder-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("checkers.toml");
    let f = file.to_str().unwrap();
    // A small calibration into `f` (12 games a neighbour), with `args`.
    let calibrate = |args: &[&str]| {
        let mut all = vec!["ladder", "calibrate", "--variant", "checkers"];
        all.extend_from_slice(args);
        all.extend(["--games", "12", "--threads", "2", "--quiet", "--out", f]);
        rafle(&all)
    };
    let (code, out, err) = calibrate(&["--rungs", "random,uct:16,alphabeta:1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("written to"), "{out}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("[[rung]]") && text.contains("[[match]]"),
        "{text}"
    );
    // A learned rung on top: only its games are played, and the ladder
    // records which shipped evaluation they played.
    let (code, out, err) = calibrate(&["--add", "alphabeta:d=1,eval=zoo", "--reuse"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("2 matches to play"), "{out}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("spec = \"alphabeta:d=1,eval=zoo\""), "{text}");
    assert!(text.contains("eval = \""), "{text}");
    // random vs alphabeta:1 sits low on this ladder (random = 0).
    let (code, out, err) = rafle(&[
        "ladder",
        "--variant",
        "checkers",
        "--player",
        "random",
        "--games",
        "20",
        "--ladder",
        f,
        "--threads",
        "2",
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let (e, lo, hi) = elo_line(&out);
    assert!(lo <= e && e <= hi, "{out}");
    assert!(e < 300.0, "{out}");
    assert!(out.contains("verdict: "), "{out}");
    // The built-in ladders list and read (any variant may have one).
    let (code, out, err) = rafle(&["ladder", "show"]);
    if code == 0 {
        assert!(out.contains("random"), "{out}");
    } else {
        assert!(err.contains("no variant has a ladder"), "{err}");
    }
    for (args, needle) in [
        (
            vec![
                "ladder",
                "--variant",
                "checkers",
                "--player",
                "minimax:2",
                "--ladder",
                f,
            ],
            "unknown player",
        ),
        (
            vec![
                "ladder",
                "--variant",
                "thai",
                "--player",
                "random",
                "--ladder",
                f,
            ],
            "not thai",
        ),
        (
            vec![
                "ladder",
                "--variant",
                "thai",
                "--player",
                "random",
                "--ladder",
                "/nonexistent/x.toml",
            ],
            "cannot read",
        ),
        (
            vec![
                "ladder",
                "--variant",
                "checkers",
                "--player",
                "random",
                "--games",
                "0",
            ],
            "--games",
        ),
        (
            vec![
                "ladder",
                "calibrate",
                "--variant",
                "checkers",
                "--max-gap",
                "0",
                "--out",
                f,
            ],
            "--max-gap",
        ),
        (
            vec![
                "ladder",
                "calibrate",
                "--variant",
                "checkers",
                "--add",
                "uct:16",
                "--out",
                f,
            ],
            "a rung already",
        ),
    ] {
        let (code, out, err) = rafle(&args);
        assert_ne!(code, 0, "{args:?}: {out}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
