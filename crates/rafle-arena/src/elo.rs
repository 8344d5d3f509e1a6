//! Elo from match results, a 95% interval, the SPRT stop rule and round-robin
//! ratings.
//!
//! Scores count a win 1, a draw 1/2. The logistic Elo of a score `s` is
//! `-400 log10(1/s - 1)`. The interval takes the per-game variance of the
//! score from the W/D/L counts (trinomial), so `s +- 1.96 sd/sqrt(N)`, mapped
//! to Elo; a clean sweep (no variance) gets the exact binomial bound instead,
//! `0.025^(1/N)`, so 10 wins in 10 games give Elo >= +140.2. The SPRT is the generalised SPRT of fishtest / cutechess in its
//! normal approximation:
//!
//! ```text
//! s0, s1 = expected scores at elo0, elo1
//! LLR    = N (s1 - s0) (2 mean - s0 - s1) / (2 var)
//! stop with H1 (elo >= elo1) when LLR >= ln((1 - beta) / alpha)
//! stop with H0 (elo <= elo0) when LLR <= ln(beta / (1 - alpha))
//! ```
//!
//! Like fishtest, each count is at least 1e-3 so that a one-sided sample has
//! a positive variance.
//!
//! Arena games come in colour-swapped pairs from one opening, whose two
//! results are correlated; as fishtest does, the arena's SPRT and its second
//! interval use the pentanomial view ([`Pentanomial`]: how many pairs scored
//! 0, 1/2, 1, 3/2, 2 points), the same formulas with a pair as the sample.

/// 1.96: the two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Expected score of a player `elo` points stronger.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference that gives the expected score `s` (+-inf at 1 and 0).
pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// A finite Elo for a score over `games` games: a sweep counts as half a
/// game short of it (for tables and curves, where +-inf says nothing).
pub fn finite_elo(score: f64, games: u32) -> f64 {
    let n = games.max(1) as f64;
    elo_of_score(score.clamp(0.5 / n, 1.0 - 0.5 / n))
}

/// Wins, draws and losses of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The other side's view.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// Both sets of games together.
    pub fn plus(&self, o: &Wdl) -> Wdl {
        Wdl {
            wins: self.wins + o.wins,
            draws: self.draws + o.draws,
            losses: self.losses + o.losses,
        }
    }

    /// Points (win 1, draw 1/2).
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Mean score (0.5 with no games).
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => self.points() / n as f64,
        }
    }

    /// Per-game variance of the score.
    pub fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n
    }

    /// Elo difference with its 95% interval.
    pub fn elo(&self) -> EloEstimate {
        let s = self.score();
        let n = self.games().max(1) as f64;
        let (lo, hi) = if self.games() > 0 && self.wins == self.games() {
            // A clean sweep has no sample variance: take the exact
            // (Clopper-Pearson) bound, p^N = 2.5% for N wins out of N.
            (0.025f64.powf(1.0 / n), 1.0)
        } else if self.games() > 0 && self.losses == self.games() {
            (0.0, 1.0 - 0.025f64.powf(1.0 / n))
        } else {
            let half = Z95 * (self.variance() / n).sqrt();
            (s - half, s + half)
        };
        EloEstimate {
            score: s,
            elo: elo_of_score(s),
            lo: elo_of_score(lo),
            hi: elo_of_score(hi),
        }
    }
}

/// Counts of colour-swapped game pairs by A's points in the pair: index k
/// holds the pairs where A scored k/2 points (0, 1/2, 1, 3/2, 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Adds a pair from A's two results.
    pub fn add_pair(&mut self, first: &Wdl, second: &Wdl) {
        let half_points = 2 * (first.wins + second.wins) + first.draws + second.draws;
        self.0[(half_points as usize).min(4)] += 1;
    }

    /// Both sets of pairs together.
    pub fn plus(&self, o: &Pentanomial) -> Pentanomial {
        Pentanomial(std::array::from_fn(|k| self.0[k] + o.0[k]))
    }

    /// The other side's view.
    pub fn flipped(&self) -> Pentanomial {
        let mut c = self.0;
        c.reverse();
        Pentanomial(c)
    }

    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// Mean and variance of the per-pair score (points / 2), from the
    /// counts floored at `floor` (0 for the plain sample statistics).
    fn moments(&self, floor: f64) -> (f64, f64, f64) {
        let c = self.0.map(|x| (x as f64).max(floor));
        let n: f64 = c.iter().sum();
        if n == 0.0 {
            return (0.0, 0.5, 0.0);
        }
        let x = |k: usize| k as f64 / 4.0;
        let mean = (0..5).map(|k| c[k] * x(k)).sum::<f64>() / n;
        let var = (0..5).map(|k| c[k] * (x(k) - mean).powi(2)).sum::<f64>() / n;
        (n, mean, var)
    }

    /// Elo difference with its 95% interval, pairs as samples (a clean
    /// sweep or whitewash falls back to the per-game exact bound).
    pub fn elo(&self) -> EloEstimate {
        let (n, mean, var) = self.moments(0.0);
        if var == 0.0 && (mean == 1.0 || mean == 0.0) {
            let games = 2 * self.pairs();
            let w = if mean == 1.0 { games } else { 0 };
            return Wdl {
                wins: w,
                draws: 0,
                losses: games - w,
            }
            .elo();
        }
        let half = Z95 * (var / n.max(1.0)).sqrt();
        EloEstimate {
            score: mean,
            elo: elo_of_score(mean),
            lo: elo_of_score(mean - half),
            hi: elo_of_score(mean + half),
        }
    }
}

/// An Elo difference and its 95% interval [lo, hi].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub score: f64,
    pub elo: f64,
    pub lo: f64,
    pub hi: f64,
}

/// `+147.2`, `+inf`, `-inf`.
pub fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else if e.abs() < 0.05 {
        "+0.0".into() // not "-0.0"
    } else {
        format!("{e:+.1}")
    }
}

impl std::fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} [{}, {}]",
            fmt_elo(self.elo),
            fmt_elo(self.lo),
            fmt_elo(self.hi)
        )
    }
}

/// SPRT parameters: H0 elo <= elo0 against H1 elo >= elo1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// False positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// elo <= elo0: the first player is not better by elo1.
    AcceptH0,
    /// elo >= elo1.
    AcceptH1,
    Continue,
}

impl Sprt {
    /// The test of H0 elo <= `elo0` against H1 elo >= `elo1`; the error says
    /// which value is out of range.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if !elo0.is_finite() || !elo1.is_finite() || elo1 <= elo0 {
            return Err(format!(
                "sprt: elo1 ({elo1}) must be a finite number greater than elo0 ({elo0})"
            ));
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("sprt: {name} {p} must be in (0, 0.5)"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// (lower, upper) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio of H1 against H0 for the first player's results.
    pub fn llr(&self, r: &Wdl) -> f64 {
        let counts = [r.wins as f64, r.draws as f64, r.losses as f64].map(|c| c.max(1e-3));
        let n: f64 = counts.iter().sum();
        let mean = (counts[0] + 0.5 * counts[1]) / n;
        let var = (counts[0] * (1.0 - mean).powi(2)
            + counts[1] * (0.5 - mean).powi(2)
            + counts[2] * mean.powi(2))
            / n;
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The same ratio with game pairs as samples.
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        let (n, mean, var) = p.moments(1e-3);
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The decision for the first player's game results (trinomial).
    pub fn decide(&self, r: &Wdl) -> SprtDecision {
        self.decide_llr(self.llr(r))
    }

    /// The decision for a log-likelihood ratio.
    pub fn decide_llr(&self, llr: f64) -> SprtDecision {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtDecision::AcceptH1
        } else if llr <= lo {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

/// Ratings of `n` players from pairwise results `(i, j, wdl of i against j)`,
/// in Elo, with player `anchor` at 0: the maximum-likelihood fit of
/// [`crate::ladder::fit::fit_pool`] with one virtual draw added to every
/// pair that met, so a 100% score gives a large finite rating rather than
/// infinity (the prior BayesElo uses). Results of a player against itself
/// are ignored; a pool whose games do not link every player to the anchor
/// gets 0 for everyone.
pub fn ratings(n: usize, results: &[(usize, usize, Wdl)], anchor: usize) -> Vec<f64> {
    let kept: Vec<(usize, usize, crate::ladder::fit::Score)> = results
        .iter()
        .filter(|&&(i, j, r)| i != j && r.games() > 0)
        .map(|&(i, j, r)| (i, j, r.into()))
        .collect();
    crate::ladder::fit::fit_pool(n, &kept, anchor.min(n.saturating_sub(1)), 1.0)
        .map(|f| f.elo)
        .unwrap_or_else(|_| vec![0.0; n])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wdl(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn finite_elo_pulls_a_sweep_in_by_half_a_game() {
        // 200 of 200 counts as 199.5/200: Elo(0.9975) = 400 log10(399) = 1040.4.
        assert!((finite_elo(1.0, 200) - 1040.4).abs() < 0.05);
        assert!((finite_elo(0.0, 200) + 1040.4).abs() < 0.05);
        assert!((finite_elo(0.7, 100) - elo_of_score(0.7)).abs() < 1e-12);
        assert!(finite_elo(1.0, 0).is_finite());
    }

    #[test]
    fn elo_and_interval_match_hand_computation() {
        // 60 wins, 20 draws, 20 losses: s = 0.7, per-game variance
        // (60*0.3^2 + 20*0.2^2 + 20*0.7^2)/100 = 0.16, sd of the mean 0.04,
        // interval s = 0.7 +- 0.0784: Elo(0.7) = 400 log10(7/3) = 147.19,
        // Elo(0.6216) = 86.23, Elo(0.7784) = 218.25.
        let e = wdl(60, 20, 20).elo();
        assert!((e.score - 0.7).abs() < 1e-12);
        assert!((e.elo - 147.19).abs() < 0.01, "{e:?}");
        assert!((e.lo - 86.23).abs() < 0.05, "{e:?}");
        assert!((e.hi - 218.25).abs() < 0.05, "{e:?}");
        // Even: 0 Elo, symmetric interval.
        let e = wdl(10, 10, 10).elo();
        assert!(e.elo.abs() < 1e-9 && (e.lo + e.hi).abs() < 1e-9);
        assert!(e.to_string().starts_with("+0.0 ["), "{e}");
        // A clean sweep is +inf, bounded below by p^10 = 0.025:
        // p = 0.691503, Elo(p) = 140.22.
        let e = wdl(10, 0, 0).elo();
        assert!(e.elo.is_infinite() && e.elo > 0.0);
        assert_eq!(e.to_string(), "+inf [+140.2, +inf]");
        assert_eq!(wdl(0, 0, 10).elo().to_string(), "-inf [-inf, -140.2]");
    }

    #[test]
    fn sprt_llr_matches_hand_computation() {
        // elo0 = 0, elo1 = 10: s0 = 0.5, s1 = 1/(1+10^-0.025) = 0.514387.
        // 60/20/20: mean 0.7, var 0.16, N 100:
        // LLR = 100 * 0.014387 * (1.4 - 1.014387) / 0.32 = 1.73371.
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let llr = sprt.llr(&wdl(60, 20, 20));
        assert!((llr - 1.7337).abs() < 1e-3, "{llr}");
        let (lo, hi) = sprt.bounds();
        assert!((lo + 2.944_438_979).abs() < 1e-6 && (hi - 2.944_438_979).abs() < 1e-6);
        assert_eq!(sprt.decide(&wdl(60, 20, 20)), SprtDecision::Continue);
        assert_eq!(sprt.decide(&wdl(120, 40, 40)), SprtDecision::AcceptH1);
        assert_eq!(sprt.decide(&wdl(40, 40, 120)), SprtDecision::AcceptH0);
    }

    #[test]
    fn pentanomial_statistics_match_hand_computation() {
        // Pairs scoring 0, 1/2, 1, 3/2, 2 points: 1, 2, 3, 4, 10 times.
        // Per-pair scores 0, .25, .5, .75, 1: mean 15/20 = 0.75, variance
        // (1*.5625 + 2*.25 + 3*.0625 + 10*.0625)/20 = 0.09375;
        // interval 0.75 +- 1.96 sqrt(0.09375/20): Elo 190.85 [81.96, 353.12];
        // LLR(0, 10) = 20 * 0.0143872 * (1.5 - 1.0143872) / 0.1875 = 0.74524.
        let p = Pentanomial([1, 2, 3, 4, 10]);
        let e = p.elo();
        assert!(
            (e.elo - 190.85).abs() < 0.01
                && (e.lo - 81.96).abs() < 0.01
                && (e.hi - 353.12).abs() < 0.01,
            "{e:?}"
        );
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert!((sprt.llr_pentanomial(&p) - 0.74524).abs() < 1e-4);
        let mut q = Pentanomial::default();
        q.add_pair(&wdl(1, 0, 0), &wdl(0, 1, 0));
        q.add_pair(&wdl(0, 0, 1), &wdl(0, 0, 1));
        q.add_pair(&wdl(0, 1, 0), &wdl(0, 1, 0));
        assert_eq!(q, Pentanomial([1, 0, 1, 1, 0]));
        assert_eq!(
            Pentanomial([0, 0, 0, 0, 5]).elo().lo,
            wdl(10, 0, 0).elo().lo
        );
    }

    #[test]
    fn round_robin_ratings_recover_a_known_gap() {
        // B scores 75% against A, C 75% against B: +190.8 each step with a
        // nearly exact fit (the virtual draws pull slightly towards 0).
        let r = ratings(
            3,
            &[
                (1, 0, wdl(750, 0, 250)),
                (2, 1, wdl(750, 0, 250)),
                (2, 0, wdl(900, 0, 100)),
            ],
            0,
        );
        assert_eq!(r[0], 0.0);
        assert!((r[1] - 190.8).abs() < 10.0, "{r:?}");
        assert!((r[2] - 381.7).abs() < 10.0, "{r:?}");
        // A sweep stays finite.
        let r = ratings(2, &[(1, 0, wdl(20, 0, 0))], 0);
        assert!(r[1].is_finite() && r[1] > 300.0, "{r:?}");
    }
}
