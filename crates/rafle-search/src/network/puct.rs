//! AlphaZero PUCT: selection by Q + c * P * sqrt(sum N) / (1 + N), Dirichlet
//! noise on the root priors in self-play, visit counts as the policy target.

use rafle_core::rng::Rng;

use super::tree::Tree;

/// The edge (index into `node`'s edges) maximising the PUCT score; `priors`
/// overrides the stored priors (the root's noisy ones). Unvisited edges take
/// the node's mean value (first-play urgency = parent value).
pub fn select(tree: &Tree, node: u32, c_puct: f32, priors: Option<&[f32]>) -> usize {
    let n = &tree.nodes[node as usize];
    let fpu = if n.visits > 0 {
        n.value_sum / n.visits as f32
    } else {
        0.0
    };
    let total: u32 = tree.edge_range(node).map(|e| tree.edge_visits(e)).sum();
    let sqrt_total = (total.max(1) as f32).sqrt();
    let mut best = (f32::NEG_INFINITY, 0);
    for (i, e) in tree.edge_range(node).enumerate() {
        let p = priors.map_or(tree.edges[e].prior, |p| p[i]);
        let q = tree.edge_q(node, e).unwrap_or(fpu);
        let score = q + c_puct * p * sqrt_total / (1.0 + tree.edge_visits(e) as f32);
        if score > best.0 {
            best = (score, i);
        }
    }
    best.1
}

/// Priors mixed with Dirichlet(alpha) noise: (1 - frac) * p + frac * eta.
pub fn noisy_priors(priors: &[f32], alpha: f64, frac: f64, rng: &mut Rng) -> Vec<f32> {
    let g: Vec<f64> = priors.iter().map(|_| gamma(alpha, rng)).collect();
    let z: f64 = g.iter().sum::<f64>().max(1e-12);
    priors
        .iter()
        .zip(g)
        .map(|(&p, g)| ((1.0 - frac) * p as f64 + frac * g / z) as f32)
        .collect()
}

/// Gamma(alpha, 1) sample (Marsaglia and Tsang; alpha < 1 by boosting).
fn gamma(alpha: f64, rng: &mut Rng) -> f64 {
    if alpha < 1.0 {
        let u = rng.unit_f64().max(1e-300);
        return gamma(alpha + 1.0, rng) * u.powf(1.0 / alpha);
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u = rng.unit_f64();
        if u.max(1e-300).ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// Standard normal sample (Box-Muller).
fn normal(rng: &mut Rng) -> f64 {
    let u1 = rng.unit_f64().max(1e-300);
    let u2 = rng.unit_f64();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_keeps_a_distribution() {
        let mut rng = Rng::new(1);
        let p = noisy_priors(&[0.5, 0.25, 0.25], 0.3, 0.25, &mut rng);
        let s: f32 = p.iter().sum();
        assert!((s - 1.0).abs() < 1e-5, "{p:?}");
        assert!(p.iter().all(|&x| x > 0.0));
        assert_ne!(p, vec![0.5, 0.25, 0.25]);
    }
}
