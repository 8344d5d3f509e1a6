//! A teacher to start from (`[bootstrap]` in the run config): games of a
//! search player against itself, turned into training samples before
//! self-play begins, as expert iteration and AlphaGo's supervised start do.
//! The played steps are the policy targets and the results the value
//! targets ([`game_samples_taught`]), with the teacher's own scores as the
//! search values where `value = "score"` and its scores of every root move,
//! softened, as the policy targets where `policy = "scores"`; the random
//! opening plies that diversify the games are not targets (each game's
//! samples start after them), nor are forced steps (as in self-play).
//!
//! After the teacher start its positions either join the replay window
//! (`mix = 0`), where self-play pushes them out after about
//! `replay_window / positions_per_iteration` iterations, or stay in a
//! buffer of their own, [`TEACHER`], that gives [`teacher_count`] of every
//! batch: `mix` of it, falling linearly to none at `mix_until` of the
//! schedule ([`teacher_share`]).

use crate::config::{BootstrapConfig, BootstrapPolicy, BootstrapValue};
use crate::sample::{game_samples_taught, Sample};
use anyhow::{anyhow, Result};
use rafle_core::rng::Rng;
use rafle_core::{random_opening, Game, Move, Variant};
use rafle_search::{parse_player, PlayerFactory};
use rayon::prelude::*;
use std::time::Instant;

/// What a bootstrap produced.
#[derive(Debug, Default)]
pub struct Teaching {
    pub samples: Vec<Sample>,
    pub games: u64,
    /// Games won by the side that moved first after the opening, drawn, lost.
    pub results: [u64; 3],
    pub plies: u64,
    pub seconds: f64,
}

/// The teacher games' seed for a run seeded `run_seed` (both trainers).
pub fn seed(run_seed: u64) -> u64 {
    run_seed ^ 0x0074_6561_6368_6572
}

/// Training steps on the teacher's `positions`: `epochs` passes at
/// `batch_size` positions a step, rounded up.
pub fn steps(positions: usize, epochs: f64, batch_size: usize) -> u64 {
    (positions as f64 * epochs / batch_size.max(1) as f64).ceil() as u64
}

/// The teacher's own buffer in a run folder (`mix` > 0), in the replay
/// window's format (`crate::replay`), written once after the teacher start.
pub const TEACHER: &str = "teacher.safetensors";

/// The share of a training batch drawn from the teacher's buffer at
/// `progress` (0 to 1) of the schedule: `mix`, falling linearly to 0 at
/// `mix_until` (0: no fall).
pub fn teacher_share(mix: f64, mix_until: f64, progress: f64) -> f64 {
    if mix_until <= 0.0 {
        return mix;
    }
    mix * (1.0 - progress / mix_until).clamp(0.0, 1.0)
}

/// Positions of a `batch`-position training batch drawn from the teacher's
/// buffer at `progress`, the rest from the replay window: the share
/// rounded to the nearest position.
pub fn teacher_count(cfg: &BootstrapConfig, batch: usize, progress: f64) -> usize {
    let share = teacher_share(cfg.mix, cfg.mix_until, progress);
    ((batch as f64 * share).round() as usize).min(batch)
}

/// Games played per parallel round (the minutes budget is checked between
/// rounds).
const ROUND: usize = 16;

/// Plays `cfg.games` teacher games (fewer if `cfg.minutes` runs out), on
/// the rayon pool, seeded by `seed`; `progress` gets the games done.
pub fn teach(
    cfg: &BootstrapConfig,
    variant: Variant,
    max_plies: u32,
    seed: u64,
    progress: impl Fn(u64),
) -> Result<Teaching> {
    let teacher =
        parse_player(&cfg.player, variant).map_err(|e| anyhow!("bootstrap.player: {e}"))?;
    let start = Instant::now();
    let mut out = Teaching::default();
    let mut next = 0;
    while next < cfg.games {
        if cfg.minutes > 0.0 && start.elapsed().as_secs_f64() >= cfg.minutes * 60.0 {
            break;
        }
        let end = (next + ROUND).min(cfg.games);
        let games: Vec<(Vec<Sample>, Option<bool>, u32)> = (next..end)
            .into_par_iter()
            .map(|i| one_game(&teacher, cfg, variant, max_plies, seed, i as u64))
            .collect();
        for (samples, first_won, plies) in games {
            out.samples.extend(samples);
            out.games += 1;
            out.plies += u64::from(plies);
            out.results[match first_won {
                Some(true) => 0,
                None => 1,
                Some(false) => 2,
            }] += 1;
        }
        next = end;
        progress(out.games);
    }
    out.seconds = start.elapsed().as_secs_f64();
    Ok(out)
}

/// One teacher game: `cfg.opening_plies` random plies
/// ([`rafle_core::opening`]), then the teacher on both sides until the game
/// ends or reaches `max_plies` plies, the opening's counted (a draw).
/// Returns its samples, whether the first side to move after the opening
/// won (None: a draw) and the plies played by the teacher.
fn one_game(
    teacher: &PlayerFactory,
    cfg: &BootstrapConfig,
    variant: Variant,
    max_plies: u32,
    seed: u64,
    i: u64,
) -> (Vec<Sample>, Option<bool>, u32) {
    let mut rng = Rng::stream(seed, i);
    let mut game = Game::new(variant);
    let opening = random_opening(variant, &[], cfg.opening_plies as usize, &mut rng);
    for m in &opening {
        game.play(m).expect("an opening's move plays");
    }
    let max_plies = max_plies.saturating_sub(opening.len() as u32);
    // The samples start after the opening: a game from that position.
    let mut game = Game::from_position(variant, *game.position());
    let first = game.position().side;
    let mut players = [teacher(seed ^ (2 * i)), teacher(seed ^ (2 * i + 1))];
    let soft = cfg.policy == BootstrapPolicy::Scores;
    for p in &mut players {
        p.set_root_scores(soft);
    }
    let mut plies = 0;
    // The teacher's score of each move, as the mover's value, and its
    // weights of the legal moves, as the policy target.
    let mut values: Vec<Option<f32>> = Vec::new();
    let mut policies: Vec<Option<Vec<(Move, f32)>>> = Vec::new();
    while !game.is_over() && plies < max_plies {
        let side = game.position().side.index();
        match players[side].choose(&game) {
            Ok(m) if game.play(&m).is_ok() => {
                plies += 1;
                values.push(match cfg.value {
                    BootstrapValue::Result => None,
                    BootstrapValue::Score => players[side]
                        .info()
                        .score
                        .map(|s| (s / cfg.score_scale).tanh() as f32),
                });
                policies.push(if soft {
                    softened(&players[side].root_scores(), cfg.policy_temperature)
                } else {
                    None
                });
            }
            // rafle's own players always move legally; an engine teacher
            // that does not ends the game as a draw, its samples kept.
            _ => break,
        }
    }
    let winner = game.outcome().and_then(|o| o.winner);
    let mut samples = game_samples_taught(&game, winner, &values, &policies);
    // Forced steps (one legal step) are no training positions, as in
    // self-play: nothing to choose, and a value the next position has too.
    samples.retain(|s| s.policy.len() >= 2);
    (samples, winner.map(|w| w == first), plies)
}

/// Weights of the scored moves, `exp((score - best) / temperature)`
/// normalised (scores and temperature in men); None without scores.
fn softened(scores: &[(Move, f64)], temperature: f64) -> Option<Vec<(Move, f32)>> {
    let best = scores.iter().map(|s| s.1).fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = scores
        .iter()
        .map(|s| ((s.1 - best) / temperature).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    (total > 0.0).then(|| {
        scores
            .iter()
            .zip(&weights)
            .map(|(s, w)| (s.0, (w / total) as f32))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::value_of_wdl;

    /// Two `alphabeta:2` teacher games after 4 random plies.
    fn two_short_games() -> BootstrapConfig {
        BootstrapConfig {
            games: 2,
            player: "alphabeta:2".into(),
            opening_plies: 4,
            ..BootstrapConfig::default()
        }
    }

    #[test]
    fn the_teachers_share_falls_to_none_at_mix_until() {
        let cfg = BootstrapConfig {
            mix: 0.5,
            mix_until: 0.5,
            ..BootstrapConfig::default()
        };
        assert_eq!(teacher_count(&cfg, 256, 0.0), 128);
        assert_eq!(teacher_count(&cfg, 256, 0.25), 64);
        assert_eq!(teacher_count(&cfg, 256, 0.5), 0);
        assert_eq!(teacher_count(&cfg, 256, 0.9), 0);
        let constant = BootstrapConfig {
            mix_until: 0.0,
            ..cfg.clone()
        };
        assert_eq!(teacher_count(&constant, 256, 0.9), 128);
        let off = BootstrapConfig::default();
        assert_eq!(teacher_count(&off, 256, 0.0), 0, "mix = 0 draws none");
        let all = BootstrapConfig { mix: 1.0, ..off };
        assert_eq!(teacher_count(&all, 7, 0.0), 7);
    }

    #[test]
    fn score_values_come_from_the_teacher_and_result_values_from_the_game() {
        for v in Variant::ALL {
            let mut cfg = two_short_games();
            let by_result = teach(&cfg, v, 40, 7, |_| {}).unwrap();
            assert!(!by_result.samples.is_empty(), "{v}");
            // As in self-play, a forced step is no training position.
            assert!(by_result.samples.iter().all(|s| s.policy.len() >= 2), "{v}");
            assert!(
                by_result.samples.iter().all(|s| s.q == value_of_wdl(s.wdl)),
                "{v}: value = result targets the result"
            );
            cfg.value = BootstrapValue::Score;
            let by_score = teach(&cfg, v, 40, 7, |_| {}).unwrap();
            // The same games (same seed): only the values differ.
            assert_eq!(by_score.samples.len(), by_result.samples.len(), "{v}");
            assert!(by_score.samples.iter().all(|s| s.q.abs() <= 1.0), "{v}");
            let scored = by_score
                .samples
                .iter()
                .filter(|s| s.q != value_of_wdl(s.wdl))
                .count();
            assert!(
                scored * 4 > by_score.samples.len(),
                "{v}: {scored} of {} samples carry the teacher's score",
                by_score.samples.len()
            );
        }
    }

    #[test]
    fn score_policies_spread_over_the_legal_steps_and_move_policies_do_not() {
        let nonzero = |s: &Sample| s.policy.iter().filter(|p| p.1 > 0.0).count();
        for v in Variant::ALL {
            let mut cfg = two_short_games();
            let by_move = teach(&cfg, v, 40, 7, |_| {}).unwrap();
            assert!(by_move.samples.iter().all(|s| nonzero(s) == 1), "{v}");
            cfg.policy = BootstrapPolicy::Scores;
            cfg.policy_temperature = 1.0;
            let by_scores = teach(&cfg, v, 40, 7, |_| {}).unwrap();
            assert!(!by_scores.samples.is_empty(), "{v}");
            for s in &by_scores.samples {
                let sum: f32 = s.policy.iter().map(|p| p.1).sum();
                assert!((sum - 1.0).abs() < 1e-4, "{v}: policy sums to {sum}");
            }
            let spread = by_scores.samples.iter().filter(|s| nonzero(s) > 1).count();
            assert!(
                spread * 10 > by_scores.samples.len(),
                "{v}: {spread} of {} targets spread over more than one step",
                by_scores.samples.len()
            );
        }
    }

    #[test]
    fn softened_scores_favour_the_better_moves() {
        let moves = Game::new(Variant::Thai).legal_moves().to_vec();
        let scores = [(moves[0], 0.5), (moves[1], 0.0), (moves[2], -10.0)];
        let w = softened(&scores, 0.25).unwrap();
        assert!((w.iter().map(|x| x.1).sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(w[0].1 > w[1].1 && w[1].1 > w[2].1, "{w:?}");
        // 0.5 men better at a temperature of 0.25: e^2 times the weight.
        assert!((w[0].1 / w[1].1 - 2f32.exp()).abs() < 1e-3, "{w:?}");
        assert!(softened(&[], 0.25).is_none());
    }
}
