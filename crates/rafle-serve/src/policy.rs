//! A network's policy over the legal full moves, and its value.
//!
//! The network's policy is over step actions (a multi-capture is a chain
//! of steps, rafle-env's codec). The probability of a full move is the
//! product, along its chain, of the softmax over the legal steps at each
//! state of the chain: the root and every distinct partial chain are
//! evaluated in one batch. The probabilities are normalised over the legal
//! moves at the end, so they sum to one where the move list keeps one of
//! several paths of a move (the steps of the others then carry no move).

use rafle_core::{Game, Move};
use rafle_env::{Env, EnvConfig};
use rafle_search::network::{Leaves, SharedEvaluator};
use std::collections::HashMap;

/// What the network says about a position.
#[derive(Clone, Debug, PartialEq)]
pub struct MovePolicy {
    /// One probability per legal move, in the order of `Game::legal_moves`.
    pub moves: Vec<(Move, f32)>,
    /// The value for the side to move, in [-1, 1].
    pub value: f32,
}

/// Evaluates `game`'s position (not over) with `evaluator`.
pub fn move_policy(game: &Game, evaluator: &SharedEvaluator) -> Result<MovePolicy, String> {
    let root = Env::from_game(game, EnvConfig::default()).map_err(|e| e.to_string())?;
    let legal = game.legal_moves();
    if legal.is_empty() {
        return Err("the game is over: no move to weigh".into());
    }
    let chains: Vec<_> = legal.iter().map(|m| root.actions_of(m)).collect();
    // Every state to evaluate: the root (prefix []) and each proper prefix
    // of a chain, by its steps.
    let mut index: HashMap<Vec<u16>, usize> = HashMap::new();
    let mut states: Vec<Env> = Vec::new();
    index.insert(Vec::new(), 0);
    states.push(root.clone());
    for c in &chains {
        for k in 1..c.len() {
            let prefix = c[..k].to_vec();
            if index.contains_key(&prefix) {
                continue;
            }
            let mut env = root.clone();
            for &a in &prefix {
                env.step(a as usize).map_err(|e| e.to_string())?;
            }
            index.insert(prefix, states.len());
            states.push(env);
        }
    }
    let (len, na, n) = (root.observation_len(), root.num_actions(), states.len());
    let mut obs = vec![0.0f32; n * len];
    let mut mask = vec![false; n * na];
    for (k, env) in states.iter().enumerate() {
        env.write_obs(&mut obs[k * len..(k + 1) * len]);
        env.write_legal_mask(&mut mask[k * na..(k + 1) * na]);
    }
    let mut logits = vec![0.0f32; n * na];
    let mut values = vec![0.0f32; n];
    evaluator
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .evaluate(
            &Leaves {
                obs: &obs,
                mask: &mask,
                n,
            },
            &mut logits,
            &mut values,
        )
        .map_err(|e| e.to_string())?;
    // Softmax over each state's legal steps (log-probabilities).
    let log_probs: Vec<HashMap<u16, f64>> = states
        .iter()
        .enumerate()
        .map(|(k, env)| {
            let row = &logits[k * na..(k + 1) * na];
            let ids = env.legal_action_ids();
            let max = ids
                .iter()
                .map(|&a| row[a as usize] as f64)
                .fold(f64::NEG_INFINITY, f64::max);
            let sum: f64 = ids
                .iter()
                .map(|&a| (row[a as usize] as f64 - max).exp())
                .sum();
            ids.iter()
                .map(|&a| (a, row[a as usize] as f64 - max - sum.ln()))
                .collect()
        })
        .collect();
    let mut probs: Vec<f64> = chains
        .iter()
        .map(|c| {
            let lp: f64 = (0..c.len())
                .map(|k| {
                    let state = index[&c[..k].to_vec()];
                    log_probs[state]
                        .get(&c[k])
                        .copied()
                        .unwrap_or(f64::NEG_INFINITY)
                })
                .sum();
            lp.exp()
        })
        .collect();
    let total: f64 = probs.iter().sum();
    if !(total.is_finite() && total > 0.0) {
        return Err("the network's policy is not a distribution here (NaN or zero)".into());
    }
    for p in &mut probs {
        *p /= total;
    }
    let value = values[0];
    if !value.is_finite() {
        return Err("the network's value is not a number".into());
    }
    Ok(MovePolicy {
        moves: legal
            .iter()
            .copied()
            .zip(probs.into_iter().map(|p| p as f32))
            .collect(),
        value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rafle_core::Variant;
    use rafle_search::network::{shared, EvalError};

    /// A stand-in network: logits from a hash of the observation, value 0.25.
    fn fake() -> SharedEvaluator {
        shared(
            |l: &Leaves, logits: &mut [f32], values: &mut [f32]| -> Result<(), EvalError> {
                let na = logits.len() / l.n;
                for (k, row) in logits.chunks_mut(na).enumerate() {
                    for (a, x) in row.iter_mut().enumerate() {
                        *x = (((a * 7919 + k * 31) % 97) as f32) / 20.0;
                    }
                    values[k] = 0.25;
                }
                Ok(())
            },
        )
    }

    /// The start and the first position of a seeded random game with a
    /// multi-capture, in every variant.
    fn positions(v: Variant) -> Vec<Game> {
        let mut out = vec![Game::new(v)];
        let mut rng = rafle_core::rng::Rng::new(5);
        for _ in 0..200 {
            let mut g = Game::new(v);
            while !g.is_over() && g.ply() < 300 {
                if g.legal_moves().iter().any(|m| m.landings().len() >= 2) {
                    out.push(g);
                    return out;
                }
                let legal = g.legal_moves();
                let m = legal[rng.below(legal.len())];
                g.play(&m).unwrap();
            }
        }
        panic!("{v}: no multi-capture in 200 random games");
    }

    #[test]
    fn one_probability_per_legal_move_summing_to_one() {
        for v in Variant::ALL {
            for g in positions(v) {
                let p = move_policy(&g, &fake()).unwrap();
                assert_eq!(p.moves.len(), g.legal_moves().len(), "{}", g.fen());
                let sum: f32 = p.moves.iter().map(|x| x.1).sum();
                assert!((sum - 1.0).abs() < 1e-4, "{v} {}: sums to {sum}", g.fen());
                assert!(p.moves.iter().all(|x| x.1 > 0.0), "{v} {}", g.fen());
                assert_eq!(p.value, 0.25);
            }
        }
    }

    #[test]
    fn a_failing_network_is_an_error() {
        let bad = shared(
            |_: &Leaves, _: &mut [f32], _: &mut [f32]| -> Result<(), EvalError> {
                Err(EvalError::Failed("boom".into()))
            },
        );
        let e = move_policy(&Game::new(Variant::Thai), &bad).unwrap_err();
        assert!(e.contains("boom"), "{e}");
    }
}
