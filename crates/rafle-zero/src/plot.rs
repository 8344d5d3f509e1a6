//! `rafle plot RUN_DIR`: PNG curves of `metrics.csv`, one chart per metric
//! against the iteration, grouped by prefix into `RUN_DIR/plots/<prefix>.png`
//! (`loss.png`, `selfplay.png`, `eval.png`, `train.png`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use plotters::prelude::*;

use rafle_train::metrics;

/// Writes the plots of a run; returns the files written.
pub fn plot_run(dir: &Path) -> Result<Vec<PathBuf>> {
    let rows = metrics::read(dir)?;
    if rows.is_empty() {
        bail!("{} has no metrics yet", dir.join(metrics::FILE).display());
    }
    // group -> metric -> points
    let mut groups: BTreeMap<String, BTreeMap<String, Vec<(f64, f64)>>> = BTreeMap::new();
    for r in rows {
        if !r.value.is_finite() {
            continue;
        }
        let group = r.name.split('/').next().unwrap_or("misc").to_string();
        groups
            .entry(group)
            .or_default()
            .entry(r.name)
            .or_default()
            .push((r.iteration as f64, r.value));
    }
    let out_dir = dir.join("plots");
    std::fs::create_dir_all(&out_dir)?;
    let mut written = Vec::new();
    for (group, series) in groups {
        let path = out_dir.join(format!("{group}.png"));
        draw_group(&path, &series).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

type DrawResult<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn draw_group(path: &Path, series: &BTreeMap<String, Vec<(f64, f64)>>) -> DrawResult<()> {
    let n = series.len();
    let cols = n.min(3);
    let rows = n.div_ceil(cols);
    let root = BitMapBackend::new(path, (420 * cols as u32, 300 * rows as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    let areas = root.split_evenly((rows, cols));
    for ((name, points), area) in series.iter().zip(areas) {
        let (x0, x1) = bounds(points.iter().map(|p| p.0));
        let (y0, y1) = bounds(points.iter().map(|p| p.1));
        let mut chart = ChartBuilder::on(&area)
            .caption(name, ("sans-serif", 18))
            .margin(8)
            .x_label_area_size(28)
            .y_label_area_size(48)
            .build_cartesian_2d(x0..x1, y0..y1)?;
        chart
            .configure_mesh()
            .x_desc("iteration")
            .light_line_style(WHITE.mix(0.0))
            .draw()?;
        chart.draw_series(LineSeries::new(points.iter().copied(), &BLUE))?;
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 2, BLUE.filled())))?;
    }
    root.present()?;
    Ok(())
}

/// A non-empty range around the values, padded by 5% of their span. A series
/// that is (nearly) constant, such as a 100% score against random, is padded
/// by 5% of its magnitude instead, so its axis does not zoom into rounding
/// noise.
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
    use super::bounds;

    #[test]
    fn a_constant_series_gets_a_readable_axis() {
        let (lo, hi) = bounds([1.0, 1.0, 1.0].into_iter());
        assert!(lo <= 0.95 + 1e-12 && hi >= 1.05 - 1e-12, "{lo}..{hi}");
        let (lo, hi) = bounds(std::iter::empty());
        assert_eq!((lo, hi), (0.0, 1.0));
    }

    #[test]
    fn a_varying_series_is_padded_by_its_span() {
        let (lo, hi) = bounds([0.2, 0.6, 0.4].into_iter());
        assert!(
            (lo - 0.18).abs() < 1e-9 && (hi - 0.62).abs() < 1e-9,
            "{lo}..{hi}"
        );
    }
}
