//! Maximum-likelihood Elo: one rating per player of a pool, and one new
//! player against players of fixed rating.
//!
//! The model is Bradley-Terry on the Elo scale: a player `d` Elo stronger
//! scores `1 / (1 + 10^(-d/400))` on average, a draw counting half a win
//! for each side (as BayesElo and Ordo without a draw model do). The
//! log-likelihood of a pool is
//!
//! ```text
//! L(r) = sum over pairs (i, j) of  s_ij ln p_ij + (n_ij - s_ij) ln (1 - p_ij),
//! p_ij = 1 / (1 + exp(-(b_i - b_j))),  b = r ln 10 / 400,
//! ```
//!
//! `s_ij` the points of i against j in `n_ij` games. It is concave, and
//! Newton's method on it (the anchor's rating fixed at 0) converges in a
//! few steps. The 95% intervals come from the observed information (the
//! negated Hessian at the maximum): its inverse is the covariance of the
//! ratings relative to the anchor.
//!
//! A weak prior keeps a clean sweep finite: every pair that met gets
//! `prior_draws` virtual draws added to its games (BayesElo's prior of
//! virtual draws). With hundreds of games per pair it moves a rating by
//! about a Elo point; with a sweep it is what keeps the rating finite.
//!
//! Intervals count pairs, not games. The two games of a colour-swapped
//! pair share their opening, so they are not independent: an opening good
//! for White helps each player once (the results anti-correlate), an
//! opening that suits one player helps it twice (they correlate). Where a
//! pairing's games came in pairs ([`Score::pairs`], the pentanomial counts
//! fishtest uses), the covariance is the sandwich `H^-1 J H^-1`: `H` the
//! information above, `J` the observed spread of the pairs' points around
//! the model's expectation (each pair one independent sample). A pairing
//! known only by its W/D/L gets the model's own spread (`J = H` there), as
//! if every game were independent. The prior's virtual draws add to `H`,
//! and a quarter of them to each extreme of the pairs' counts, so a pairing
//! whose pairs all scored alike still has a spread.

use crate::elo::{Pentanomial, Wdl, Z95};

/// Natural-log units per Elo point.
const NAT: f64 = std::f64::consts::LN_10 / 400.0;

/// What the games between two players gave: W/D/L, and the results of
/// their colour-swapped pairs when they came in pairs (empty otherwise).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub wdl: Wdl,
    pub pairs: Pentanomial,
}

impl From<Wdl> for Score {
    /// Games known only by their W/D/L: treated as independent.
    fn from(wdl: Wdl) -> Score {
        Score {
            wdl,
            pairs: Pentanomial::default(),
        }
    }
}

impl Score {
    /// Whether every game is in one of the counted pairs.
    pub fn paired(&self) -> bool {
        self.pairs.pairs() > 0 && 2 * self.pairs.pairs() == self.wdl.games()
    }

    /// The variance of the points scored over all games, around `p` points
    /// a game (the model's expectation), with `prior` virtual draws: from
    /// the pairs when paired, else the model's `n p (1 - p)`.
    fn points_variance(&self, p: f64, prior: f64) -> f64 {
        if !self.paired() {
            return (self.wdl.games() as f64 + prior) * p * (1.0 - p);
        }
        let mut c = self.pairs.0.map(f64::from);
        c[0] += prior / 4.0;
        c[4] += prior / 4.0;
        let n: f64 = c.iter().sum();
        // A pair's points are k / 2 for the count at index k; expected 2p.
        let spread = (0..5)
            .map(|k| c[k] * (k as f64 / 2.0 - 2.0 * p).powi(2))
            .sum::<f64>()
            / n;
        f64::from(self.pairs.pairs()) * spread
    }
}

/// `Laplacian(w)` restricted to the `free` players: `w[i][j]` on the
/// diagonal of both, subtracted off it (the shape of the information of
/// pairwise comparisons).
fn laplacian(w: &[Vec<f64>], free: &[usize]) -> Vec<Vec<f64>> {
    let m = free.len();
    let mut h = vec![vec![0.0f64; m]; m];
    for (a, &i) in free.iter().enumerate() {
        for (j, wij) in w[i].iter().enumerate() {
            h[a][a] += wij;
            if let Some(c) = free.iter().position(|&f| f == j) {
                h[a][c] -= wij;
            }
        }
    }
    h
}

/// `A^-1 J A^-1` for a symmetric positive definite `a`; None if it is not.
fn sandwich(a: &[Vec<f64>], j: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let m = a.len();
    // Columns of A^-1, then A^-1 J, then (A^-1 J) A^-1 (A symmetric).
    let inv: Vec<Vec<f64>> = (0..m)
        .map(|k| {
            let mut e = vec![0.0f64; m];
            e[k] = 1.0;
            solve_spd(a, &e)
        })
        .collect::<Option<_>>()?;
    let aj: Vec<Vec<f64>> = (0..m)
        .map(|r| {
            (0..m)
                .map(|c| (0..m).map(|k| inv[k][r] * j[k][c]).sum())
                .collect()
        })
        .collect();
    Some(
        (0..m)
            .map(|r| {
                (0..m)
                    .map(|c| (0..m).map(|k| aj[r][k] * inv[c][k]).sum())
                    .collect()
            })
            .collect(),
    )
}

/// One rating per player, with its standard deviation relative to the
/// anchor, and the covariance of all of them (in Elo squared).
#[derive(Clone, Debug, PartialEq)]
pub struct PoolFit {
    pub elo: Vec<f64>,
    /// Standard deviation of each rating (0 for the anchor).
    pub sd: Vec<f64>,
    pub anchor: usize,
    /// Covariance of the ratings, Elo squared (the anchor's row is 0).
    pub cov: Vec<Vec<f64>>,
}

impl PoolFit {
    /// 95% interval of player `i`'s rating.
    pub fn interval(&self, i: usize) -> (f64, f64) {
        (
            self.elo[i] - Z95 * self.sd[i],
            self.elo[i] + Z95 * self.sd[i],
        )
    }

    /// Standard deviation of the difference `elo[j] - elo[i]`.
    pub fn gap_sd(&self, i: usize, j: usize) -> f64 {
        (self.cov[i][i] + self.cov[j][j] - 2.0 * self.cov[i][j])
            .max(0.0)
            .sqrt()
    }
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Solves `a x = b` for a symmetric positive definite `a` (Cholesky); None
/// if `a` is not positive definite.
fn solve_spd(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut l = vec![vec![0.0f64; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = a[i][j] - (0..j).map(|k| l[i][k] * l[j][k]).sum::<f64>();
            if i == j {
                if s.is_nan() || s <= 0.0 {
                    return None;
                }
                l[i][i] = s.sqrt();
            } else {
                l[i][j] = s / l[j][j];
            }
        }
    }
    let mut y = vec![0.0f64; n];
    for i in 0..n {
        y[i] = (b[i] - (0..i).map(|k| l[i][k] * y[k]).sum::<f64>()) / l[i][i];
    }
    let mut x = vec![0.0f64; n];
    for i in (0..n).rev() {
        x[i] = (y[i] - (i + 1..n).map(|k| l[k][i] * x[k]).sum::<f64>()) / l[i][i];
    }
    Some(x)
}

/// Fits one Elo per player of a pool of `n` from results `(i, j, what i
/// scored against j)`, player `anchor` at 0, with `prior_draws` virtual
/// draws added to every pair that met (see the module docs). Errors name
/// what is wrong: an index out of range, a player against itself, a player
/// not connected to the anchor by games.
pub fn fit_pool(
    n: usize,
    results: &[(usize, usize, Score)],
    anchor: usize,
    prior_draws: f64,
) -> Result<PoolFit, String> {
    if n == 0 {
        return Err("fit: the pool has no player".into());
    }
    if anchor >= n {
        return Err(format!("fit: anchor {anchor} is not one of {n} players"));
    }
    if !(prior_draws.is_finite() && prior_draws >= 0.0) {
        return Err(format!("fit: prior_draws {prior_draws} must be >= 0"));
    }
    let mut points = vec![vec![0.0f64; n]; n];
    let mut games = vec![vec![0.0f64; n]; n];
    // Every pairing's score as (i, j) with i < j, summed over its results.
    let mut scores = vec![vec![None::<Score>; n]; n];
    for &(i, j, r) in results {
        if i >= n || j >= n {
            return Err(format!("fit: result ({i}, {j}) names a player >= {n}"));
        }
        if i == j {
            return Err(format!("fit: player {i} cannot play itself"));
        }
        points[i][j] += r.wdl.points();
        points[j][i] += r.wdl.flipped().points();
        games[i][j] += r.wdl.games() as f64;
        games[j][i] += r.wdl.games() as f64;
        let (lo, hi, r) = if i < j {
            (i, j, r)
        } else {
            let flipped = Score {
                wdl: r.wdl.flipped(),
                pairs: r.pairs.flipped(),
            };
            (j, i, flipped)
        };
        let s = scores[lo][hi].get_or_insert_with(Score::default);
        *s = Score {
            wdl: s.wdl.plus(&r.wdl),
            pairs: s.pairs.plus(&r.pairs),
        };
    }
    for i in 0..n {
        for j in 0..n {
            if games[i][j] > 0.0 {
                points[i][j] += 0.5 * prior_draws;
                games[i][j] += prior_draws;
            }
        }
    }
    // Everyone must reach the anchor through games, else a rating is free.
    let mut seen = vec![false; n];
    let mut stack = vec![anchor];
    seen[anchor] = true;
    while let Some(i) = stack.pop() {
        for j in 0..n {
            if games[i][j] > 0.0 && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    if let Some(lost) = seen.iter().position(|s| !s) {
        return Err(format!(
            "fit: player {lost} has no games linking it to the anchor {anchor}"
        ));
    }
    // Without the prior a sweep has no maximum: it is required then.
    let free: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
    let m = free.len();
    let mut b = vec![0.0f64; n];
    let p = |b: &[f64], i: usize, j: usize| logistic(b[i] - b[j]);
    // Gradient and negated Hessian over the free players.
    let info = |b: &[f64]| -> (Vec<f64>, Vec<Vec<f64>>) {
        let g = free
            .iter()
            .map(|&i| {
                (0..n)
                    .filter(|&j| j != i && games[i][j] > 0.0)
                    .map(|j| points[i][j] - games[i][j] * p(b, i, j))
                    .sum()
            })
            .collect();
        let w: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| match i != j && games[i][j] > 0.0 {
                        true => games[i][j] * p(b, i, j) * (1.0 - p(b, i, j)),
                        false => 0.0,
                    })
                    .collect()
            })
            .collect();
        (g, laplacian(&w, &free))
    };
    let mut converged = m == 0;
    for _ in 0..200 {
        if m == 0 {
            break;
        }
        let (g, h) = info(&b);
        let Some(step) = solve_spd(&h, &g) else {
            return Err("fit: the ratings have no maximum (a sweep needs prior_draws > 0)".into());
        };
        // Damped: at most 400 Elo per step, so early steps cannot overshoot.
        let big = step.iter().fold(0.0f64, |a, s| a.max(s.abs())) / NAT;
        let scale = if big > 400.0 { 400.0 / big } else { 1.0 };
        for (k, &i) in free.iter().enumerate() {
            b[i] += scale * step[k];
        }
        if big * scale < 1e-9 {
            converged = true;
            break;
        }
    }
    if !converged {
        return Err("fit: the ratings did not converge (a sweep needs prior_draws > 0)".into());
    }
    let mut cov = vec![vec![0.0f64; n]; n];
    if m > 0 {
        let (_, h) = info(&b);
        // The observed spread of each pairing's points (the sandwich's J).
        let spread: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        let (lo, hi) = (i.min(j), i.max(j));
                        scores[lo][hi]
                            .map_or(0.0, |s| s.points_variance(p(&b, lo, hi), prior_draws))
                    })
                    .collect()
            })
            .collect();
        let c =
            sandwich(&h, &laplacian(&spread, &free)).ok_or("fit: singular information matrix")?;
        for (k, &fk) in free.iter().enumerate() {
            for (l, &fl) in free.iter().enumerate() {
                cov[fl][fk] = c[l][k] / (NAT * NAT);
            }
        }
    }
    let elo: Vec<f64> = b.iter().map(|x| x / NAT).collect();
    if elo.iter().any(|e| !e.is_finite()) {
        return Err("fit: a rating is not finite".into());
    }
    let sd = (0..n).map(|i| cov[i][i].max(0.0).sqrt()).collect();
    Ok(PoolFit {
        elo,
        sd,
        anchor,
        cov,
    })
}

/// A player placed against opponents of fixed rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerFit {
    pub elo: f64,
    /// From the games, the opponents' ratings taken as they are: on a
    /// ladder they define the scale, so this is the spread of reruns and
    /// what tells two players placed on one ladder apart.
    pub sd_games: f64,
    /// How far the opponents' own ratings may be off, as Elo above the
    /// anchor: an upper bound, `sum_k w_k sd_k / sum_k w_k`, `w_k` the
    /// information of the games against opponent k (their ratings are
    /// correlated; this is the bound with full correlation). Common to
    /// every player placed on the same ladder.
    pub sd_rungs: f64,
}

impl PlayerFit {
    /// 95% interval from the games (the scale fixed).
    pub fn interval(&self) -> (f64, f64) {
        (
            self.elo - Z95 * self.sd_games,
            self.elo + Z95 * self.sd_games,
        )
    }

    /// 95% interval as Elo above the anchor, the scale's own uncertainty
    /// included.
    pub fn interval_absolute(&self) -> (f64, f64) {
        let sd = self.sd_games.hypot(self.sd_rungs);
        (self.elo - Z95 * sd, self.elo + Z95 * sd)
    }
}

/// The maximum-likelihood Elo of one player from its results against
/// opponents `(rating, its standard deviation, what the player scored)`,
/// with `prior_draws` virtual draws against each opponent played; the
/// spread of its games counts pairs where they came in pairs (module docs).
pub fn fit_player(results: &[(f64, f64, Score)], prior_draws: f64) -> Result<PlayerFit, String> {
    if !(prior_draws.is_finite() && prior_draws >= 0.0) {
        return Err(format!("fit: prior_draws {prior_draws} must be >= 0"));
    }
    if let Some((e, sd, _)) = results
        .iter()
        .find(|(e, sd, _)| !(e.is_finite() && sd.is_finite() && *sd >= 0.0))
    {
        return Err(format!("fit: opponent rating {e} +- {sd} is not valid"));
    }
    // (rating in nats, its sd, points and games with the prior, the score).
    let played: Vec<(f64, f64, f64, f64, Score)> = results
        .iter()
        .filter(|(_, _, r)| r.wdl.games() > 0)
        .map(|&(e, sd, r)| {
            (
                e * NAT,
                sd,
                r.wdl.points() + 0.5 * prior_draws,
                r.wdl.games() as f64 + prior_draws,
                r,
            )
        })
        .collect();
    if played.is_empty() {
        return Err("fit: the player has no games".into());
    }
    let (points, games): (f64, f64) = played
        .iter()
        .fold((0.0, 0.0), |(p, g), x| (p + x.2, g + x.3));
    if points <= 0.0 || points >= games {
        return Err("fit: a sweep has no maximum (it needs prior_draws > 0)".into());
    }
    let at = |x: f64| {
        played.iter().fold((0.0, 0.0), |(g, h), &(e, _, s, n, _)| {
            let p = logistic(x - e);
            (g + s - n * p, h + n * p * (1.0 - p))
        })
    };
    let mut x = played.iter().map(|p| p.0 * p.3).sum::<f64>() / games;
    for _ in 0..200 {
        let (g, h) = at(x);
        let step = (g / h).clamp(-400.0 * NAT, 400.0 * NAT);
        x += step;
        if step.abs() < 1e-12 {
            break;
        }
    }
    let (_, h) = at(x);
    let weights: Vec<f64> = played
        .iter()
        .map(|&(e, _, _, n, _)| {
            let p = logistic(x - e);
            n * p * (1.0 - p)
        })
        .collect();
    let sd_rungs = played
        .iter()
        .zip(&weights)
        .map(|(p, w)| w * p.1)
        .sum::<f64>()
        / h;
    let spread: f64 = played
        .iter()
        .map(|&(e, _, _, _, r)| r.points_variance(logistic(x - e), prior_draws))
        .sum();
    let fit = PlayerFit {
        elo: x / NAT,
        sd_games: spread.sqrt() / (h * NAT),
        sd_rungs,
    };
    if !(fit.elo.is_finite() && fit.sd_games.is_finite()) {
        return Err("fit: the rating is not finite".into());
    }
    Ok(fit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elo::score_of_elo;
    use rafle_core::rng::Rng;

    fn wdl(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// `games` games between players `a` and `b` Elo apart, drawn from the
    /// model with a draw rate of `draws` (wins and losses share the rest
    /// so that the expected score is the model's).
    fn simulate(rng: &mut Rng, diff: f64, games: u32, draws: f64) -> Wdl {
        let s = score_of_elo(diff);
        // P(win) + P(draw)/2 = s with P(draw) = d (clipped so P(win) >= 0).
        let d = draws.min(2.0 * s).min(2.0 * (1.0 - s));
        let win = s - d / 2.0;
        let mut r = Wdl::default();
        for _ in 0..games {
            let u = rng.unit_f64();
            if u < win {
                r.wins += 1;
            } else if u < win + d {
                r.draws += 1;
            } else {
                r.losses += 1;
            }
        }
        r
    }

    /// A ladder of known ratings, neighbours and next-but-one neighbours
    /// playing: each fitted rating lands inside its 95% interval in about
    /// 95% of the seeds, every gap too.
    #[test]
    fn a_synthetic_pool_is_recovered_within_its_intervals() {
        let truth = [0.0, 180.0, 330.0, 420.0, 600.0, 720.0, 900.0];
        let n = truth.len();
        let (mut inside, mut gaps_inside, mut total, mut gaps) = (0, 0, 0, 0);
        for seed in 0..40u64 {
            let mut rng = Rng::new(seed);
            let mut results = Vec::new();
            for i in 0..n {
                for (j, games) in [(i + 1, 300), (i + 2, 150)] {
                    if j < n {
                        let r = simulate(&mut rng, truth[j] - truth[i], games, 0.3);
                        results.push((j, i, r.into()));
                    }
                }
            }
            let fit = fit_pool(n, &results, 0, 2.0).unwrap();
            assert_eq!(fit.elo[0], 0.0);
            assert_eq!(fit.sd[0], 0.0);
            for i in 1..n {
                let (lo, hi) = fit.interval(i);
                total += 1;
                inside += usize::from(lo <= truth[i] && truth[i] <= hi);
                // A typical interval at 300 games a gap: +-20 to +-60.
                assert!(fit.sd[i] > 5.0 && fit.sd[i] < 40.0, "{fit:?}");
                let g = fit.elo[i] - fit.elo[i - 1];
                let half = Z95 * fit.gap_sd(i - 1, i);
                gaps += 1;
                gaps_inside += usize::from((g - (truth[i] - truth[i - 1])).abs() <= half);
            }
        }
        // 240 intervals of 95%: fewer than 216 inside (90%) would be a
        // broken interval (binomial sd ~3.4 intervals).
        assert!(inside >= 216, "{inside} of {total} ratings inside");
        assert!(gaps_inside >= 216, "{gaps_inside} of {gaps} gaps inside");
        // And not absurdly wide either: nearly always inside is a sign of
        // intervals too wide to be useful.
        assert!(inside < total || total < 100, "{inside} of {total}");
    }

    /// How the two games of a pair depend on each other in [`simulate_pairs`].
    #[derive(Clone, Copy)]
    enum PairLink {
        /// The pair's opening suits one player: both games shift its way.
        Suits,
        /// The opening favours White: the first game up, the second down.
        White,
    }

    /// `pairs` colour-swapped pairs between players `diff` Elo apart, the
    /// expected score the model's: each pair's shift is as large as the
    /// score allows, so the pairs' spread is far from independent games'.
    fn simulate_pairs(rng: &mut Rng, diff: f64, pairs: u32, link: PairLink) -> Score {
        let s = score_of_elo(diff);
        let c = 0.95 * s.min(1.0 - s);
        let mut out = Score::default();
        for _ in 0..pairs {
            let up = rng.unit_f64() < 0.5;
            let shifts = match link {
                PairLink::Suits if up => [c, c],
                PairLink::Suits => [-c, -c],
                PairLink::White => [c, -c],
            };
            let [g1, g2] = shifts.map(|d| simulate(rng, score_elo(s + d), 1, 0.1));
            out.pairs.add_pair(&g1, &g2);
            out.wdl = out.wdl.plus(&g1).plus(&g2);
        }
        out
    }

    fn score_elo(s: f64) -> f64 {
        crate::elo::elo_of_score(s.clamp(1e-9, 1.0 - 1e-9))
    }

    /// Pairs that are not independent games: the pair-based intervals
    /// still hold the truth about 95% of the time, and they are wider than
    /// the per-game ones when a pair's games go together, narrower when
    /// they go opposite ways.
    #[test]
    fn pair_based_intervals_hold_for_linked_pairs() {
        let truth = [0.0, 180.0, 330.0, 420.0, 600.0, 720.0, 900.0];
        let n = truth.len();
        for (link, wider) in [(PairLink::Suits, true), (PairLink::White, false)] {
            let (mut inside, mut gaps_inside, mut total) = (0, 0, 0);
            let (mut sd_pairs, mut sd_games) = (0.0, 0.0);
            for seed in 0..40u64 {
                let mut rng = Rng::new(500 + seed);
                let mut results = Vec::new();
                for i in 0..n {
                    for (j, pairs) in [(i + 1, 150), (i + 2, 75)] {
                        if j < n {
                            let r = simulate_pairs(&mut rng, truth[j] - truth[i], pairs, link);
                            results.push((j, i, r));
                        }
                    }
                }
                let fit = fit_pool(n, &results, 0, 2.0).unwrap();
                let per_game: Vec<_> = results
                    .iter()
                    .map(|&(i, j, r)| (i, j, r.wdl.into()))
                    .collect();
                let naive = fit_pool(n, &per_game, 0, 2.0).unwrap();
                for i in 1..n {
                    let (lo, hi) = fit.interval(i);
                    total += 1;
                    inside += usize::from(lo <= truth[i] && truth[i] <= hi);
                    let g = fit.elo[i] - fit.elo[i - 1];
                    let half = Z95 * fit.gap_sd(i - 1, i);
                    gaps_inside += usize::from((g - (truth[i] - truth[i - 1])).abs() <= half);
                    sd_pairs += fit.gap_sd(i - 1, i);
                    sd_games += naive.gap_sd(i - 1, i);
                }
            }
            assert!(inside >= 216, "{inside} of {total} ratings inside");
            assert!(gaps_inside >= 216, "{gaps_inside} of {total} gaps inside");
            let ratio = sd_pairs / sd_games;
            match wider {
                true => assert!(ratio > 1.05, "pairs going together: {ratio}"),
                false => assert!(ratio < 0.9, "pairs going opposite ways: {ratio}"),
            }
        }
    }

    #[test]
    fn a_player_is_placed_within_its_interval() {
        let rungs = [(0.0, 0.0), (200.0, 10.0), (400.0, 15.0), (600.0, 20.0)];
        let (mut inside, mut runs) = (0, 0);
        for seed in 0..100u64 {
            let mut rng = Rng::new(1000 + seed);
            let truth = 470.0;
            let results: Vec<_> = rungs
                .iter()
                .skip(1)
                .map(|&(e, sd)| (e, sd, simulate(&mut rng, truth - e, 100, 0.3).into()))
                .collect();
            // Rungs known exactly here: the games part alone must hold.
            let exact: Vec<_> = results.iter().map(|&(e, _, r)| (e, 0.0, r)).collect();
            let fit = fit_player(&exact, 1.0).unwrap();
            assert_eq!(fit.sd_rungs, 0.0);
            runs += 1;
            let (lo, hi) = fit.interval();
            inside += usize::from(lo <= truth && truth <= hi);
            let with = fit_player(&results, 1.0).unwrap();
            assert!(with.sd_rungs > 10.0 && with.sd_rungs < 20.0, "{with:?}");
            assert_eq!(with.interval(), fit.interval());
            let (lo, hi) = with.interval_absolute();
            assert!(lo < fit.interval().0 && hi > fit.interval().1);
        }
        assert!(inside >= 88, "{inside} of {runs} placements inside");
    }

    #[test]
    fn hand_checked_pool_and_player() {
        // Two players, 75% for B: +190.85 (prior 0). The information is
        // n p (1 - p) = 100 * 0.1875 in nats: sd = 1/sqrt(18.75)/NAT = 40.1.
        let fit = fit_pool(2, &[(1, 0, wdl(70, 10, 20).into())], 0, 0.0).unwrap();
        assert!((fit.elo[1] - 190.85).abs() < 0.01, "{fit:?}");
        assert!((fit.sd[1] - 40.12).abs() < 0.01, "{fit:?}");
        // The same from the player's side against a fixed opponent.
        let p = fit_player(&[(0.0, 0.0, wdl(70, 10, 20).into())], 0.0).unwrap();
        assert!((p.elo - 190.85).abs() < 0.01 && (p.sd_games - 40.12).abs() < 0.01);
        // A sweep is finite with the prior: 20.5 of 21 points.
        let fit = fit_pool(2, &[(1, 0, wdl(20, 0, 0).into())], 0, 1.0).unwrap();
        assert!((fit.elo[1] - elo_of(20.5 / 21.0)).abs() < 0.01, "{fit:?}");
        let p = fit_player(&[(100.0, 0.0, wdl(0, 0, 30).into())], 1.0).unwrap();
        assert!((p.elo - 100.0 - elo_of(0.5 / 31.0)).abs() < 0.01, "{p:?}");
    }

    fn elo_of(s: f64) -> f64 {
        crate::elo::elo_of_score(s)
    }

    #[test]
    fn bad_input_is_an_error() {
        let r: Score = wdl(5, 5, 5).into();
        for (n, results, anchor, prior, needle) in [
            (0, vec![], 0, 1.0, "no player"),
            (2, vec![(0, 1, r)], 2, 1.0, "anchor"),
            (2, vec![(0, 2, r)], 0, 1.0, "names a player"),
            (2, vec![(1, 1, r)], 0, 1.0, "itself"),
            (3, vec![(0, 1, r)], 0, 1.0, "no games linking it"),
            (2, vec![(0, 1, r)], 0, -1.0, "prior_draws"),
            (2, vec![(1, 0, wdl(9, 0, 0).into())], 0, 0.0, "sweep"),
        ] {
            let e = fit_pool(n, &results, anchor, prior).unwrap_err();
            assert!(e.contains(needle), "{needle}: {e}");
        }
        for (results, prior, needle) in [
            (vec![], 1.0, "no games"),
            (vec![(0.0, 0.0, Score::default())], 1.0, "no games"),
            (vec![(f64::NAN, 0.0, r)], 1.0, "not valid"),
            (vec![(0.0, -1.0, r)], 1.0, "not valid"),
            (vec![(0.0, 0.0, wdl(3, 0, 0).into())], 0.0, "sweep"),
            (vec![(0.0, 0.0, r)], f64::NAN, "prior_draws"),
        ] {
            let e = fit_player(&results, prior).unwrap_err();
            assert!(e.contains(needle), "{needle}: {e}");
        }
    }
}
