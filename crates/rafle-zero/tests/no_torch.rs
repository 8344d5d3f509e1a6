//! The command line without libtorch: `cargo build --no-default-features`
//! builds `rafle` on a machine with no torch (no venv, no LIBTORCH), and the
//! commands that need no network run; a network player is a clear error.
//! The build goes to its own target folder (the default one holds the
//! torch build) and takes a minute or two the first time.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A command with every trace of torch removed from its environment.
fn without_torch(program: &Path) -> Command {
    let mut c = Command::new(program);
    for var in [
        "LIBTORCH",
        "LIBTORCH_USE_PYTORCH",
        "LD_LIBRARY_PATH",
        "VIRTUAL_ENV",
    ] {
        c.env_remove(var);
    }
    // No python with torch on the PATH either: torch-sys would fail to build.
    let path = std::env::var("PATH").unwrap_or_default();
    let kept: Vec<&str> = path.split(':').filter(|p| !p.contains(".venv")).collect();
    c.env("PATH", kept.join(":"));
    c
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn the_cli_builds_and_runs_without_libtorch() {
    let target = workspace().join("target/no-torch");
    let cargo = PathBuf::from(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    let build = without_torch(&cargo)
        .current_dir(workspace())
        .args([
            "build",
            "--release",
            "-p",
            "rafle-zero",
            "--no-default-features",
        ])
        .arg("--target-dir")
        .arg(&target)
        .output()
        .unwrap();
    assert!(build.status.success(), "{}", text(&build));
    let tree = without_torch(&cargo)
        .current_dir(workspace())
        .args([
            "tree",
            "-p",
            "rafle-zero",
            "--no-default-features",
            "-e",
            "normal",
        ])
        .output()
        .unwrap();
    let deps = text(&tree);
    assert!(
        tree.status.success() && deps.contains("rafle-arena"),
        "{deps}"
    );
    assert!(
        !deps.contains("tch ") && !deps.contains("torch-sys"),
        "{deps}"
    );

    let rafle = target.join("release/rafle");
    let run = |args: &[&str]| without_torch(&rafle).args(args).output().unwrap();
    let perft = run(&["perft", "--variant", "thai", "--depth", "3"]);
    assert!(perft.status.success(), "{}", text(&perft));
    let eval = run(&[
        "eval",
        "--variant",
        "thai",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "2",
        "--quiet",
    ]);
    assert!(eval.status.success(), "{}", text(&eval));
    assert!(text(&eval).contains("greedy"), "{}", text(&eval));
    let model = run(&[
        "eval",
        "--variant",
        "thai",
        "--a",
        "zoo:thai",
        "--b",
        "random",
    ]);
    assert!(!model.status.success());
    assert!(text(&model).contains("`torch` feature"), "{}", text(&model));
    let help = run(&["--help"]);
    assert!(
        text(&help).contains("without the `torch` feature"),
        "{}",
        text(&help)
    );
    assert!(!run(&["train", "--config", "configs/thai.toml"])
        .status
        .success());
}
