//! One tree search over env step actions, written as a state machine so that
//! many searches can share one network batch: [`Search::advance`] runs
//! simulations until leaves need the network (their observations and legal
//! masks are written into the caller's slots) or the search is complete;
//! [`Search::receive`] hands back the evaluator's answers for those leaves.
//!
//! Gumbel mode: the root samples Gumbel noise, considers the top-m actions
//! and narrows them with Sequential Halving; below the root selection is
//! deterministic; the policy target is softmax(logits + sigma(completed Q)).
//! PUCT mode: AlphaZero selection with Dirichlet root noise and visit counts
//! as the target.
//!
//! Leaves per round: with `leaves_per_round = 1` a search asks for one leaf
//! and waits for it, so a lockstep batch holds one leaf per game. With more,
//! it descends again before the answer comes, with a virtual loss on the
//! lines still waiting ([`Tree::add_virtual_loss`]), until it holds that many
//! leaves, meets a leaf already waiting, or runs out of budget. A few games
//! then still fill a large batch; the later leaves of a round are chosen with
//! less information than one-at-a-time simulations would have.

use crate::tables::{self, Tables};
use rafle_core::rng::Rng;
use rafle_env::Env;
use std::sync::Arc;

use super::cache::EvalCache;
use super::tree::Tree;
use super::{gumbel, puct, Algorithm, LeafSlots, SearchParams};

/// How the move is picked from a finished search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// Self-play's first plies: Gumbel noise at the root, the move sampled
    /// through it (Gumbel); Dirichlet noise and a move sampled by visits (PUCT).
    Sample,
    /// Self-play after the temperature plies: the best move. Gumbel uses no
    /// root noise (later positions and the result are not spoilt by sampled
    /// blunders); PUCT keeps the Dirichlet noise in its root priors.
    SelfPlayBest,
    /// Evaluation: the best move, no noise at all.
    Best,
}

/// What a finished search says.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOutcome {
    /// The step action to play.
    pub action: u16,
    /// Policy target over the legal actions (improved policy, or visit
    /// shares; the priors when no simulation ran).
    pub policy: Vec<(u16, f32)>,
    /// Root value for the player to act: Gumbel, the improved policy's
    /// expected completed Q; PUCT, the mean backed-up value (network value if
    /// no simulation ran); 0 when forced.
    pub value: f32,
    /// True when only one action was legal (no search ran).
    pub forced: bool,
}

/// Statistics of one root edge (see [`Search::root_edges`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootEdge {
    pub action: u16,
    pub prior: f32,
    pub visits: u32,
    pub q: Option<f32>,
}

/// One search from one root.
#[derive(Debug)]
pub struct Search {
    params: SearchParams,
    pick: Pick,
    tree: Tree,
    budget: usize,
    done: usize,
    /// Paths from the root to the leaves waiting for the evaluator, in the
    /// order their observations were written.
    pending: Vec<Vec<u32>>,
    /// Per root edge: Gumbel noise (Gumbel) or noisy priors (PUCT).
    root_noise: Vec<f32>,
    schedule: Vec<u32>,
    rng: Rng,
    forced: Option<u16>,
    /// Answers of the game's earlier searches (see [`Search::with_cache`]).
    cache: Option<EvalCache>,
    /// The tables' move and value at a root they cover (see
    /// [`Search::with_tables`]): no search runs.
    exact: Option<(u16, f32)>,
}

/// Where one descent from the root ended.
enum Descent {
    /// An unexpanded node that needs the evaluator (path from the root).
    Leaf(Vec<u32>),
    /// A finished game, backed up at once.
    Terminal,
    /// A leaf already waiting for the evaluator in this round.
    Waiting,
}

impl Search {
    /// A search of `budget` simulations from `env` (not finished). With a
    /// budget of 0 only the root is evaluated: the move is the policy's.
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
            cache: None,
            exact: None,
        }
    }

    /// Lets the search use endgame tables: a root they cover takes their
    /// move (its first step) and value without a search; below the root a
    /// node they cover is terminal with their value.
    pub fn with_tables(mut self, tables: Option<Arc<Tables>>) -> Search {
        if let Some(tb) = tables.as_deref() {
            let root = self.tree.nodes[0]
                .env
                .as_ref()
                .expect("the root keeps its env");
            if let Some((value, m)) = tables::exact(tb, root) {
                let step = root.actions_of(&m)[root.chain_steps()];
                self.exact = Some((step, tables::unit(value)));
            }
        }
        self.tree.tables = tables;
        self
    }

    /// Lets the search answer leaves from `cache` (the game's earlier
    /// searches) and store the evaluator's answers there; the choices are
    /// those of a search without it, with fewer evaluations.
    pub fn with_cache(mut self, mut cache: EvalCache) -> Search {
        cache.begin_search();
        self.cache = Some(cache);
        self
    }

    /// Hands the cache on (to the game's next search).
    pub fn take_cache(&mut self) -> Option<EvalCache> {
        self.cache.take()
    }

    /// Leaves answered from the cache so far (its count over the searches
    /// it served).
    pub fn cache_hits(&self) -> u64 {
        self.cache.as_ref().map_or(0, |c| c.hits)
    }

    /// The cache, if the search has one.
    pub fn cache_mut(&mut self) -> Option<&mut EvalCache> {
        self.cache.as_mut()
    }

    /// Ends the search early: no simulation starts after the ones done
    /// (the next [`Search::advance`] returns 0 unless the root still waits
    /// for its evaluation); [`Search::result`] then chooses from what the
    /// tree holds.
    pub fn cut_short(&mut self) {
        self.budget = self.budget.min(self.done);
    }

    /// Most leaves one [`Search::advance`] writes.
    pub fn max_leaves(&self) -> usize {
        self.params.leaves_per_round.max(1)
    }

    /// Runs simulations until leaves need the evaluator: writes the
    /// observation and legal mask of each into `out` (room for
    /// [`Search::max_leaves`]) and returns how many. Returns 0 once the
    /// search is complete.
    pub fn advance(&mut self, out: &mut LeafSlots) -> usize {
        debug_assert!(
            self.pending.is_empty(),
            "receive comes before the next advance"
        );
        if self.forced.is_some() || self.exact.is_some() {
            return 0;
        }
        if !self.tree.nodes[0].expanded {
            // The root's answer is backed up like any leaf's (see receive).
            let Some(value) = self.answer_from_cache(0) else {
                self.pending.push(vec![0]);
                self.write_leaf(0, 0, out);
                return 1;
            };
            self.tree.backup(&[0], value);
            self.init_root();
        }
        let max = self.max_leaves();
        while self.done + self.pending.len() < self.budget && self.pending.len() < max {
            match self.simulate() {
                Descent::Terminal => self.done += 1,
                Descent::Waiting => break,
                Descent::Leaf(path) => {
                    let leaf = *path.last().expect("a path holds the root");
                    if let Some(value) = self.answer_from_cache(leaf) {
                        self.tree.backup(&path, value);
                        self.done += 1;
                        continue;
                    }
                    self.write_leaf(self.pending.len(), leaf, out);
                    if max > 1 {
                        self.tree.add_virtual_loss(&path);
                    }
                    self.pending.push(path);
                }
            }
        }
        self.pending.len()
    }

    /// The evaluator's raw logits (all actions, leaf after leaf) and scalar
    /// values for the leaves written by the last [`Search::advance`].
    pub fn receive(&mut self, logits: &[f32], values: &[f32]) {
        let paths = std::mem::take(&mut self.pending);
        let actions = logits.len() / paths.len().max(1);
        if self.max_leaves() > 1 {
            for path in &paths {
                self.tree.remove_virtual_loss(path);
            }
        }
        for (k, path) in paths.iter().enumerate() {
            let leaf = *path.last().expect("a path holds the root");
            self.tree
                .expand(leaf, &logits[k * actions..(k + 1) * actions], values[k]);
            if let Some(cache) = &mut self.cache {
                if let Some(env) = &self.tree.nodes[leaf as usize].env {
                    cache.insert(env.obs_key(), self.tree.legal_logits(leaf), values[k]);
                }
            }
            self.tree.backup(path, values[k]);
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
    }

    /// Forgets the leaves written by the last [`Search::advance`] (their
    /// evaluation failed): the tree is as before that call, and the next
    /// advance asks for them again.
    pub fn abandon(&mut self) {
        let paths = std::mem::take(&mut self.pending);
        if self.max_leaves() > 1 {
            for path in &paths {
                self.tree.remove_virtual_loss(path);
            }
        }
    }

    /// The move and policy target of a complete search.
    pub fn result(&mut self) -> SearchOutcome {
        if let Some((a, value)) = self.exact {
            return SearchOutcome {
                action: a,
                policy: vec![(a, 1.0)],
                value,
                forced: self.forced.is_some(),
            };
        }
        if let Some(a) = self.forced {
            return SearchOutcome {
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
                let pi = gumbel::improved_policy(
                    t,
                    0,
                    self.params.c_visit as f32,
                    self.params.c_scale as f32,
                );
                // Sequential Halving spreads visits over weak candidates too,
                // so the visit average undervalues the root; the improved
                // policy's expectation of the completed Q does not.
                let value = pi.iter().zip(t.completed_q(0)).map(|(p, q)| p * q).sum();
                let i = gumbel::root_final(
                    t,
                    &self.root_noise,
                    self.params.c_visit as f32,
                    self.params.c_scale as f32,
                );
                (pi, i, value)
            }
            Algorithm::Puct => {
                let visits: Vec<f32> = t.edge_range(0).map(|e| t.edge_visits(e) as f32).collect();
                let total: f32 = visits.iter().sum();
                // Without simulations the priors are all there is.
                let shares: Vec<f32> = if total > 0.0 {
                    visits.iter().map(|n| n / total).collect()
                } else {
                    t.edge_range(0).map(|e| t.edges[e].prior).collect()
                };
                let i = match self.pick {
                    Pick::Sample => sample(&shares, &mut self.rng),
                    Pick::SelfPlayBest | Pick::Best => argmax(&shares),
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
        SearchOutcome {
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

    /// The root's edges: action, prior, visits and mean value in the root
    /// player's view (None before the first visit). Empty before the root
    /// is expanded and for a forced root.
    pub fn root_edges(&self) -> Vec<RootEdge> {
        let t = &self.tree;
        if !t.nodes[0].expanded {
            return Vec::new();
        }
        t.edge_range(0)
            .map(|e| RootEdge {
                action: t.edges[e].action,
                prior: t.edges[e].prior,
                visits: t.edge_visits(e),
                q: t.edge_q(0, e),
            })
            .collect()
    }

    fn init_root(&mut self) {
        let k = self.tree.nodes[0].num_edges as usize;
        match self.params.algorithm {
            Algorithm::Gumbel => {
                self.root_noise = match self.pick {
                    Pick::Sample => (0..k).map(|_| gumbel_noise(&mut self.rng)).collect(),
                    Pick::SelfPlayBest | Pick::Best => vec![0.0; k],
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
                    Pick::Sample | Pick::SelfPlayBest => puct::noisy_priors(
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

    /// One simulation: descend from the root to a leaf. A terminal leaf is
    /// backed up at once.
    fn simulate(&mut self) -> Descent {
        let p = &self.params;
        // The simulation's index in the Sequential Halving schedule.
        let sim = self.done + self.pending.len();
        let mut path = vec![0u32];
        let mut node = 0u32;
        loop {
            let n = &self.tree.nodes[node as usize];
            if let Some(v) = n.terminal {
                self.tree.backup(&path, v);
                return Descent::Terminal;
            }
            if !n.expanded {
                if self.pending.iter().any(|q| q.last() == Some(&node)) {
                    return Descent::Waiting;
                }
                // Forced steps cost no network call: the line goes on to the
                // next real choice (like alpha-beta's forced-move extension),
                // so a capture the opponent must make is seen, not guessed.
                if !self.tree.expand_if_forced(node) {
                    return Descent::Leaf(path);
                }
            }
            let i = match (p.algorithm, node) {
                (Algorithm::Gumbel, 0) => gumbel::root_select(
                    &self.tree,
                    &self.root_noise,
                    self.schedule[sim],
                    p.c_visit as f32,
                    p.c_scale as f32,
                ),
                (Algorithm::Gumbel, _) => {
                    gumbel::interior_select(&self.tree, node, p.c_visit as f32, p.c_scale as f32)
                }
                (Algorithm::Puct, 0) => {
                    puct::select(&self.tree, 0, p.c_puct as f32, Some(&self.root_noise))
                }
                (Algorithm::Puct, _) => puct::select(&self.tree, node, p.c_puct as f32, None),
            };
            let e = self.tree.nodes[node as usize].first_edge as usize + i;
            node = self.tree.child(node, e);
            path.push(node);
        }
    }

    /// Expands `node` from the cache if it holds the node's answer; returns
    /// the value to back up.
    fn answer_from_cache(&mut self, node: u32) -> Option<f32> {
        let cache = self.cache.as_mut()?;
        let key = self.tree.nodes[node as usize]
            .env
            .as_ref()
            .expect("a leaf keeps its env")
            .obs_key();
        let hit = cache.get(&key)?;
        self.tree.expand_legal(node, &hit.logits, hit.value);
        Some(hit.value)
    }

    fn write_leaf(&self, k: usize, node: u32, out: &mut LeafSlots) {
        let env = self.tree.nodes[node as usize]
            .env
            .as_ref()
            .expect("a leaf waiting for the evaluator keeps its env");
        out.write(k, env);
    }
}

/// A standard Gumbel sample -ln(-ln(u)).
fn gumbel_noise(rng: &mut Rng) -> f32 {
    let u = rng.unit_f64().clamp(1e-12, 1.0 - 1e-12);
    -(-u.ln()).ln() as f32
}

/// Index of the largest value (the first of equals).
pub(crate) fn argmax(xs: &[f32]) -> usize {
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
