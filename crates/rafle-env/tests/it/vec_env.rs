//! VecEnv: agreement with single envs stepped alongside (incremental writes,
//! auto-reset, final observations, stats), seed determinism across thread
//! counts, and errors that leave the state unchanged.

use rafle_core::rng::Rng;
use rafle_core::{EndReason, Variant};
use rafle_env::{Env, EnvConfig, EnvError, IllegalActionMode, VecEnv};

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// A digest of everything a step exposes.
fn snapshot(ve: &VecEnv) -> Vec<u64> {
    let mut h = Vec::new();
    let f = |x: f32| x.to_bits() as u64;
    h.extend(ve.obs().iter().map(|&x| f(x)));
    h.extend(ve.legal_mask().iter().map(|&b| b as u64));
    h.extend(ve.rewards().iter().map(|&x| f(x)));
    h.extend(ve.terminated().iter().map(|&b| b as u64));
    h.extend(ve.truncated().iter().map(|&b| b as u64));
    h.extend(ve.to_play().iter().map(|&b| b as u64));
    for s in ve.episode_stats() {
        h.extend([
            s.env as u64,
            s.length as u64,
            s.winner.map_or(9, |c| c.index() as u64),
        ]);
    }
    h
}

fn run(v: Variant, threads: usize, seed: u64, steps: usize) -> Vec<Vec<u64>> {
    pool(threads).install(|| {
        let cfg = EnvConfig {
            max_plies: Some(40),
            ..EnvConfig::default()
        };
        let mut ve = VecEnv::new(v, 37, seed, cfg).unwrap();
        let mut acts = vec![0i64; ve.num_envs()];
        let mut out = vec![snapshot(&ve)];
        for _ in 0..steps {
            ve.sample_legal_actions(&mut acts);
            ve.step(&acts).unwrap();
            out.push(snapshot(&ve));
        }
        out
    })
}

#[test]
fn same_seed_same_trajectories_whatever_the_thread_count() {
    for v in [Variant::Checkers, Variant::International] {
        let one = run(v, 1, 5, 120);
        let two = run(v, 2, 5, 120);
        let three = run(v, 3, 5, 120);
        assert!(one == two && two == three, "{v}");
        assert_ne!(one, run(v, 2, 6, 120), "{v}: another seed, other games");
    }
}

/// Steps a VecEnv and, alongside, one plain `Env` per slot with the same
/// actions; the buffers must show exactly what the plain envs show.
fn agree_with_single_envs(v: Variant, cfg: EnvConfig, steps: usize, seed: u64) -> (usize, usize) {
    let n = 23;
    let (ol, na) = (Env::of(v).observation_len(), Env::of(v).num_actions());
    let mut ve = VecEnv::new(v, n, seed, cfg.clone()).unwrap();
    let mut shadows: Vec<Env> = (0..n).map(|_| Env::new(v, cfg.clone()).unwrap()).collect();
    let mut rng = Rng::new(seed);
    let mut acts = vec![0i64; n];
    let (mut o, mut m) = (vec![0.0f32; ol], vec![false; na]);
    let (mut finished, mut truncated) = (0, 0);
    for step in 0..steps {
        // Mostly the built-in sampler; sometimes an arbitrary id (mode Lose).
        ve.sample_legal_actions(&mut acts);
        if cfg.illegal == IllegalActionMode::Lose && step % 7 == 0 {
            acts[step % n] = rng.below(na) as i64;
        }
        ve.step(&acts).unwrap();
        let mut stats = Vec::new();
        for (i, env) in shadows.iter_mut().enumerate() {
            let info = env.step(acts[i] as usize).unwrap();
            assert_eq!(ve.rewards()[i], info.reward);
            assert_eq!(ve.terminated()[i], info.terminated);
            assert_eq!(ve.truncated()[i], info.truncated);
            if info.terminated || info.truncated {
                env.write_obs(&mut o);
                assert_eq!(
                    ve.final_obs()
                        .index_axis(ndarray::Axis(0), i)
                        .iter()
                        .copied()
                        .collect::<Vec<_>>(),
                    o
                );
                stats.push((
                    i,
                    env.ply(),
                    env.outcome().and_then(|o| o.winner),
                    info.truncated,
                ));
                finished += 1;
                truncated += info.truncated as usize;
                env.reset();
            }
            env.write_obs(&mut o);
            env.write_legal_mask(&mut m);
            let row = ve
                .obs()
                .index_axis(ndarray::Axis(0), i)
                .iter()
                .copied()
                .collect::<Vec<_>>();
            assert_eq!(row, o, "{v} env {i} step {step}");
            let mrow = ve.legal_mask().row(i).to_vec();
            assert_eq!(mrow, m, "{v} env {i} step {step}");
            assert!(m.iter().any(|&b| b), "auto-reset leaves a live state");
            assert_eq!(ve.to_play()[i] as usize, env.to_play().index());
            assert_eq!(ve.env(i).position(), env.position());
        }
        let got: Vec<_> = ve
            .episode_stats()
            .iter()
            .map(|s| (s.env, s.length, s.winner, s.reason == EndReason::MaxPlies))
            .collect();
        assert_eq!(got, stats);
    }
    (finished, truncated)
}

#[test]
fn buffers_match_single_envs_through_auto_resets() {
    for v in Variant::ALL {
        // Long enough for some random games to end, short enough to cut others.
        let cfg = EnvConfig {
            max_plies: Some(if v.board_size() > 10 { 150 } else { 60 }),
            ..EnvConfig::default()
        };
        let (finished, truncated) = agree_with_single_envs(v, cfg, 400, 11);
        assert!(
            finished > truncated && truncated > 0,
            "{v}: {finished} {truncated}"
        );
    }
}

#[test]
fn mode_lose_through_the_vec_env() {
    let cfg = EnvConfig {
        illegal: IllegalActionMode::Lose,
        ..EnvConfig::default()
    };
    let (finished, _) = agree_with_single_envs(Variant::Thai, cfg.clone(), 200, 3);
    assert!(finished > 0);
    let mut ve = VecEnv::new(Variant::Thai, 4, 0, cfg).unwrap();
    ve.step(&[0, 0, 0, 0]).unwrap();
    let s = ve.episode_stats();
    assert_eq!(s.len(), 4);
    assert!(s
        .iter()
        .all(|s| s.reason == EndReason::IllegalMove && s.length == 0 && s.winner.is_some()));
    assert!(ve.rewards().iter().all(|&r| r == -1.0));
}

#[test]
fn bad_actions_name_the_env_and_change_nothing() {
    let mut ve = VecEnv::new(Variant::Checkers, 5, 1, EnvConfig::default()).unwrap();
    let mut acts = vec![0i64; 5];
    ve.sample_legal_actions(&mut acts);
    ve.step(&acts).unwrap();
    let before = snapshot(&ve);
    ve.sample_legal_actions(&mut acts);

    let mut bad = acts.clone();
    bad[3] = -1;
    bad[4] = 1 << 40;
    let e = ve.step(&bad).unwrap_err();
    assert_eq!(e.index, 3);
    assert!(matches!(
        e.error,
        EnvError::ActionOutOfRange { action: -1, .. }
    ));

    let mut bad = acts.clone();
    let legal = ve.legal_mask().row(2).to_vec();
    bad[2] = legal.iter().position(|&b| !b).unwrap() as i64;
    let e = ve.step(&bad).unwrap_err();
    assert_eq!(e.index, 2);
    assert!(matches!(e.error, EnvError::IllegalAction { .. }));
    assert!(e.to_string().starts_with("env 2: "));

    let e = ve.step(&acts[..4]).unwrap_err();
    assert_eq!(
        e.error,
        EnvError::BadShape {
            expected: 5,
            got: 4
        }
    );
    assert_eq!(snapshot(&ve), before);
    ve.step(&acts).unwrap();
}

#[test]
fn reset_with_a_seed_replays_the_same_games() {
    let mut ve = VecEnv::new(Variant::English, 9, 42, EnvConfig::default()).unwrap();
    let mut acts = vec![0i64; 9];
    let mut play = |ve: &mut VecEnv| {
        let mut h = Vec::new();
        for _ in 0..50 {
            ve.sample_legal_actions(&mut acts);
            ve.step(&acts).unwrap();
            h.push(snapshot(ve));
        }
        h
    };
    let first = play(&mut ve);
    ve.reset(Some(42));
    assert_eq!(play(&mut ve), first);
    ve.reset(Some(43));
    assert_ne!(play(&mut ve), first);
}

#[test]
fn a_finished_start_position_is_refused() {
    // White's only man (5) is blocked by Black's man on 1 and cannot capture.
    let cfg = EnvConfig {
        start_fen: Some("W:W5:B1".into()),
        ..EnvConfig::default()
    };
    let env = Env::new(Variant::Checkers, cfg.clone()).unwrap();
    assert!(env.is_terminated());
    let e = VecEnv::new(Variant::Checkers, 2, 0, cfg).unwrap_err();
    assert_eq!(e, EnvError::EpisodeOver);
}
