//! `rafle._rafle.evaluate`: a match in rafle-search's arena between any two
//! sides (see `agents::side_of`), every game in lockstep when a side is a
//! Python network or policy, so that it is called once per round with the
//! batch of all games where it is to act.

use crate::agents::side_of;
use crate::errors::{count, count_opt, parse_variant, value_error};
use crate::evaluator::raise;
use crate::interrupt::interruptible_also;
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rafle_arena::elo::{Sprt, SprtDecision};
use rafle_arena::play::{parse_openings, Effort};
use rafle_arena::{pdn, report, ArenaConfig};
use rafle_search::network::EvalStats;
use std::path::PathBuf;

/// The outcome of a match, from the first player's side.
#[pyclass(module = "rafle", name = "MatchResult", frozen, get_all)]
#[derive(Debug)]
pub struct MatchResult {
    pub variant: String,
    /// Names of the first (a) and second (b) player.
    pub a: String,
    pub b: String,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// (wins + draws / 2) / games.
    pub score: f64,
    /// Elo difference of a over b and its 95% interval.
    pub elo: f64,
    pub elo_ci: (f64, f64),
    /// Colour-swapped pairs by a's points 0, 0.5, 1, 1.5, 2.
    pub pentanomial: (u32, u32, u32, u32, u32),
    /// Elo from the pairs (accounts for the shared openings) and its interval.
    pub pair_elo: f64,
    pub pair_elo_ci: (f64, f64),
    /// ("H1" | "H0" | "continue", log-likelihood ratio) when an SPRT ran.
    pub sprt: Option<(String, f64)>,
    /// Every game as PDN.
    pub pdn: String,
    /// Per player: moves, ms_per_move, nodes; for network sides also
    /// evals, calls, avg_batch and evals_per_s.
    pub a_stats: Py<PyDict>,
    pub b_stats: Py<PyDict>,
    pub seconds: f64,
    /// The table `rafle eval` prints.
    pub table: String,
}

#[pymethods]
impl MatchResult {
    fn __repr__(&self) -> String {
        format!(
            "rafle.MatchResult(a={:?}, b={:?}, wins={}, draws={}, losses={}, score={:.3}, elo={:.1})",
            self.a, self.b, self.wins, self.draws, self.losses, self.score, self.elo
        )
    }

    fn __str__(&self) -> String {
        self.table.clone()
    }
}

fn side_stats<'py>(
    py: Python<'py>,
    e: &Effort,
    net: &Option<EvalStats>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("moves", e.moves)?;
    d.set_item("nodes", e.nodes)?;
    d.set_item(
        "ms_per_move",
        if e.moves > 0 {
            1e3 * e.seconds / e.moves as f64
        } else {
            0.0
        },
    )?;
    if let Some(s) = net {
        d.set_item("evals", s.evals)?;
        d.set_item("calls", s.calls)?;
        d.set_item("avg_batch", s.avg_batch())?;
        d.set_item("evals_per_s", s.evals_per_second())?;
    }
    Ok(d)
}

/// Opening lines: a path to a file of them, or a list of lines.
fn openings(
    v: rafle_core::Variant,
    x: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Vec<rafle_core::Move>>> {
    let Some(x) = x else { return Ok(Vec::new()) };
    let text = if let Ok(lines) = x.extract::<Vec<String>>() {
        lines.join("\n")
    } else if let Ok(path) = x.extract::<PathBuf>() {
        std::fs::read_to_string(&path)
            .map_err(|e| PyOSError::new_err(format!("cannot read {}: {e}", path.display())))?
    } else {
        return Err(value_error(
            "openings must be a file path or a list of move lines",
        ));
    };
    parse_openings(v, &text).map_err(|e| value_error(format!("openings: {e}")))
}

/// Plays a match of `a` against `b` (see the Python docs of rafle.evaluate).
#[pyfunction]
#[pyo3(signature = (a, b, *, variant, games = 100, seed = 0, openings = None, opening_plies = 4,
    max_plies = 400, pdn = None, sprt = None, threads = None, progress = true, max_forfeits = 5,
    egtb = None, adjudicate = false))]
#[allow(clippy::too_many_arguments)]
pub fn evaluate(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    variant: &str,
    games: i64,
    seed: u64,
    openings: Option<&Bound<'_, PyAny>>,
    opening_plies: i64,
    max_plies: i64,
    pdn: Option<PathBuf>,
    sprt: Option<Vec<f64>>,
    threads: Option<i64>,
    progress: bool,
    max_forfeits: i64,
    egtb: Option<&Bound<'_, PyAny>>,
    adjudicate: bool,
) -> PyResult<MatchResult> {
    let v = parse_variant(variant)?;
    let tables = crate::tablebase::Tablebase::from_arg(v, egtb)?;
    if adjudicate && tables.is_none() {
        return Err(value_error(
            "adjudicate=True needs egtb= (the tables that adjudicate)",
        ));
    }
    let players = rafle_search::PlayerOptions {
        egtb: tables.clone(),
    };
    let games: usize = count("games", games)?;
    let opening_plies: usize = count("opening_plies", opening_plies)?;
    let max_plies: usize = count("max_plies", max_plies)?;
    let threads: Option<usize> = count_opt("threads", threads)?;
    let max_forfeits: usize = count("max_forfeits", max_forfeits)?;
    if games == 0 {
        return Err(value_error("games must be at least 1"));
    }
    if max_plies == 0 {
        return Err(value_error("max_plies must be at least 1"));
    }
    if threads == Some(0) {
        return Err(value_error("threads must be at least 1"));
    }
    let sprt = match sprt.as_deref() {
        None => None,
        Some(&[e0, e1]) => Some(Sprt::new(e0, e1, 0.05, 0.05).map_err(value_error)?),
        Some(&[e0, e1, alpha, beta]) => Some(Sprt::new(e0, e1, alpha, beta).map_err(value_error)?),
        Some(_) => {
            return Err(value_error(
                "sprt must be (elo0, elo1) or (elo0, elo1, alpha, beta)",
            ))
        }
    };
    let (mut slots, mut engines) = (Vec::new(), Vec::new());
    let side_a = side_of(a, v, &mut slots, &mut engines, &players)?;
    let side_b = side_of(b, v, &mut slots, &mut engines, &players)?;
    if max_forfeits == 0 {
        return Err(value_error("max_forfeits must be at least 1"));
    }
    // One engine process or connection per game in flight.
    let threads = match engines.iter().map(|(_, n)| *n).min() {
        Some(n) => Some(threads.unwrap_or(usize::MAX).min(n)),
        None => threads,
    };
    let flags: Vec<_> = engines.into_iter().map(|(f, _)| f).collect();
    let mut cfg = ArenaConfig {
        games,
        seed,
        opening_plies,
        max_plies,
        threads,
        sprt,
        progress,
        openings: self::openings(v, openings)?,
        stop: None,
        max_forfeits,
        egtb: tables,
        adjudicate,
        watcher: None,
    };
    let result = interruptible_also(py, &flags, |stop| {
        cfg.stop = Some(stop.clone());
        rafle_arena::play_match(v, &side_a, &side_b, &cfg)
    })?;
    let m = result.map_err(|e| raise(&slots.iter().collect::<Vec<_>>(), e))?;
    let text = pdn::write_games(&m.games, "rafle.evaluate");
    if let Some(path) = &pdn {
        rafle_core::atomic::write(path, text.as_bytes())
            .map_err(|e| PyOSError::new_err(format!("cannot write {}: {e}", path.display())))?;
    }
    let e = m.wdl.elo();
    let pe = m.penta.elo();
    let p = m.penta.0;
    Ok(MatchResult {
        variant: v.name().to_string(),
        a: m.a.clone(),
        b: m.b.clone(),
        games: m.wdl.games(),
        wins: m.wdl.wins,
        draws: m.wdl.draws,
        losses: m.wdl.losses,
        score: m.wdl.score(),
        elo: e.elo,
        elo_ci: (e.lo, e.hi),
        pentanomial: (p[0], p[1], p[2], p[3], p[4]),
        pair_elo: pe.elo,
        pair_elo_ci: (pe.lo, pe.hi),
        sprt: m.sprt.map(|(d, llr)| {
            let d = match d {
                SprtDecision::AcceptH1 => "H1",
                SprtDecision::AcceptH0 => "H0",
                SprtDecision::Continue => "continue",
            };
            (d.to_string(), llr)
        }),
        pdn: text,
        a_stats: side_stats(py, &m.a_effort, &m.a_network)?.unbind(),
        b_stats: side_stats(py, &m.b_effort, &m.b_network)?.unbind(),
        seconds: m.seconds,
        table: report::match_table(&m),
    })
}
