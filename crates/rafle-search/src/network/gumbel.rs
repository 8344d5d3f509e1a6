//! Gumbel AlphaZero pieces (Danihelka et al., "Policy improvement by planning
//! with Gumbel", ICLR 2022), following the reference `mctx` implementation:
//! Sequential Halving schedule, sigma(q), root and interior selection.

use super::tree::Tree;

/// The "considered visit count" of each simulation of Sequential Halving
/// with `m` sampled actions and `n` simulations (mctx
/// `get_sequence_of_considered_visits`). At simulation i the root visits the
/// best-scored action whose visit count equals `seq[i]`: the first `m`
/// simulations visit the top-m actions once, then each phase halves them.
pub fn considered_visits(m: usize, n: usize) -> Vec<u32> {
    if m <= 1 {
        return (0..n as u32).collect();
    }
    let log2m = (m as f64).log2().ceil() as usize;
    let mut seq = Vec::with_capacity(n);
    let mut visits = vec![0u32; m];
    let mut considered = m;
    while seq.len() < n {
        let extra = (n / (log2m * considered)).max(1);
        for _ in 0..extra {
            seq.extend_from_slice(&visits[..considered]);
            for v in &mut visits[..considered] {
                *v += 1;
            }
        }
        considered = (considered / 2).max(2);
    }
    seq.truncate(n);
    seq
}

/// sigma(q) = (c_visit + max_b N(b)) * c_scale * q, with q first rescaled to
/// [0, 1] by the min and max of the completed Q-values (mctx `rescale_values`).
pub fn sigma(completed_q: &[f32], max_visits: u32, c_visit: f32, c_scale: f32) -> Vec<f32> {
    let lo = completed_q.iter().copied().fold(f32::INFINITY, f32::min);
    let hi = completed_q
        .iter()
        .copied()
        .fold(f32::NEG_INFINITY, f32::max);
    let scale = (c_visit + max_visits as f32) * c_scale;
    let span = (hi - lo).max(1e-8);
    completed_q
        .iter()
        .map(|q| scale * (q - lo) / span)
        .collect()
}

/// sigma of the completed Q-values of `node`'s edges.
pub fn node_sigma(tree: &Tree, node: u32, c_visit: f32, c_scale: f32) -> Vec<f32> {
    let q = tree.completed_q(node);
    let max_n = tree
        .edge_range(node)
        .map(|e| tree.edge_visits(e))
        .max()
        .unwrap_or(0);
    sigma(&q, max_n, c_visit, c_scale)
}

/// The improved policy softmax(logits + sigma(completed Q)) over `node`'s edges.
pub fn improved_policy(tree: &Tree, node: u32, c_visit: f32, c_scale: f32) -> Vec<f32> {
    let s = node_sigma(tree, node, c_visit, c_scale);
    let scores: Vec<f32> = tree
        .edge_range(node)
        .zip(&s)
        .map(|(e, s)| tree.edges[e].logit + s)
        .collect();
    softmax(&scores)
}

/// Root selection: among edges whose visit count is `considered`, the one
/// maximising g + logits + sigma(q) (returns an index into `node`'s edges).
pub fn root_select(
    tree: &Tree,
    gumbel: &[f32],
    considered: u32,
    c_visit: f32,
    c_scale: f32,
) -> usize {
    let s = node_sigma(tree, 0, c_visit, c_scale);
    let mut best = (f32::NEG_INFINITY, None);
    let mut any = (f32::NEG_INFINITY, 0);
    for (i, e) in tree.edge_range(0).enumerate() {
        let score = gumbel[i] + tree.edges[e].logit + s[i];
        if score > any.0 {
            any = (score, i);
        }
        if tree.edge_visits(e) == considered && score > best.0 {
            best = (score, Some(i));
        }
    }
    // The schedule always leaves a candidate; fall back to the best score anyway.
    best.1.unwrap_or(any.1)
}

/// The action finally played: the best-scored among the most visited.
pub fn root_final(tree: &Tree, gumbel: &[f32], c_visit: f32, c_scale: f32) -> usize {
    let max_n = tree
        .edge_range(0)
        .map(|e| tree.edge_visits(e))
        .max()
        .unwrap_or(0);
    root_select(tree, gumbel, max_n, c_visit, c_scale)
}

/// Deterministic interior selection: argmax of pi'(a) - N(a) / (1 + sum_b N(b)),
/// pi' the improved policy of the node.
pub fn interior_select(tree: &Tree, node: u32, c_visit: f32, c_scale: f32) -> usize {
    let pi = improved_policy(tree, node, c_visit, c_scale);
    let visits: Vec<u32> = tree.edge_range(node).map(|e| tree.edge_visits(e)).collect();
    let total = 1.0 + visits.iter().sum::<u32>() as f32;
    let mut best = (f32::NEG_INFINITY, 0);
    for (i, (&p, &n)) in pi.iter().zip(&visits).enumerate() {
        let score = p - n as f32 / total;
        if score > best.0 {
            best = (score, i);
        }
    }
    best.1
}

/// Numerically stable softmax.
pub fn softmax(xs: &[f32]) -> Vec<f32> {
    let max = xs.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exps: Vec<f32> = xs.iter().map(|x| (x - max).exp()).collect();
    let z: f32 = exps.iter().sum();
    exps.into_iter().map(|e| e / z).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_visits_top_m_then_halves() {
        // m = 4, n = 8: phase 1 visits 4 actions once, then 2 actions twice.
        assert_eq!(considered_visits(4, 8), vec![0, 0, 0, 0, 1, 1, 2, 2]);
        assert_eq!(considered_visits(1, 3), vec![0, 1, 2]);
        assert_eq!(considered_visits(16, 32).len(), 32);
    }

    #[test]
    fn sigma_is_rescaled_and_grows_with_visits() {
        let s = sigma(&[-1.0, 0.0, 1.0], 10, 50.0, 0.1);
        assert!((s[0] - 0.0).abs() < 1e-6);
        assert!((s[1] - 3.0).abs() < 1e-5);
        assert!((s[2] - 6.0).abs() < 1e-5);
    }
}
