//! Embeds an rpath to the libtorch folder so `target/release/rafle` runs
//! without LD_LIBRARY_PATH. The folder is the one torch-sys linked against:
//! `LIBTORCH` if set, else the torch package of the project's virtual
//! environment (`LIBTORCH_USE_PYTORCH=1`, see scripts/env.sh).

use std::path::{Path, PathBuf};
use std::process::Command;

fn torch_lib_dir() -> Option<PathBuf> {
    if let Ok(dir) = std::env::var("DEP_TCH_LIBTORCH_LIB") {
        return Some(PathBuf::from(dir));
    }
    if let Ok(root) = std::env::var("LIBTORCH") {
        return Some(Path::new(&root).join("lib"));
    }
    // Same query torch-sys makes with LIBTORCH_USE_PYTORCH=1.
    let python = std::env::var("PYTHON_SYS_EXECUTABLE").unwrap_or_else(|_| "python3".into());
    let out = Command::new(python)
        .args([
            "-c",
            "import os, torch; print(os.path.join(os.path.dirname(torch.__file__), 'lib'))",
        ])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let dir = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    dir.is_dir().then_some(dir)
}

fn main() {
    // A build without the network (`--no-default-features`) links no libtorch.
    if std::env::var_os("CARGO_FEATURE_TORCH").is_none() {
        return;
    }
    println!("cargo:rerun-if-env-changed=LIBTORCH");
    println!("cargo:rerun-if-env-changed=VIRTUAL_ENV");
    println!("cargo:rerun-if-changed=build.rs");
    if let Some(dir) = torch_lib_dir() {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
    } else {
        println!("cargo:warning=libtorch folder not found: set LD_LIBRARY_PATH at run time");
    }
}
