//! Tree search over env step actions, written as a state machine so that many
//! searches can share one network batch: [`Search::advance`] runs
//! simulations until a leaf needs the network (its observation is written
//! into the caller's batch slot) or the search is complete;
//! [`Search::receive`] hands back the network's answer for that leaf.
//!
//! Gumbel mode (default): the root samples Gumbel noise, considers the top-m
//! actions and narrows them with Sequential Halving; below the root selection
//! is deterministic; the policy target is softmax(logits + sigma(completed Q)).
//! PUCT mode: AlphaZero selection with Dirichlet root noise and visit counts
//! as the target.

pub mod gumbel;
pub mod puct;
pub mod tree;

use rafle_core::rng::Rng;
use rafle_env::Env;

use crate::config::SearchConfig;
use tree::Tree;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    Gumbel,
    Puct,
}

/// Search settings (from [`SearchConfig`]).
#[derive(Clone, Debug)]
pub struct SearchParams {
    pub algorithm: Algorithm,
    pub gumbel_m: usize,
    pub c_visit: f32,
    pub c_scale: f32,
    pub c_puct: f32,
    pub dirichlet_alpha: f64,
    pub dirichlet_frac: f64,
}

impl SearchParams {
    pub fn from_config(c: &SearchConfig) -> SearchParams {
        SearchParams {
            algorithm: if c.algorithm == "puct" {
                Algorithm::Puct
            } else {
                Algorithm::Gumbel
            },
            gumbel_m: c.gumbel_m,
            c_visit: c.c_visit as f32,
            c_scale: c.c_scale as f32,
            c_puct: c.c_puct as f32,
            dirichlet_alpha: c.dirichlet_alpha,
            dirichlet_frac: c.dirichlet_frac,
        }
    }
}

/// How the move is picked from a finished search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// Self-play: Gumbel noise at the root (Gumbel); Dirichlet noise and a
    /// move sampled by visits (PUCT).
    Explore,
    /// Self-play after the temperature plies: Gumbel drops the root noise
    /// (the game goes on with its best move, so later positions and the
    /// result are not spoilt by sampled blunders); PUCT keeps the Dirichlet
    /// noise but plays the most visited action.
    Noisy,
    /// Evaluation: no Gumbel noise; the most visited action (PUCT).
    Best,
}

/// What a finished search says.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The step action to play.
    pub action: u16,
    /// Policy target over the legal actions (improved policy or visit shares).
    pub policy: Vec<(u16, f32)>,
    /// Root value for the player to act: Gumbel, the improved policy's
    /// expected completed Q; PUCT, the mean backed-up value (network value if
    /// no simulation ran; 0 when forced).
    pub value: f32,
    /// True when only one action was legal (no search ran).
    pub forced: bool,
}

/// One search from one root.
#[derive(Debug)]
pub struct Search {
    params: SearchParams,
    pick: Pick,
    tree: Tree,
    budget: usize,
    done: usize,
    /// Path from the root to the leaf waiting for the network.
    pending: Vec<u32>,
    /// Per root edge: Gumbel noise (Gumbel) or noisy priors (PUCT).
    root_noise: Vec<f32>,
    schedule: Vec<u32>,
    rng: Rng,
    forced: Option<u16>,
}

impl Search {
    /// A search of `budget` simulations from `env` (not finished).
    pub fn new(env: Env, budget: usize, params: SearchParams, pick: Pick, rng: Rng) -> Search {
        let legal = env.legal_actions();
        let forced = (legal.len() == 1).then(|| legal[0]);
        Search {
            params,
            pick,
            tree: Tree::new(env),
            budget,
            done: 0,
            pending: Vec::new(),
            root_noise: Vec::new(),
            schedule: Vec::new(),
            rng,
            forced,
        }
    }

    /// Runs simulations until a leaf needs the network: writes its observation
    /// into `obs` and returns true. Returns false once the search is complete.
    pub fn advance(&mut self, obs: &mut [f32]) -> bool {
        if self.forced.is_some() {
            return false;
        }
        if !self.tree.nodes[0].expanded {
            self.pending = vec![0];
            self.write_obs(0, obs);
            return true;
        }
        while self.done < self.budget {
            match self.simulate() {
                Some(leaf) => {
                    self.write_obs(leaf, obs);
                    return true;
                }
                None => self.done += 1,
            }
        }
        false
    }

    /// The network's raw logits (all actions) and scalar value for the leaf
    /// written by the last [`Search::advance`].
    pub fn receive(&mut self, logits: &[f32], value: f32) {
        let path = std::mem::take(&mut self.pending);
        let leaf = *path
            .last()
            .expect("receive follows an advance that asked for the network");
        self.tree.expand(leaf, logits, value);
        self.tree.backup(&path, value);
        if leaf == 0 {
            self.init_root();
        } else {
            self.done += 1;
        }
        // Keep the env only where children may still be created.
        let node = &mut self.tree.nodes[leaf as usize];
        if node.num_edges == 0 {
            node.env = None;
        }
    }

    /// The move and policy target of a complete search.
    pub fn result(&mut self) -> SearchResult {
        if let Some(a) = self.forced {
            return SearchResult {
                action: a,
                policy: vec![(a, 1.0)],
                value: 0.0,
                forced: true,
            };
        }
        let t = &self.tree;
        let actions: Vec<u16> = t.edge_range(0).map(|e| t.edges[e].action).collect();
        let (policy, choice, value) = match self.params.algorithm {
            Algorithm::Gumbel => {
                let pi = gumbel::improved_policy(t, 0, self.params.c_visit, self.params.c_scale);
                // Sequential Halving spreads visits over weak candidates too,
                // so the visit average undervalues the root; the improved
                // policy's expectation of the completed Q does not.
                let value = pi.iter().zip(t.completed_q(0)).map(|(p, q)| p * q).sum();
                let zeros;
                let g = match self.pick {
                    Pick::Explore => &self.root_noise,
                    Pick::Noisy | Pick::Best => {
                        zeros = vec![0.0; actions.len()];
                        &zeros
                    }
                };
                let i = gumbel::root_final(t, g, self.params.c_visit, self.params.c_scale);
                (pi, i, value)
            }
            Algorithm::Puct => {
                let visits: Vec<f32> = t.edge_range(0).map(|e| t.edge_visits(e) as f32).collect();
                let total: f32 = visits.iter().sum::<f32>().max(1.0);
                let shares: Vec<f32> = visits.iter().map(|n| n / total).collect();
                let i = match self.pick {
                    Pick::Explore => sample(&shares, &mut self.rng),
                    Pick::Noisy | Pick::Best => argmax(&visits),
                };
                let root = &t.nodes[0];
                let value = if root.visits > 0 {
                    root.value_sum / root.visits as f32
                } else {
                    root.raw_value
                };
                (shares, i, value)
            }
        };
        SearchResult {
            action: actions[choice],
            policy: actions.into_iter().zip(policy).collect(),
            value,
            forced: false,
        }
    }

    /// Nodes in the tree (for statistics).
    pub fn tree_size(&self) -> usize {
        self.tree.nodes.len()
    }

    fn init_root(&mut self) {
        let k = self.tree.nodes[0].num_edges as usize;
        match self.params.algorithm {
            Algorithm::Gumbel => {
                self.root_noise = match self.pick {
                    Pick::Explore => (0..k).map(|_| gumbel_noise(&mut self.rng)).collect(),
                    Pick::Noisy | Pick::Best => vec![0.0; k],
                };
                let m = self.params.gumbel_m.min(k).min(self.budget.max(1));
                self.schedule = gumbel::considered_visits(m, self.budget);
            }
            Algorithm::Puct => {
                let priors: Vec<f32> = self
                    .tree
                    .edge_range(0)
                    .map(|e| self.tree.edges[e].prior)
                    .collect();
                self.root_noise = match self.pick {
                    Pick::Explore | Pick::Noisy => puct::noisy_priors(
                        &priors,
                        self.params.dirichlet_alpha,
                        self.params.dirichlet_frac,
                        &mut self.rng,
                    ),
                    Pick::Best => priors,
                };
            }
        }
    }

    /// One simulation: descend to a leaf. A leaf needing the network is left
    /// in `pending` and returned; a terminal leaf is backed up at once (None).
    fn simulate(&mut self) -> Option<u32> {
        let p = &self.params;
        let mut path = vec![0u32];
        let mut node = 0u32;
        loop {
            let n = &self.tree.nodes[node as usize];
            if let Some(v) = n.terminal {
                self.tree.backup(&path, v);
                return None;
            }
            if !n.expanded {
                // Forced steps cost no network call: the line goes on to the
                // next real choice (like alpha-beta's forced-move extension),
                // so a capture the opponent must make is seen, not guessed.
                if !self.tree.expand_if_forced(node) {
                    self.pending = path;
                    return Some(node);
                }
            }
            let i = match (p.algorithm, node) {
                (Algorithm::Gumbel, 0) => gumbel::root_select(
                    &self.tree,
                    &self.root_noise,
                    self.schedule[self.done],
                    p.c_visit,
                    p.c_scale,
                ),
                (Algorithm::Gumbel, _) => {
                    gumbel::interior_select(&self.tree, node, p.c_visit, p.c_scale)
                }
                (Algorithm::Puct, 0) => {
                    puct::select(&self.tree, 0, p.c_puct, Some(&self.root_noise))
                }
                (Algorithm::Puct, _) => puct::select(&self.tree, node, p.c_puct, None),
            };
            let e = self.tree.nodes[node as usize].first_edge as usize + i;
            node = self.tree.child(node, e);
            path.push(node);
        }
    }

    fn write_obs(&self, node: u32, obs: &mut [f32]) {
        self.tree.nodes[node as usize]
            .env
            .as_ref()
            .expect("a leaf waiting for the network keeps its env")
            .write_obs(obs);
    }
}

/// A standard Gumbel sample -ln(-ln(u)).
fn gumbel_noise(rng: &mut Rng) -> f32 {
    let u = rng.unit_f64().clamp(1e-12, 1.0 - 1e-12);
    -(-u.ln()).ln() as f32
}

fn argmax(xs: &[f32]) -> usize {
    let mut best = (f32::NEG_INFINITY, 0);
    for (i, &x) in xs.iter().enumerate() {
        if x > best.0 {
            best = (x, i);
        }
    }
    best.1
}

fn sample(probs: &[f32], rng: &mut Rng) -> usize {
    let mut u = rng.unit_f64() as f32 * probs.iter().sum::<f32>();
    for (i, &p) in probs.iter().enumerate() {
        if u < p {
            return i;
        }
        u -= p;
    }
    argmax(probs)
}
