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

#[test]
fn a_variant_without_a_shipped_model_is_a_clear_error() {
    let shipped = shipped_models();
    let v = Variant::ALL
        .into_iter()
        .find(|v| !shipped.contains(v))
        .expect("every variant ships a model: pick another case");
    let err = match model_side(&format!("zoo:{v}"), v).unwrap() {
        Ok(_) => panic!("zoo:{v} loaded"),
        Err(e) => e.to_string(),
    };
    assert!(
        err.contains(&format!("no model is shipped for {v}")) && err.contains("thai"),
        "{err}"
    );
    assert!(!err.contains('\n'), "{err}");
}

#[test]
fn a_zoo_model_of_another_variant_is_a_clear_error() {
    let err = match model_side("zoo:thai", Variant::International).unwrap() {
        Ok(_) => panic!("a thai model played international"),
        Err(e) => e.to_string(),
    };
    assert!(err.contains("trained for thai"), "{err}");
}
