//! `rafle plot RUN_DIR`: PNG curves of `metrics.csv` in `RUN_DIR/plots/`.
//!
//! - `eval.png`: one panel, each opponent's score (0-100%) against the
//!   iteration, the training time under each iteration tick, with the 95%
//!   interval of the score (Wilson, from `eval/games_vs_<opponent>`) where
//!   the run logged its game count; each legend entry gives the last score
//!   and its Elo.
//! - `ladder.png`, where the evaluation's opponents include rungs of the
//!   variant's ladder (metrics `eval/ladder_*`): the Elo they imply on the
//!   ladder's scale against the iteration, with its 95% interval, over the
//!   rungs drawn as labelled levels, so a curve reads as "between
//!   alphabeta:3 and alphabeta:4" at a glance.
//! - `<prefix>.png` for the other prefixes (`loss`, `selfplay`, `time`,
//!   `train`, `distributed`): one chart per metric that changes; a
//!   constant one gets no chart, its value is in the figure's title.
//!
//! Iterations are integer ticks.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use plotters::prelude::*;

use rafle_arena::elo::finite_elo;
use rafle_arena::ladder::Ladder;
use rafle_train::metrics;

type Series = BTreeMap<String, Vec<(i64, f64)>>;

/// Writes the plots of a run; returns the files written.
pub fn plot_run(dir: &Path) -> Result<Vec<PathBuf>> {
    let rows = metrics::read(dir)?;
    if rows.is_empty() {
        bail!("{} has no metrics yet", dir.join(metrics::FILE).display());
    }
    let mut groups: BTreeMap<String, Series> = BTreeMap::new();
    let mut minutes: BTreeMap<i64, f64> = BTreeMap::new();
    for r in rows {
        if !r.value.is_finite() {
            continue;
        }
        let it = r.iteration as i64;
        let m = minutes.entry(it).or_insert(0.0);
        *m = m.max(r.elapsed_s / 60.0);
        let group = r.name.split('/').next().unwrap_or("misc").to_string();
        groups
            .entry(group)
            .or_default()
            .entry(r.name)
            .or_default()
            .push((it, r.value));
    }
    let out_dir = dir.join("plots");
    std::fs::create_dir_all(&out_dir)?;
    let mut written = Vec::new();
    for (group, series) in groups {
        let path = out_dir.join(format!("{group}.png"));
        let drawn = if group == "eval" {
            draw_eval(&path, &series, &minutes)
        } else {
            draw_group(&path, &group, &series, &minutes)
        };
        drawn.map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        written.push(path);
        if group == "eval" && series.contains_key(metrics::LADDER[0]) {
            let path = out_dir.join("ladder.png");
            draw_ladder(&path, &series, &minutes, run_ladder(dir).as_ref())
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            written.push(path);
        }
    }
    Ok(written)
}

type DrawResult<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// "12 (3m)": the iteration and the training time when it ended.
fn tick(it: i64, minutes: &BTreeMap<i64, f64>) -> String {
    match minutes.get(&it) {
        Some(&m) if m >= 90.0 => format!("{it} ({:.1}h)", m / 60.0),
        Some(&m) => format!("{it} ({m:.0}m)"),
        None => it.to_string(),
    }
}

/// The iteration range of points, never empty.
fn x_range<'a>(points: impl Iterator<Item = &'a (i64, f64)>) -> std::ops::Range<i64> {
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    for &(x, _) in points {
        lo = lo.min(x);
        hi = hi.max(x);
    }
    if lo > hi {
        return 0..1;
    }
    if lo == hi {
        (lo - 1)..(hi + 1)
    } else {
        lo..hi
    }
}

fn is_constant(points: &[(i64, f64)]) -> bool {
    points.windows(2).all(|w| w[0].1 == w[1].1)
}

fn short(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e9 {
        format!("{v:.0}")
    } else {
        format!("{v:.4}")
    }
}

fn draw_group(
    path: &Path,
    group: &str,
    series: &Series,
    minutes: &BTreeMap<i64, f64>,
) -> DrawResult<()> {
    let (varying, constant): (Vec<_>, Vec<_>) = series.iter().partition(|(_, p)| !is_constant(p));
    let title = if constant.is_empty() {
        group.to_string()
    } else {
        let c: Vec<String> = constant
            .iter()
            .map(|(n, p)| format!("{n} = {}", short(p[0].1)))
            .collect();
        format!("{group}; constant: {}", c.join(", "))
    };
    let n = varying.len().max(1);
    let cols = n.min(3);
    let rows = n.div_ceil(cols);
    let root =
        BitMapBackend::new(path, (460 * cols as u32, 40 + 300 * rows as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(&title, ("sans-serif", 18))?;
    let areas = root.split_evenly((rows, cols));
    for ((name, points), area) in varying.iter().zip(areas) {
        let (y0, y1) = bounds(points.iter().map(|p| p.1));
        let mut chart = ChartBuilder::on(&area)
            .caption(name.as_str(), ("sans-serif", 16))
            .margin(8)
            .x_label_area_size(30)
            .y_label_area_size(56)
            .build_cartesian_2d(x_range(points.iter()), y0..y1)?;
        chart
            .configure_mesh()
            .x_desc("iteration (training time)")
            .x_labels(5)
            .x_label_formatter(&|x| tick(*x, minutes))
            .light_line_style(WHITE.mix(0.0))
            .draw()?;
        chart.draw_series(LineSeries::new(points.iter().copied(), &BLUE))?;
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 2, BLUE.filled())))?;
    }
    root.present()?;
    Ok(())
}

/// The 95% Wilson interval of a score `p` over `n` games.
pub fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z = 1.96f64;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).max(0.0)).sqrt() / d;
    ((c - h).max(0.0), (c + h).min(1.0))
}

fn draw_eval(path: &Path, series: &Series, minutes: &BTreeMap<i64, f64>) -> DrawResult<()> {
    let scores: Vec<(&str, &Vec<(i64, f64)>)> = series
        .iter()
        .filter_map(|(n, p)| n.strip_prefix("eval/score_vs_").map(|o| (o, p)))
        .collect();
    let games = |opponent: &str, it: i64| -> Option<f64> {
        series
            .get(&format!("eval/games_vs_{opponent}"))?
            .iter()
            .find(|(x, _)| *x == it)
            .map(|p| p.1)
            .filter(|&n| n > 0.0)
    };
    let last_it = scores
        .iter()
        .filter_map(|(_, p)| p.last())
        .map(|p| p.0)
        .max();
    let mut title = "evaluation: score against each opponent".to_string();
    if let Some(it) = last_it {
        title.push_str(&format!(", last at iteration {}", tick(it, minutes)));
    }
    let root = BitMapBackend::new(path, (900, 520)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .margin_right(48)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(
            x_range(scores.iter().flat_map(|(_, p)| p.iter())),
            // A little room beyond 0% and 100%, where sweeps sit.
            -2f64..103f64,
        )?;
    chart
        .configure_mesh()
        .x_desc("iteration (training time)")
        .y_desc("score %")
        .x_labels(8)
        .x_label_formatter(&|x| tick(*x, minutes))
        .y_labels(12)
        .y_label_formatter(&|y| format!("{y:.0}%"))
        .draw()?;
    for (i, (opponent, points)) in scores.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        // Earlier series are drawn wider so that equal scores (100% against
        // both random and greedy) stay visible as nested bands.
        let width = 2 + 3 * (scores.len() - 1 - i) as u32;
        let pct: Vec<(i64, f64)> = points.iter().map(|&(x, s)| (x, 100.0 * s)).collect();
        for &(x, s) in points.iter() {
            if let Some(n) = games(opponent, x) {
                let (lo, hi) = wilson(s, n);
                chart.draw_series(std::iter::once(PathElement::new(
                    vec![(x, 100.0 * lo), (x, 100.0 * hi)],
                    color.mix(0.5).stroke_width(2),
                )))?;
            }
        }
        let label = match points.last() {
            Some(&(x, s)) => format!(
                "vs {opponent}: {:.1}% (Elo {:+.0}) at {x}",
                100.0 * s,
                finite_elo(s, games(opponent, x).map_or(100, |n| n as u32))
            ),
            None => format!("vs {opponent}"),
        };
        chart
            .draw_series(LineSeries::new(
                pct.iter().copied(),
                color.stroke_width(width),
            ))?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(3))
            });
        chart.draw_series(
            pct.iter()
                .map(|&p| Circle::new(p, 3 + width / 3, color.filled())),
        )?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

/// The built-in ladder of the run's variant (from its checkpoint
/// metadata); None when either is missing.
fn run_ladder(dir: &Path) -> Option<Ladder> {
    let meta = rafle_train::checkpoint::read_meta(&dir.join("latest.json")).ok()?;
    Ladder::builtin(meta.variant.parse().ok()?).ok()
}

/// The ladder Elo the evaluations imply, with its interval, over the rungs
/// of `ladder` near it as labelled levels.
fn draw_ladder(
    path: &Path,
    series: &Series,
    minutes: &BTreeMap<i64, f64>,
    ladder: Option<&Ladder>,
) -> DrawResult<()> {
    let get = |k: usize| series.get(metrics::LADDER[k]).cloned().unwrap_or_default();
    let (elo, lo, hi) = (get(0), get(1), get(2));
    let at = |v: &[(i64, f64)], x: i64| v.iter().find(|p| p.0 == x).map(|p| p.1);
    let (y0, y1) = bounds(lo.iter().chain(&hi).chain(&elo).map(|p| p.1));
    // Room for the rungs just below and above the curve.
    let rungs: Vec<(&str, f64)> = ladder
        .map(|l| l.rungs.iter().map(|r| (r.spec.as_str(), r.elo)).collect())
        .unwrap_or_default();
    let below = rungs.iter().rev().find(|r| r.1 <= y0).map_or(y0, |r| r.1);
    let above = rungs.iter().find(|r| r.1 >= y1).map_or(y1, |r| r.1);
    let (y0, y1) = (
        below - 0.04 * (above - below),
        above + 0.04 * (above - below) + 1.0,
    );
    let mut title = match ladder {
        Some(l) => format!("{} ladder Elo from the evaluation games", l.variant),
        None => "ladder Elo from the evaluation games".to_string(),
    };
    if let Some(&(x, e)) = elo.last() {
        title.push_str(&format!(": {e:.0} at iteration {}", tick(x, minutes)));
    }
    let root = BitMapBackend::new(path, (900, 520)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .margin_right(110)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(x_range(elo.iter()), y0..y1)?;
    chart
        .configure_mesh()
        .x_desc("iteration (training time)")
        .y_desc("Elo (random = 0)")
        .x_labels(8)
        .x_label_formatter(&|x| tick(*x, minutes))
        .y_labels(10)
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()?;
    let xs = x_range(elo.iter());
    let grey = RGBColor(120, 120, 120);
    for &(spec, e) in rungs.iter().filter(|r| r.1 >= y0 && r.1 <= y1) {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(xs.start, e), (xs.end, e)],
            grey.stroke_width(1),
        )))?;
        chart.draw_series(std::iter::once(
            EmptyElement::at((xs.end, e))
                + Text::new(
                    format!("{spec} {e:.0}"),
                    (8, -7),
                    ("sans-serif", 14).into_font().color(&grey),
                ),
        ))?;
    }
    let color = PALETTE[0];
    for &(x, _) in &elo {
        if let (Some(l), Some(h)) = (at(&lo, x), at(&hi, x)) {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(x, l), (x, h)],
                color.mix(0.5).stroke_width(2),
            )))?;
        }
    }
    chart.draw_series(LineSeries::new(elo.iter().copied(), color.stroke_width(3)))?;
    chart.draw_series(elo.iter().map(|&p| Circle::new(p, 4, color.filled())))?;
    root.present()?;
    Ok(())
}

/// Colours told apart at a glance (and by most colour-blind readers).
const PALETTE: [RGBColor; 6] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(213, 94, 0),
    RGBColor(86, 180, 233),
];

/// A non-empty range around the values, padded by 5% of their span.
fn bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let magnitude = lo.abs().max(hi.abs()).max(1.0);
    let span = hi - lo;
    let pad = if span < 0.01 * magnitude {
        0.05 * magnitude
    } else {
        0.05 * span
    };
    (lo - pad, hi + pad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_varying_series_is_padded_by_its_span() {
        let (lo, hi) = bounds([0.2, 0.6, 0.4].into_iter());
        assert!(
            (lo - 0.18).abs() < 1e-9 && (hi - 0.62).abs() < 1e-9,
            "{lo}..{hi}"
        );
        assert_eq!(bounds(std::iter::empty()), (0.0, 1.0));
    }

    #[test]
    fn constant_series_and_ticks() {
        assert!(is_constant(&[(1, 3.0), (2, 3.0)]));
        assert!(!is_constant(&[(1, 3.0), (2, 3.5)]));
        assert_eq!(x_range([(4, 0.0)].iter()), 3..5);
        let minutes = BTreeMap::from([(4, 12.4), (9, 130.0)]);
        assert_eq!(tick(4, &minutes), "4 (12m)");
        assert_eq!(tick(9, &minutes), "9 (2.2h)");
        assert_eq!(tick(5, &minutes), "5");
    }

    #[test]
    fn wilson_intervals_hold_the_score_and_shrink_with_games() {
        let (lo, hi) = wilson(1.0, 200.0);
        assert!(hi == 1.0 && lo > 0.98 && lo < 1.0, "{lo}");
        let (a, b) = wilson(0.5, 20.0);
        let (c, d) = wilson(0.5, 2000.0);
        assert!(a < c && d < b && a < 0.5 && b > 0.5);
    }
}
