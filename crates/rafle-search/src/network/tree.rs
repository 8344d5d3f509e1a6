//! The search tree shared by Gumbel and PUCT: nodes over env *step* actions.
//!
//! A multi-capture is several actions by the same player, so a node stores
//! the player to act and values are flipped only where the player changes.
//! Values are kept from the view of the node's own player: `value_sum` of a
//! node is in its player's view; Q of an edge is converted to the parent's.
//! A terminal node takes the player of its parent (the one who acted) and the
//! env reward as its value, so the same rule covers it. A node the endgame
//! tables cover is terminal too, with their value.

use crate::tables::{self, Tables};
use rafle_core::Color;
use rafle_env::Env;
use std::sync::Arc;

pub const NONE: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub struct Edge {
    pub action: u16,
    /// Raw network logit of the action.
    pub logit: f32,
    /// softmax of the logits over the legal actions.
    pub prior: f32,
    /// Child node, or [`NONE`] before the first visit.
    pub child: u32,
}

#[derive(Clone, Debug)]
pub struct Node {
    /// State at the node; dropped for terminal nodes.
    pub env: Option<Env>,
    /// Player to act (for a terminal node: the player who acted into it).
    pub player: Color,
    /// Value of a finished game, in `player`'s view.
    pub terminal: Option<f32>,
    pub visits: u32,
    pub value_sum: f32,
    /// Network value at expansion (or the terminal value).
    pub raw_value: f32,
    pub first_edge: u32,
    pub num_edges: u32,
    pub expanded: bool,
}

impl Node {
    /// An unvisited node of `player` with no state yet.
    fn empty(player: Color) -> Node {
        Node {
            env: None,
            player,
            terminal: None,
            visits: 0,
            value_sum: 0.0,
            raw_value: 0.0,
            first_edge: 0,
            num_edges: 0,
            expanded: false,
        }
    }

    /// An unvisited node holding `env`.
    fn fresh(env: Env) -> Node {
        Node {
            player: env.to_play(),
            env: Some(env),
            ..Node::empty(Color::White)
        }
    }

    /// A finished game worth `v` to `player`, the player who acted into it.
    fn terminal(player: Color, v: f32) -> Node {
        Node {
            terminal: Some(v),
            raw_value: v,
            ..Node::empty(player)
        }
    }
}

/// Nodes and edges in flat vectors (indices instead of pointers).
#[derive(Clone, Debug, Default)]
pub struct Tree {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    /// Endgame tables: a child they cover is a terminal node with their
    /// exact value (win 1, draw 0, loss -1).
    pub tables: Option<Arc<Tables>>,
}

impl Tree {
    /// A tree whose root (index 0) holds `env`, not yet expanded.
    pub fn new(env: Env) -> Tree {
        Tree {
            nodes: vec![Node::fresh(env)],
            edges: Vec::new(),
            tables: None,
        }
    }

    pub fn edge_range(&self, node: u32) -> std::ops::Range<usize> {
        let n = &self.nodes[node as usize];
        n.first_edge as usize..(n.first_edge + n.num_edges) as usize
    }

    /// Visits of the edge's child (0 before the first visit).
    pub fn edge_visits(&self, e: usize) -> u32 {
        match self.edges[e].child {
            NONE => 0,
            c => self.nodes[c as usize].visits,
        }
    }

    /// Mean value of the edge's child in `node`'s player's view (None if unvisited).
    pub fn edge_q(&self, node: u32, e: usize) -> Option<f32> {
        let c = self.edges[e].child;
        if c == NONE {
            return None;
        }
        let child = &self.nodes[c as usize];
        if child.visits == 0 {
            return None;
        }
        let q = child.value_sum / child.visits as f32;
        Some(if child.player == self.nodes[node as usize].player {
            q
        } else {
            -q
        })
    }

    /// Creates the edges of `node` from the network's logits over all actions
    /// (legal actions taken from the node's env) and records its value.
    pub fn expand(&mut self, node: u32, logits: &[f32], value: f32) {
        self.expand_with(node, value, |_, a| logits[a as usize]);
    }

    /// [`Tree::expand`] from the logits of the legal actions only, in the
    /// order of the node's `legal_action_ids` (as [`Tree::legal_logits`]
    /// gives them back).
    pub fn expand_legal(&mut self, node: u32, legal_logits: &[f32], value: f32) {
        self.expand_with(node, value, |i, _| legal_logits[i]);
    }

    /// One edge per legal action, `logit(index, action)` its logit, priors
    /// the softmax of the logits.
    fn expand_with(&mut self, node: u32, value: f32, logit: impl Fn(usize, u16) -> f32) {
        let env = self.nodes[node as usize]
            .env
            .as_ref()
            .expect("an expandable node keeps its env");
        let first = self.edges.len();
        for (i, &a) in env.legal_action_ids().iter().enumerate() {
            self.edges.push(Edge {
                action: a,
                logit: logit(i, a),
                prior: 0.0,
                child: NONE,
            });
        }
        let edges = &mut self.edges[first..];
        let max = edges
            .iter()
            .map(|e| e.logit)
            .fold(f32::NEG_INFINITY, f32::max);
        let mut z = 0.0;
        for e in edges.iter_mut() {
            e.prior = (e.logit - max).exp();
            z += e.prior;
        }
        for e in edges.iter_mut() {
            e.prior /= z;
        }
        let count = edges.len() as u32;
        let n = &mut self.nodes[node as usize];
        n.first_edge = first as u32;
        n.num_edges = count;
        n.raw_value = value;
        n.expanded = true;
    }

    /// The logits of an expanded node's edges, in edge order.
    pub fn legal_logits(&self, node: u32) -> Box<[f32]> {
        self.edge_range(node).map(|e| self.edges[e].logit).collect()
    }

    /// Expands `node` without the network when it has exactly one legal
    /// action (a forced capture, the only way on with a chain): the edge gets
    /// prior 1 and the node's value comes from what is backed up through it.
    /// Returns false (and does nothing) for a node with a real choice.
    pub fn expand_if_forced(&mut self, node: u32) -> bool {
        let env = self.nodes[node as usize]
            .env
            .as_ref()
            .expect("an expandable node keeps its env");
        let &[action] = env.legal_action_ids() else {
            return false;
        };
        let first = self.edges.len() as u32;
        self.edges.push(Edge {
            action,
            logit: 0.0,
            prior: 1.0,
            child: NONE,
        });
        let n = &mut self.nodes[node as usize];
        n.first_edge = first;
        n.num_edges = 1;
        n.expanded = true;
        true
    }

    /// The child of edge `e` of `node`, creating it (one env step) if needed.
    pub fn child(&mut self, node: u32, e: usize) -> u32 {
        let c = self.edges[e].child;
        if c != NONE {
            return c;
        }
        let parent = &self.nodes[node as usize];
        let mut env = parent.env.clone().expect("an expanded node keeps its env");
        let player = parent.player;
        let info = env
            .step(self.edges[e].action as usize)
            .expect("edges hold legal actions");
        let exact = self
            .tables
            .as_deref()
            .and_then(|tb| tables::exact(tb, &env));
        let child = if info.terminated || info.truncated {
            // Reward is to the player who acted; a cut game counts as a draw.
            let v = if info.terminated { info.reward } else { 0.0 };
            Node::terminal(player, v)
        } else if let Some((value, _)) = exact {
            // The tables' value is for the player to act at the child.
            let v = tables::unit(value);
            Node::terminal(player, if env.to_play() == player { v } else { -v })
        } else {
            Node::fresh(env)
        };
        let id = self.nodes.len() as u32;
        self.nodes.push(child);
        self.edges[e].child = id;
        id
    }

    /// Virtual loss for a simulation still waiting for its leaf (only when a
    /// search gathers several leaves per round): each node of `path` after
    /// the root gets one visit valued as a loss for the player who chose the
    /// edge into it, so the next descent of the same round prefers other
    /// lines; the root gets a visit only. Undone by [`Tree::remove_virtual_loss`]
    /// before the real backup.
    pub fn add_virtual_loss(&mut self, path: &[u32]) {
        self.virtual_loss(path, 1);
    }

    /// Takes back what [`Tree::add_virtual_loss`] added to `path`.
    pub fn remove_virtual_loss(&mut self, path: &[u32]) {
        self.virtual_loss(path, -1);
    }

    fn virtual_loss(&mut self, path: &[u32], sign: i32) {
        let mut parent = None;
        for &id in path {
            let value = match parent {
                None => 0.0,
                Some(p) if self.nodes[p as usize].player == self.nodes[id as usize].player => -1.0,
                Some(_) => 1.0,
            };
            let n = &mut self.nodes[id as usize];
            n.visits = n.visits.wrapping_add_signed(sign);
            n.value_sum += sign as f32 * value;
            parent = Some(id);
        }
    }

    /// Adds `value` (in `path`'s last node's player's view) to every node of `path`.
    pub fn backup(&mut self, path: &[u32], value: f32) {
        let Some(&leaf) = path.last() else { return };
        let owner = self.nodes[leaf as usize].player;
        for &id in path {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.value_sum += if n.player == owner { value } else { -value };
        }
    }

    /// Completed Q-values of `node`'s edges (Gumbel MuZero, appendix D):
    /// visited edges keep their Q, unvisited ones get the mixed value
    /// v_mix = (v + sum_b N(b) * sum_{visited} pi(a) q(a) / sum_{visited} pi(a)) / (1 + sum_b N(b)).
    pub fn completed_q(&self, node: u32) -> Vec<f32> {
        let range = self.edge_range(node);
        let qs: Vec<Option<f32>> = range.clone().map(|e| self.edge_q(node, e)).collect();
        let mut sum_n = 0u32;
        let (mut pq, mut p) = (0.0f32, 0.0f32);
        for (i, e) in range.clone().enumerate() {
            sum_n += self.edge_visits(e);
            if let Some(q) = qs[i] {
                pq += self.edges[e].prior * q;
                p += self.edges[e].prior;
            }
        }
        let raw = self.nodes[node as usize].raw_value;
        let v_mix = if p > 0.0 {
            (raw + sum_n as f32 * pq / p) / (1.0 + sum_n as f32)
        } else {
            raw
        };
        qs.into_iter().map(|q| q.unwrap_or(v_mix)).collect()
    }
}
