//! The shipped models (`python/rafle/zoo/`, `zoo:VARIANT`) load and play:
//! their policy alone (0 simulations) beats `random`, which a fresh network
//! of the same shape does not, so an untrained file cannot pass for a model.

use rafle_arena::{play_match, ArenaConfig, Side};
use rafle_core::Variant;
use rafle_search::parse_player;
use rafle_zero::checkpoint::{load_net, meta_path, read_meta};
use rafle_zero::model::{checkpoint_path, model_side, network_side, shipped_models, zoo_dir};
use rafle_zero::net::Net;
use tch::Device;

const GAMES: usize = 20;

fn score_vs_random(variant: Variant, model: &Side) -> f64 {
    let random = Side::Player(parse_player("random", variant).unwrap());
    let cfg = ArenaConfig {
        games: GAMES,
        seed: 3,
        ..Default::default()
    };
    play_match(variant, model, &random, &cfg)
        .unwrap()
        .wdl
        .score()
}

#[test]
fn every_shipped_model_beats_random_with_its_policy() {
    let shipped = shipped_models();
    assert!(!shipped.is_empty(), "no model in {}", zoo_dir().display());
    for v in shipped {
        let spec = format!("zoo:{}:0", v.name());
        let (checkpoint, _) = rafle_search::spec::model_spec(&spec).unwrap().unwrap();
        let path = checkpoint_path(&checkpoint);
        assert!(path.is_file(), "{spec}: no model at {}", path.display());
        let meta = read_meta(&meta_path(&path)).unwrap();
        assert_eq!(meta.variant, v.name(), "{}", path.display());

        let trained = model_side(&spec, v).unwrap().unwrap();
        let score = score_vs_random(v, &trained);
        assert!(score >= 0.9, "{spec}: {:.0}% against random", 100.0 * score);

        let fresh = Net::new(meta.shape.clone(), Device::Cpu, 1);
        let params = meta.config.search.clone();
        let fresh = network_side(&fresh, params, 0, "fresh".into()).unwrap();
        let fresh_score = score_vs_random(v, &fresh);
        assert!(
            fresh_score < 0.9,
            "{}: a fresh network scored {:.0}%, so the test cannot tell",
            v.name(),
            100.0 * fresh_score
        );
        // The float16 file reloads as the float32 network the side plays.
        load_net(&path, Device::Cpu).unwrap();
    }
}

/// A zoo folder (`RAFLE_ZOO`) that holds only the thai model, so the case
/// stays testable once every variant ships one.
#[test]
fn a_variant_without_a_shipped_model_is_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("rafle-zoo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let thai = checkpoint_path(
        &rafle_search::spec::model_spec("zoo:thai")
            .unwrap()
            .unwrap()
            .0,
    );
    for file in [thai.clone(), meta_path(&thai)] {
        std::fs::copy(&file, dir.join(file.file_name().unwrap())).unwrap();
    }
    let v = Variant::ALL
        .into_iter()
        .find(|v| *v != Variant::Thai)
        .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rafle"))
        .env("RAFLE_ZOO", &dir)
        .args([
            "eval",
            "--variant",
            v.name(),
            "--a",
            &format!("zoo:{v}"),
            "--b",
            "random",
        ])
        .args(["--games", "2", "--quiet"])
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "zoo:{v} loaded from a zoo with only thai"
    );
    assert!(
        err.contains(&format!("no model is shipped for {v}")) && err.contains("thai"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn a_zoo_model_of_another_variant_is_a_clear_error() {
    let err = match model_side("zoo:thai", Variant::International).unwrap() {
        Ok(_) => panic!("a thai model played international"),
        Err(e) => e.to_string(),
    };
    assert!(err.contains("trained for thai"), "{err}");
}
