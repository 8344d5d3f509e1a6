//! One generation's self-play: alpha-beta games with the current
//! evaluation (random openings, a share of random moves, both colours),
//! each searched quiet position kept with its search score and the game's
//! result, and the file they are kept in (`games-NNN.safetensors`).

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use rafle_core::rng::Rng;
use rafle_core::{Color, Game, Position, Variant};
use rafle_search::alphabeta::{AlphaBeta, Limits};
use rafle_search::learned::Learned;
use rayon::prelude::*;
use safetensors::tensor::{Dtype, SafeTensors, TensorView};

use super::config::Games;

/// A position to learn from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Labelled {
    pub pos: Position,
    /// The search's score for the side to move (centi-logits, or the
    /// hand-written evaluation's centi-men), clamped to ±[`SCORE_LIMIT`].
    pub score: i32,
    /// The game's result for the side to move (1, 0.5, 0), NaN when the
    /// game was stopped at `max_plies`.
    pub result: f32,
}

/// Forced wins are scored as this (sigmoid(100) is 1 in f32).
pub const SCORE_LIMIT: i32 = 10_000;

/// What a generation's games give.
#[derive(Clone, Debug, Default)]
pub struct Generated {
    pub positions: Vec<Labelled>,
    pub games: usize,
    pub plies: usize,
    /// Games stopped at `max_plies`.
    pub stopped: usize,
    /// Decisive games.
    pub decisive: usize,
    pub nodes: u64,
}

/// Plays `cfg.games` games at `depth` with `eval` (None: the hand-written
/// evaluation); `done` counts finished games.
pub fn generate(
    variant: Variant,
    cfg: &Games,
    depth: u32,
    eval: Option<Arc<Learned>>,
    seed: u64,
    done: &AtomicUsize,
) -> Generated {
    let games: Vec<(Vec<Labelled>, usize, bool, bool, u64)> = (0..cfg.games)
        .into_par_iter()
        .map(|i| {
            let r = play_one(
                variant,
                cfg,
                depth,
                eval.clone(),
                Rng::stream(seed, i as u64).next_u64(),
            );
            done.fetch_add(1, Ordering::Relaxed);
            r
        })
        .collect();
    let mut out = Generated::default();
    for (pos, plies, stopped, decisive, nodes) in games {
        out.positions.extend(pos);
        out.games += 1;
        out.plies += plies;
        out.stopped += stopped as usize;
        out.decisive += decisive as usize;
        out.nodes += nodes;
    }
    out
}

fn play_one(
    variant: Variant,
    cfg: &Games,
    depth: u32,
    eval: Option<Arc<Learned>>,
    seed: u64,
) -> (Vec<Labelled>, usize, bool, bool, u64) {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(variant);
    for m in rafle_core::opening::random_opening(variant, &[], cfg.opening_plies, &mut rng) {
        game.play(&m).expect("an opening move is legal");
    }
    let limits = Limits {
        depth: Some(depth),
        time: None,
    };
    let mut ab = AlphaBeta::new(variant, limits, rng.next_u64()).with_eval(eval);
    let mut seen: Vec<(Position, i32)> = Vec::new();
    let mut stopped = false;
    while !game.is_over() {
        if game.ply() >= cfg.max_plies {
            stopped = true;
            break;
        }
        let moves = game.legal_moves();
        let m = if moves.len() == 1 {
            moves[0]
        } else if rng.unit_f64() < cfg.random_share {
            moves[rng.below(moves.len())]
        } else {
            let r = ab.search(&game);
            // Quiet positions only: a capture is a race the search resolves.
            if !moves[0].is_capture() {
                seen.push((*game.position(), r.score.clamp(-SCORE_LIMIT, SCORE_LIMIT)));
            }
            r.best
        };
        game.play(&m).expect("a legal move");
    }
    let winner = game.outcome().and_then(|o| o.winner);
    let result = |side: Color| match (stopped, winner) {
        (true, _) => f32::NAN,
        (false, None) => 0.5,
        (false, Some(w)) => (w == side) as u8 as f32,
    };
    let labelled = seen
        .into_iter()
        .map(|(pos, score)| Labelled {
            pos,
            score,
            result: result(pos.side),
        })
        .collect();
    use rafle_search::Player;
    (
        labelled,
        game.ply(),
        stopped,
        winner.is_some() && !stopped,
        ab.nodes(),
    )
}

pub const FORMAT: &str = "rafle-eval-games";

/// Writes positions whole: bitboards as two u64 halves, side (0 White,
/// 1 Black), score (i32), result (f32).
pub fn save(path: &Path, variant: Variant, positions: &[Labelled]) -> Result<()> {
    let halves = |f: fn(&Position) -> u128| -> Vec<u8> {
        positions
            .iter()
            .flat_map(|l| {
                let x = f(&l.pos);
                [(x as u64).to_le_bytes(), ((x >> 64) as u64).to_le_bytes()].concat()
            })
            .collect()
    };
    let n = positions.len();
    let data: Vec<(&str, Dtype, Vec<usize>, Vec<u8>)> = vec![
        ("white", Dtype::U64, vec![n, 2], halves(|p| p.white)),
        ("black", Dtype::U64, vec![n, 2], halves(|p| p.black)),
        ("kings", Dtype::U64, vec![n, 2], halves(|p| p.kings)),
        (
            "side",
            Dtype::U8,
            vec![n],
            positions
                .iter()
                .map(|l| (l.pos.side == Color::Black) as u8)
                .collect(),
        ),
        (
            "score",
            Dtype::I32,
            vec![n],
            positions
                .iter()
                .flat_map(|l| l.score.to_le_bytes())
                .collect(),
        ),
        (
            "result",
            Dtype::F32,
            vec![n],
            positions
                .iter()
                .flat_map(|l| l.result.to_le_bytes())
                .collect(),
        ),
    ];
    let views = data
        .iter()
        .map(|(name, dt, shape, raw)| Ok((*name, TensorView::new(*dt, shape.clone(), raw)?)))
        .collect::<Result<Vec<_>, safetensors::SafeTensorError>>()?;
    let meta = [
        ("format".to_string(), FORMAT.to_string()),
        ("variant".to_string(), variant.name().to_string()),
    ];
    let bytes = safetensors::serialize(views, Some(meta.into_iter().collect()))?;
    rafle_core::atomic::write(path, &bytes)?;
    Ok(())
}

/// Reads a file of [`save`].
pub fn load(path: &Path, variant: Variant) -> Result<Vec<Labelled>> {
    let raw = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let what = || format!("games file {}", path.display());
    let (_, meta) = SafeTensors::read_metadata(&raw).with_context(what)?;
    let m = meta.metadata().clone().unwrap_or_default();
    if m.get("format").map(String::as_str) != Some(FORMAT)
        || m.get("variant").map(String::as_str) != Some(variant.name())
    {
        bail!("{}: not {variant}'s games of rafle train-eval", what());
    }
    let st = SafeTensors::deserialize(&raw).with_context(what)?;
    let t =
        |name: &str| -> Result<Vec<u8>> { Ok(st.tensor(name).with_context(what)?.data().to_vec()) };
    let boards = |name: &str| -> Result<Vec<u128>> {
        Ok(t(name)?
            .chunks_exact(16)
            .map(|c| u128::from_le_bytes(c.try_into().unwrap()))
            .collect())
    };
    let (w, b, k) = (boards("white")?, boards("black")?, boards("kings")?);
    let side = t("side")?;
    let score: Vec<i32> = t("score")?
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let result: Vec<f32> = t("result")?
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let n = side.len();
    if [w.len(), b.len(), k.len(), score.len(), result.len()]
        .iter()
        .any(|&x| x != n)
    {
        bail!("{}: its arrays differ in length", what());
    }
    Ok((0..n)
        .map(|i| {
            let mut pos = Position::start(variant);
            pos.white = w[i];
            pos.black = b[i];
            pos.kings = k[i];
            pos.side = if side[i] == 1 {
                Color::Black
            } else {
                Color::White
            };
            pos.king_runs = Default::default();
            Labelled {
                pos,
                score: score[i],
                result: result[i],
            }
        })
        .collect())
}

/// The target of a position: the result blended with the score.
pub fn target(l: &Labelled, result_weight: f64) -> f32 {
    let s = 1.0 / (1.0 + (-(l.score as f64) / 100.0).exp());
    if l.result.is_nan() {
        s as f32
    } else {
        (result_weight * l.result as f64 + (1.0 - result_weight) * s) as f32
    }
}
