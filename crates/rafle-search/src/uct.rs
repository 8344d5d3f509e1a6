//! `uct:N` (alias `mcts:N`): plain UCT (UCB1 selection, one child expanded per simulation,
//! uniformly random rollouts, N simulations per move).
//!
//! Rollouts stop after [`UctConfig::rollout_plies`] plies; an unfinished
//! rollout is scored by material (a lead of at least one man counts as a
//! win), which keeps long random games from drowning the signal in noise.
//! Values are stored from the point of view of the player who made the move
//! into the node: 1 win, 0.5 draw, 0 loss. The game's [`DrawState`] goes on
//! along each simulation (tree path, then rollout), so every draw rule,
//! threefold repetition included, ends games as in the real game. With
//! endgame tables ([`Uct::with_tables`]) a node or rollout position they
//! cover ends the simulation with their exact value.

use crate::eval::piece_values;
use crate::tables::{self, Tables};
use crate::{Budget, Forfeit, Player, SearchControl, SearchInfo};
use rafle_core::movegen::generate;
use rafle_core::rng::Rng;
use rafle_core::{Color, DrawState, Game, Goal, Move, MoveList, Position, Rules, Variant};
use rafle_egtb::Value;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UctConfig {
    pub simulations: u32,
    /// UCB1 exploration constant.
    pub exploration: f64,
    /// Random plies per rollout before adjudicating by material.
    pub rollout_plies: u32,
}

impl Default for UctConfig {
    fn default() -> Self {
        UctConfig {
            simulations: 400,
            exploration: std::f64::consts::SQRT_2,
            rollout_plies: 60,
        }
    }
}

#[derive(Debug)]
pub struct Uct {
    variant: Variant,
    cfg: UctConfig,
    name: String,
    rng: Rng,
    nodes: u64,
    /// What the last search found (nodes; score and PV when it searched).
    last: SearchInfo,
    /// Endgame tables: their value ends a simulation at a covered node or
    /// rollout position; a covered root plays their move.
    tables: Option<Arc<Tables>>,
    /// Ends a search early (between simulations).
    control: Option<Arc<SearchControl>>,
}

impl Uct {
    pub fn new(variant: Variant, cfg: UctConfig, seed: u64) -> Uct {
        Uct {
            variant,
            cfg,
            name: format!("uct:{}", cfg.simulations),
            rng: Rng::new(seed),
            nodes: 0,
            last: SearchInfo::default(),
            tables: None,
            control: None,
        }
    }

    /// Probes `tables` (when given) in every search.
    pub fn with_tables(mut self, tables: Option<Arc<Tables>>) -> Uct {
        self.tables = tables;
        self
    }

    pub fn with_name(mut self, name: String) -> Uct {
        self.name = name;
        self
    }
}

impl Player for Uct {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &Game) -> Result<Move, Forfeit> {
        let legal = game.legal_moves();
        self.last = SearchInfo::default();
        if legal.len() == 1 {
            return Ok(legal[0]);
        }
        let tb = self.tables.as_deref();
        if let Some(m) = tb.and_then(|tb| tables::best_move(tb, game, &mut self.rng)) {
            return Ok(m);
        }
        let info = rafle_core::with_rules!(self.variant, R => {
            let draws = game.draw_state().recent();
            Tree::<R>::new(*game.position(), draws, self.cfg, tb)
                .run(&mut self.rng, self.control.as_deref())
        });
        self.nodes += info.nodes;
        let m = info.pv[0];
        self.last = info;
        Ok(m)
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }

    /// A node budget is the simulation count; other budgets keep the spec's.
    fn set_budget(&mut self, budget: Budget) {
        if let Budget::Nodes(n) = budget {
            self.cfg.simulations = n.clamp(1, 10_000_000) as u32;
        }
    }

    /// Nodes; the score (the chosen move's mean value for the side to
    /// move, in [-1, 1]) and the PV (the most visited child at each node)
    /// when it searched.
    fn info(&self) -> SearchInfo {
        self.last.clone()
    }

    fn set_control(&mut self, control: Option<Arc<SearchControl>>) {
        self.control = control;
    }
}

/// Longest principal variation reported.
const PV_LEN: usize = 16;

struct Node {
    pos: Position,
    /// The move that led here (None at the root).
    mv: Option<Move>,
    parent: usize,
    moves: MoveList,
    /// Moves `moves[..expanded]` have a child.
    expanded: usize,
    children: Vec<usize>,
    visits: u32,
    /// Sum of values for the player who moved into this node.
    value: f64,
    /// Value for the player who moved into this node if the game is over here.
    terminal: Option<f64>,
}

struct Tree<'a, R: Rules> {
    nodes: Vec<Node>,
    tables: Option<&'a Tables>,
    /// The game's draw state at the root, extended along the current
    /// simulation (its current position is the node or rollout position
    /// being looked at).
    draws: DrawState,
    cfg: UctConfig,
    _rules: std::marker::PhantomData<R>,
}

/// Value, for the player who just moved (not `pos.side`), of a finished game
/// at `pos` (the current position of `draws`), or None if it is not over.
fn terminal_value<R: Rules>(pos: &Position, moves: &MoveList, draws: &DrawState) -> Option<f64> {
    draws
        .outcome::<R>(pos, moves.len())
        .map(|o| match o.winner {
            None => 0.5,
            Some(c) if c == pos.side => 0.0,
            Some(_) => 1.0,
        })
}

/// The tables' value of `pos` for the player who just moved into it (as
/// [`terminal_value`]), where they cover it.
fn table_value(tables: Option<&Tables>, pos: &Position) -> Option<f64> {
    tables
        .and_then(|tb| tables::probe(tb, pos))
        .map(|v| match v {
            Value::Win(_) => 0.0,
            Value::Draw => 0.5,
            Value::Loss(_) => 1.0,
        })
}

impl<'a, R: Rules> Tree<'a, R> {
    fn new(
        pos: Position,
        draws: DrawState,
        cfg: UctConfig,
        tables: Option<&'a Tables>,
    ) -> Tree<'a, R> {
        let mut t = Tree {
            nodes: Vec::with_capacity(cfg.simulations as usize + 1),
            tables,
            draws,
            cfg,
            _rules: std::marker::PhantomData,
        };
        t.push(pos, None, 0);
        t
    }

    /// Adds the node of `pos`, the current position of `self.draws`.
    fn push(&mut self, pos: Position, mv: Option<Move>, parent: usize) -> usize {
        let mut moves = MoveList::new();
        generate::<R>(&pos, &mut moves);
        let terminal = terminal_value::<R>(&pos, &moves, &self.draws)
            .or_else(|| table_value(self.tables, &pos));
        self.nodes.push(Node {
            pos,
            mv,
            parent,
            moves,
            expanded: 0,
            children: Vec::new(),
            visits: 0,
            value: 0.0,
            terminal,
        });
        self.nodes.len() - 1
    }

    /// Runs the simulations; returns the most visited root move and the
    /// number of tree nodes created (what [`Player::nodes`] counts for UCT).
    /// Runs the simulations; the chosen move is the PV's first.
    fn run(mut self, rng: &mut Rng, control: Option<&SearchControl>) -> SearchInfo {
        let root = self.draws.mark();
        for _ in 0..self.cfg.simulations {
            if control.is_some_and(SearchControl::should_stop) {
                break;
            }
            let leaf = self.select_expand(rng);
            let v = match self.nodes[leaf].terminal {
                Some(v) => v,
                None => self.rollout(leaf, rng),
            };
            self.backup(leaf, v);
            self.draws.rewind(root);
        }
        let most_visited = |n: &Node| {
            n.children
                .iter()
                .copied()
                .max_by_key(|&c| self.nodes[c].visits)
        };
        let mut pv = Vec::new();
        let mut score = None;
        let mut at = &self.nodes[0];
        while let Some(c) = most_visited(at) {
            let child = &self.nodes[c];
            let Some(m) = child.mv else { break };
            if child.visits == 0 || pv.len() >= PV_LEN {
                break;
            }
            if pv.is_empty() {
                score = Some(2.0 * child.value / child.visits as f64 - 1.0);
            }
            pv.push(m);
            at = child;
        }
        if pv.is_empty() {
            pv.push(self.nodes[0].moves[0]);
        }
        SearchInfo {
            depth: None,
            score,
            nodes: self.nodes.len() as u64,
            pv,
        }
    }

    /// Walks down from the root (extending `self.draws`) to a node to
    /// evaluate: a terminal node or a newly expanded child.
    fn select_expand(&mut self, rng: &mut Rng) -> usize {
        let mut n = 0;
        loop {
            let node = &self.nodes[n];
            if node.terminal.is_some() {
                return n;
            }
            if node.expanded < node.moves.len() {
                // Expand a random untried move.
                let k = node.expanded + rng.below(node.moves.len() - node.expanded);
                let node = &mut self.nodes[n];
                node.moves.swap(node.expanded, k);
                let m = node.moves[node.expanded];
                node.expanded += 1;
                let pos = node.pos;
                let mut next = pos;
                next.apply::<R>(&m);
                self.draws.push::<R>(&pos, &m, &next);
                let child = self.push(next, Some(m), n);
                self.nodes[n].children.push(child);
                return child;
            }
            let ln = (node.visits.max(1) as f64).ln();
            let c = self.cfg.exploration;
            let child = *node
                .children
                .iter()
                .max_by(|&&a, &&b| {
                    let ucb = |i: usize| {
                        let ch = &self.nodes[i];
                        let v = ch.visits.max(1) as f64;
                        ch.value / v + c * (ln / v).sqrt()
                    };
                    ucb(a).total_cmp(&ucb(b))
                })
                .unwrap_or(&0);
            let ch = &self.nodes[child];
            if let Some(m) = ch.mv {
                self.draws.push::<R>(&node.pos, &m, &ch.pos);
            }
            n = child;
        }
    }

    /// Random play from `leaf` (the current position of `self.draws`, which
    /// the rollout extends); the value for the player who moved into it.
    fn rollout(&mut self, leaf: usize, rng: &mut Rng) -> f64 {
        let node = &self.nodes[leaf];
        let mover = node.pos.side.opponent();
        let mut pos = node.pos;
        let mut moves = MoveList::new();
        for _ in 0..self.cfg.rollout_plies {
            generate::<R>(&pos, &mut moves);
            let over = terminal_value::<R>(&pos, &moves, &self.draws);
            if let Some(v) = over.or_else(|| table_value(self.tables, &pos)) {
                // `v` is for the player who just moved into `pos`.
                let just_moved = pos.side.opponent();
                return if just_moved == mover { v } else { 1.0 - v };
            }
            let m = moves[rng.below(moves.len())];
            let before = pos;
            pos.apply::<R>(&m);
            self.draws.push::<R>(&before, &m, &pos);
        }
        let (man, king) = piece_values(R::VARIANT);
        let value = |c: Color| {
            let (m, k) = pos.material(c);
            m as i32 * man + k as i32 * king
        };
        let mut lead = value(mover) - value(mover.opponent());
        if R::GOAL == Goal::NoMoveWins {
            lead = -lead; // antidraughts: the side with less material is ahead
        }
        if lead >= man {
            1.0
        } else if lead <= -man {
            0.0
        } else {
            0.5
        }
    }

    fn backup(&mut self, leaf: usize, mut v: f64) {
        let mut n = leaf;
        loop {
            let node = &mut self.nodes[n];
            node.visits += 1;
            node.value += v;
            if n == 0 {
                break;
            }
            n = node.parent;
            v = 1.0 - v;
        }
    }
}
