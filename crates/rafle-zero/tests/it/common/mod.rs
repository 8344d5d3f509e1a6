//! What the tests of the `rafle` binary share.

use std::process::Command;

/// (exit code, stdout, stderr) of `rafle args...`.
pub fn rafle(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rafle"))
        .args(args)
        .output()
        .expect("run rafle");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
