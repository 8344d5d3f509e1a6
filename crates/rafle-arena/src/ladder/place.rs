//! Placing a player on a ladder: matches against the rungs nearest its
//! strength, then the maximum-likelihood Elo against their fixed ratings
//! ([`super::fit::fit_player`]).
//!
//! The games are played in rounds of about a fifth of the budget each
//! (whole colour-swapped pairs, the ladder's arena settings, each round its
//! own seed). The first round plays the middle hand-written rung; each
//! next one plays a rung bracketing the estimate so far: of the rung just
//! below it and the one just above, the one with fewer games (the nearer on
//! a tie). A score far from 50% moves the estimate (the prior keeps a sweep
//! finite) and the next round jumps there, so the rounds end up around the
//! rungs the player scores ~50% against, where a game says the most.

use super::fit::{fit_player, PlayerFit, Score};
use super::Ladder;
use crate::elo::{fmt_elo, Pentanomial, Wdl};
use crate::play::{play_match, ArenaConfig, Effort, Side};
use rafle_core::rng::Rng;
use rafle_core::Variant;
use rafle_search::network::EvalError;
use std::fmt::Write;

/// Rounds a placement is split into (fewer when the budget is small).
pub const ROUNDS: usize = 5;

/// The placed player's games against one rung.
#[derive(Clone, Debug, PartialEq)]
pub struct RungResult {
    /// Index in the ladder.
    pub rung: usize,
    pub spec: String,
    pub elo: f64,
    /// The player's W/D/L against it.
    pub wdl: Wdl,
    /// And its colour-swapped pairs (what the interval counts).
    pub pairs: Pentanomial,
}

/// Where a player stands on a ladder.
#[derive(Clone, Debug)]
pub struct Placement {
    pub variant: Variant,
    pub player: String,
    pub fit: PlayerFit,
    /// The rungs played, weakest first.
    pub rungs: Vec<RungResult>,
    /// The rung of each round, in order.
    pub rounds: Vec<usize>,
    /// The player's thinking over all games.
    pub effort: Effort,
    pub seconds: f64,
    /// The ladder's top rung and its Elo (for the verdict).
    top: (String, f64),
}

impl Placement {
    pub fn elo(&self) -> f64 {
        self.fit.elo
    }

    /// The 95% interval from the games (the ladder's Elos define the scale).
    pub fn interval(&self) -> (f64, f64) {
        self.fit.interval()
    }

    pub fn games(&self) -> u32 {
        self.rungs.iter().map(|r| r.wdl.games()).sum()
    }

    /// The contract line: `elo E [lo, hi]`.
    pub fn elo_line(&self) -> String {
        let (lo, hi) = self.interval();
        format!("elo {:.0} [{:.0}, {:.0}]", self.elo(), lo, hi)
    }

    /// The contract line and what it came from, for a trainer's log:
    /// `elo E [lo, hi]`-style, e.g. `ladder elo 1520 [1430, 1610] (placed by
    /// 64 games against alphabeta:3, alphabeta:4 in 41 s)`.
    pub fn summary(&self) -> String {
        let (lo, hi) = self.interval();
        let rungs: Vec<&str> = self.rungs.iter().map(|r| r.spec.as_str()).collect();
        format!(
            "ladder elo {:.0} [{lo:.0}, {hi:.0}] (placed by {} games against {} in {:.0} s)",
            self.elo(),
            self.games(),
            rungs.join(", "),
            self.seconds
        )
    }

    /// One line saying where the player stands and how far to trust it.
    pub fn verdict(&self) -> String {
        let e = self.elo();
        let (lo, hi) = self.interval();
        let (top, top_elo) = &self.top;
        let by_elo = |r: &&RungResult| r.elo;
        let below = self
            .rungs
            .iter()
            .filter(|r| r.elo <= e)
            .max_by(|a, b| by_elo(a).total_cmp(&by_elo(b)));
        let above = self
            .rungs
            .iter()
            .filter(|r| r.elo > e)
            .min_by(|a, b| by_elo(a).total_cmp(&by_elo(b)));
        let mut v = match (below, above) {
            (Some(b), Some(a)) => format!(
                "{} plays between {} ({:.0}) and {} ({:.0})",
                self.player, b.spec, b.elo, a.spec, a.elo
            ),
            (Some(b), None) if b.spec == *top && b.wdl.score() > 0.75 => format!(
                "{} is above the top rung {top} ({top_elo:.0}, scoring {:.0}% against it): \
                 the Elo is an extrapolation, a lower bound is safer",
                self.player,
                100.0 * b.wdl.score()
            ),
            (Some(b), None) => format!(
                "{} plays at or above {} ({:.0})",
                self.player, b.spec, b.elo
            ),
            (None, Some(a)) if a.rung == 0 && a.wdl.score() < 0.25 => format!(
                "{} is weaker than {} (scoring {:.0}% against it): below the scale",
                self.player,
                a.spec,
                100.0 * a.wdl.score()
            ),
            (None, Some(a)) => format!(
                "{} plays at or below {} ({:.0})",
                self.player, a.spec, a.elo
            ),
            (None, None) => format!("{} has no games", self.player),
        };
        let half = (hi - lo) / 2.0;
        if half > 100.0 {
            let _ = write!(v, "; the interval is +-{half:.0}: more games narrow it");
        }
        v
    }

    /// What `rafle ladder` prints: the games against each rung, the
    /// contract line, the split of the interval and the verdict.
    pub fn report(&self) -> String {
        let mut out = String::new();
        let w = self
            .rungs
            .iter()
            .map(|r| r.spec.len())
            .max()
            .unwrap_or(4)
            .max(4);
        let _ = writeln!(
            out,
            "{} on the {} ladder: {} games against {} rungs",
            self.player,
            self.variant,
            self.games(),
            self.rungs.len()
        );
        let _ = writeln!(
            out,
            "  {:<w$} {:>6} {:>5} {:>5} {:>5} {:>7} {:>8}",
            "rung", "Elo", "W", "D", "L", "score", "implied"
        );
        for r in &self.rungs {
            let e = r.wdl.elo();
            let implied = r.elo + crate::elo::finite_elo(e.score, r.wdl.games());
            let _ = writeln!(
                out,
                "  {:<w$} {:>6.0} {:>5} {:>5} {:>5} {:>6.1}% {:>8}",
                r.spec,
                r.elo,
                r.wdl.wins,
                r.wdl.draws,
                r.wdl.losses,
                100.0 * r.wdl.score(),
                fmt_elo(implied)
            );
        }
        if self.effort.moves > 0 {
            let _ = writeln!(
                out,
                "{}: {:.2} ms/move; wall time {:.1} s",
                self.player,
                1e3 * self.effort.seconds / self.effort.moves as f64,
                self.seconds
            );
        }
        let _ = writeln!(out, "{}", self.elo_line());
        let (alo, ahi) = self.fit.interval_absolute();
        let _ = writeln!(
            out,
            "interval from these games, the ladder's Elos fixed (reruns agree within it); \
             as Elo above random, with the rungs' own uncertainty (+-{:.0}): [{alo:.0}, {ahi:.0}]",
            crate::elo::Z95 * self.fit.sd_rungs
        );
        let _ = writeln!(out, "verdict: {}", self.verdict());
        out
    }
}

/// The rung to play next against a player estimated at `estimate`: of the
/// rungs just below and just above it, the one with fewer games so far.
fn next_rung(ladder: &Ladder, estimate: f64, games: &[u32]) -> usize {
    let n = ladder.rungs.len();
    let above = ladder.rungs.iter().position(|r| r.elo > estimate);
    let (lo, hi) = match above {
        None => return n - 1,
        Some(0) => return 0,
        Some(a) => (a - 1, a),
    };
    let d = |i: usize| (ladder.rungs[i].elo - estimate).abs();
    match games[lo].cmp(&games[hi]) {
        std::cmp::Ordering::Less => lo,
        std::cmp::Ordering::Greater => hi,
        std::cmp::Ordering::Equal if d(lo) <= d(hi) => lo,
        std::cmp::Ordering::Equal => hi,
    }
}

fn fit_of(ladder: &Ladder, results: &[Score]) -> Result<PlayerFit, String> {
    let rows: Vec<(f64, f64, Score)> = ladder
        .rungs
        .iter()
        .zip(results)
        .map(|(r, w)| (r.elo, r.sd, *w))
        .collect();
    fit_player(&rows, super::PRIOR_DRAWS)
}

/// Places `player` on `ladder` with about `games` games (whole pairs). The
/// arena settings come from the ladder (openings, ply cap); `base` gives
/// the threads, progress bar, stop flag and the player's endgame tables
/// (the rungs play as calibrated, without tables). Rounds are seeded from
/// `seed`, so a placement is reproducible.
pub fn place(
    variant: Variant,
    player: &Side,
    ladder: &Ladder,
    games: usize,
    seed: u64,
    base: &ArenaConfig,
) -> Result<Placement, EvalError> {
    place_near(variant, player, ladder, games, seed, base, None)
}

/// Rungs below the learned-evaluation ones (those sort on top).
fn hand_written(ladder: &Ladder) -> usize {
    ladder
        .rungs
        .iter()
        .filter(|r| !super::plays_zoo_eval(&r.spec))
        .count()
}

/// [`place`], the first round against the rung nearest `near` (an earlier
/// estimate of the player, e.g. a trainer's last placement) instead of the
/// middle rung, so a small budget is spent where the player is.
pub fn place_near(
    variant: Variant,
    player: &Side,
    ladder: &Ladder,
    games: usize,
    seed: u64,
    base: &ArenaConfig,
    near: Option<f64>,
) -> Result<Placement, EvalError> {
    if games == 0 {
        return Err(EvalError::Failed(
            "a placement needs at least one game".into(),
        ));
    }
    let sides = ladder.sides(variant).map_err(EvalError::Failed)?;
    let n = sides.len();
    let pairs = games.div_ceil(2);
    let per_round = pairs.div_ceil(ROUNDS).max(1);
    let mut results = vec![Score::default(); n];
    let mut played = vec![0u32; n];
    let mut rounds = Vec::new();
    let mut effort = Effort::default();
    let mut player_name = String::new();
    let start = std::time::Instant::now();
    let mut done = 0;
    let mut rung = match near {
        Some(e) if e.is_finite() => next_rung(ladder, e, &played),
        // The middle of the hand-written rungs: the learned-evaluation
        // rungs on top are for players stronger than all of them.
        _ => hand_written(ladder) / 2,
    };
    while done < pairs {
        let k = per_round.min(pairs - done);
        let cfg = ArenaConfig {
            games: 2 * k,
            seed: Rng::stream(seed, rounds.len() as u64).next_u64(),
            opening_plies: ladder.opening_plies,
            max_plies: ladder.max_plies,
            sprt: None,
            openings: Vec::new(),
            adjudicate: false,
            ..base.clone()
        };
        let m = play_match(variant, player, &sides[rung], &cfg)?;
        player_name.clone_from(&m.a);
        let r = &mut results[rung];
        *r = Score {
            wdl: r.wdl.plus(&m.wdl),
            pairs: r.pairs.plus(&m.penta),
        };
        played[rung] += m.wdl.games();
        effort.moves += m.a_effort.moves;
        effort.nodes += m.a_effort.nodes;
        effort.seconds += m.a_effort.seconds;
        rounds.push(rung);
        done += k;
        let fit = fit_of(ladder, &results).map_err(EvalError::Failed)?;
        rung = next_rung(ladder, fit.elo, &played);
    }
    let fit = fit_of(ladder, &results).map_err(EvalError::Failed)?;
    let top = ladder
        .rungs
        .last()
        .map(|r| (r.spec.clone(), r.elo))
        .unwrap_or_default();
    Ok(Placement {
        variant,
        player: player_name,
        fit,
        rungs: (0..n)
            .filter(|&i| played[i] > 0)
            .map(|i| RungResult {
                rung: i,
                spec: ladder.rungs[i].spec.clone(),
                elo: ladder.rungs[i].elo,
                wdl: results[i].wdl,
                pairs: results[i].pairs,
            })
            .collect(),
        rounds,
        effort,
        seconds: start.elapsed().as_secs_f64(),
        top,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ladder::Rung;

    fn ladder(elos: &[f64]) -> Ladder {
        Ladder {
            variant: "thai".into(),
            date: String::new(),
            commit: String::new(),
            opening_plies: 4,
            max_plies: 400,
            seed: 0,
            prior_draws: 2.0,
            seconds: 0.0,
            threads: 1,
            eval: String::new(),
            rungs: elos
                .iter()
                .map(|&elo| Rung {
                    spec: "random".into(),
                    elo,
                    lo: elo,
                    hi: elo,
                    sd: 0.0,
                    gap_sd: 0.0,
                    games: 0,
                    ms_per_move: 0.0,
                })
                .collect(),
            matches: vec![],
        }
    }

    #[test]
    fn a_placement_near_an_estimate_starts_at_its_rung() {
        let v = Variant::Thai;
        let l = Ladder::builtin(v).unwrap();
        let player = Side::Player(rafle_search::parse_player("greedy", v).unwrap());
        let base = ArenaConfig {
            threads: Some(1),
            ..ArenaConfig::default()
        };
        for k in [1, 3] {
            let p = place_near(v, &player, &l, 2, 0, &base, Some(l.rungs[k].elo)).unwrap();
            assert_eq!(p.rounds, [k], "{}", l.rungs[k].spec);
        }
        let p = place(v, &player, &l, 2, 0, &base).unwrap();
        assert_eq!(p.rounds, [hand_written(&l) / 2]);
        assert!(
            hand_written(&l) < l.rungs.len(),
            "thai's ladder has learned rungs"
        );
        let line = p.summary();
        assert!(
            line.starts_with("ladder elo ") && line.contains("placed by 2 games against"),
            "{line}"
        );
    }

    #[test]
    fn the_next_rung_brackets_the_estimate() {
        let l = ladder(&[0.0, 300.0, 500.0, 700.0]);
        assert_eq!(next_rung(&l, -50.0, &[0; 4]), 0);
        assert_eq!(next_rung(&l, 900.0, &[0; 4]), 3);
        // Between 300 and 500: the nearer first, then the one with fewer games.
        assert_eq!(next_rung(&l, 350.0, &[0; 4]), 1);
        assert_eq!(next_rung(&l, 450.0, &[0; 4]), 2);
        assert_eq!(next_rung(&l, 350.0, &[0, 40, 0, 0]), 2);
        assert_eq!(next_rung(&l, 450.0, &[0, 0, 40, 0]), 1);
    }
}
