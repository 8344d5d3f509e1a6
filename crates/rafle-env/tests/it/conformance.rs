//! Env vs. rule engine, for every variant: random games played step by step
//! in lockstep with `rafle_core::Game`. At every full-move boundary the full
//! moves rebuilt from the mask chains (depth-first over the mask) must equal
//! the engine's legal moves, every path of a capture with several, and reach
//! the same positions; at every step the
//! observation must match the board (mover's frame), the draw rules and
//! results must be the engine's, and a finished episode must show an
//! all-false mask. Set RAFLE_LONG_CONFORMANCE=1 for ten times more games.

use rafle_core::rng::Rng;
use rafle_core::{bit, Bitboard, Bits, Color, Game, Move, Piece, Position, Variant};
use rafle_env::{Chain, Env, EnvConfig, EnvError, NUM_PLANES};
use std::collections::{HashMap, HashSet};

/// The steps of full move `m` of `game`'s side to move, as an env at the
/// game's position encodes them.
fn chain_of(v: Variant, game: &Game, m: &Move) -> Chain {
    Env::from_position(v, *game.position(), EnvConfig::default()).actions_of(m)
}

/// Every path of every legal move of `pos` (a capture with several paths
/// shows once per path), as the env walks them.
fn paths_of(v: Variant, pos: &Position) -> Vec<Move> {
    rafle_core::with_rules!(v, R => {
        let mut out = rafle_core::MoveList::new();
        rafle_core::movegen::generate_paths::<R>(pos, &mut out);
        out.to_vec()
    })
}

fn games_per_variant() -> usize {
    let long = std::env::var("RAFLE_LONG_CONFORMANCE").is_ok_and(|v| v == "1");
    if long {
        2000
    } else {
        200
    }
}

fn mask_of(env: &Env) -> Vec<bool> {
    let mut m = vec![false; env.num_actions()];
    env.write_legal_mask(&mut m);
    m
}

fn legal_from_mask(env: &Env) -> Vec<usize> {
    mask_of(env)
        .iter()
        .enumerate()
        .filter(|(_, &b)| b)
        .map(|(i, _)| i)
        .collect()
}

/// Every complete chain of step actions reachable through the masks from
/// `env`, with the position each one leads to.
fn chains(env: &Env, prefix: &mut Vec<u16>, out: &mut HashMap<Vec<u16>, Position>) {
    for a in legal_from_mask(env) {
        let mut e = env.clone();
        let info = e.step(a).expect("a masked action is accepted");
        prefix.push(a as u16);
        if info.move_done {
            assert_eq!(
                e.to_play(),
                env.to_play().opponent(),
                "turn passes after a move"
            );
            let old = out.insert(prefix.clone(), *e.position());
            assert!(old.is_none(), "chain {prefix:?} found twice");
        } else {
            assert!(!info.terminated && !info.truncated && info.reward == 0.0);
            assert_eq!(e.to_play(), env.to_play(), "same player continues a chain");
            assert!(e.chain_pending());
            chains(&e, prefix, out);
        }
        prefix.pop();
    }
}

/// The observation expected for `pos` with the first `k` steps of capture
/// `m` (if any) taken, computed from the core's geometry.
fn expected_obs(
    v: Variant,
    pos: &Position,
    chain: Option<(&Move, usize)>,
    occ: usize,
    reversible: u16,
) -> Vec<f32> {
    let g = v.geometry();
    let n = g.n;
    let nn = n * n;
    let mut out = vec![0.0f32; NUM_PLANES * nn];
    let side = pos.side;
    let cell = |bit: u32| {
        let s = g.square_of(bit);
        let fs = if side == Color::White {
            s
        } else {
            g.rotate_square(s)
        };
        let (r, c) = g.row_col(fs);
        r * n + c
    };
    let mut board = *pos;
    let mut captured: Bitboard = 0;
    let mut chain_piece = None;
    if let Some((m, k)) = chain {
        if k > 0 {
            // Move the piece to its k-th landing; jumped pieces stay.
            let mut piece = pos.piece_at(&g, g.square_of(m.from as u32));
            board.set(&g, g.square_of(m.from as u32), None);
            let at = m.landings()[k - 1];
            // A man crowned on the far row during its capture (R4) shows as
            // a king from that step on.
            let far = g.promotion_row(side);
            if v.rules().crown_mid_capture && m.landings()[..k].iter().any(|&l| bit(l) & far != 0) {
                piece = Some(Piece::King(side));
            }
            for victim in &m.jump_victims(&g)[..k] {
                captured |= victim;
                if v.rules().immediate_removal {
                    // Jumped pieces leave at once (turkish).
                    board.set(&g, g.square_of(victim.trailing_zeros()), None);
                }
            }
            board.set(&g, g.square_of(at as u32), piece);
            chain_piece = Some(at as u32);
        }
    }
    for bit in Bits(g.valid) {
        let s = g.square_of(bit);
        let plane = match board.piece_at(&g, s) {
            Some(Piece::Man(c)) if c == side => Some(0),
            Some(Piece::King(c)) if c == side => Some(1),
            Some(Piece::Man(_)) => Some(2),
            Some(Piece::King(_)) => Some(3),
            None => None,
        };
        if let Some(p) = plane {
            out[p * nn + cell(bit)] = 1.0;
        }
        if captured & (1 << bit) != 0 {
            out[4 * nn + cell(bit)] = 1.0;
        }
    }
    if let Some(b) = chain_piece {
        out[5 * nn + cell(b)] = 1.0;
    }
    let rules = v.rules();
    let progress = match rules.no_progress_plies {
        0 => 0.0,
        limit => (reversible as f32 / limit as f32).min(1.0),
    };
    out[6 * nn..7 * nn].fill(progress);
    out[7 * nn..8 * nn].fill((occ as f32 - 1.0) / (rules.repetitions as f32 - 1.0));
    out
}

fn obs_of(env: &Env) -> Vec<f32> {
    let mut o = vec![0.0; env.observation_len()];
    env.write_obs(&mut o);
    o
}

/// Whether two positions repeat each other (rule G2: the same pieces on
/// the same squares and the same side to move; frisian's king runs aside).
fn same_pieces(a: &Position, b: &Position) -> bool {
    (a.white, a.black, a.kings, a.side) == (b.white, b.black, b.kings, b.side)
}

/// Plays random games with `Env` and `Game` side by side and checks them.
fn run_variant(v: Variant, games: usize, seed: u64) -> (usize, usize, usize) {
    let mut rng = Rng::new(seed);
    let (mut steps, mut chain_steps, mut ends, mut several_paths) = (0, 0, 0, 0);
    let mut reasons: HashMap<String, usize> = HashMap::new();
    let na = Env::of(v).num_actions();
    for _ in 0..games {
        let mut env = Env::new(v, EnvConfig::default()).unwrap();
        let mut game = Game::new(v);
        // Positions since the last capture or man move (for the repetition plane).
        let mut window: Vec<Position> = vec![*game.position()];
        loop {
            // Full-move boundary: mask chains == engine moves.
            assert!(!env.chain_pending());
            assert_eq!(env.position(), game.position());
            assert_eq!(env.outcome(), game.outcome());
            let occ = window
                .iter()
                .rev()
                .step_by(2)
                .filter(|p| same_pieces(p, game.position()))
                .count();
            assert_eq!(env.occurrences(), occ);
            let rev = game.counters().reversible;
            assert_eq!(
                obs_of(&env),
                expected_obs(v, game.position(), None, occ, rev)
            );
            if game.is_over() {
                assert!(env.is_done() && env.is_terminated() && !env.is_truncated());
                assert!(
                    mask_of(&env).iter().all(|&b| !b),
                    "mask all false at the end"
                );
                assert!(env.legal_actions().is_empty() && env.legal_moves().is_empty());
                let mut e = env.clone();
                assert_eq!(e.step(0), Err(EnvError::EpisodeOver));
                ends += 1;
                *reasons
                    .entry(format!("{:?}", game.outcome().map(|o| o.reason)))
                    .or_insert(0usize) += 1;
                break;
            }
            // Every path of a move is walkable (its steps depend only on
            // the chain's state, which the observation shows).
            let legal = paths_of(v, game.position());
            let distinct: HashSet<Move> = legal.iter().copied().collect();
            several_paths += usize::from(distinct.len() < legal.len());
            assert_eq!(
                distinct,
                game.legal_moves()
                    .iter()
                    .copied()
                    .collect::<HashSet<Move>>()
            );
            let mut expected: HashMap<Vec<u16>, Position> = HashMap::new();
            for m in &legal {
                let mut p = *game.position();
                p.apply_in(v, m);
                let chain = chain_of(v, &game, m).to_vec();
                assert!(
                    expected.insert(chain, p).is_none(),
                    "two paths share a chain"
                );
            }
            let mut rebuilt = HashMap::new();
            chains(&env, &mut Vec::new(), &mut rebuilt);
            assert_eq!(rebuilt, expected, "{v}: {}", game.fen());
            assert_eq!(env.legal_moves().len(), game.legal_moves().len());
            let moves: HashSet<Move> = env.legal_moves().iter().copied().collect();
            assert_eq!(moves, distinct);
            assert_eq!(env.legal_paths().len(), legal.len());

            // Play one random move step by step, checking every chain state.
            let mut taken: Vec<u16> = Vec::new();
            let m = loop {
                let ids = env.legal_actions();
                let consistent: Vec<&Move> = legal
                    .iter()
                    .filter(|m| chain_of(v, &game, m).starts_with(&taken))
                    .collect();
                let next: HashSet<u16> = consistent
                    .iter()
                    .map(|m| chain_of(v, &game, m)[taken.len()])
                    .collect();
                assert_eq!(ids.iter().copied().collect::<HashSet<u16>>(), next);
                let consistent_moves: HashSet<Move> = consistent.iter().map(|m| **m).collect();
                assert_eq!(env.legal_moves().len(), consistent_moves.len());
                assert_eq!(env.legal_paths().len(), consistent.len());
                if !taken.is_empty() {
                    let m0 = consistent[0];
                    let want = expected_obs(v, game.position(), Some((m0, taken.len())), occ, rev);
                    assert_eq!(obs_of(&env), want, "{v} chain obs {}", game.fen());
                    chain_steps += 1;
                }
                // An out-of-range and an illegal id are refused, state unchanged.
                let before = (obs_of(&env), mask_of(&env));
                assert!(matches!(
                    env.step(na),
                    Err(EnvError::ActionOutOfRange { .. })
                ));
                let illegal = (0..na).find(|a| !ids.contains(&(*a as u16))).unwrap();
                assert_eq!(
                    env.step(illegal),
                    Err(EnvError::IllegalAction { action: illegal })
                );
                assert_eq!(before, (obs_of(&env), mask_of(&env)));

                let a = ids[rng.below(ids.len())];
                taken.push(a);
                let info = env.step(a as usize).unwrap();
                steps += 1;
                if info.move_done {
                    let m = **consistent
                        .iter()
                        .find(|m| chain_of(v, &game, m).as_slice() == taken)
                        .expect("the chain is a legal move");
                    game.play(&m).unwrap();
                    assert_eq!(info.terminated, game.is_over());
                    assert!(!info.truncated);
                    let want = match game.outcome().and_then(|o| o.winner) {
                        Some(c) if c == game.turn().opponent() => 1.0,
                        Some(_) => -1.0,
                        None => 0.0,
                    };
                    assert_eq!(info.reward, want);
                    break m;
                }
                assert_eq!(info, rafle_env::StepInfo::default());
            };
            if game.counters().reversible == 0 {
                window.clear();
            }
            window.push(*game.position());
            assert_eq!(env.ply() as usize, game.ply());
            assert!(game.history().last() == Some(&m));
        }
    }
    eprintln!(
        "{v}: {steps} steps, {chain_steps} inside chains, {several_paths} positions with a \
         move of several paths, endings {reasons:?}"
    );
    (steps, chain_steps, ends)
}

#[test]
fn env_agrees_with_the_rule_engine() {
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        let (steps, chain_steps, ends) = run_variant(v, games_per_variant(), 1000 + i as u64);
        assert!(steps >= 5000, "{v}: only {steps} steps");
        assert!(chain_steps > 0, "{v}: no multi-capture was exercised");
        assert_eq!(ends, games_per_variant());
    }
}

/// Capture-rich positions, so that long chains, majority captures and
/// flying-king jumps are exercised beyond what random games reach.
#[test]
fn env_agrees_on_capture_positions() {
    let positions: &[(Variant, &str)] = &[
        (
            Variant::International,
            "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
        ),
        (
            Variant::International,
            "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
        ),
        (
            Variant::International,
            "W:WK47:B9,10,12,13,19,20,22,23,29,30,32,33,39,40",
        ),
        (Variant::Thai, "W:WK29:B10,11,18,19,26,27"),
        // A man crowned mid-capture going on as a king (russian R4), the
        // precedence keys (italian N5, spanish S4), a halt behind a king
        // (killer L2).
        (Variant::Russian, "W:W12:B8,14"),
        (Variant::Italian, "W:WK30:BK26,18,27,K20"),
        (Variant::Spanish, "W:WK3:BK7,15,6,K13"),
        (Variant::Killer, "W:WK46:BK37,K19"),
        (Variant::English, "B:BK1,K3:W6,7,14,15,22,23"),
        (Variant::Checkers, "B:B1,2:W6,7,14,15,22,23"),
    ];
    for &(v, fen) in positions {
        let pos = rafle_core::parse_fen(v, fen).unwrap();
        let env = Env::from_position(v, pos, EnvConfig::default());
        let game = Game::from_position(v, pos);
        let mut expected = HashMap::new();
        assert_eq!(
            paths_of(v, &pos).into_iter().collect::<HashSet<Move>>(),
            game.legal_moves()
                .iter()
                .copied()
                .collect::<HashSet<Move>>()
        );
        for m in &paths_of(v, &pos) {
            let mut p = pos;
            p.apply_in(v, m);
            expected.insert(
                Env::from_position(v, pos, EnvConfig::default())
                    .actions_of(m)
                    .to_vec(),
                p,
            );
        }
        let mut rebuilt = HashMap::new();
        chains(&env, &mut Vec::new(), &mut rebuilt);
        assert_eq!(rebuilt, expected, "{v} {fen}");
        assert!(!expected.is_empty());
    }
}
