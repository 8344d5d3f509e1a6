//! Files under kill -9 and damage: a writer process (this test binary run
//! again as `writer_child`) replaces the replay file, appends metrics and
//! rewrites a tablebase slice in a loop; it is killed at random moments
//! and every file read back after it is whole. Damaged files (cut short,
//! bytes flipped) are a one-line error naming the file, never a panic.

use rafle_core::rng::Rng;
use rafle_core::Variant;
use rafle_egtb::{file, Material};
use rafle_train::metrics::{self, Metrics};
use rafle_train::replay::Replay;
use rafle_train::sample::Sample;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The folder the child writes to; unset, `writer_child` does nothing.
const CHILD: &str = "RAFLE_ATOMIC_CHILD";
const REPLAY: &str = "replay.safetensors";
/// Positions per replay file: a file of a few hundred kB, long enough to
/// be killed in the middle of.
const POSITIONS: usize = 3000;

fn slice() -> (Variant, Material) {
    let v = Variant::English;
    (v, Material::example(v))
}

/// Generation `g` of the replay window: every position says `g`.
fn replay_of(g: u64) -> Replay {
    let mut r = Replay::new(POSITIONS);
    for i in 0..POSITIONS {
        r.push(Sample {
            obs: vec![g as u8; 64],
            policy: vec![(i as u16, 0.5), (g as u16, 0.5)],
            wdl: (g % 3) as u8,
            q: g as f32,
            version: 0,
        });
    }
    r.total_added = g;
    r
}

/// Tablebase codes of generation `g` (any codes: only whole files matter).
fn codes_of(g: u64) -> Vec<u16> {
    let (v, m) = slice();
    let size = rafle_egtb::index::Indexer::new(v).slice(m).unwrap().size;
    (0..size).map(|i| ((i ^ g) % 7) as u16).collect()
}

#[test]
fn writer_child() {
    let Some(dir) = std::env::var_os(CHILD).map(PathBuf::from) else {
        return;
    };
    let mut metrics = Metrics::open(&dir, false).unwrap();
    let first = metrics::read(&dir)
        .unwrap()
        .last()
        .map_or(0, |r| r.iteration)
        + 1;
    let (v, m) = slice();
    for g in first.. {
        replay_of(g).save(&dir.join(REPLAY)).unwrap();
        metrics
            .log_all(g, g, 0.0, &[("a", g as f64), ("b", g as f64)])
            .unwrap();
        file::write(&dir, v, m, &codes_of(g)).unwrap();
    }
}

/// Every file in `dir` is whole: one generation throughout, the writer's
/// order kept (replay, then metrics, at most one generation behind, then
/// the table). Returns the replay's generation.
fn check_whole(dir: &Path) -> u64 {
    if !dir.join(REPLAY).exists() {
        return 0;
    }
    let r = Replay::load(&dir.join(REPLAY), POSITIONS).unwrap();
    let g = r.total_added;
    assert_eq!(r.len(), POSITIONS);
    assert!(r.iter().all(|s| s.q == g as f32 && s.obs[0] == g as u8));
    let rows = metrics::read(dir).unwrap();
    // Both rows of each iteration, iterations 1, 2, 3, ... in order.
    assert_eq!(rows.len() % 2, 0);
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(
            (r.iteration, r.value),
            (i as u64 / 2 + 1, r.iteration as f64)
        );
    }
    let logged = rows.last().map_or(0, |r| r.iteration);
    assert!(
        logged == g || logged + 1 == g,
        "metrics {logged}, replay {g}"
    );
    let (v, m) = slice();
    if file::path(dir, m).exists() {
        let t = file::read(dir, v, m).unwrap();
        let codes: Vec<u16> = (0..t.stats.indices).map(|i| t.code(i)).collect();
        // A whole table of some generation (a killed round may skip one).
        assert!((1..=g).any(|k| codes == codes_of(k)), "a mixed table");
    }
    g
}

#[test]
fn a_writer_killed_at_any_moment_leaves_whole_files() {
    let dir = std::env::temp_dir().join(format!("rafle-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let exe = std::env::current_exe().unwrap();
    // This binary's name of the child test: its path below the crate root.
    let module = module_path!().split_once("::").map_or("", |(_, m)| m);
    let child_test = format!("{module}::writer_child");
    let mut rng = Rng::new(41);
    let kills = 30;
    for _ in 0..kills {
        let mut child = Command::new(&exe)
            .args(["--exact", &child_test, "--test-threads", "1"])
            .env(CHILD, &dir)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_micros(5_000 + rng.below(60_000) as u64));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        check_whole(&dir);
    }
    // The writers made progress across the kills, and left no stray file
    // that a reader would take for a table.
    assert!(check_whole(&dir) > 0, "no replay file was ever completed");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn damaged_files_are_one_line_errors_naming_the_file() {
    let dir = std::env::temp_dir().join(format!("rafle-damage-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (v, m) = slice();
    let replay = dir.join(REPLAY);
    replay_of(7).save(&replay).unwrap();
    file::write(&dir, v, m, &codes_of(7)).unwrap();
    let good_replay = std::fs::read(&replay).unwrap();
    let table = file::path(&dir, m);
    let good_table = std::fs::read(&table).unwrap();
    let mut rng = Rng::new(7);
    let one_line = |e: String, file: &Path| {
        assert!(!e.contains('\n'), "{e}");
        assert!(e.contains(&file.display().to_string()), "{e}");
    };
    for round in 0..200 {
        for (path, good) in [(&replay, &good_replay), (&table, &good_table)] {
            let mut bytes = good.clone();
            if round % 2 == 0 {
                bytes.truncate(rng.below(good.len()));
            } else {
                for _ in 0..1 + rng.below(4) {
                    let i = rng.below(bytes.len());
                    bytes[i] ^= 1 << rng.below(8);
                }
            }
            std::fs::write(path, &bytes).unwrap();
        }
        // A flipped bit inside the replay's numbers still reads; a cut
        // file never does, and never reads as an empty window.
        match Replay::load(&replay, POSITIONS) {
            Ok(r) => assert!(round % 2 == 1 && r.len() == POSITIONS),
            Err(e) => one_line(format!("{e:#}"), &replay),
        }
        match file::read(&dir, v, m) {
            Ok(_) => panic!("round {round}: a damaged table read"),
            Err(e) => one_line(e, &table),
        }
    }
    // The metrics file cut anywhere: rows, or an error naming it.
    let mut mf = Metrics::open(&dir, true).unwrap();
    for it in 1..=20 {
        mf.log_all(it, it, 1.0, &[("loss/total", 0.5), ("x,y", 1.0)])
            .unwrap();
    }
    drop(mf);
    let csv = dir.join(metrics::FILE);
    let good = std::fs::read(&csv).unwrap();
    for _ in 0..30 {
        let cut = rng.below(good.len());
        std::fs::write(&csv, &good[..cut]).unwrap();
        if let Err(e) = metrics::read(&dir) {
            one_line(format!("{e:#}"), &csv);
        }
        // Reopened to append, a cut row is dropped and the file reads.
        Metrics::open(&dir, false)
            .unwrap()
            .log(99, 99, 0.0, "after", 1.0)
            .unwrap();
        let rows = metrics::read(&dir).unwrap();
        assert_eq!(rows.last().map(|r| r.name.as_str()), Some("after"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
