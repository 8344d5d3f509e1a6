//! The fuzz campaigns' corpus (`fuzz/corpus/<target>/`: the inputs that
//! reached new code, and every crash found, kept as regression cases),
//! replayed through the same property functions the fuzz targets call.

use std::path::Path;

#[test]
fn the_fuzz_corpus_keeps_every_property() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let mut total = 0;
    for (name, property) in rafle_props::TARGETS {
        let dir = root.join(name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{}: no corpus", dir.display());
        for f in &files {
            let data = std::fs::read(f).unwrap();
            let run = std::panic::catch_unwind(|| property(&data));
            assert!(run.is_ok(), "{name}: {} fails", f.display());
        }
        total += files.len();
    }
    eprintln!("{total} corpus inputs replayed");
}
