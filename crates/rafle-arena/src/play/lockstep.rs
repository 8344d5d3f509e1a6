//! A match with a network side, every game in lockstep: each game is a
//! [`Client`] of the [`Lockstep`] driver. In a round a game plays on until
//! the side to move is a network side whose search needs leaves (plain
//! players move on the way, as in `play_game`); the leaves go to that
//! side's evaluator with every other game's. The moves are those the
//! per-game arena plays with a [`NetworkPlayer`](rafle_search::network::NetworkPlayer)
//! of the same seed: both move through [`MoveMaker`].

use std::ops::Range;
use std::sync::Arc;
use std::time::Instant;

use rafle_core::{EndReason, Game, Move, Variant};
use rafle_env::{Env, EnvConfig};
use smallvec::SmallVec;

use super::{
    by_player, game_end, opening_game, pair_opening, player_move, player_seed, tell_game_over,
    ArenaConfig, Effort, End, GameEvent, PairGames, Seat, Side, Tally, Watcher,
};
use rafle_search::network::{
    Client, EvalError, EvalStats, Evaluator, LeafSlots, Lockstep, MoveMaker, Request,
    SharedEvaluator, Step,
};
use rafle_search::Player;

/// The distinct evaluators of a match's sides (one shared by both sides is
/// called once per round for both) and their counters.
pub(super) struct Networks {
    evaluators: Vec<SharedEvaluator>,
    /// Per side (A, B): index into `evaluators`.
    index: [Option<usize>; 2],
    stats: Vec<EvalStats>,
}

impl Networks {
    pub(super) fn new(a: &Side, b: &Side) -> Networks {
        let mut evaluators: Vec<SharedEvaluator> = Vec::new();
        let mut index = [None, None];
        for (i, side) in [a, b].into_iter().enumerate() {
            if let Side::Network(n) = side {
                let at = evaluators
                    .iter()
                    .position(|e| Arc::ptr_eq(e, &n.evaluator))
                    .unwrap_or_else(|| {
                        evaluators.push(n.evaluator.clone());
                        evaluators.len() - 1
                    });
                index[i] = Some(at);
            }
        }
        let stats = vec![EvalStats::default(); evaluators.len()];
        Networks {
            evaluators,
            index,
            stats,
        }
    }

    /// The evaluator counters of side A and side B.
    pub(super) fn stats(&self) -> (Option<EvalStats>, Option<EvalStats>) {
        let of = |i: Option<usize>| i.map(|i| self.stats[i]);
        (of(self.index[0]), of(self.index[1]))
    }

    /// Plays pairs `pairs` (both games each) in lockstep.
    pub(super) fn play(
        &mut self,
        variant: Variant,
        sides: [&Side; 2],
        cfg: &ArenaConfig,
        pairs: Range<usize>,
        tally: &Tally,
    ) -> Result<PairGames, EvalError> {
        let mut games = Vec::with_capacity(2 * pairs.len());
        for k in pairs {
            let (opening, desc) = pair_opening(variant, cfg, k);
            for (j, a_is_white) in [(0, true), (1, false)] {
                games.push(LiveGame::new(
                    variant,
                    2 * k + j,
                    a_is_white,
                    sides,
                    self.index,
                    cfg,
                    (&opening, desc.clone()),
                ));
            }
        }
        let max_leaves = games.iter().map(LiveGame::max_leaves).max().unwrap_or(1);
        let mut driver = Lockstep::new(variant, max_leaves);
        let mut guards: Vec<_> = self
            .evaluators
            .iter()
            .map(|e| e.lock().unwrap_or_else(|p| p.into_inner()))
            .collect();
        let mut evaluators: Vec<&mut dyn Evaluator> = guards
            .iter_mut()
            .map(|g| &mut **g as &mut dyn Evaluator)
            .collect();
        let mut recorded = vec![false; games.len()];
        loop {
            if cfg.stopped() {
                return Err(EvalError::Interrupted);
            }
            if let Some(why) = tally.aborted() {
                return Err(EvalError::Aborted(why));
            }
            let before = driver.stats.clone();
            let leaves = driver.round(&mut games, &mut evaluators)?;
            // Each game's network side gets its share of the evaluator time.
            for (e, s) in driver.stats.iter().enumerate() {
                let b = before.get(e).copied().unwrap_or_default();
                let (dt, dn) = (s.seconds - b.seconds, s.evals - b.evals);
                if dn == 0 {
                    continue;
                }
                for g in games.iter_mut().filter(|g| g.last.evaluator == e) {
                    g.effort[g.last_side] += dt * g.last.leaves as f64 / dn as f64;
                }
            }
            for (g, done) in games.iter().zip(&mut recorded) {
                if !*done && g.end.is_some() {
                    let rec = g.record(variant);
                    tally.record(&rec);
                    cfg.tell(GameEvent::Ended { record: &rec });
                    *done = true;
                }
            }
            if leaves == 0 {
                break;
            }
        }
        for (total, s) in self.stats.iter_mut().zip(&driver.stats) {
            total.add(s);
        }
        Ok(games
            .into_iter()
            .map(|g| {
                let (ea, eb) = by_player(g.effort_totals(), g.seat.a_is_white);
                (g.record(variant), ea, eb)
            })
            .collect())
    }
}

/// How one colour of a game moves.
enum Mover {
    Player(Box<dyn Player>),
    Network {
        mover: Box<MoveMaker>,
        evaluator: usize,
    },
}

/// One game of a lockstep match.
struct LiveGame {
    seat: Seat,
    game: Game,
    /// The game as step actions (history included), for network sides.
    env: Env,
    /// By colour (White, Black).
    movers: [Mover; 2],
    efforts: [Effort; 2],
    /// Evaluator seconds per colour, added by the driver loop.
    effort: [f64; 2],
    /// Steps of the network move in progress.
    chain: SmallVec<[u16; 20]>,
    end: Option<End>,
    max_plies: usize,
    /// The tables that end a game they cover (`--adjudicate`).
    adjudicator: Option<std::sync::Arc<rafle_search::tables::Tables>>,
    /// The last request and the colour that made it.
    last: Request,
    last_side: usize,
    watcher: Option<Watcher>,
}

impl LiveGame {
    fn new(
        variant: Variant,
        game_index: usize,
        a_is_white: bool,
        sides: [&Side; 2],
        evaluator_of: [Option<usize>; 2],
        cfg: &ArenaConfig,
        opening: (&[Move], String),
    ) -> LiveGame {
        let mover = |player: usize| -> (Mover, String) {
            let seed = player_seed(cfg.seed, game_index, player as u64);
            match sides[player] {
                Side::Player(f) => {
                    let p = f(seed);
                    let name = p.name();
                    (Mover::Player(p), name)
                }
                Side::Network(n) => (
                    Mover::Network {
                        mover: Box::new(
                            MoveMaker::new(n.params.clone(), n.simulations, seed)
                                .with_tables(cfg.egtb.clone()),
                        ),
                        evaluator: evaluator_of[player].unwrap_or(0),
                    },
                    n.name.clone(),
                ),
            }
        };
        // Players are built A first, as in the per-game arena.
        let ((ma, na), (mb, nb)) = (mover(0), mover(1));
        let (movers, names) = if a_is_white {
            ([ma, mb], [na, nb])
        } else {
            ([mb, ma], [nb, na])
        };
        let game = opening_game(variant, opening.0);
        let env = Env::from_game(&game, EnvConfig::default())
            .expect("an opening's own moves replay into its env");
        let seat = Seat {
            game: game_index,
            a_is_white,
            names,
            opening_plies: opening.0.len(),
            opening: opening.1,
        };
        cfg.tell(seat.started(&game));
        LiveGame {
            seat,
            game,
            env,
            movers,
            efforts: [Effort::default(); 2],
            effort: [0.0; 2],
            chain: SmallVec::new(),
            end: None,
            max_plies: cfg.max_plies,
            adjudicator: cfg.adjudicator().map(|_| cfg.egtb.clone().expect("tables")),
            last: Request::default(),
            last_side: 0,
            watcher: cfg.watcher.clone(),
        }
    }

    /// Tells the watcher of the move just played.
    fn moved(&self) {
        if let Some(w) = &self.watcher {
            (w.0)(&GameEvent::Moved {
                game: self.seat.game,
                position: &self.game,
            });
        }
    }

    fn max_leaves(&self) -> usize {
        self.movers
            .iter()
            .map(|m| match m {
                Mover::Network { mover, .. } => mover.max_leaves(),
                Mover::Player(_) => 1,
            })
            .max()
            .unwrap_or(1)
    }

    /// Plays `m` (legal in `self.game`) into the env as well.
    fn play_env(&mut self, m: &Move) {
        if self.env.play_move(m).is_err() {
            debug_assert!(false, "a legal move replays into the env");
            self.env = Env::from_position(
                self.game.variant(),
                *self.game.position(),
                EnvConfig::default(),
            );
        }
    }

    fn effort_totals(&self) -> [Effort; 2] {
        let mut e = self.efforts;
        for (x, s) in e.iter_mut().zip(self.effort) {
            x.seconds += s;
        }
        e
    }

    /// Ends the game, telling its plain players.
    fn end_with(&mut self, mut end: End) {
        let players = self.movers.iter_mut().filter_map(|m| match m {
            Mover::Player(p) => Some(p),
            Mover::Network { .. } => None,
        });
        tell_game_over(players, &self.game, &mut end);
        self.end = Some(end);
    }

    fn record(&self, variant: Variant) -> super::GameRecord {
        let end = self
            .end
            .clone()
            .unwrap_or((None, EndReason::MaxPlies, None));
        self.seat.record(variant, &self.game, end)
    }
}

impl Client for LiveGame {
    fn advance(&mut self, out: &mut LeafSlots) -> Request {
        self.last = Request::default();
        loop {
            if self.end.is_some() {
                return Request::default();
            }
            if let Some(end) = game_end(&self.game, self.max_plies, self.adjudicator.as_deref()) {
                self.end_with(end);
                continue;
            }
            let side = self.game.turn();
            let i = side.index();
            match &mut self.movers[i] {
                Mover::Player(p) => {
                    match player_move(p.as_mut(), &mut self.game, &mut self.efforts[i]) {
                        Ok(m) => {
                            self.play_env(&m);
                            self.moved();
                        }
                        Err(end) => self.end_with(end),
                    }
                }
                Mover::Network { mover, evaluator } => {
                    let t = Instant::now();
                    let nodes0 = mover.nodes();
                    let step = mover.step(&self.env, out);
                    let e = &mut self.efforts[i];
                    e.seconds += t.elapsed().as_secs_f64();
                    e.nodes += mover.nodes() - nodes0;
                    match step {
                        Step::Leaves(n) => {
                            self.last = Request {
                                evaluator: *evaluator,
                                leaves: n,
                            };
                            self.last_side = i;
                            return self.last;
                        }
                        Step::Action(a) => {
                            self.chain.push(a);
                            // The move is read off the env before its last
                            // step moves the env on to the next turn.
                            let m = self.env.move_of_chain(&self.chain);
                            let done = match self.env.step(a as usize) {
                                Ok(info) => info.move_done,
                                Err(_) => true,
                            };
                            if done {
                                e.moves += 1;
                                self.chain.clear();
                                match m {
                                    Some(m) if self.game.play(&m).is_ok() => self.moved(),
                                    _ => {
                                        debug_assert!(
                                            false,
                                            "a chain of legal steps is a legal move"
                                        );
                                        self.end_with((
                                            Some(side.opponent()),
                                            EndReason::IllegalMove,
                                            None,
                                        ));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    fn receive(&mut self, logits: &[f32], values: &[f32]) {
        let t = Instant::now();
        if let Mover::Network { mover, .. } = &mut self.movers[self.last_side] {
            mover.receive(logits, values);
        }
        self.efforts[self.last_side].seconds += t.elapsed().as_secs_f64();
    }

    fn abandon(&mut self) {
        if let Mover::Network { mover, .. } = &mut self.movers[self.last_side] {
            mover.abandon();
        }
    }
}
