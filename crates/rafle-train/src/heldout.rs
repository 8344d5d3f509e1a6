//! The value head measured: a fixed held-out set of positions whose
//! outcome is known, and what a network's values on them say.
//!
//! A variant's set is shipped beside its learned evaluation, in the zoo
//! folder (`eval=zoo`'s, [`rafle_search::learned::zoo_dir`]):
//! `heldout/V.safetensors`, quiet positions of games of the shipped
//! `alphabeta:d=D,eval=zoo` against itself from random openings with each
//! game's result, and, where tables were built, `heldout/V.tables.safetensors`,
//! random positions of the endgame tables with their exact value. Both are
//! files of labelled positions ([`crate::evaltrain::games::save`]: the
//! result for the side to move, 1, 0.5 or 0). `rafle heldout` writes them.
//!
//! [`measure`] turns a network's win/draw/loss probabilities on the set
//! into the metrics `eval/value_corr` (Pearson correlation of P(win) -
//! P(loss) with the outcome, +1/0/-1), `eval/value_ce` (cross-entropy of
//! the WDL head against the outcome, nats), and beside them what a
//! material count reaches on the same set: `eval/value_corr_material` (the
//! least-squares fit of the outcome on the men and kings of each side,
//! fitted on the set itself, so an upper bound for material alone) and
//! `eval/value_ce_constant` (the outcomes' own entropy: what a head that
//! always says the base rates scores). Positions from the tables also get
//! `eval/value_corr_tables`.

use std::path::PathBuf;

use anyhow::Result;
use rafle_core::{Position, Variant};

use crate::evaltrain::games::{self, Labelled};

/// The held-out set of a variant.
#[derive(Clone, Debug, Default)]
pub struct HeldOut {
    pub positions: Vec<Position>,
    /// The outcome for the side to move: +1 win, 0 draw, -1 loss.
    pub outcome: Vec<f64>,
    /// Whether each position came from the endgame tables.
    pub from_tables: Vec<bool>,
}

/// The files of `variant`'s set: games, then tables.
pub fn paths(variant: Variant) -> [PathBuf; 2] {
    let dir = rafle_search::learned::zoo_dir().join("heldout");
    [
        dir.join(format!("{}.safetensors", variant.name())),
        dir.join(format!("{}.tables.safetensors", variant.name())),
    ]
}

impl HeldOut {
    /// The positions of labelled files (stopped games, result NaN, left
    /// out), the second list from the tables.
    pub fn from_labelled(games: &[Labelled], tables: &[Labelled]) -> HeldOut {
        let mut h = HeldOut::default();
        for (list, from_tables) in [(games, false), (tables, true)] {
            for l in list.iter().filter(|l| !l.result.is_nan()) {
                h.positions.push(l.pos);
                h.outcome.push(2.0 * l.result as f64 - 1.0);
                h.from_tables.push(from_tables);
            }
        }
        h
    }

    /// `variant`'s shipped set; None where none is shipped.
    pub fn shipped(variant: Variant) -> Result<Option<HeldOut>> {
        let [g, t] = paths(variant);
        if !g.is_file() {
            return Ok(None);
        }
        let games = games::load(&g, variant)?;
        let tables = match t.is_file() {
            true => games::load(&t, variant)?,
            false => Vec::new(),
        };
        Ok(Some(HeldOut::from_labelled(&games, &tables)))
    }

    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The observations of the positions, `[len, observation_len]` row by
    /// row (the RL view's planes, as self-play sees them).
    pub fn observations(&self, variant: Variant) -> Vec<f32> {
        let n = rafle_env::Env::of(variant).observation_len();
        let mut out = vec![0f32; n * self.len()];
        for (pos, row) in self.positions.iter().zip(out.chunks_exact_mut(n)) {
            let env = rafle_env::Env::from_position(variant, *pos, Default::default());
            env.write_obs(row);
        }
        out
    }
}

/// Men and kings of the side to move, then of the other side.
pub fn material(pos: &Position) -> [f64; 4] {
    let (me, them) = (pos.side, pos.side.opponent());
    let n = |b: rafle_core::Bitboard| f64::from(b.count_ones());
    [
        n(pos.men(me)),
        n(pos.kings_of(me)),
        n(pos.men(them)),
        n(pos.kings_of(them)),
    ]
}

/// What a value head scores on a held-out set.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ValueStats {
    pub positions: usize,
    pub corr: f64,
    pub ce: f64,
    pub corr_material: f64,
    pub ce_constant: f64,
    /// Over the positions from the tables (None without any).
    pub corr_tables: Option<f64>,
}

impl ValueStats {
    /// The metrics, by name.
    pub fn metrics(&self) -> Vec<(&'static str, f64)> {
        let mut out = vec![
            ("eval/value_corr", self.corr),
            ("eval/value_ce", self.ce),
            ("eval/value_corr_material", self.corr_material),
            ("eval/value_ce_constant", self.ce_constant),
        ];
        if let Some(c) = self.corr_tables {
            out.push(("eval/value_corr_tables", c));
        }
        out
    }

    /// One line for a trainer's log.
    pub fn line(&self) -> String {
        format!(
            "value head on {} held-out positions: correlation {:.3} with the outcome (material {:.3}), \
             cross-entropy {:.3} (base rates {:.3})",
            self.positions, self.corr, self.corr_material, self.ce, self.ce_constant
        )
    }
}

/// The statistics of `wdl` (per position: P(win), P(draw), P(loss) for the
/// side to move, summing to 1) on `held`. Errors: a count mismatch.
pub fn measure(held: &HeldOut, wdl: &[[f32; 3]]) -> Result<ValueStats, String> {
    if wdl.len() != held.len() {
        return Err(format!(
            "{} value rows for {} held-out positions",
            wdl.len(),
            held.len()
        ));
    }
    let value: Vec<f64> = wdl.iter().map(|p| f64::from(p[0] - p[2])).collect();
    let z = &held.outcome;
    let class = |z: f64| match z {
        z if z > 0.5 => 0,
        z if z < -0.5 => 2,
        _ => 1,
    };
    let ce = z
        .iter()
        .zip(wdl)
        .map(|(&z, p)| -f64::from(p[class(z)]).max(1e-12).ln())
        .sum::<f64>()
        / z.len().max(1) as f64;
    let mut rates = [0f64; 3];
    for &x in z {
        rates[class(x)] += 1.0 / z.len() as f64;
    }
    let ce_constant = -rates
        .iter()
        .filter(|&&r| r > 0.0)
        .map(|r| r * r.ln())
        .sum::<f64>();
    let features: Vec<[f64; 4]> = held.positions.iter().map(material).collect();
    let fitted = least_squares(&features, z);
    let tables: Vec<usize> = (0..held.len()).filter(|&i| held.from_tables[i]).collect();
    Ok(ValueStats {
        positions: held.len(),
        corr: pearson(&value, z),
        ce,
        corr_material: pearson(&fitted, z),
        ce_constant,
        corr_tables: (!tables.is_empty()).then(|| {
            let pick = |v: &[f64]| tables.iter().map(|&i| v[i]).collect::<Vec<_>>();
            pearson(&pick(&value), &pick(z))
        }),
    })
}

/// Pearson's correlation (0 where either side is constant).
pub fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len().min(y.len()) as f64;
    if n < 2.0 {
        return 0.0;
    }
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    if sxx <= 0.0 || syy <= 0.0 {
        0.0
    } else {
        sxy / (sxx * syy).sqrt()
    }
}

/// The least-squares fit of `y` on the features and a constant, evaluated
/// on the same rows (normal equations, a small ridge for singular sets).
fn least_squares(features: &[[f64; 4]], y: &[f64]) -> Vec<f64> {
    const K: usize = 5;
    let row = |f: &[f64; 4]| [1.0, f[0], f[1], f[2], f[3]];
    let mut a = [[0f64; K]; K];
    let mut b = [0f64; K];
    for (f, &t) in features.iter().zip(y) {
        let x = row(f);
        for i in 0..K {
            b[i] += x[i] * t;
            for j in 0..K {
                a[i][j] += x[i] * x[j];
            }
        }
    }
    for (i, r) in a.iter_mut().enumerate() {
        r[i] += 1e-6;
    }
    let w = solve(a, b);
    features
        .iter()
        .map(|f| row(f).iter().zip(&w).map(|(x, w)| x * w).sum())
        .collect()
}

/// Gaussian elimination with partial pivoting.
fn solve<const K: usize>(mut a: [[f64; K]; K], mut b: [f64; K]) -> [f64; K] {
    for c in 0..K {
        let p = (c..K)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .unwrap_or(c);
        a.swap(c, p);
        b.swap(c, p);
        if a[c][c].abs() < 1e-12 {
            continue;
        }
        let pivot = a[c];
        for r in c + 1..K {
            let f = a[r][c] / pivot[c];
            for (x, p) in a[r][c..].iter_mut().zip(&pivot[c..]) {
                *x -= f * p;
            }
            b[r] -= f * b[c];
        }
    }
    let mut w = [0f64; K];
    for c in (0..K).rev() {
        if a[c][c].abs() < 1e-12 {
            continue;
        }
        let s: f64 = (c + 1..K).map(|k| a[c][k] * w[k]).sum();
        w[c] = (b[c] - s) / a[c][c];
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn correlation_and_least_squares() {
        assert!((pearson(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.0]) - 1.0).abs() < 1e-12);
        assert!((pearson(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
        assert_eq!(pearson(&[1.0, 1.0], &[0.0, 1.0]), 0.0);
        // An outcome that is a linear function of the material is fitted exactly.
        let f: Vec<[f64; 4]> = (0..20)
            .map(|i| {
                [
                    (i % 5) as f64,
                    (i % 3) as f64,
                    (i % 7) as f64,
                    (i % 2) as f64,
                ]
            })
            .collect();
        let y: Vec<f64> = f
            .iter()
            .map(|r| 0.5 + r[0] - 2.0 * r[2] + 0.25 * r[3])
            .collect();
        let fit = least_squares(&f, &y);
        assert!(
            fit.iter().zip(&y).all(|(a, b)| (a - b).abs() < 1e-4),
            "{fit:?}"
        );
    }

    #[test]
    fn a_head_that_knows_the_outcomes_beats_the_material_and_the_base_rates() {
        let v = Variant::Thai;
        let pos = Position::start(v);
        let outcome = [1.0, 0.0, -1.0, 1.0, -1.0, 0.0];
        let held = HeldOut {
            positions: vec![pos; outcome.len()],
            outcome: outcome.to_vec(),
            from_tables: vec![false, false, false, true, true, true],
        };
        let know: Vec<[f32; 3]> = outcome
            .iter()
            .map(|&z| match z {
                z if z > 0.5 => [0.98, 0.01, 0.01],
                z if z < -0.5 => [0.01, 0.01, 0.98],
                _ => [0.01, 0.98, 0.01],
            })
            .collect();
        let s = measure(&held, &know).unwrap();
        assert!(s.corr > 0.99 && s.corr_tables.unwrap() > 0.99, "{s:?}");
        // One position repeated: material says nothing.
        assert_eq!(s.corr_material, 0.0);
        assert!(
            (s.ce_constant - 3f64.ln()).abs() < 1e-9 && s.ce < 0.05,
            "{s:?}"
        );
        let names: Vec<&str> = s.metrics().iter().map(|m| m.0).collect();
        assert!(names.contains(&"eval/value_corr") && names.contains(&"eval/value_corr_material"));
        assert!(measure(&held, &know[1..])
            .unwrap_err()
            .contains("5 value rows"));
        assert_eq!(
            held.observations(v).len(),
            6 * rafle_env::Env::of(v).observation_len()
        );
    }
}
