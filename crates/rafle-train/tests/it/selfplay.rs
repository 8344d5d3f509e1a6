//! Batched self-play with a deterministic stand-in evaluator (no tch).

use rafle_core::Variant;
use rafle_search::network::{EvalError, Leaves};
use rafle_train::config::{Algorithm, CutTarget, SearchParams, SelfPlayConfig};
use rafle_train::selfplay::SelfPlay;

fn search(leaves_per_round: usize) -> SearchParams {
    SearchParams {
        algorithm: Algorithm::Gumbel,
        simulations: 8,
        fast_simulations: Some(2),
        full_search_prob: 0.5,
        gumbel_m: 4,
        c_visit: 50.0,
        c_scale: 0.1,
        c_puct: 1.5,
        dirichlet_alpha: 0.3,
        dirichlet_frac: 0.25,
        temperature_plies: 4,
        leaves_per_round,
    }
}

fn selfplay(games: usize) -> SelfPlayConfig {
    SelfPlayConfig {
        parallel_games: games,
        positions_per_iteration: 64,
        max_plies: 60,
        opening_plies: 0,
        cut_target: CutTarget::Draw,
    }
}

/// Like an untrained network (see `network::stand_in::hashed_answers`).
fn hashed(l: &Leaves, logits: &mut [f32], values: &mut [f32]) -> Result<(), EvalError> {
    rafle_search::network::stand_in::hashed_answers(7, l, logits, values)
}

#[test]
fn samples_are_well_formed_and_the_seed_fixes_them() {
    for v in Variant::ALL {
        let mut sp = SelfPlay::new(&search(1), &selfplay(8), v, 3).unwrap();
        let (samples, st) = sp.run(&mut hashed, 100, None, |_| {}).unwrap();
        assert!(samples.len() >= 100 && st.games > 0, "{v}: {st:?}");
        assert_eq!(st.positions as usize, samples.len());
        assert_eq!(st.games, st.white_wins + st.black_wins + st.draws);
        assert!(st.avg_batch() <= 8.0 && st.avg_batch() > 4.0, "{v}: {st:?}");
        // The next search of a game starts in the subtree of the last one.
        assert!(st.cache_hits > 0 && st.cache_share() < 1.0, "{v}: {st:?}");
        for s in &samples {
            assert_eq!(s.obs.len(), rafle_env::Env::of(v).observation_len());
            let total: f32 = s.policy.iter().map(|p| p.1).sum();
            assert!((total - 1.0).abs() < 1e-4, "{v}: policy sums to {total}");
            assert!(
                s.policy.len() >= 2,
                "forced moves are not training positions"
            );
            let mut actions: Vec<u16> = s.policy.iter().map(|p| p.0).collect();
            actions.sort_unstable();
            actions.dedup();
            assert_eq!(actions.len(), s.policy.len());
            assert!(actions
                .iter()
                .all(|&a| (a as usize) < rafle_env::Env::of(v).num_actions()));
            assert!(s.wdl <= 2 && (-1.0..=1.0).contains(&s.q));
        }
        let mut again = SelfPlay::new(&search(1), &selfplay(8), v, 3).unwrap();
        let (same, _) = again.run(&mut hashed, 100, None, |_| {}).unwrap();
        assert_eq!(same, samples, "{v}");
    }
}

#[test]
fn games_cut_at_the_ply_cap_are_counted() {
    for v in Variant::ALL {
        let mut cfg = selfplay(4);
        cfg.max_plies = 6;
        let mut sp = SelfPlay::new(&search(1), &cfg, v, 5).unwrap();
        let (_, st) = sp.run(&mut hashed, 40, None, |_| {}).unwrap();
        // No variant ends by its rules within 6 plies of the start.
        assert!(st.games > 0 && st.truncated == st.games, "{v}: {st:?}");
        let share = rafle_train::metrics::selfplay_metrics(&st, 1.0)
            .into_iter()
            .find(|m| m.0 == "selfplay/truncated_share");
        assert_eq!(share, Some(("selfplay/truncated_share", 1.0)), "{v}");
    }
    // What a cut game's positions learn: a draw, their search value, nothing.
    for (target, wdl) in [
        (CutTarget::Draw, 1),
        (CutTarget::Search, rafle_train::sample::CUT_SEARCH),
        (CutTarget::None, rafle_train::sample::NO_VALUE),
    ] {
        let cfg = SelfPlayConfig {
            max_plies: 6,
            cut_target: target,
            ..selfplay(4)
        };
        let mut sp = SelfPlay::new(&search(1), &cfg, Variant::Thai, 5).unwrap();
        let (samples, _) = sp.run(&mut hashed, 40, None, |_| {}).unwrap();
        assert!(samples.iter().all(|s| s.wdl == wdl), "{target:?}");
    }
}

#[test]
fn several_leaves_per_round_fill_larger_batches() {
    let v = Variant::Thai;
    let mut one = SelfPlay::new(&search(1), &selfplay(4), v, 1).unwrap();
    let (_, a) = one.run(&mut hashed, 64, None, |_| {}).unwrap();
    let mut four = SelfPlay::new(&search(4), &selfplay(4), v, 1).unwrap();
    let (samples, b) = four.run(&mut hashed, 64, None, |_| {}).unwrap();
    assert!(a.avg_batch() <= 4.0, "{a:?}");
    assert!(b.avg_batch() > a.avg_batch() * 1.5, "{a:?} vs {b:?}");
    assert!(samples.len() >= 64);
}

#[test]
fn a_stop_or_an_error_interrupts_and_the_games_go_on() {
    let v = Variant::Checkers;
    let mut sp = SelfPlay::new(&search(1), &selfplay(4), v, 1).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(true);
    let err = sp.run(&mut hashed, 10, Some(&stop), |_| {}).unwrap_err();
    assert_eq!(err, EvalError::Interrupted);
    let mut calls = 0;
    let mut flaky = |l: &Leaves, logits: &mut [f32], values: &mut [f32]| {
        calls += 1;
        if calls == 5 {
            return Err(EvalError::Failed("flaky".into()));
        }
        hashed(l, logits, values)
    };
    assert!(sp.run(&mut flaky, 1000, None, |_| {}).is_err());
    let (samples, _) = sp.run(&mut hashed, 20, None, |_| {}).unwrap();
    assert!(samples.len() >= 20);
}

#[test]
fn random_openings_vary_the_games() {
    // Without noise or openings every game of a deterministic evaluator is
    // the same game; random openings make them differ.
    let v = Variant::Thai;
    let quiet = SearchParams {
        fast_simulations: None,
        temperature_plies: 0,
        ..search(1)
    };
    let distinct = |opening_plies: u32| {
        let cfg = SelfPlayConfig {
            opening_plies,
            ..selfplay(8)
        };
        let mut sp = SelfPlay::new(&quiet, &cfg, v, 5).unwrap();
        let (samples, st) = sp.run(&mut hashed, 200, None, |_| {}).unwrap();
        assert!(st.games > 0 && samples.len() >= 200);
        let mut obs: Vec<&Vec<u8>> = samples.iter().map(|s| &s.obs).collect();
        obs.sort();
        obs.dedup();
        obs.len() as f64 / samples.len() as f64
    };
    let (same, varied) = (distinct(0), distinct(6));
    assert!(same < 0.3, "{same}");
    assert!(varied > 2.0 * same, "{varied} against {same}");
    let bad = SelfPlayConfig {
        opening_plies: 60,
        ..selfplay(8)
    };
    let err = bad.validate().unwrap_err().to_string();
    assert!(err.contains("selfplay.opening_plies"), "{err}");
}

#[test]
fn with_tables_games_end_where_they_begin_or_play_on_with_exact_targets() {
    let v = Variant::Thai;
    let dir = std::env::temp_dir().join(format!("rafle-selfplay-egtb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    rafle_egtb::build(v, &dir, &rafle_egtb::Selection::UpTo(3), &|_| {}).unwrap();
    let tables = std::sync::Arc::new(rafle_egtb::Tablebase::open(v, &dir).unwrap());
    let cfg = SelfPlayConfig {
        max_plies: 300,
        ..selfplay(8)
    };
    let run = |play_on: bool| {
        let mut sp = SelfPlay::new(&search(1), &cfg, v, 3)
            .unwrap()
            .with_tables(Some(tables.clone()), play_on);
        sp.run(&mut hashed, 400, None, |_| {}).unwrap().1
    };
    let ended = run(false);
    assert!(ended.table_ends > 0, "{ended:?}");
    assert_eq!(ended.table_positions, 0, "{ended:?}");
    let played_on = run(true);
    assert_eq!(played_on.table_ends, 0, "{played_on:?}");
    assert!(played_on.table_positions > 0, "{played_on:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
