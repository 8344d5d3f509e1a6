//! The Batch features behind the Python adapters: the three autoreset modes
//! on a hand-played game, snapshots restored mid-capture, episodes read as
//! games, moves turned into actions, per-env seeds and the other player's view.

use rafle_core::{Color, EndReason, Variant};
use rafle_env::{
    AutoresetMode, EnvConfig, EnvError, IllegalActionMode, Snapshot, VecEnv, NUM_PLANES,
};

/// Thai: White's only move 18x9 takes Black's last man.
const ONE_MOVE: (&str, &str) = ("W:W18:B14", "18x9");

fn one_move_env(mode: AutoresetMode) -> (VecEnv, Vec<i64>) {
    let cfg = EnvConfig {
        start_fen: Some(ONE_MOVE.0.into()),
        ..EnvConfig::default()
    };
    let ve = VecEnv::with_autoreset(Variant::Thai, 1, 0, cfg, mode).unwrap();
    let acts = ve.move_actions(0, ONE_MOVE.1).unwrap();
    assert_eq!(acts.len(), 1);
    (ve, vec![acts[0] as i64])
}

/// The final state of ONE_MOVE in Black's frame: no own piece, one opponent man.
fn is_final_obs(obs: &[f32], nn: usize) {
    let plane = |p: usize| obs[p * nn..(p + 1) * nn].iter().sum::<f32>();
    assert_eq!(
        (plane(0), plane(1), plane(2), plane(3)),
        (0.0, 0.0, 1.0, 0.0)
    );
}

#[test]
fn next_step_shows_the_end_then_resets_ignoring_the_action() {
    let (mut ve, win) = one_move_env(AutoresetMode::NextStep);
    let start = ve.obs().to_owned();
    ve.step(&win).unwrap();
    assert!(ve.terminated()[0] && ve.rewards()[0] == 1.0);
    is_final_obs(ve.obs().as_slice().unwrap(), 64);
    assert!(!ve.legal_mask().iter().any(|&b| b));
    assert_eq!(ve.to_play()[0], Color::Black.index() as u8);
    let s = ve.episode_stats()[0];
    assert_eq!(
        (s.winner, s.reason),
        (Some(Color::White), EndReason::NoLegalMove)
    );
    ve.step(&[-1]).unwrap(); // any action: env 0 resets
    assert!(!ve.terminated()[0] && ve.rewards()[0] == 0.0 && ve.episode_stats().is_empty());
    assert_eq!(ve.obs(), start.view());
    ve.step(&win).unwrap();
    assert!(ve.terminated()[0]);
}

#[test]
fn same_step_shows_the_next_game_and_keeps_the_final_obs() {
    let (mut ve, win) = one_move_env(AutoresetMode::SameStep);
    let start = ve.obs().to_owned();
    ve.step(&win).unwrap();
    assert!(ve.terminated()[0] && ve.rewards()[0] == 1.0);
    assert_eq!(ve.obs(), start.view());
    is_final_obs(ve.final_obs().as_slice().unwrap(), 64);
    ve.step(&win).unwrap();
    assert!(ve.terminated()[0]);
}

#[test]
fn disabled_waits_for_a_reset() {
    let (mut ve, win) = one_move_env(AutoresetMode::Disabled);
    let start = ve.obs().to_owned();
    ve.step(&win).unwrap();
    assert!(ve.terminated()[0]);
    is_final_obs(ve.obs().as_slice().unwrap(), 64);
    let e = ve.step(&win).unwrap_err();
    assert_eq!((e.index, e.error), (0, EnvError::EpisodeOver));
    ve.reset_some(None, Some(&[true])).unwrap();
    assert_eq!(ve.obs(), start.view());
    assert!(!ve.terminated()[0]);
    ve.step(&win).unwrap();
    assert!(ve.terminated()[0]);
}

#[test]
fn a_masked_reset_touches_only_its_envs() {
    let cfg = EnvConfig::default();
    let mut ve =
        VecEnv::with_autoreset(Variant::Checkers, 3, 1, cfg, AutoresetMode::Disabled).unwrap();
    let mut acts = vec![0; 3];
    for _ in 0..4 {
        ve.sample_legal_actions(&mut acts);
        ve.step(&acts).unwrap();
    }
    let before = ve.obs().to_owned();
    ve.reset_some(None, Some(&[false, true, false])).unwrap();
    let fresh = VecEnv::new(Variant::Checkers, 3, 1, EnvConfig::default()).unwrap();
    for i in [0, 2] {
        assert_eq!(
            ve.obs().index_axis(ndarray::Axis(0), i),
            before.index_axis(ndarray::Axis(0), i)
        );
    }
    assert_eq!(
        ve.obs().index_axis(ndarray::Axis(0), 1),
        fresh.obs().index_axis(ndarray::Axis(0), 1)
    );
    assert_eq!(ve.env(1).ply(), 0);
    assert!(ve.reset_some(None, Some(&[true])).is_err(), "wrong length");
}

/// Everything an observer can read, for comparing two batches.
fn digest(ve: &VecEnv) -> Vec<u64> {
    let f = |x: f32| x.to_bits() as u64;
    let mut h: Vec<u64> = ve.obs().iter().map(|&x| f(x)).collect();
    h.extend(ve.legal_mask().iter().map(|&b| b as u64));
    h.extend(ve.to_play().iter().map(|&p| p as u64));
    h
}

fn steps_digest(ve: &mut VecEnv, steps: usize) -> Vec<Vec<u64>> {
    let mut acts = vec![0; ve.num_envs()];
    (0..steps)
        .map(|_| {
            ve.sample_legal_actions(&mut acts);
            ve.step(&acts).unwrap();
            let mut d = digest(ve);
            d.extend(ve.rewards().iter().map(|&r| r.to_bits() as u64));
            d.extend(ve.episode_stats().iter().map(|s| s.length as u64));
            d
        })
        .collect()
}

#[test]
fn a_restored_snapshot_goes_on_exactly_mid_capture() {
    let modes = [
        AutoresetMode::NextStep,
        AutoresetMode::SameStep,
        AutoresetMode::Disabled,
    ];
    for v in Variant::ALL {
        for mode in modes {
            let cfg = EnvConfig {
                max_plies: Some(60),
                illegal: IllegalActionMode::Error,
                start_fen: None,
            };
            let mut ve = VecEnv::with_autoreset(v, 16, 3, cfg.clone(), mode).unwrap();
            let mut acts = vec![0; 16];
            // Until some env is inside a multi-capture (Disabled: envs stop, so cap it).
            let mut rounds = 0;
            while !(0..16).any(|i| ve.env(i).chain_pending()) && rounds < 400 {
                ve.sample_legal_actions(&mut acts);
                if mode == AutoresetMode::Disabled {
                    let done: Vec<bool> = (0..16).map(|i| ve.env(i).is_done()).collect();
                    if done.iter().any(|&d| d) {
                        ve.reset_some(None, Some(&done)).unwrap();
                        continue;
                    }
                }
                ve.step(&acts).unwrap();
                rounds += 1;
            }
            assert!(
                (0..16).any(|i| ve.env(i).chain_pending()),
                "{v} {mode}: no chain"
            );
            let bytes = ve.snapshot().to_bytes();
            let mut back = VecEnv::with_autoreset(v, 16, 99, cfg, mode).unwrap();
            back.restore(&Snapshot::from_bytes(&bytes).unwrap())
                .unwrap();
            assert_eq!(digest(&back), digest(&ve), "{v} {mode}");
            for i in 0..16 {
                assert_eq!(back.game(i).unwrap().fen(), ve.game(i).unwrap().fen());
            }
            if mode != AutoresetMode::Disabled {
                assert_eq!(
                    steps_digest(&mut back, 50),
                    steps_digest(&mut ve, 50),
                    "{v} {mode}"
                );
            }
        }
    }
}

#[test]
fn damaged_snapshots_are_refused_and_change_nothing() {
    let mut ve = VecEnv::new(Variant::English, 2, 0, EnvConfig::default()).unwrap();
    let mut acts = vec![0; 2];
    for _ in 0..5 {
        ve.sample_legal_actions(&mut acts);
        ve.step(&acts).unwrap();
    }
    let before = digest(&ve);
    let good = ve.snapshot();
    let mut illegal = good.clone();
    illegal.envs[1].steps.push(0); // action 0 is never legal at the start of a turn here
    assert!(matches!(
        ve.restore(&illegal),
        Err(EnvError::IllegalAction { .. })
    ));
    let mut zero = good.clone();
    zero.envs[0].rng = [0; 4];
    assert!(matches!(ve.restore(&zero), Err(EnvError::BadSnapshot(_))));
    let mut flag = good.clone();
    flag.envs[0].reset_next = true;
    assert!(matches!(ve.restore(&flag), Err(EnvError::BadSnapshot(_))));
    let mut fewer = good;
    fewer.envs.pop();
    assert!(matches!(ve.restore(&fewer), Err(EnvError::BadSnapshot(_))));
    assert_eq!(digest(&ve), before);
}

#[test]
fn an_episode_reads_as_a_game_and_moves_become_actions() {
    for v in Variant::ALL {
        let mut ve = VecEnv::new(v, 1, 7, EnvConfig::default()).unwrap();
        let mut acts = vec![0; 1];
        for _ in 0..30 {
            ve.sample_legal_actions(&mut acts);
            ve.step(&acts).unwrap();
        }
        while ve.env(0).chain_pending() {
            ve.sample_legal_actions(&mut acts);
            ve.step(&acts).unwrap();
        }
        let mut game = ve.game(0).unwrap();
        assert_eq!(game.ply(), ve.env(0).ply() as usize, "{v}");
        assert_eq!(
            game.fen(),
            rafle_core::to_fen(v, ve.env(0).position()),
            "{v}"
        );
        // Play the game's last legal move through the env as actions.
        let m = *game.legal_moves().last().unwrap();
        let text = game.move_string(&m);
        for a in ve.move_actions(0, &text).unwrap() {
            ve.step(&[a as i64]).unwrap();
        }
        game.play(&m).unwrap();
        if !game.is_over() {
            assert_eq!(
                game.fen(),
                rafle_core::to_fen(v, ve.env(0).position()),
                "{v}"
            );
        }
        assert!(
            matches!(ve.move_actions(0, "1-2"), Err(EnvError::Move(_))),
            "{v}"
        );
    }
}

#[test]
fn moves_are_refused_inside_a_capture() {
    // Checkers: Black 14x23x32 is one move of two jumps.
    let cfg = EnvConfig {
        start_fen: Some("B:W18,27:B14".into()),
        ..EnvConfig::default()
    };
    let mut ve = VecEnv::new(Variant::Checkers, 1, 0, cfg).unwrap();
    let acts = ve.move_actions(0, "14x23x32").unwrap();
    assert_eq!(acts.len(), 2);
    ve.step(&[acts[0] as i64]).unwrap();
    assert_eq!(ve.move_actions(0, "23x32"), Err(EnvError::ChainPending));
    assert_eq!(
        ve.game(0).unwrap().ply(),
        0,
        "the game shows the board before the capture"
    );
}

#[test]
fn each_env_draws_from_its_own_seed() {
    let run = |seeds: &[u64]| {
        let mut ve = VecEnv::new(Variant::Thai, 3, 0, EnvConfig::default()).unwrap();
        ve.reset_some(Some(seeds), None).unwrap();
        let mut acts = vec![0; 3];
        (0..20)
            .map(|_| {
                ve.sample_legal_actions(&mut acts);
                ve.step(&acts).unwrap();
                acts.clone()
            })
            .collect::<Vec<_>>()
    };
    let (a, b) = (run(&[1, 2, 3]), run(&[1, 2, 4]));
    let column = |r: &Vec<Vec<i64>>, i: usize| r.iter().map(|x| x[i]).collect::<Vec<_>>();
    assert_eq!(column(&a, 0), column(&b, 0));
    assert_eq!(column(&a, 1), column(&b, 1));
    assert_ne!(column(&a, 2), column(&b, 2));
    // One seed for all is the same as that seed for each env.
    let mut one = VecEnv::new(Variant::Thai, 3, 0, EnvConfig::default()).unwrap();
    one.reset(Some(5));
    let mut each = VecEnv::new(Variant::Thai, 3, 0, EnvConfig::default()).unwrap();
    each.reset_some(Some(&[5, 5, 5]), None).unwrap();
    let (mut x, mut y) = (vec![0; 3], vec![0; 3]);
    one.sample_legal_actions(&mut x);
    each.sample_legal_actions(&mut y);
    assert_eq!(x, y);
}

#[test]
fn the_other_player_sees_the_board_turned() {
    let mut ve = VecEnv::new(Variant::International, 1, 2, EnvConfig::default()).unwrap();
    let mut acts = vec![0; 1];
    for _ in 0..12 {
        ve.sample_legal_actions(&mut acts);
        ve.step(&acts).unwrap();
    }
    let n = 10;
    let nn = n * n;
    let mover = ve.env(0).to_play();
    let mut mine = vec![0.0; NUM_PLANES * nn];
    let mut theirs = vec![0.0; NUM_PLANES * nn];
    ve.write_obs_seen_by(0, mover, &mut mine);
    ve.write_obs_seen_by(0, mover.opponent(), &mut theirs);
    assert_eq!(mine.as_slice(), ve.obs().as_slice().unwrap());
    // Planes 0-1 and 2-3 swap; every plane turns half a turn.
    let swap = [2, 3, 0, 1, 4, 5, 6, 7];
    for (p, &q) in swap.iter().enumerate() {
        for cell in 0..nn {
            assert_eq!(
                theirs[p * nn + cell],
                mine[q * nn + nn - 1 - cell],
                "plane {p}"
            );
        }
    }
}

#[test]
fn more_games_than_memory_holds_are_an_error_not_an_abort() {
    // Found by hand next to the Python property tests: a billion envs
    // aborted the process in the allocator.
    for n in [1_000_000_000_000, usize::MAX / 2] {
        let e = VecEnv::new(Variant::English, n, 0, EnvConfig::default()).unwrap_err();
        assert!(matches!(e, EnvError::TooLarge { .. }), "{e}");
        assert!(e.to_string().starts_with(&format!("num_envs {n}")), "{e}");
    }
}
