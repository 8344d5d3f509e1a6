//! The action codec, illegal-action modes, out-of-range ids and truncation.

use rafle_core::{parse_fen, Color, EndReason, Game, Position, Variant};
use rafle_env::{Env, EnvConfig, EnvError, IllegalActionMode, StepInfo, NUM_PLANES};

/// An env of `v` at its start position with `side` to move.
fn side_env(v: Variant, side: Color) -> Env {
    let mut pos = Position::start(v);
    pos.side = side;
    Env::from_position(v, pos, EnvConfig::default())
}

fn num_actions(v: Variant) -> usize {
    Env::of(v).num_actions()
}

#[test]
fn action_counts_and_shapes() {
    // The action count depends on the board size and on whether pieces
    // also step along rows and columns (see `action`).
    for v in Variant::ALL {
        let n = v.board_size();
        let rules = v.rules();
        let expect = match (n, rules.orthogonal_captures, rules.orthogonal_moves) {
            (8, false, false) => 896,
            (10, false, false) => 1800,
            (10, true, false) => 3600,
            (8, false, true) => 1792,
            (12, false, false) => 3168,
            _ => panic!("{v}: no action count known for {n}x{n}"),
        };
        assert_eq!(num_actions(v), expect, "{v}");
        let env = Env::of(v);
        assert_eq!(env.observation_shape(), [NUM_PLANES, n, n], "{v}");
        assert_eq!(env.observation_len(), NUM_PLANES * n * n, "{v}");
    }
}

#[test]
fn steps_and_squares_round_trip() {
    for v in Variant::ALL {
        let na = num_actions(v);
        for side in [Color::White, Color::Black] {
            let env = side_env(v, side);
            for a in 0..na {
                if let Some((from, to)) = env.step_squares(a) {
                    assert_eq!(env.step_action(from, to), Some(a));
                }
            }
            assert_eq!(env.step_squares(na), None);
        }
    }
}

#[test]
fn the_documented_example() {
    let (white, black) = (
        side_env(Variant::Checkers, Color::White),
        side_env(Variant::Checkers, Color::Black),
    );
    // White 22-18: sq 21, up-right, one square.
    assert_eq!(white.step_action(22, 18), Some(595));
    // Black 11-15 is 22-18 after the half turn.
    assert_eq!(black.step_action(11, 15), Some(595));
    assert_eq!(black.step_squares(595), Some((11, 15)));
    assert_eq!(white.step_action(22, 23), None);
}

#[test]
fn the_half_turn_maps_black_moves_onto_white_moves() {
    for v in Variant::ALL {
        let g = v.geometry();
        for a in 0..num_actions(v) {
            let w = side_env(v, Color::White).step_squares(a);
            let b = side_env(v, Color::Black).step_squares(a);
            let turned = w.map(|(f, t)| (g.rotate_square(f), g.rotate_square(t)));
            assert_eq!(b, turned, "{v} action {a}");
        }
    }
}

#[test]
fn start_positions_have_men_moving_up_in_the_movers_frame() {
    // Every first move of either player steps up-left or up-right, one square.
    for v in Variant::ALL {
        let mut pos = Position::start(v);
        for _ in 0..2 {
            let game = Game::from_position(v, pos);
            for m in game.legal_moves() {
                let env = Env::from_position(v, pos, EnvConfig::default());
                let (from, to) = env.step_squares(env.actions_of(m)[0] as usize).unwrap();
                // Up in the mover's frame: one row nearer the far side.
                let g = v.geometry();
                let turn = |s: usize| match pos.side {
                    Color::White => s,
                    Color::Black => g.rotate_square(s),
                };
                let (rf, rt) = (g.row_col(turn(from)).0, g.row_col(turn(to)).0);
                assert!(rt + 1 == rf, "{v} {:?}", pos.side);
            }
            pos.side = pos.side.opponent();
        }
    }
}

#[test]
fn out_of_range_ids_are_errors() {
    for v in Variant::ALL {
        let mut env = Env::new(v, EnvConfig::default()).unwrap();
        let na = num_actions(v);
        for a in [na, na + 1, usize::MAX] {
            match env.step(a) {
                Err(EnvError::ActionOutOfRange { num_actions, .. }) => assert_eq!(num_actions, na),
                other => panic!("{v}: {other:?}"),
            }
        }
        assert!(env.check_action(-1).is_err());
        assert!(env.try_write_obs(&mut [0.0; 3]).is_err());
        assert!(env.try_write_legal_mask(&mut [false; 3]).is_err());
        assert_eq!(env.ply(), 0);
    }
}

fn an_illegal_action(env: &Env) -> usize {
    let ids = env.legal_actions();
    (0..num_actions(env.variant()))
        .find(|a| !ids.contains(&(*a as u16)))
        .unwrap()
}

#[test]
fn illegal_action_mode_error_keeps_the_state() {
    let mut env = Env::new(Variant::Thai, EnvConfig::default()).unwrap();
    let a = an_illegal_action(&env);
    let before = env.clone();
    assert_eq!(env.step(a), Err(EnvError::IllegalAction { action: a }));
    assert_eq!(env.position(), before.position());
    assert_eq!(env.legal_actions(), before.legal_actions());
    assert!(!env.is_done());
}

#[test]
fn illegal_action_mode_lose_ends_the_game() {
    for v in Variant::ALL {
        let cfg = EnvConfig {
            illegal: IllegalActionMode::Lose,
            ..EnvConfig::default()
        };
        let mut env = Env::new(v, cfg).unwrap();
        let actor = env.to_play();
        let a = an_illegal_action(&env);
        let info = env.step(a).unwrap();
        assert_eq!(
            info,
            StepInfo {
                reward: -1.0,
                terminated: true,
                truncated: false,
                move_done: true
            }
        );
        assert_eq!(env.outcome().unwrap().winner, Some(actor.opponent()));
        assert!(env.lost_by_illegal_action() && env.is_done());
        let mut mask = vec![true; num_actions(v)];
        env.write_legal_mask(&mut mask);
        assert!(mask.iter().all(|&b| !b));
        assert_eq!(env.step(0), Err(EnvError::EpisodeOver));
        // Out-of-range ids stay errors in this mode.
        env.reset();
        assert!(matches!(
            env.step(usize::MAX),
            Err(EnvError::ActionOutOfRange { .. })
        ));
        assert!(!env.is_done() && !env.lost_by_illegal_action());
    }
}

#[test]
fn max_plies_truncates() {
    let cfg = EnvConfig {
        max_plies: Some(6),
        ..EnvConfig::default()
    };
    let mut env = Env::new(Variant::Checkers, cfg).unwrap();
    let mut infos = Vec::new();
    while !env.is_done() {
        let a = env.legal_actions()[0] as usize;
        infos.push(env.step(a).unwrap());
    }
    assert_eq!(env.ply(), 6);
    let last = infos.last().unwrap();
    assert!(last.truncated && !last.terminated && last.reward == 0.0);
    assert!(infos[..infos.len() - 1].iter().all(|i| !i.truncated));
    assert!(env.is_truncated() && !env.is_terminated() && env.outcome().is_none());
    assert!(env.legal_actions().is_empty());
    assert_eq!(env.step(0), Err(EnvError::EpisodeOver));
    env.reset();
    assert!(!env.is_done() && env.ply() == 0);
}

/// Kings shuffling back and forth: the third occurrence is a rule draw, which
/// terminates (never truncates) with reward 0, as rafle-core's Game says.
#[test]
fn repetition_is_a_terminating_draw() {
    let v = Variant::Checkers;
    let fen = "W:WK29:BK4";
    let mut env = Env::new(
        v,
        EnvConfig {
            start_fen: Some(fen.into()),
            max_plies: Some(100),
            ..EnvConfig::default()
        },
    )
    .unwrap();
    let mut game = Game::from_position(v, parse_fen(v, fen).unwrap());
    // 29-25, 4-8, 25-29, 8-4: back to the start after four plies.
    let plies = ["29-25", "4-8", "25-29", "8-4"];
    let mut last = StepInfo::default();
    let mut seen_half = false;
    for k in 0..8 {
        let m = game.parse_move(plies[k % 4]).unwrap();
        game.play(&m).unwrap();
        last = env.play_move(&m).unwrap();
        assert_eq!(env.outcome(), game.outcome());
        let mut obs = vec![0.0; Env::of(v).observation_len()];
        env.write_obs(&mut obs);
        let rep = obs[7 * 64];
        seen_half |= rep == 0.5;
        assert_eq!(rep, (env.occurrences() as f32 - 1.0) / 2.0);
    }
    assert!(seen_half);
    let o = env.outcome().expect("drawn by repetition");
    assert_eq!((o.winner, o.reason), (None, EndReason::Repetition));
    assert!(last.terminated && !last.truncated && last.reward == 0.0);
}

#[test]
fn bad_fen_is_an_error() {
    let cfg = EnvConfig {
        start_fen: Some("W:W99".into()),
        ..EnvConfig::default()
    };
    let e = Env::new(Variant::Checkers, cfg).unwrap_err();
    assert!(matches!(e, EnvError::Fen(_)));
    assert!(!e.to_string().contains('\n'));
}

#[test]
fn obs_keys_are_equal_exactly_when_observations_and_legal_steps_are() {
    // Every state along random games of every variant, chains included:
    // equal keys must mean equal observations and legal steps, and equal
    // observations with equal legal steps equal keys (the key is what a
    // cached network answer is found by).
    use std::collections::HashMap;
    for v in Variant::ALL {
        let mut rng = rafle_core::rng::Rng::new(7);
        let mut seen: HashMap<rafle_env::ObsKey, (Vec<f32>, Vec<u16>)> = HashMap::new();
        let mut by_obs: HashMap<(Vec<u32>, Vec<u16>), rafle_env::ObsKey> = HashMap::new();
        let mut repeats = 0;
        for _ in 0..40 {
            let mut env = Env::new(v, EnvConfig::default()).unwrap();
            while !env.is_done() && env.ply() < 200 {
                let mut obs = vec![0.0; Env::of(v).observation_len()];
                env.write_obs(&mut obs);
                let legal = env.legal_action_ids().to_vec();
                let key = env.obs_key();
                match seen.get(&key) {
                    Some((o, l)) => {
                        repeats += 1;
                        assert_eq!(o, &obs, "{v}: one key, two observations");
                        assert_eq!(l, &legal, "{v}: one key, two sets of legal steps");
                    }
                    None => {
                        seen.insert(key, (obs.clone(), legal.clone()));
                    }
                }
                let bits: Vec<u32> = obs.iter().map(|x| x.to_bits()).collect();
                assert_eq!(
                    *by_obs.entry((bits, legal.clone())).or_insert(key),
                    key,
                    "{v}: one observation and legal steps, two keys"
                );
                let a = legal[rng.below(legal.len())];
                env.step(a as usize).unwrap();
            }
        }
        assert!(repeats > 0, "{v}: the games never met a state twice");
    }
}

#[test]
fn a_king_move_limit_shows_in_the_obs_key() {
    // Where a variant limits a king's quiet moves in a row (frisian F6), a
    // state whose king has reached the limit has fewer legal steps than the
    // same pieces without the run, and the same observation: its key must
    // differ, or the search's cache answers it with the other state's steps
    // (zoo:frisian's first training panicked on that).
    for v in Variant::ALL {
        let limited = v.rules().king_move_limit > 0;
        let mut rng = rafle_core::rng::Rng::new(11);
        let mut held = 0;
        for _ in 0..60 {
            let mut env = Env::new(v, EnvConfig::default()).unwrap();
            while !env.is_done() && env.ply() < 300 {
                if !env.chain_pending() {
                    let mut pos = *env.position();
                    pos.king_runs = Default::default();
                    let fresh = Env::from_position(v, pos, EnvConfig::default());
                    if fresh.legal_action_ids() != env.legal_action_ids() {
                        held += 1;
                        assert_ne!(fresh.obs_key(), env.obs_key(), "{v}: a held king, one key");
                    }
                }
                let legal = env.legal_action_ids();
                let a = legal[rng.below(legal.len())];
                env.step(a as usize).unwrap();
            }
        }
        assert_eq!(held > 0, limited, "{v}: {held} states with a held king");
    }
}

#[test]
fn a_man_crowned_mid_capture_shows_as_a_king_from_that_step_on() {
    // Russian R4: 12x3 crowns the man on f8, then 3x17 or 3x21 as a king;
    // in pool (P5) the same man stays a man and its move ends on 3.
    for (v, chain_pending) in [(Variant::Russian, true), (Variant::Pool, false)] {
        let cfg = EnvConfig {
            start_fen: Some("W:W12:B8,14".into()),
            ..EnvConfig::default()
        };
        let mut env = Env::new(v, cfg).unwrap();
        let first = env.legal_actions()[0] as usize;
        env.step(first).unwrap();
        assert_eq!(env.chain_pending(), chain_pending, "{v}");
        // Seen by White: pending, the chain piece; over, the king of the
        // finished move (Black to play sees it as an opponent king).
        let mut o = vec![0.0; Env::of(v).observation_len()];
        env.write_obs(&mut o);
        let nn = v.board_size() * v.board_size();
        let plane = |p: usize| o[p * nn..(p + 1) * nn].iter().sum::<f32>();
        if chain_pending {
            assert_eq!((plane(0), plane(1)), (0.0, 1.0), "{v}");
        } else {
            assert_eq!((plane(2), plane(3)), (0.0, 1.0), "{v}");
        }
    }
}

#[test]
fn every_path_of_a_move_can_be_stepped() {
    // International: the man on 33 takes 28, 18, 19 and 29 round a loop,
    // either way round, and stands on 33 again: one move, two paths. The env
    // opens both (a merged list kept one, so the steps open in the middle of
    // a chain depended on where it began, which no observation shows).
    let v = Variant::International;
    let pos = parse_fen(v, "W:W33:B18,19,28,29").unwrap();
    let env = Env::from_position(v, pos, EnvConfig::default());
    assert_eq!(env.legal_moves().len(), 1);
    assert_eq!(env.legal_paths().len(), 2);
    assert_eq!(env.legal_action_ids().len(), 2);
    let mut ends = Vec::new();
    for path in env.legal_paths() {
        assert_eq!(path, &env.legal_moves()[0], "a path equals its move");
        let chain = env.actions_of(path);
        assert_eq!(env.move_of_chain(&chain).as_ref(), Some(path));
        let mut e = env.clone();
        for (k, &a) in chain.iter().enumerate() {
            let info = e.step(a as usize).unwrap();
            assert_eq!(info.move_done, k + 1 == chain.len());
            if !info.move_done {
                assert_eq!(e.legal_paths().len(), 1, "one path goes on from here");
            }
        }
        ends.push(*e.position());
    }
    assert_eq!(ends[0], ends[1]);
}
