//! `rafle train-eval` end to end on a tiny budget, and learned evaluations
//! as players of the command line: the files a run writes, its metrics, a
//! kill -9 and a resume, and the one-line errors of bad specs and files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use rafle_train::evaltrain::state::State;
use rafle_train::metrics;

fn rafle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rafle"))
        .args(args)
        .output()
        .unwrap()
}

/// `rafle eval` of two games, A against B (with `RAFLE_ZOO` set to `zoo` if given).
fn two_games(variant: &str, a: &str, b: &str, zoo: Option<&Path>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rafle"));
    cmd.args([
        "eval",
        "--variant",
        variant,
        "--a",
        a,
        "--b",
        b,
        "--games",
        "2",
        "--quiet",
    ]);
    if let Some(dir) = zoo {
        cmd.env("RAFLE_ZOO", dir);
    }
    cmd.output().unwrap()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rafle-train-eval-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A run of `design` on thai: 6 games at depth 1 a generation, a 4-game check.
fn tiny(dir: &Path, design: &str) -> PathBuf {
    let cfg = dir.join("tiny.toml");
    std::fs::write(
        &cfg,
        format!(
            "[run]\nvariant = \"thai\"\nout_dir = \"{}\"\ngenerations = 1\n\
             [model]\ndesign = \"{design}\"\nhidden = 8\nhidden2 = 4\n\
             [games]\ngames = 6\ndepth = 1\n\
             [fit]\nepochs = 1\nbatch_size = 64\nwindow = 10000\n\
             [check]\ngames = 4\ndepth = 1\n",
            dir.join("run").display()
        ),
    )
    .unwrap();
    cfg
}

/// `rafle train-eval --resume RUN --generations G --quiet`, then `extra`.
fn resume_args<'a>(run: &'a str, generations: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "train-eval",
        "--resume",
        run,
        "--generations",
        generations,
        "--quiet",
    ];
    args.extend_from_slice(extra);
    args
}

fn generations(run: &Path) -> u64 {
    State::read(run).unwrap().map_or(0, |s| s.generations)
}

#[test]
fn a_tiny_run_writes_an_evaluation_that_plays_and_resumes_after_a_kill() {
    for design in ["patterns", "net"] {
        let dir = tmp(design);
        let cfg = tiny(&dir, design);
        let run = dir.join("run");
        let out = rafle(&["train-eval", "--config", cfg.to_str().unwrap(), "--quiet"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        for f in [
            "eval.safetensors",
            "eval-000.safetensors",
            "games-000.safetensors",
            "state.json",
            "metrics.csv",
        ] {
            assert!(run.join(f).is_file(), "{design}: {f}");
        }
        let rows = metrics::read(&run).unwrap();
        for name in ["fit/holdout_loss", "check/score", "games/positions"] {
            assert!(
                rows.iter().any(|r| r.name == name && r.iteration == 1),
                "{design}: {name}"
            );
        }
        // A fresh run refuses the folder; the resume goes on, killed on the way.
        let again = rafle(&["train-eval", "--config", cfg.to_str().unwrap(), "--quiet"]);
        assert!(!again.status.success());
        assert!(String::from_utf8_lossy(&again.stderr).contains("--resume"));
        let run_s = run.to_str().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_rafle"))
            .args(resume_args(run_s, "50", &[]))
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while generations(&run) < 2 && start.elapsed() < Duration::from_secs(120) {
            std::thread::sleep(Duration::from_millis(20));
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        let done = generations(&run);
        assert!(
            (2..50).contains(&done),
            "{design}: {done} generations before the kill"
        );
        let next = (done + 1).to_string();
        let out = rafle(&resume_args(run_s, &next, &[]));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(generations(&run), done + 1);
        // A time limit the run has passed (its minutes so far count): the
        // resume trains no further.
        let more = (done + 5).to_string();
        let out = rafle(&resume_args(run_s, &more, &["--time-limit-min", "0.0001"]));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(generations(&run), done + 1);
        // A bad limit is a one-line error naming the field, and trains nothing.
        let out = rafle(&resume_args(run_s, &more, &["--time-limit-min=-1"]));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success()
                && err.contains("run.time_limit_min")
                && err.trim().lines().count() == 1,
            "{err}"
        );
        assert_eq!(generations(&run), done + 1);
        // One row of each metric per generation, none from the cut one twice.
        let rows = metrics::read(&run).unwrap();
        for g in 1..=done + 1 {
            let n = rows
                .iter()
                .filter(|r| r.name == "check/score" && r.iteration == g)
                .count();
            assert_eq!(n, 1, "{design}: generation {g}");
        }
        // The evaluation plays wherever a spec goes: here the arena.
        let spec = format!(
            "alphabeta:d=2,eval={}",
            run.join("eval.safetensors").display()
        );
        let m = two_games("thai", &spec, "alphabeta:2", None);
        assert!(m.status.success(), "{}", String::from_utf8_lossy(&m.stderr));
        // Another variant's game is refused with the reason.
        let m = two_games("russian", &spec, "random", None);
        let err = String::from_utf8_lossy(&m.stderr);
        assert!(
            !m.status.success() && err.contains("is for thai") && err.lines().count() == 1,
            "{err}"
        );
    }
}

#[test]
fn bad_eval_specs_and_files_are_one_line_errors() {
    let dir = tmp("bad");
    let junk = dir.join("junk.safetensors");
    std::fs::write(&junk, b"not a file of weights").unwrap();
    let junk_spec = format!("alphabeta:2,eval={}", junk.display());
    for (spec, needle) in [
        (
            "alphabeta:2,eval=/no/such/file.safetensors",
            "/no/such/file.safetensors",
        ),
        (junk_spec.as_str(), "not a safetensors file"),
        ("alphabeta:eval=zoo", "needs a depth or a time"),
        ("alphabeta:2,eval=", "eval= needs"),
    ] {
        let m = two_games("thai", spec, "random", None);
        let err = String::from_utf8_lossy(&m.stderr);
        assert!(!m.status.success(), "{spec}");
        assert!(
            err.contains(needle) && err.trim().lines().count() == 1,
            "{spec}: {err}"
        );
    }
    // eval=zoo where nothing is shipped names the variant and the folder.
    let empty = dir.join("zoo");
    std::fs::create_dir_all(&empty).unwrap();
    let m = two_games("russian", "ab:2,eval=zoo", "random", Some(&empty));
    let err = String::from_utf8_lossy(&m.stderr);
    assert!(
        !m.status.success() && err.contains("no learned evaluation of russian is shipped"),
        "{err}"
    );
    assert!(
        err.contains(&empty.join("eval").display().to_string()) && err.trim().lines().count() == 1,
        "{err}"
    );
    // Config errors name the field.
    let cfg = dir.join("bad.toml");
    std::fs::write(
        &cfg,
        "[run]\nvariant = \"thai\"\nout_dir = \"x\"\ngenerations = 1\n[model]\ndesign = \"tree\"\n",
    )
    .unwrap();
    let m = rafle(&["train-eval", "--config", cfg.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&m.stderr).contains("model.design"));
}
