//! The command line without libtorch: `rafle` builds with
//! `--no-default-features` on a machine with no torch (no venv, no
//! LIBTORCH), and its own tests of that build (`src/main.rs`,
//! `without_torch`: what runs, the error for a network player, the help)
//! pass. The build goes to this test's own target folder and profile, so
//! it shares every dependency already built there and compiles only
//! rafle-zero again; the binary it tests is a test harness, so the
//! `target/<profile>/rafle` of the torch build stays as it is.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The target folder and profile this test binary was built in
/// (`<target>/<profile dir>/deps/it-<hash>`).
fn target_and_profile() -> (PathBuf, String) {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap();
    let profile = match profile_dir.file_name().unwrap().to_str().unwrap() {
        "debug" => "dev".to_string(),
        name => name.to_string(),
    };
    (profile_dir.parent().unwrap().to_path_buf(), profile)
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
    let cargo = PathBuf::from(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    let tree = without_torch(&cargo)
        .current_dir(workspace())
        .args(["tree", "-p", "rafle-zero", "--no-default-features"])
        .args(["-e", "normal"])
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

    let (target, profile) = target_and_profile();
    let tests = without_torch(&cargo)
        .current_dir(workspace())
        .args(["test", "-p", "rafle-zero", "--no-default-features"])
        .args(["--bin", "rafle", "--profile", &profile])
        .arg("--target-dir")
        .arg(&target)
        .args(["--", "without_torch"])
        .output()
        .unwrap();
    let out = text(&tests);
    assert!(tests.status.success(), "{out}");
    assert!(out.contains("test result: ok. 3 passed"), "{out}");
}
