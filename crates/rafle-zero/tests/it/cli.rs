//! The `rafle perft`, `rafle moves` and `rafle show` commands, run as the
//! built binary: their outputs on a few positions, and bad input giving one
//! line on stderr and a non-zero exit, never a panic.

use crate::perft_data;

use crate::common;

use std::collections::BTreeSet;
use std::process::Command;

use common::rafle;

fn ok(args: &[&str]) -> String {
    let (code, out, err) = rafle(args);
    assert_eq!(code, 0, "{args:?}: stderr {err}");
    assert!(err.is_empty(), "{args:?}: stderr {err}");
    out
}

#[test]
fn perft_counts() {
    // Every perft table at its deepest depth within 50,000 leaves; start
    // positions without --fen, as the default.
    for t in perft_data::tables() {
        let (depth, want) = t.depths_within(50_000).last().expect("a small depth");
        let depth = depth.to_string();
        let mut args = vec!["perft", "--variant", &t.variant, "--depth", &depth];
        if t.name != "start" {
            args.extend(["--fen", &t.fen]);
        }
        assert_eq!(ok(&args).trim(), want.to_string(), "{}", t.label());
    }
    assert_eq!(
        ok(&["perft", "--variant", "international", "--depth", "0"]).trim(),
        "1"
    );
}

#[test]
fn help_lists_every_variant_and_a_bad_one_names_them_all() {
    let help = ok(&["--help"]);
    let (code, _, err) = rafle(&["show", "--variant", "chess"]);
    assert_ne!(code, 0);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    for v in rafle_core::Variant::ALL {
        assert!(help.contains(v.name()), "--help lacks {v}: {help}");
        assert!(err.contains(v.name()), "{err}");
    }
}

#[test]
fn russian_moves_print_in_algebraic_notation() {
    let out = ok(&["moves", "--variant", "russian"]);
    let moves: Vec<&str> = out.lines().collect();
    assert_eq!(moves.len(), 7);
    assert!(moves.contains(&"c3-d4"), "{out}");
    let out = ok(&["moves", "--variant", "russian", "--fen", "W:Wc3:Bd4"]);
    assert_eq!(out.trim(), "c3:e5");
}

#[test]
fn perft_divide_sums_to_the_total() {
    let out = ok(&[
        "perft",
        "--variant",
        "international",
        "--depth",
        "2",
        "--divide",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 10, "{out}"); // 9 root moves and the total
    let parts: u64 = lines[..9]
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(parts, 81);
    assert_eq!(lines[9], "81");
}

fn move_set(out: &str) -> BTreeSet<&str> {
    out.lines().collect()
}

#[test]
fn moves_lists_legal_moves_in_path_notation() {
    for (variant, fen, want) in [
        (
            "international",
            "W:W26:B12,K21,31,32",
            &["26x17x8", "26x37x28"][..],
        ),
        ("international", "W:W15:B9,10", &["15x4x13"][..]),
        ("thai", "W:WK29:B11,22", &["29x18x8"][..]),
        ("english", "W:W26:B14,22,23", &["26x17x10"][..]),
        ("checkers", "W:W26:B14,22,23", &["26x17x10", "26x19"][..]),
        ("thai", "W:W29:B22,25", &[][..]),
        // A finished game has no legal moves, drawn (one king each) or lost.
        ("thai", "W:WK29:BK4", &[][..]),
    ] {
        let out = ok(&["moves", "--variant", variant, "--fen", fen]);
        assert_eq!(
            move_set(&out),
            want.iter().copied().collect(),
            "{variant} {fen}"
        );
        assert_eq!(
            out.lines().count(),
            want.len(),
            "{variant} {fen}: duplicates"
        );
    }
    // The start position when no FEN is given.
    let out = ok(&["moves", "--variant", "thai"]);
    let want = ["5-9", "6-9", "6-10", "7-10", "7-11", "8-11", "8-12"];
    assert_eq!(move_set(&out), want.into_iter().collect());
}

#[test]
fn show_prints_the_board() {
    let out = ok(&["show", "--variant", "english", "--fen", "W:WK1,30:B5"]);
    let lines: Vec<&str> = out.lines().collect();
    // Eight rows, the file letters, the side to move with the FEN.
    assert_eq!(lines.len(), 10, "{out}");
    assert!(
        lines[0].starts_with(" 8") && lines[0].contains('W'),
        "{out}"
    );
    assert!(
        lines[1].starts_with(" 7") && lines[1].contains('b'),
        "{out}"
    );
    assert!(
        lines[7].starts_with(" 1") && lines[7].contains('w'),
        "{out}"
    );
    assert_eq!(lines[8].split_whitespace().collect::<String>(), "abcdefgh");
    assert_eq!(lines[9], "white to move; FEN W:WK1,30:B5");
    // Piece counts of the start position.
    let out = ok(&["show", "--variant", "international"]);
    let board: String = out.lines().take(10).collect();
    assert_eq!(board.matches('w').count(), 20, "{out}");
    assert_eq!(board.matches('b').count(), 20, "{out}");
    // A finished game says so.
    let out = ok(&["show", "--variant", "thai", "--fen", "W:W:B1"]);
    assert!(
        out.contains("game over: black wins (no legal move)"),
        "{out}"
    );
}

#[test]
fn bad_input_gives_one_line_and_a_non_zero_exit() {
    for args in [
        &["perft", "--variant", "chess", "--depth", "2"][..],
        &[
            "perft",
            "--variant",
            "thai",
            "--fen",
            "W:W33:B1",
            "--depth",
            "2",
        ][..],
        &[
            "perft",
            "--variant",
            "thai",
            "--fen",
            "garbage",
            "--depth",
            "2",
        ][..],
        &["perft", "--variant", "thai", "--fen", "", "--depth", "2"][..],
        &["perft", "--variant", "thai", "--depth", "abc"][..],
        &["perft", "--variant", "thai", "--depth", "-1"][..],
        &["perft", "--variant", "thai", "--depth", "99"][..],
        &["perft", "--variant", "thai"][..],
        &["perft", "--depth", "2"][..],
        &["moves"][..],
        &["moves", "--variant", "international", "--fen", "W:W20:B20"][..],
        &["moves", "--variant", "english", "--fen", "W:W1:B9"][..],
        &["moves", "--variant", "english", "--fen", "Q:W21:B9"][..],
        &["moves", "--variant", "nope", "--fen", "W:W21:B9"][..],
        &["moves", "--fen", "W:W21:B9"][..],
        &["show", "--variant", "international", "--fen", "W:W51:B1"][..],
        &["show", "--variant", ""][..],
        &["show"][..],
        &["perft", "--variant", "thai", "--depth", "2", "--bogus"][..],
    ] {
        let (code, out, err) = rafle(args);
        assert_ne!(code, 0, "{args:?}: exit 0 (stdout {out})");
        assert_eq!(err.lines().count(), 1, "{args:?}: stderr {err:?}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: stdout {out:?}");
    }
}

#[test]
fn serve_refuses_bad_players_files_and_ports() {
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = busy.local_addr().unwrap().port().to_string();
    for (args, needle) in [
        (&["serve", "--player", "minimax:3"][..], "minimax:3"),
        (
            &["serve", "--pdn", "/nonexistent/games.pdn"][..],
            "cannot read",
        ),
        (&["serve", "--port", port.as_str()][..], "cannot listen"),
    ] {
        let (code, out, err) = rafle(args);
        assert_ne!(code, 0, "{args:?}: exit 0 (stdout {out})");
        assert_eq!(err.lines().count(), 1, "{args:?}: stderr {err:?}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn plot_draws_a_run_whose_opponent_spec_holds_a_comma() {
    // `alphabeta:d=8,t=1s` in a metric name is quoted in metrics.csv.
    let dir = std::env::temp_dir().join(format!("rafle-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut m = rafle_train::metrics::Metrics::open(&dir, true).unwrap();
    for it in 1..=3u64 {
        m.log(it, it * 10, it as f64, "loss/policy", 2.0 / it as f64)
            .unwrap();
        m.log(
            it,
            it * 10,
            it as f64,
            "eval/score_vs_alphabeta:d=8,t=1s",
            0.2 * it as f64,
        )
        .unwrap();
        m.log(
            it,
            it * 10,
            it as f64,
            "eval/games_vs_alphabeta:d=8,t=1s",
            20.0,
        )
        .unwrap();
        // A constant series: no chart, its value in the title.
        m.log(it, it * 10, it as f64, "selfplay/avg_batch", 64.0)
            .unwrap();
    }
    drop(m);
    let out = ok(&["plot", dir.to_str().unwrap()]);
    assert!(
        out.contains("eval.png") && !out.contains("ladder.png"),
        "{out}"
    );
    // The ladder Elo a trainer logs gets its chart on the ladder's scale.
    let mut m = rafle_train::metrics::Metrics::open(&dir, false).unwrap();
    for (k, name) in rafle_train::metrics::LADDER.iter().enumerate() {
        m.log(4, 40, 4.0, name, [1450.0, 1400.0, 1500.0][k])
            .unwrap();
    }
    drop(m);
    let out = ok(&["plot", dir.to_str().unwrap()]);
    assert!(out.contains("ladder.png"), "{out}");
    for f in ["eval.png", "ladder.png", "loss.png", "selfplay.png"] {
        assert!(dir.join("plots").join(f).is_file(), "{f}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pdn_replays_a_file_and_reports_bad_games() {
    let dir = std::env::temp_dir().join(format!("rafle-pdn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.pdn");
    let games = dir.join("games.pdn");
    let (code, _, err) = rafle(&[
        "eval",
        "--variant",
        "english",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "6",
        "--quiet",
        "--pdn",
        good.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let out = ok(&["pdn", good.to_str().unwrap()]);
    assert!(
        out.contains("6 games replayed; variants: english 6"),
        "{out}"
    );
    // An illegal move in game 2 and a file cut inside game 7.
    let text = std::fs::read_to_string(&good).unwrap();
    let mut parts: Vec<String> = text.split("\n\n[").map(str::to_string).collect();
    parts[1] = parts[1].replacen("1. ", "1. 1-5 ", 1);
    let mut broken = parts.join("\n\n[");
    broken.push_str("[Event \"cut\"]\n\n1. 11-15 ");
    std::fs::write(&games, broken).unwrap();
    let (code, out, err) = rafle(&["pdn", games.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(out.contains("5 games replayed"), "{out}");
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines[0].contains("game 2 (") && lines[0].contains("move 1 (1-5)"),
        "{err}"
    );
    assert!(lines[1].contains("game 7: no result token"), "{err}");
    assert!(lines[2].contains("2 game(s) did not replay"), "{err}");
    let (code, _, err) = rafle(&["pdn", "/no/such.pdn"]);
    assert!(
        code != 0 && err.contains("cannot read /no/such.pdn"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_closed_stdout_ends_quietly() {
    // `rafle moves ... | head -0`: the reader is gone before the first line.
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_rafle"))
        .args([
            "moves",
            "--variant",
            "international",
            "--fen",
            "W:W31-50:B1-20",
        ])
        .stdout(writer)
        .output()
        .expect("run rafle");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.is_empty(), "stderr {err}");
    assert_eq!(out.status.code(), Some(141));
}

#[test]
fn bench_search_counts_nodes_of_every_variant_and_refuses_what_it_cannot_time() {
    // A row per variant: the player's nodes over the same positions.
    let out = ok(&[
        "bench",
        "search",
        "--player",
        "alphabeta:2",
        "--positions",
        "2",
    ]);
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), rafle_core::Variant::ALL.len(), "{out}");
    for r in &rows {
        assert_eq!(r[1..3], ["alphabeta:2", "2"], "{out}");
        assert!(r[3].parse::<u64>().unwrap() > 0, "{out}");
    }
    for (args, says) in [
        (&["--player", "zoo:thai"][..], "no network"),
        (&["--positions", "0"][..], "at least 1"),
        (&["--player", "nope"][..], "unknown player"),
    ] {
        let (code, out, err) =
            rafle(&[&["bench", "search", "--variant", "thai"][..], args].concat());
        assert!(
            code != 0 && out.is_empty() && err.lines().count() == 1,
            "{out}{err}"
        );
        assert!(err.contains(says), "{err}");
    }
}
