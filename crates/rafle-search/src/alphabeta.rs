//! `alphabeta:D` / `alphabeta:t=0.5s`: iterative deepening negamax with
//! alpha-beta (principal variation search), a transposition table, move
//! ordering (table move, captures by size, crowning moves, killers, history)
//! and an evaluation from [`crate::eval`].
//!
//! Captures are mandatory in draughts, so the horizon never falls inside a
//! capture race: below depth 0 a node whose side to move has a capture
//! searches all its (capturing) moves; only a quiet node is evaluated. At the
//! horizon, a quiet node whose opponent threatens a capture gets one more ply
//! of quiet moves. A node with a single legal move is not counted as a ply.
//! Draws: the game's [`DrawState`] goes on along the search path, so a
//! position that repeats one of the game or of the path (since the last
//! irreversible move) scores as a draw at its second occurrence, and the
//! variant's other draw rules apply through [`outcome_of`].
//!
//! With endgame tables ([`AlphaBeta::with_tables`]) a node the tables cover
//! scores their exact value (a win or loss at its distance), and a covered
//! root plays their move without a search.
//!
//! Asked for root scores ([`Player::set_root_scores`], a teacher's soft
//! policy targets), the root searches every move with a full window, so
//! each move's score is exact rather than a bound; that costs nodes.

use crate::learned::{Leaf, Learned};
use crate::tables::{self, Tables};
use crate::tt::{Bound, TransTable};
use crate::{Budget, Forfeit, Player, SearchControl, SearchInfo};
use rafle_core::draws::outcome_of;
use rafle_core::movegen::{generate, has_capture};
use rafle_core::rng::Rng;
use rafle_core::{bit, DrawState, Game, Move, MoveList, Position, Rules, Variant, MAX_BITS};
use rafle_egtb::Value;
use smallvec::SmallVec;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Score of a won position, less the plies to reach it.
pub const WIN: i32 = 30_000;
/// Scores beyond this are forced wins or losses.
pub const WIN_BOUND: i32 = WIN - 1_000;
const INF: i32 = WIN + 1;
/// Deepest ply searched (extensions and captures included).
const MAX_PLY: usize = 128;
/// log2 of the transposition table entries (2^18 x 24 bytes = 6 MiB).
const TT_LOG2: u32 = 18;
/// Longest principal variation read from the table.
const PV_LEN: usize = 16;

/// When to stop: after `depth` plies, after `time`, or whichever comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub time: Option<Duration>,
}

/// What one search found.
#[derive(Clone, Copy, Debug)]
pub struct SearchResult {
    pub best: Move,
    /// Score for the side to move, in centi-men; beyond [`WIN_BOUND`] a forced win.
    pub score: i32,
    /// Depth of the last completed iteration.
    pub depth: u32,
    pub nodes: u64,
}

impl SearchResult {
    /// Plies to a forced win (positive) or loss (negative), if the score is one.
    pub fn forced_result_in(&self) -> Option<i32> {
        if self.score > WIN_BOUND {
            Some(WIN - self.score)
        } else if self.score < -WIN_BOUND {
            Some(-(WIN + self.score))
        } else {
            None
        }
    }
}

#[derive(Debug)]
pub struct AlphaBeta {
    variant: Variant,
    /// The spec's limits; a [`Budget`] adds to them.
    spec_limits: Limits,
    limits: Limits,
    name: String,
    rng: Rng,
    tt: TransTable,
    nodes: u64,
    /// The last search's result (None for a forced move).
    last: Option<SearchResult>,
    /// Endgame tables: exact values at the nodes they cover, their move at
    /// a covered root.
    tables: Option<Arc<Tables>>,
    /// Its principal variation (from the transposition table).
    last_pv: Vec<Move>,
    /// Stops the searches from outside and receives their progress.
    control: Option<Arc<SearchControl>>,
    /// Score every root move exactly ([`Player::set_root_scores`]).
    exact_root: bool,
    /// The last search's root moves and their scores (centi-men), best
    /// first; empty unless `exact_root`.
    last_root: Vec<(Move, i32)>,
    /// A learned evaluation (`eval=`), else the hand-written one.
    eval: Option<Arc<Learned>>,
}

impl AlphaBeta {
    pub fn new(variant: Variant, limits: Limits, seed: u64) -> AlphaBeta {
        AlphaBeta {
            variant,
            spec_limits: limits,
            limits,
            name: match (limits.depth, limits.time) {
                (Some(d), None) => format!("alphabeta:{d}"),
                (None, Some(t)) => format!("alphabeta:t={}s", t.as_secs_f64()),
                (Some(d), Some(t)) => format!("alphabeta:d={d},t={}s", t.as_secs_f64()),
                (None, None) => "alphabeta".into(),
            },
            rng: Rng::new(seed),
            tt: TransTable::new(TT_LOG2),
            nodes: 0,
            last: None,
            tables: None,
            last_pv: Vec::new(),
            control: None,
            exact_root: false,
            last_root: Vec::new(),
            eval: None,
        }
    }

    /// Evaluates quiet leaves with `eval` (None: the hand-written evaluation).
    pub fn with_eval(mut self, eval: Option<Arc<Learned>>) -> AlphaBeta {
        self.eval = eval;
        self
    }

    /// Probes `tables` (when given) in every search.
    pub fn with_tables(mut self, tables: Option<Arc<Tables>>) -> AlphaBeta {
        self.tables = tables;
        self
    }

    pub fn with_name(mut self, name: String) -> AlphaBeta {
        self.name = name;
        self
    }

    /// Searches the position of `game` (which must not be over).
    pub fn search(&mut self, game: &Game) -> SearchResult {
        self.tt.new_search();
        let (result, pv, root) = rafle_core::with_rules!(self.variant, R => {
            let mut s = Search::<R> {
                tt: &mut self.tt,
                draws: game.draw_state().recent(),
                killers: [[None; 2]; MAX_PLY + 1],
                history: vec![0; MAX_BITS * MAX_BITS],
                nodes: 0,
                deadline: self.limits.time.map(|t| Instant::now() + t),
                control: self.control.as_deref(),
                stopped: false,
                tables: self.tables.as_deref(),
                pv: Vec::new(),
                root_scores: self.exact_root.then(Vec::new),
                leaf: Leaf::new(self.eval.as_deref(), MAX_PLY + 1),
                _rules: std::marker::PhantomData,
            };
            let result = s.root(game, self.limits, &mut self.rng);
            (result, s.pv, s.root_scores.unwrap_or_default())
        });
        self.last_pv = pv;
        self.last_root = root;
        self.nodes += result.nodes;
        result
    }
}

impl Player for AlphaBeta {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &Game) -> Result<Move, Forfeit> {
        if let Some(m) = self
            .tables
            .as_deref()
            .and_then(|tb| tables::best_move(tb, game, &mut self.rng))
        {
            self.last = None;
            self.last_root.clear();
            return Ok(m);
        }
        Ok(match game.legal_moves() {
            [only] => {
                self.last = None;
                self.last_pv.clear();
                self.last_root.clear();
                *only
            }
            _ => {
                let r = self.search(game);
                self.last = Some(r);
                r.best
            }
        })
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }

    /// A depth or a time replaces the spec's limit of that kind (the other
    /// stays); a node count is not a limit alpha-beta knows.
    fn set_budget(&mut self, budget: Budget) {
        self.limits = self.spec_limits;
        match budget {
            Budget::Depth(d) => self.limits.depth = Some(d.clamp(1, 64)),
            Budget::Time(t) => self.limits.time = Some(t),
            Budget::Nodes(_) => {}
        }
    }

    fn info(&self) -> SearchInfo {
        match &self.last {
            Some(r) => SearchInfo {
                depth: Some(r.depth),
                score: Some(r.score as f64 / 100.0),
                nodes: r.nodes,
                pv: if self.last_pv.first() == Some(&r.best) {
                    self.last_pv.clone()
                } else {
                    vec![r.best]
                },
            },
            None => SearchInfo::default(),
        }
    }

    fn set_control(&mut self, control: Option<Arc<SearchControl>>) {
        self.control = control;
    }

    fn set_root_scores(&mut self, on: bool) {
        self.exact_root = on;
    }

    fn root_scores(&self) -> Vec<(Move, f64)> {
        self.last_root
            .iter()
            .map(|&(m, s)| (m, s as f64 / 100.0))
            .collect()
    }
}

/// State of one search, generic over the variant so the hot loop is
/// monomorphised.
struct Search<'a, R: Rules> {
    tt: &'a mut TransTable,
    /// The game's positions since the last irreversible move, then the
    /// search path's; the current node last.
    draws: DrawState,
    killers: [[Option<(u8, u8, u64)>; 2]; MAX_PLY + 1],
    /// Cut-off counts by (from, to) bit index.
    history: Vec<u32>,
    nodes: u64,
    deadline: Option<Instant>,
    control: Option<&'a SearchControl>,
    stopped: bool,
    tables: Option<&'a Tables>,
    /// The principal variation of the last completed iteration.
    pv: Vec<Move>,
    /// Some: every root move searched with a full window, and their exact
    /// scores of the last completed iteration, best first.
    root_scores: Option<Vec<(Move, i32)>>,
    /// The evaluation of quiet leaves (a network's accumulators along the path).
    leaf: Leaf<'a>,
    _rules: std::marker::PhantomData<R>,
}

fn ident(m: &Move) -> (u8, u8, u64) {
    (m.from, m.to(), m.captured_key())
}

/// Scores as stored in the table are relative to the node, not the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl<R: Rules> Search<'_, R> {
    fn root(&mut self, game: &Game, limits: Limits, rng: &mut Rng) -> SearchResult {
        let pos = *game.position();
        self.leaf.root(&pos);
        let mut moves: Vec<Move> = game.legal_moves().to_vec();
        // Shuffle so that equal moves are chosen by the seed, not by generation order.
        for i in (1..moves.len()).rev() {
            moves.swap(i, rng.below(i + 1));
        }
        let mut best = SearchResult {
            best: moves[0],
            score: 0,
            depth: 0,
            nodes: 0,
        };
        let max_depth = limits.depth.unwrap_or(64).min(MAX_PLY as u32 / 2);
        let start = Instant::now();
        let mut scores = vec![0i32; moves.len()];
        let exact = self.root_scores.is_some();
        for depth in 1..=max_depth {
            let mut alpha = -INF;
            let mut iter_best = 0;
            for (i, m) in moves.iter().enumerate() {
                // Exact scores need every move searched with a full window.
                let window = (if exact { -INF } else { alpha }, INF);
                let score = self.child(&pos, m, depth as i32 - 1, 1, window, i == 0 || exact);
                if self.stopped {
                    break;
                }
                scores[i] = score;
                if score > alpha {
                    alpha = score;
                    iter_best = i;
                }
            }
            if self.stopped {
                break;
            }
            // Best move first for the next iteration; the others by score.
            let mut order: Vec<usize> = (0..moves.len()).collect();
            order.sort_by_key(|&i| (i != iter_best, -scores[i]));
            moves = order.iter().map(|&i| moves[i]).collect();
            scores = order.iter().map(|&i| scores[i]).collect();
            if let Some(root) = &mut self.root_scores {
                *root = moves.iter().copied().zip(scores.iter().copied()).collect();
            }
            best = SearchResult {
                best: moves[0],
                score: scores[0],
                depth,
                nodes: self.nodes,
            };
            self.pv = self.principal_variation(&pos, best.best);
            if let Some(c) = self.control {
                c.report(&SearchInfo {
                    depth: Some(depth),
                    score: Some(best.score as f64 / 100.0),
                    nodes: self.nodes,
                    pv: self.pv.clone(),
                });
            }
            if best.score.abs() > WIN_BOUND && (WIN - best.score.abs()) <= depth as i32 {
                break; // a forced result within the horizon: deeper changes nothing
            }
            if let (Some(t), Some(_)) = (limits.time, self.deadline) {
                // The next iteration would likely not finish.
                if start.elapsed() * 3 > t {
                    break;
                }
            }
        }
        best.nodes = self.nodes;
        best
    }

    /// Plays `m` from `pos` and searches the child with a null window first
    /// (unless `full`), then a full window when it may raise alpha.
    fn child(
        &mut self,
        pos: &Position,
        m: &Move,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
        full: bool,
    ) -> i32 {
        let mut next = *pos;
        next.apply::<R>(m);
        self.leaf.step(ply, pos, &next);
        let mark = self.draws.mark();
        self.draws.push::<R>(pos, m, &next);
        let score = if full || alpha <= -INF || beta - alpha <= 1 {
            -self.negamax(&next, depth, ply, -beta, -alpha)
        } else {
            let s = -self.negamax(&next, depth, ply, -alpha - 1, -alpha);
            if s > alpha && s < beta && !self.stopped {
                -self.negamax(&next, depth, ply, -beta, -alpha)
            } else {
                s
            }
        };
        self.draws.rewind(mark);
        score
    }

    fn out_of_time(&mut self) -> bool {
        if self.nodes & 1023 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
            if self.control.is_some_and(SearchControl::should_stop) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// `first` and the table's best moves after it, as far as they are
    /// stored and legal (at most [`PV_LEN`] moves, ending at a repetition).
    fn principal_variation(&mut self, pos: &Position, first: Move) -> Vec<Move> {
        let mark = self.draws.mark();
        let (mut line, mut at, mut m) = (vec![first], *pos, first);
        loop {
            let mut next = at;
            next.apply::<R>(&m);
            self.draws.push::<R>(&at, &m, &next);
            at = next;
            if line.len() >= PV_LEN || self.draws.occurrences() >= 2 {
                break;
            }
            let Some(e) = self
                .tt
                .probe(self.draws.key())
                .filter(|e| e.has_move)
                .copied()
            else {
                break;
            };
            let mut moves = MoveList::new();
            generate::<R>(&at, &mut moves);
            let Some(found) = moves
                .iter()
                .find(|x| ident(x) == (e.from, e.to, e.captured))
            else {
                break;
            };
            m = *found;
            line.push(m);
        }
        self.draws.rewind(mark);
        line
    }

    fn order_key(
        &self,
        m: &Move,
        tt_move: Option<(u8, u8, u64)>,
        ply: usize,
        pos: &Position,
    ) -> i64 {
        let id = ident(m);
        if Some(id) == tt_move {
            return i64::MAX;
        }
        if m.is_capture() {
            return 1 << 40 | (m.num_captured() as i64) << 20;
        }
        let crowns =
            pos.kings & bit(m.from) == 0 && bit(m.to()) & R::GEO.promotion_row(pos.side) != 0;
        if crowns {
            return 1 << 39;
        }
        if self.killers[ply][0] == Some(id) {
            return 1 << 38;
        }
        if self.killers[ply][1] == Some(id) {
            return 1 << 37;
        }
        self.history[m.from as usize * MAX_BITS + m.to() as usize] as i64
    }

    /// Searches `pos`, the current node of `self.draws`.
    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        // A repetition scores as a draw at once: the side that could repeat
        // once can repeat again.
        if self.draws.occurrences() >= 2 {
            return 0;
        }
        let mut moves = MoveList::new();
        generate::<R>(pos, &mut moves);
        // The end of the game by the variant's rules (no legal move, its goal,
        // a draw rule; repetitions were handled above).
        if let Some(o) = outcome_of::<R>(pos, moves.len(), &self.draws.counters(), 1) {
            return match o.winner {
                None => 0,
                Some(c) if c == pos.side => WIN - ply as i32,
                Some(_) => -(WIN - ply as i32),
            };
        }
        if let Some(v) = self.tables.and_then(|tb| tables::probe(tb, pos)) {
            return match v {
                Value::Draw => 0,
                Value::Win(d) => WIN - (ply as i32 + d as i32),
                Value::Loss(d) => -(WIN - (ply as i32 + d as i32)),
            };
        }
        let capturing = moves[0].is_capture();
        if ply >= MAX_PLY {
            return self.leaf.evaluate::<R>(ply, pos);
        }
        if depth <= 0 && !capturing {
            // Quiet: evaluate, unless at the horizon the opponent threatens a
            // capture; then look one quiet ply further.
            let mut flipped = *pos;
            flipped.side = pos.side.opponent();
            if depth < 0 || !has_capture::<R>(&flipped) {
                return self.leaf.evaluate::<R>(ply, pos);
            }
        }

        let key = self.draws.key();
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key) {
            if e.has_move {
                tt_move = Some((e.from, e.to, e.captured));
            }
            if e.depth as i32 >= depth && depth > 0 {
                let s = from_tt(e.score as i32, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }

        // A forced reply is not counted as a ply (depth > 0 only, so capture
        // races below the horizon still end).
        let child_depth = if moves.len() == 1 && depth > 0 {
            depth
        } else {
            depth - 1
        };

        let mut keys: SmallVec<[i64; 64]> = moves
            .iter()
            .map(|m| self.order_key(m, tt_move, ply, pos))
            .collect();
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move: Option<Move> = None;
        for i in 0..moves.len() {
            // Selection sort, one step per move: cut-offs often come early.
            let mut top = i;
            for k in i + 1..moves.len() {
                if keys[k] > keys[top] {
                    top = k;
                }
            }
            moves.swap(i, top);
            keys.swap(i, top);
            let m = &moves[i];
            let score = self.child(pos, m, child_depth, ply + 1, (alpha, beta), i == 0);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(*m);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if !m.is_capture() {
                    let id = ident(m);
                    if self.killers[ply][0] != Some(id) {
                        self.killers[ply][1] = self.killers[ply][0];
                        self.killers[ply][0] = Some(id);
                    }
                    let h = &mut self.history[m.from as usize * MAX_BITS + m.to() as usize];
                    *h = h.saturating_add((depth.max(1) * depth.max(1)) as u32);
                }
                break;
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, depth, to_tt(best, ply), bound, best_move.as_ref());
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_limit_stops_the_search() {
        let g = Game::new(Variant::International);
        let limits = Limits {
            depth: None,
            time: Some(Duration::from_millis(30)),
        };
        let r = AlphaBeta::new(Variant::International, limits, 0).search(&g);
        assert!(r.depth >= 1 && r.depth < 64, "{r:?}");
        assert!(g.legal_moves().contains(&r.best));
    }

    /// Root scores are each move's exact value: the negation of a fresh
    /// search of the position after it, one ply shallower. Openings of a
    /// few random plies have no kings, so no position repeats and none
    /// recurs at another depth (the table's values stay exact).
    #[test]
    fn root_scores_are_the_exact_values_of_the_moves() {
        let depth = 3;
        let limits = |d| Limits {
            depth: Some(d),
            time: None,
        };
        for v in Variant::ALL {
            // Openings until one has a move to compare.
            let mut checked = 0;
            for seed in 0..8 {
                if checked > 0 {
                    break;
                }
                let mut rng = Rng::new(seed);
                let mut game = Game::new(v);
                for _ in 0..6 {
                    let moves = game.legal_moves();
                    let m = moves[rng.below(moves.len())];
                    game.play(&m).unwrap();
                }
                if game.is_over() || game.legal_moves().len() < 2 {
                    continue;
                }
                let mut ab = AlphaBeta::new(v, limits(depth), 0);
                ab.set_root_scores(true);
                let best = ab.choose(&game).unwrap();
                let root = ab.root_scores();
                assert_eq!(
                    root.len(),
                    game.legal_moves().len(),
                    "{v}: every move scored"
                );
                assert_eq!(root[0].0, best, "{v}: the best move first");
                assert_eq!(Some(root[0].1), ab.info().score, "{v}");
                assert!(root.windows(2).all(|w| w[0].1 >= w[1].1), "{v}: {root:?}");
                for &(m, score) in &root {
                    let mut after = game.clone();
                    after.play(&m).unwrap();
                    // A forced reply is no ply inside the search but is one at
                    // a fresh root: those moves are not comparable.
                    if after.is_over() || after.legal_moves().len() < 2 {
                        continue;
                    }
                    // A forced result's distance counts from its own root.
                    if score.abs() * 100.0 > WIN_BOUND as f64 {
                        continue;
                    }
                    let after = Game::from_position(v, *after.position());
                    let fresh = AlphaBeta::new(v, limits(depth - 1), 0).search(&after);
                    assert_eq!(score, -fresh.score as f64 / 100.0, "{v}: {m:?}");
                    checked += 1;
                }
                ab.set_root_scores(false);
                ab.choose(&game).unwrap();
                assert!(ab.root_scores().is_empty(), "{v}: none unless asked");
            }
            assert!(checked > 0, "{v}: no move compared");
        }
    }
}
