//! `rafle._rafle.ladder`: a player's place on a variant's ladder
//! (rafle-arena's `ladder::place`), for any side `agents::side_of` takes.

use crate::agents::side_of;
use crate::errors::{count, count_opt, parse_variant, value_error};
use crate::evaluator::raise;
use crate::interrupt::interruptible_also;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rafle_arena::elo::{Pentanomial, Wdl};
use rafle_arena::ladder::fit::Score;
use rafle_arena::ladder::{place, Ladder};
use rafle_arena::ArenaConfig;

/// Where a player stands on a ladder.
#[pyclass(module = "rafle", name = "LadderResult", frozen, get_all)]
#[derive(Debug)]
pub struct LadderResult {
    pub variant: String,
    pub player: String,
    /// Elo on the ladder's scale (random = 0).
    pub elo: f64,
    /// 95% interval from the games, the rungs' Elos fixed (what reruns and
    /// two players placed on one ladder are compared by).
    pub interval: (f64, f64),
    /// 95% interval as Elo above random, the rungs' own uncertainty in.
    pub interval_absolute: (f64, f64),
    pub games: u32,
    /// Per rung played: spec, elo, wins, draws, losses, score, pairs (the
    /// colour-swapped pairs by the player's points 0, 1/2, 1, 3/2, 2).
    pub rungs: Vec<Py<PyDict>>,
    pub verdict: String,
    pub seconds: f64,
    /// What `rafle ladder` prints.
    pub report: String,
    /// One line: `ladder elo E [lo, hi] (placed by N games against ...)`,
    /// what a trainer's log prints.
    pub summary: String,
}

#[pymethods]
impl LadderResult {
    fn __repr__(&self) -> String {
        format!(
            "rafle.LadderResult(player={:?}, variant={:?}, elo={:.0}, interval=({:.0}, {:.0}), games={})",
            self.player, self.variant, self.elo, self.interval.0, self.interval.1, self.games
        )
    }

    fn __str__(&self) -> String {
        self.report.clone()
    }
}

/// Places `player` on `variant`'s ladder (see the Python docs of rafle.ladder).
#[pyfunction]
#[pyo3(signature = (player, *, variant, games = 200, seed = 0, egtb = None, threads = None,
    progress = true, ladder = None, start = None))]
#[allow(clippy::too_many_arguments)]
pub fn ladder(
    py: Python<'_>,
    player: &Bound<'_, PyAny>,
    variant: &str,
    games: i64,
    seed: u64,
    egtb: Option<&Bound<'_, PyAny>>,
    threads: Option<i64>,
    progress: bool,
    ladder: Option<std::path::PathBuf>,
    start: Option<f64>,
) -> PyResult<LadderResult> {
    let v = parse_variant(variant)?;
    let games: usize = count("games", games)?;
    if games == 0 {
        return Err(value_error("games must be at least 1"));
    }
    let threads: Option<usize> = count_opt("threads", threads)?;
    if threads == Some(0) {
        return Err(value_error("threads must be at least 1"));
    }
    if start.is_some_and(|e| !e.is_finite()) {
        return Err(value_error("start must be a finite Elo"));
    }
    let scale = match &ladder {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                pyo3::exceptions::PyOSError::new_err(format!("cannot read {}: {e}", path.display()))
            })?;
            Ladder::parse(v, &text).map_err(|e| value_error(format!("{}: {e}", path.display())))?
        }
        None => Ladder::builtin(v).map_err(value_error)?,
    };
    let tables = crate::tablebase::Tablebase::from_arg(v, egtb)?;
    let players = rafle_search::PlayerOptions {
        egtb: tables.clone(),
    };
    let (mut slots, mut engines) = (Vec::new(), Vec::new());
    let side = side_of(player, v, &mut slots, &mut engines, &players)?;
    let threads = match engines.iter().map(|(_, n)| *n).min() {
        Some(n) => Some(threads.unwrap_or(usize::MAX).min(n)),
        None => threads,
    };
    let flags: Vec<_> = engines.into_iter().map(|(f, _)| f).collect();
    let result = interruptible_also(py, &flags, |stop| {
        let base = ArenaConfig {
            threads,
            progress,
            stop: Some(stop.clone()),
            egtb: tables,
            ..ArenaConfig::default()
        };
        place::place_near(v, &side, &scale, games, seed, &base, start)
    })?;
    let p = result.map_err(|e| raise(&slots.iter().collect::<Vec<_>>(), e))?;
    let rungs = p
        .rungs
        .iter()
        .map(|r| {
            let d = PyDict::new(py);
            d.set_item("spec", &r.spec)?;
            d.set_item("elo", r.elo)?;
            d.set_item("wins", r.wdl.wins)?;
            d.set_item("draws", r.wdl.draws)?;
            d.set_item("losses", r.wdl.losses)?;
            d.set_item("score", r.wdl.score())?;
            d.set_item("pairs", r.pairs.0)?;
            Ok(d.unbind())
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(LadderResult {
        variant: v.name().to_string(),
        player: p.player.clone(),
        elo: p.elo(),
        interval: p.interval(),
        interval_absolute: p.fit.interval_absolute(),
        games: p.games(),
        rungs,
        verdict: p.verdict(),
        seconds: p.seconds,
        report: p.report(),
        summary: p.summary(),
    })
}

/// One opponent's games as `ladder_implied` takes them: spec, wins, draws,
/// losses, and the pentanomial pairs when the games came in pairs.
type Games = (String, u32, u32, u32, Option<[u32; 5]>);

/// The Elo on `variant`'s built-in ladder that games against its rungs
/// imply (rafle-arena's `Ladder::implied_line`, what `rafle train` prints
/// under its final table): `(elo, lo, hi, line)`, or None when the variant
/// has no ladder or no opponent is a rung.
#[pyfunction]
pub fn ladder_implied(
    variant: &str,
    results: Vec<Games>,
) -> PyResult<Option<(f64, f64, f64, String)>> {
    let v = parse_variant(variant)?;
    let Ok(ladder) = Ladder::builtin(v) else {
        return Ok(None);
    };
    let mut scores: Vec<(&str, Score)> = Vec::with_capacity(results.len());
    for (spec, wins, draws, losses, pairs) in &results {
        let wdl = Wdl {
            wins: *wins,
            draws: *draws,
            losses: *losses,
        };
        let pairs = Pentanomial(pairs.unwrap_or_default());
        // Pair counts, where given, must be those games in pairs.
        let paired: u64 = pairs.0.iter().map(|&n| 2 * n as u64).sum();
        if paired > 0 && paired != wdl.games() as u64 {
            return Err(value_error(format!(
                "{spec}: {paired} games in pairs, {} in wins, draws and losses",
                wdl.games()
            )));
        }
        scores.push((spec.as_str(), Score { wdl, pairs }));
    }
    Ok(ladder.implied_line(&scores).map(|(fit, line)| {
        let (lo, hi) = fit.interval();
        (fit.elo, lo, hi, line)
    }))
}
