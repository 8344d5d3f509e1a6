//! Calibrating a ladder: the rungs play their neighbours (and, with fewer
//! games, their next-but-one neighbours, which ties the chain together and
//! narrows the intervals), and one Elo per rung is fitted over all games
//! ([`super::fit::fit_pool`], `random` = 0). With a gap target
//! ([`CalibrateConfig::max_gap`]), the widest gap between neighbours then
//! gets more games until every gap's interval is within it.

use super::fit::{fit_pool, Score};
use super::{Ladder, Pairing, Rung, PRIOR_DRAWS};
use crate::play::{play_match, ArenaConfig, Effort, MatchResult, Side};
use rafle_core::rng::Rng;
use rafle_core::Variant;
use rafle_search::network::EvalError;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// What to calibrate and how.
#[derive(Clone, Debug)]
pub struct CalibrateConfig {
    /// Player specs, weakest first (the fit reorders them if need be).
    pub specs: Vec<String>,
    /// Games between neighbours.
    pub games: usize,
    /// Games between next-but-one neighbours (0: none).
    pub next_games: usize,
    /// The widest 95% half-interval of a gap between neighbours (Elo) the
    /// calibration accepts: after the schedule, the widest gap plays
    /// `games` more games at a time until all are within it (at most
    /// [`MAX_EXTRA_MATCHES`] such matches). None: the schedule only.
    pub max_gap: Option<f64>,
    /// An earlier ladder of the variant whose matches stand in for the
    /// scheduled ones they cover ([`CalibrateConfig::reused`]), so a ladder
    /// grows by new rungs, or a stopped calibration goes on, without
    /// replaying what it has; rungs that only played such matches keep
    /// their time per move from it.
    pub reuse: Option<Ladder>,
    pub seed: u64,
    pub opening_plies: usize,
    pub max_plies: usize,
    pub threads: Option<usize>,
    /// A progress bar per match on stderr.
    pub progress: bool,
    pub stop: Option<Arc<AtomicBool>>,
}

/// Extra matches a gap target may add to the schedule.
pub const MAX_EXTRA_MATCHES: usize = 12;

impl CalibrateConfig {
    /// The result of the earlier ladder's match between rungs `a` and `b`
    /// (a's view) that stands in for `games` scheduled games: the two met
    /// there with their pairs recorded, at least that many games, under
    /// the same arena settings (openings, ply cap).
    pub fn reused(&self, a: usize, b: usize, games: usize) -> Option<Score> {
        let l = self.reuse.as_ref()?;
        if (l.opening_plies, l.max_plies) != (self.opening_plies, self.max_plies) {
            return None;
        }
        let (sa, sb) = (&self.specs[a], &self.specs[b]);
        l.matches.iter().find_map(|p| {
            let s = p.score();
            let s = match (&p.a == sa && &p.b == sb, &p.a == sb && &p.b == sa) {
                (true, _) => s,
                (_, true) => Score {
                    wdl: s.wdl.flipped(),
                    pairs: s.pairs.flipped(),
                },
                _ => return None,
            };
            (s.paired() && s.wdl.games() as usize >= games).then_some(s)
        })
    }

    /// The matches to play, (stronger, weaker, games), in playing order.
    pub fn schedule(&self) -> Vec<(usize, usize, usize)> {
        let n = self.specs.len();
        let mut out: Vec<(usize, usize, usize)> = (1..n).map(|i| (i, i - 1, self.games)).collect();
        if self.next_games > 0 {
            out.extend((2..n).map(|i| (i, i - 2, self.next_games)));
        }
        out
    }
}

/// The games of a calibration so far, and each rung's share of them.
struct Played {
    results: Vec<(usize, usize, Score)>,
    effort: Vec<Effort>,
    games: Vec<u32>,
}

impl Played {
    fn add(&mut self, a: usize, b: usize, m: &MatchResult) {
        let score = Score {
            wdl: m.wdl,
            pairs: m.penta,
        };
        self.push(a, b, score);
        for (i, e) in [(a, &m.a_effort), (b, &m.b_effort)] {
            self.effort[i].moves += e.moves;
            self.effort[i].seconds += e.seconds;
        }
    }

    /// A result without its thinking time (a reused match).
    fn push(&mut self, a: usize, b: usize, score: Score) {
        self.results.push((a, b, score));
        self.games[a] += score.wdl.games();
        self.games[b] += score.wdl.games();
    }
}

/// Plays the schedule and fits the ladder; `on_match` sees every match as
/// it ends. Date and commit are left empty for the caller. Errors: fewer
/// than two rungs, a spec that is not a player, no games, a stopped match.
pub fn calibrate(
    variant: Variant,
    cfg: &CalibrateConfig,
    on_match: &mut dyn FnMut(&MatchResult),
) -> Result<Ladder, EvalError> {
    let fail = |s: String| EvalError::Failed(s);
    let n = cfg.specs.len();
    if n < 2 {
        return Err(fail("a ladder needs at least two rungs".into()));
    }
    if cfg.games == 0 {
        return Err(fail("games between neighbours must be at least 1".into()));
    }
    let sides: Vec<Side> = cfg
        .specs
        .iter()
        .map(|s| rafle_search::parse_player(s, variant).map(Side::Player))
        .collect::<Result<_, _>>()
        .map_err(|e| fail(e.to_string()))?;
    let start = std::time::Instant::now();
    let mut played = Played {
        results: Vec::new(),
        effort: vec![Effort::default(); n],
        games: vec![0u32; n],
    };
    let mut play = |played: &mut Played, k: usize, a: usize, b: usize, g: usize| {
        let arena = ArenaConfig {
            games: g,
            seed: Rng::stream(cfg.seed, k as u64).next_u64(),
            opening_plies: cfg.opening_plies,
            max_plies: cfg.max_plies,
            threads: cfg.threads,
            progress: cfg.progress,
            stop: cfg.stop.clone(),
            ..ArenaConfig::default()
        };
        let m = play_match(variant, &sides[a], &sides[b], &arena)?;
        on_match(&m);
        played.add(a, b, &m);
        Ok::<(), EvalError>(())
    };
    let schedule = cfg.schedule();
    let mut kept_any = false;
    for (k, &(a, b, g)) in schedule.iter().enumerate() {
        match cfg.reused(a, b, g) {
            Some(score) => {
                played.push(a, b, score);
                kept_any = true;
            }
            None => play(&mut played, k, a, b, g)?,
        }
    }
    // A ladder grown by --reuse took the earlier file's time and this one's
    // (an upper bound where some earlier matches were played again).
    let kept_seconds = match (kept_any, &cfg.reuse) {
        (true, Some(l)) => l.seconds,
        _ => 0.0,
    };
    let anchor = cfg.specs.iter().position(|s| s == "random").unwrap_or(0);
    let mut fit = fit_pool(n, &played.results, anchor, PRIOR_DRAWS).map_err(fail)?;
    if let Some(max_gap) = cfg.max_gap {
        for extra in 0..MAX_EXTRA_MATCHES {
            let Some((lo, hi)) = widest_gap(&fit, max_gap) else {
                break;
            };
            play(&mut played, schedule.len() + extra, hi, lo, cfg.games)?;
            fit = fit_pool(n, &played.results, anchor, PRIOR_DRAWS).map_err(fail)?;
        }
    }
    let Played {
        results,
        effort,
        games,
    } = played;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| fit.elo[x].total_cmp(&fit.elo[y]));
    let rungs = order
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let (lo, hi) = fit.interval(i);
            Rung {
                spec: cfg.specs[i].clone(),
                elo: round1(fit.elo[i]),
                lo: round1(lo),
                hi: round1(hi),
                sd: round1(fit.sd[i]),
                gap_sd: if k == 0 {
                    0.0
                } else {
                    round1(fit.gap_sd(order[k - 1], i))
                },
                games: games[i],
                ms_per_move: if effort[i].moves > 0 {
                    (1e5 * effort[i].seconds / effort[i].moves as f64).round() / 100.0
                } else {
                    earlier_ms(cfg, i)
                },
            }
        })
        .collect();
    Ok(Ladder {
        variant: variant.name().to_string(),
        date: String::new(),
        commit: String::new(),
        opening_plies: cfg.opening_plies,
        max_plies: cfg.max_plies,
        seed: cfg.seed,
        prior_draws: PRIOR_DRAWS,
        seconds: round1(kept_seconds + start.elapsed().as_secs_f64()),
        threads: cfg.threads.unwrap_or_else(rayon::current_num_threads),
        eval: match cfg.specs.iter().any(|s| super::plays_zoo_eval(s)) {
            true => rafle_search::learned::zoo_fingerprint(variant).unwrap_or_default(),
            false => String::new(),
        },
        rungs,
        matches: results
            .iter()
            .map(|&(a, b, r)| Pairing {
                a: cfg.specs[a].clone(),
                b: cfg.specs[b].clone(),
                wins: r.wdl.wins,
                draws: r.wdl.draws,
                losses: r.wdl.losses,
                pairs: r.pairs.0,
            })
            .collect(),
    })
}

/// The neighbours (in fitted order, weaker first) whose gap has the widest
/// 95% half-interval, if it is wider than `max_gap`.
fn widest_gap(fit: &super::fit::PoolFit, max_gap: f64) -> Option<(usize, usize)> {
    let mut order: Vec<usize> = (0..fit.elo.len()).collect();
    order.sort_by(|&x, &y| fit.elo[x].total_cmp(&fit.elo[y]));
    order
        .windows(2)
        .map(|w| (w[0], w[1], crate::elo::Z95 * fit.gap_sd(w[0], w[1])))
        .filter(|g| g.2 > max_gap)
        .max_by(|x, y| x.2.total_cmp(&y.2))
        .map(|(lo, hi, _)| (lo, hi))
}

/// Rung `i`'s time per move in the reused ladder (0 if it is not there).
fn earlier_ms(cfg: &CalibrateConfig, i: usize) -> f64 {
    cfg.reuse
        .as_ref()
        .and_then(|l| l.rungs.iter().find(|r| r.spec == cfg.specs[i]))
        .map_or(0.0, |r| r.ms_per_move)
}

/// One decimal is all a file of Elo figures needs.
fn round1(x: f64) -> f64 {
    (10.0 * x).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elo::Z95;

    /// A tiny calibration: random < uct:16 < alphabeta:2 on checkers, the
    /// file round-trips, and the errors say what is wrong.
    #[test]
    fn a_small_ladder_rises_and_bad_input_is_an_error() {
        let v = Variant::Checkers;
        let mut cfg = CalibrateConfig {
            specs: ["random", "uct:16", "alphabeta:2"]
                .map(String::from)
                .to_vec(),
            games: 16,
            next_games: 8,
            max_gap: None,
            reuse: None,
            seed: 3,
            opening_plies: 4,
            max_plies: 200,
            threads: Some(2),
            progress: false,
            stop: None,
        };
        assert_eq!(cfg.schedule(), vec![(1, 0, 16), (2, 1, 16), (2, 0, 8)]);
        let mut seen = 0;
        let l = calibrate(v, &cfg, &mut |_| seen += 1).unwrap();
        assert_eq!(seen, 3);
        assert_eq!(l.rungs[0].spec, "random");
        assert_eq!(l.rungs[0].elo, 0.0);
        assert_eq!(l.rungs[2].spec, "alphabeta:2", "{l:?}");
        assert!(
            l.rungs[1].elo > 100.0 && l.rungs[2].elo > l.rungs[1].elo + 100.0,
            "{l:?}"
        );
        assert_eq!(l.rungs.iter().map(|r| r.games).sum::<u32>(), 2 * 40);
        let mut l = l;
        l.date = "2025-01-01".into();
        assert_eq!(Ladder::parse(v, &l.to_toml().unwrap()).unwrap(), l);
        // Every match kept its pairs; a gap target adds games to the widest
        // gap until each is within it (or the extra matches run out).
        assert!(l
            .matches
            .iter()
            .all(|p| 2 * p.pairs.iter().sum::<u32>() == p.wdl().games()));
        let widest = |l: &Ladder| l.rungs.iter().map(|r| Z95 * r.gap_sd).fold(0.0, f64::max);
        let target = 0.8 * widest(&l);
        cfg.max_gap = Some(target);
        let mut extra = 0;
        let narrowed = calibrate(v, &cfg, &mut |_| extra += 1).unwrap();
        extra -= 3;
        assert!(extra >= 1, "{extra}");
        assert!(
            widest(&narrowed) <= target || extra == MAX_EXTRA_MATCHES,
            "{narrowed:?}"
        );
        assert_eq!(narrowed.matches.len(), 3 + extra);
        cfg.max_gap = None;
        // Grown by a rung over the earlier ladder: only the new rung's
        // matches are played, the others' results are the same.
        cfg.specs.push("alphabeta:3".into());
        // (A day's calibration, so the grown one's time must hold it.)
        cfg.reuse = Some(Ladder {
            seconds: 86_400.0,
            ..l.clone()
        });
        assert_eq!(cfg.reused(2, 1, 16), Some(l.matches[1].score()));
        assert_eq!(
            cfg.reused(1, 2, 16).map(|s| s.wdl),
            Some(l.matches[1].wdl().flipped())
        );
        assert_eq!(cfg.reused(2, 1, 17), None);
        let mut new = 0;
        let grown = calibrate(v, &cfg, &mut |_| new += 1).unwrap();
        assert_eq!(new, 2);
        assert_eq!(grown.matches[..2], l.matches[..2]);
        assert_eq!(grown.rungs.len(), 4);
        // Its wall time holds the kept games' too.
        assert!(grown.seconds >= 86_400.0, "{}", grown.seconds);
        cfg.specs.pop();
        cfg.reuse = None;
        cfg.specs = vec!["random".into()];
        assert!(calibrate(v, &cfg, &mut |_| {})
            .unwrap_err()
            .to_string()
            .contains("two rungs"));
        cfg.specs = vec!["random".into(), "minimax:2".into()];
        assert!(calibrate(v, &cfg, &mut |_| {})
            .unwrap_err()
            .to_string()
            .contains("unknown player"));
    }
}
