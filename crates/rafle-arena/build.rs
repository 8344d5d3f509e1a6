//! Builds the ladder files (`ladder/<variant>.toml`) into the crate: writes
//! `BUILTIN`, the (variant name, text) of each, to `$OUT_DIR/ladders.rs`.
//! Cargo reruns this when a file in `ladder/` changes.

use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("ladder");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                .filter_map(|p| {
                    let name = p.file_stem()?.to_str()?.to_string();
                    Some((name, p.display().to_string()))
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut out = String::from("/// (variant name, text) of every ladder file.\npub static BUILTIN: &[(&str, &str)] = &[\n");
    for (name, path) in &files {
        out.push_str(&format!("    ({name:?}, include_str!({path:?})),\n"));
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("ladders.rs");
    std::fs::write(dest, out).expect("cannot write ladders.rs");
}
