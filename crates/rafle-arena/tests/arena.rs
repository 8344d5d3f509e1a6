//! Arena: PDN round trips, determinism, SPRT stops, round robins, and the
//! lockstep arena of network sides against the per-game one.

use rafle_arena::elo::{Sprt, SprtDecision};
use rafle_arena::pdn::{parse_result, read_games, write_games};
use rafle_arena::play::{round_robin, ArenaConfig, MatchResult, Side};
use rafle_arena::NetworkSide;
use rafle_core::{EndReason, Game, Move, Variant};
use rafle_search::network::{self, EvalError, Evaluator, Leaves, NetworkPlayer, SearchParams};
use rafle_search::{parse_player, Forfeit, Player, PlayerFactory};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

fn player(spec: &str, v: Variant) -> Side {
    Side::Player(parse_player(spec, v).unwrap())
}

fn play_match(v: Variant, a: &Side, b: &Side, c: &ArenaConfig) -> MatchResult {
    rafle_arena::play_match(v, a, b, c).unwrap()
}

fn cfg(games: usize, seed: u64) -> ArenaConfig {
    ArenaConfig {
        games,
        seed,
        threads: Some(2),
        ..ArenaConfig::default()
    }
}

fn moves_of(m: &MatchResult) -> Vec<Vec<Move>> {
    m.games.iter().map(|g| g.moves.clone()).collect()
}

#[test]
fn pdn_output_replays_to_the_recorded_results() {
    for v in Variant::ALL {
        // A short cap so that some games end by it and are recorded as draws.
        let c = ArenaConfig {
            max_plies: 70,
            ..cfg(6, 5)
        };
        let m = play_match(v, &player("greedy", v), &player("random", v), &c);
        assert_eq!(m.games.len(), 6);
        let text = write_games(&m.games, "test");
        let read = read_games(&text).unwrap();
        assert_eq!(read.len(), m.games.len(), "{v}");
        for (rec, pg) in m.games.iter().zip(&read) {
            assert_eq!(pg.tag("Variant"), Some(v.name()));
            assert_eq!(pg.tag("White"), Some(rec.white.as_str()));
            assert_eq!(
                pg.tag("Termination").map(str::to_string),
                Some(rec.termination.name().to_string())
            );
            let result = pg.result.as_deref().unwrap();
            assert_eq!(pg.tag("Result"), Some(result));
            assert_eq!(parse_result(result), Some(rec.winner), "{v}: {result}");
            let g = pg.replay(None).unwrap();
            assert_eq!(g.ply(), rec.moves.len());
            match rec.termination {
                EndReason::MaxPlies => {
                    assert!(!g.is_over() && g.ply() == 70 && rec.winner.is_none());
                }
                reason => {
                    assert!(reason.by_rule(), "{reason:?}");
                    let o = g.outcome().expect("replayed game is over");
                    assert_eq!((o.winner, o.reason), (rec.winner, reason), "{v}");
                }
            }
        }
        // 70 plies end some 8x8 games; 10x10 and 12x12 games last longer.
        assert!(
            m.games.iter().any(|g| g.termination != EndReason::MaxPlies) || v.board_size() > 8,
            "{v}"
        );
    }
}

#[test]
fn pdn_reader_skips_numbers_and_comments() {
    let text =
        "[Variant \"checkers\"]\n[Result \"0-1\"]\n\n1. 11-15 {book} 23-19 2.8-11 1... 0-1\n";
    let games = read_games(text).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].moves, ["11-15", "23-19", "8-11"]);
    assert_eq!(games[0].result.as_deref(), Some("0-1"));
    assert!(games[0].replay(None).is_ok());
    let bad = "[Variant \"checkers\"]\n\n1. 11-19 *\n";
    let e = read_games(bad).unwrap()[0].replay(None).unwrap_err();
    assert!(e.contains("move 1 (11-19)") && e.contains("illegal"), "{e}");
}

#[test]
fn a_bad_game_is_reported_in_its_place_and_the_others_kept() {
    let good = "[GameType \"21\"]\n\n1. 11-15 23-19 2-0\n\n";
    let text = format!(
        "{good}[White \"x\" oops]\n\n1. 11-15 *\n\n{good}[GameType \"99\"]\n\n1. 11-15 *\n\n\
         [GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 2-0\n\n{good}1. 11-15 23-"
    );
    let read = rafle_arena::pdn::read_each(&text);
    assert_eq!(read.len(), 7, "{read:?}");
    assert!(read[0].is_ok() && read[2].is_ok() && read[5].is_ok());
    assert!(read[1]
        .as_ref()
        .unwrap_err()
        .contains("tag White: value must be quoted"));
    assert!(read[6]
        .as_ref()
        .unwrap_err()
        .contains("no result token after 2 moves"));
    // GameType picks the variant: 21 standard checkers, 20 international.
    assert_eq!(
        read[0].as_ref().unwrap().variant(None),
        Ok(Variant::Checkers)
    );
    let e = read[3].as_ref().unwrap().variant(None).unwrap_err();
    assert!(
        e.contains("GameType 99") && e.contains("20 international"),
        "{e}"
    );
    // An illegal move is named by its number (a quiet move where Black must take).
    let g = read[4].as_ref().unwrap();
    assert_eq!(g.variant(None), Ok(Variant::International));
    assert!(g.replay(None).is_ok());
    let mut wrong = g.clone();
    wrong.moves[3] = "17-21".into();
    let e = wrong.replay(None).unwrap_err();
    assert!(e.starts_with("move 2 (17-21): illegal move"), "{e}");
    assert_eq!(g.label(5), "game 5");
}

#[test]
fn results_depend_only_on_the_seed() {
    let v = Variant::Thai;
    let (a, b) = (player("alphabeta:2", v), player("uct:30", v));
    let one = play_match(
        v,
        &a,
        &b,
        &ArenaConfig {
            threads: Some(1),
            ..cfg(4, 9)
        },
    );
    let two = play_match(v, &a, &b, &cfg(4, 9));
    assert_eq!(moves_of(&one), moves_of(&two));
    assert_eq!(one.wdl, two.wdl);
    // Pair points add up to the game points.
    let half_points: u32 = one
        .penta
        .0
        .iter()
        .enumerate()
        .map(|(k, &c)| k as u32 * c)
        .sum();
    assert_eq!(one.penta.pairs(), 2);
    assert_eq!(half_points, 2 * one.wdl.wins + one.wdl.draws);
    let other = play_match(v, &a, &b, &cfg(4, 10));
    assert_ne!(moves_of(&one), moves_of(&other));
    // Colour-swapped pairs share their opening.
    let g = &one.games;
    assert!(g[0].a_is_white && !g[1].a_is_white);
    assert_eq!(g[0].moves[..4], g[1].moves[..4]);
    assert_ne!(g[0].moves[..4], g[2].moves[..4]);
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let v = Variant::Checkers;
    let sprt = Sprt {
        elo0: 0.0,
        elo1: 100.0,
        alpha: 0.05,
        beta: 0.05,
    };
    let c = ArenaConfig {
        sprt: Some(sprt),
        ..cfg(400, 1)
    };
    let m = play_match(v, &player("alphabeta:2", v), &player("random", v), &c);
    let (decision, llr) = m.sprt.unwrap();
    assert_eq!(decision, SprtDecision::AcceptH1, "llr {llr}");
    assert!(
        m.games.len() < 400 && m.games.len().is_multiple_of(16),
        "{}",
        m.games.len()
    );
}

/// Returns a move of the wrong colour: always illegal.
struct Cheat;
impl Player for Cheat {
    fn name(&self) -> String {
        "cheat".into()
    }
    fn choose(&mut self, game: &Game) -> Result<Move, Forfeit> {
        let mut g = game.clone();
        let mut flipped = *g.position();
        flipped.side = flipped.side.opponent();
        g = Game::from_position(g.variant(), flipped);
        Ok(g.legal_moves()
            .first()
            .copied()
            .unwrap_or(game.legal_moves()[0]))
    }
}

/// Plays randomly, and gives up (like a crashed engine) at ply `at` of
/// games whose seed is odd, or of every game when `always`.
struct Quitter {
    at: usize,
    always: bool,
    seed: u64,
    inner: Box<dyn Player>,
}
impl Player for Quitter {
    fn name(&self) -> String {
        "quitter".into()
    }
    fn choose(&mut self, game: &Game) -> Result<Move, Forfeit> {
        if game.ply() >= self.at && (self.always || self.seed % 2 == 1) {
            return Err(Forfeit::new(EndReason::EngineFailure, "exited (status 3)"));
        }
        self.inner.choose(game)
    }
}

fn quitter(at: usize, always: bool, v: Variant) -> Side {
    let random = parse_player("random", v).unwrap();
    Side::Player(Arc::new(move |seed| {
        Box::new(Quitter {
            at,
            always,
            seed,
            inner: random(seed),
        }) as Box<dyn Player>
    }))
}

#[test]
fn a_forfeit_loses_that_game_with_its_reason_and_detail() {
    let v = Variant::International;
    // About half the games are forfeits: no stop after some in a row here.
    let c = ArenaConfig {
        max_forfeits: usize::MAX,
        ..cfg(16, 5)
    };
    let m = play_match(v, &quitter(10, false, v), &player("random", v), &c);
    let forfeits: Vec<_> = m
        .games
        .iter()
        .filter(|g| g.termination == EndReason::EngineFailure)
        .collect();
    assert!(
        !forfeits.is_empty() && forfeits.len() < 16,
        "{}",
        forfeits.len()
    );
    for g in &forfeits {
        assert_eq!(g.a_result().losses, 1, "the quitter lost game {}", g.round);
        assert_eq!(g.detail.as_deref(), Some("quitter: exited (status 3)"));
        let text = rafle_arena::pdn::write_game(g, "t");
        assert!(text.contains("[Termination \"engine failure\"]"), "{text}");
        assert!(text.contains("{quitter: exited (status 3)}"), "{text}");
        // The comment does not disturb reading the game back.
        let back = read_games(&text).unwrap();
        assert_eq!(back[0].moves.len(), g.moves.len());
    }
}

#[test]
fn forfeits_in_a_row_stop_the_match_with_the_reason() {
    let v = Variant::Checkers;
    for threads in [1, 2] {
        let c = ArenaConfig {
            max_forfeits: 3,
            threads: Some(threads),
            ..cfg(40, 1)
        };
        match rafle_arena::play_match(v, &quitter(0, true, v), &player("random", v), &c) {
            Err(EvalError::Aborted(why)) => {
                assert!(why.contains("3 forfeits in a row"), "{why}");
                assert!(why.contains("engine failure (quitter: exited"), "{why}");
            }
            other => panic!("expected an abort, got {:?}", other.map(|m| m.wdl)),
        }
    }
}

#[test]
fn an_illegal_move_loses() {
    let v = Variant::English;
    let cheat: PlayerFactory = Arc::new(|_| Box::new(Cheat) as Box<dyn Player>);
    let m = play_match(
        v,
        &Side::Player(cheat),
        &player("random", v),
        &ArenaConfig {
            opening_plies: 0,
            ..cfg(2, 0)
        },
    );
    assert_eq!(m.wdl.losses, 2);
    assert!(m
        .games
        .iter()
        .all(|g| g.termination == EndReason::IllegalMove));
}

#[test]
fn round_robin_ratings_are_anchored_at_random() {
    let v = Variant::Checkers;
    let names = ["greedy", "random", "alphabeta:3"];
    let players: Vec<_> = names
        .iter()
        .map(|s| (s.to_string(), player(s, v)))
        .collect();
    let rr = round_robin(v, &players, &cfg(10, 3)).unwrap();
    assert_eq!(rr.matches.len(), 3);
    assert_eq!(rr.anchor, 1);
    assert_eq!(rr.ratings[1], 0.0);
    assert!(rr.ratings[2] > rr.ratings[1], "{:?}", rr.ratings);
    let w = rr.wdl(2, 1).unwrap();
    assert_eq!(w.games(), 10);
    assert_eq!(rr.wdl(1, 2).unwrap(), w.flipped());
    let table = rafle_arena::report::crosstable(&rr);
    assert!(table.contains("anchored at random = 0"), "{table}");
}

#[test]
fn opening_lists_are_played_in_turn() {
    let v = Variant::Checkers;
    let list = "# two openings\n1. 11-15 23-19\n9-13 22-18 # second\n";
    let openings = rafle_arena::play::parse_openings(v, list).unwrap();
    assert_eq!(openings.len(), 2);
    let c = ArenaConfig {
        openings,
        opening_plies: 0,
        ..cfg(6, 0)
    };
    let m = play_match(v, &player("greedy", v), &player("random", v), &c);
    let first = |i: usize| rafle_core::notation::move_to_string(v, &m.games[i].moves[0]);
    assert_eq!(
        [first(0), first(1), first(2), first(4)],
        ["11-15", "11-15", "9-13", "11-15"]
    );
    assert_eq!(m.games[2].opening, "list 2 + 0 random plies");
    for bad in ["11-19 23-19", "", "11-15 11-15"] {
        assert!(
            rafle_arena::play::parse_openings(v, bad).is_err(),
            "{bad:?}"
        );
    }
}

/// The stand-in network of `network::stand_in::hashed_answers`, counting its calls and leaves.
#[derive(Clone, Default)]
struct Hashed {
    calls: Arc<AtomicUsize>,
    leaves: Arc<AtomicUsize>,
}

impl Evaluator for Hashed {
    fn evaluate(
        &mut self,
        l: &Leaves,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), EvalError> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.leaves.fetch_add(l.n, Ordering::Relaxed);
        rafle_search::network::stand_in::hashed_answers(0, l, logits, values)
    }
}

fn network_side(name: &str, e: &Hashed, sims: usize) -> Side {
    Side::Network(NetworkSide {
        name: name.into(),
        evaluator: network::shared(e.clone()),
        params: SearchParams::default(),
        simulations: sims,
    })
}

/// The same network as a per-game player: every game evaluates alone.
fn per_game_side(name: &str, e: &Hashed, sims: usize) -> Side {
    let (name, e) = (name.to_string(), e.clone());
    Side::Player(Arc::new(move |seed| {
        Box::new(NetworkPlayer::new(
            name.clone(),
            e.clone(),
            SearchParams::default(),
            sims,
            seed,
        )) as Box<dyn Player>
    }))
}

#[test]
fn lockstep_arena_plays_the_per_game_arena_games() {
    for (v, sims, opp) in [
        (Variant::Thai, 8, "alphabeta:2"),
        (Variant::International, 4, "greedy"),
        (Variant::Checkers, 0, "uct:20"),
    ] {
        let e = Hashed::default();
        let c = ArenaConfig {
            max_plies: 120,
            ..cfg(6, 4)
        };
        let lock = play_match(v, &network_side("net", &e, sims), &player(opp, v), &c);
        let per_game = play_match(v, &per_game_side("net", &e, sims), &player(opp, v), &c);
        assert_eq!(
            write_games(&lock.games, "t"),
            write_games(&per_game.games, "t"),
            "{v}"
        );
        assert_eq!(lock.wdl, per_game.wdl);
        assert_eq!(lock.penta, per_game.penta);
        // B as the network side, and both sides networks.
        let lock = play_match(v, &player(opp, v), &network_side("net", &e, sims), &c);
        let per_game = play_match(v, &player(opp, v), &per_game_side("net", &e, sims), &c);
        assert_eq!(
            write_games(&lock.games, "t"),
            write_games(&per_game.games, "t"),
            "{v}"
        );
        let other = Hashed::default();
        let lock = play_match(
            v,
            &network_side("n1", &e, sims),
            &network_side("n2", &other, 2),
            &c,
        );
        let per_game = play_match(
            v,
            &per_game_side("n1", &e, sims),
            &per_game_side("n2", &other, 2),
            &c,
        );
        assert_eq!(
            write_games(&lock.games, "t"),
            write_games(&per_game.games, "t"),
            "{v}"
        );
        assert!(lock.a_network.is_some() && lock.b_network.is_some());
    }
}

#[test]
fn a_network_side_is_evaluated_in_batches_across_games() {
    let v = Variant::Thai;
    let e = Hashed::default();
    let m = play_match(
        v,
        &network_side("net", &e, 8),
        &player("greedy", v),
        &cfg(16, 2),
    );
    let stats = m.a_network.unwrap();
    assert_eq!(stats.calls as usize, e.calls.load(Ordering::Relaxed));
    assert_eq!(stats.evals as usize, e.leaves.load(Ordering::Relaxed));
    // 16 games, the network to move in about half of them at any time.
    assert!(stats.avg_batch() > 4.0, "{stats:?}");
    assert!(m.b_network.is_none());
    // A's moves: the plies after the opening where A was to move.
    let a_moves: u64 = m
        .games
        .iter()
        .map(|g| {
            let mut replay = Game::new(v);
            let mut n = 0;
            for (i, mv) in g.moves.iter().enumerate() {
                let a_to_move = (replay.turn() == rafle_core::Color::White) == g.a_is_white;
                n += u64::from(i >= g.opening_plies && a_to_move);
                replay.play(mv).unwrap();
            }
            n
        })
        .sum();
    assert_eq!(m.a_effort.moves, a_moves);
    // The per-game arena calls the network once per leaf.
    let one = Hashed::default();
    play_match(
        v,
        &per_game_side("net", &one, 8),
        &player("greedy", v),
        &cfg(16, 2),
    );
    assert_eq!(
        one.calls.load(Ordering::Relaxed),
        one.leaves.load(Ordering::Relaxed)
    );
    assert!(one.calls.load(Ordering::Relaxed) as f64 > 4.0 * stats.calls as f64);
}

#[test]
fn more_leaves_per_round_make_larger_batches() {
    let v = Variant::Thai;
    let e = Hashed::default();
    let side = |leaves| {
        Side::Network(NetworkSide {
            name: "net".into(),
            evaluator: network::shared(e.clone()),
            params: SearchParams {
                leaves_per_round: leaves,
                ..SearchParams::default()
            },
            simulations: 32,
        })
    };
    let one = play_match(v, &side(1), &player("greedy", v), &cfg(2, 1))
        .a_network
        .unwrap();
    let eight = play_match(v, &side(8), &player("greedy", v), &cfg(2, 1))
        .a_network
        .unwrap();
    assert!(one.avg_batch() <= 2.0, "{one:?}");
    assert!(
        eight.avg_batch() > 2.0 * one.avg_batch(),
        "{one:?} vs {eight:?}"
    );
}

#[test]
fn an_evaluator_error_or_a_stop_ends_the_match_with_an_error() {
    let v = Variant::Thai;
    let failing =
        |_: &Leaves, _: &mut [f32], _: &mut [f32]| Err(EvalError::Failed("no network".into()));
    let side = Side::Network(NetworkSide {
        name: "broken".into(),
        evaluator: Arc::new(Mutex::new(failing)),
        params: SearchParams::default(),
        simulations: 4,
    });
    let err = rafle_arena::play_match(v, &side, &player("random", v), &cfg(4, 0)).unwrap_err();
    assert_eq!(err, EvalError::Failed("no network".into()));
    let stop = Arc::new(AtomicBool::new(true));
    let c = ArenaConfig {
        stop: Some(stop),
        ..cfg(4, 0)
    };
    for (a, b) in [
        (
            network_side("net", &Hashed::default(), 4),
            player("random", v),
        ),
        (player("alphabeta:2", v), player("random", v)),
    ] {
        let err = rafle_arena::play_match(v, &a, &b, &c).unwrap_err();
        assert_eq!(err, EvalError::Interrupted);
    }
}

/// What a watcher saw of a game: plies at its start, the moves since, its end.
type Seen = (usize, Vec<Move>, bool);

/// The watcher sees each game start once after its opening, every move
/// after it as played, and its end, in both arenas (per game and lockstep).
#[test]
fn a_watcher_sees_every_move_of_every_game() {
    use rafle_arena::{GameEvent, Watcher};
    let v = Variant::Thai;
    let e = Hashed::default();
    for (a, b) in [
        (player("greedy", v), player("random", v)),
        (network_side("net", &e, 4), player("random", v)),
    ] {
        let seen: Arc<Mutex<Vec<Seen>>> = Arc::new(Mutex::new(vec![(0, Vec::new(), false); 4]));
        let s = seen.clone();
        let c = ArenaConfig {
            watcher: Some(Watcher(Arc::new(move |ev: &GameEvent| {
                let mut s = s.lock().unwrap();
                match *ev {
                    GameEvent::Started { game, position, .. } => s[game].0 = position.ply(),
                    GameEvent::Moved { game, position } => {
                        s[game].1.push(*position.history().last().unwrap())
                    }
                    GameEvent::Ended { record } => s[record.round - 1].2 = true,
                }
            }))),
            ..cfg(4, 3)
        };
        let m = play_match(v, &a, &b, &c);
        let seen = seen.lock().unwrap();
        for (rec, (start, moves, ended)) in m.games.iter().zip(seen.iter()) {
            assert!(*ended);
            assert_eq!(*start, rec.opening_plies);
            assert_eq!(moves.as_slice(), &rec.moves[rec.opening_plies..]);
        }
    }
}

/// The ladders keep the openings their games were calibrated with: four
/// random plies from the start position, which `rafle_core::opening` now
/// draws for the arena, self-play and the teacher alike. The placements
/// `rafle ladder --player greedy --games 8 --seed 7` printed at commit
/// c2ee0f7, before the openings moved there from rafle-arena, came from
/// these games (the rungs met and the W/D/L against each; on the ladder
/// files of c121dfa they still print c2ee0f7's Elos, e.g. thai's `elo 864
/// [600, 1127]`). The games, not the Elos, are pinned: a refit that adds
/// rungs moves the rungs' Elos and so the placements' (english's 943 went
/// to 925 when its learned rungs came), not the games.
#[test]
fn placements_are_those_of_the_arena_before_openings_moved_to_the_core() {
    use rafle_arena::ladder::{place::place, Ladder};
    const BEFORE: &[(&str, &str)] = &[
        (
            "thai",
            "uct:64 +0 =0 -2, alphabeta:1 +0 =0 -2, alphabeta:2 +0 =0 -2, alphabeta:3 +0 =0 -2",
        ),
        (
            "international",
            "uct:64 +0 =0 -4, alphabeta:1 +0 =0 -2, alphabeta:2 +0 =0 -2",
        ),
        (
            "english",
            "alphabeta:1 +0 =0 -4, alphabeta:2 +0 =0 -2, alphabeta:3 +0 =0 -2",
        ),
        (
            "checkers",
            "alphabeta:1 +0 =0 -4, alphabeta:2 +0 =0 -2, alphabeta:3 +0 =0 -2",
        ),
        (
            "russian",
            "uct:64 +0 =0 -2, alphabeta:1 +0 =0 -2, alphabeta:2 +0 =0 -2, alphabeta:3 +0 =0 -2",
        ),
        (
            "brazilian",
            "uct:64 +0 =0 -2, alphabeta:1 +0 =0 -2, alphabeta:2 +0 =0 -2, alphabeta:3 +0 =0 -2",
        ),
        (
            "pool",
            "uct:64 +0 =0 -2, alphabeta:1 +0 =0 -2, alphabeta:2 +0 =0 -2, alphabeta:3 +0 =0 -2",
        ),
        (
            "italian",
            "alphabeta:1 +0 =0 -4, alphabeta:2 +0 =0 -2, alphabeta:3 +0 =0 -2",
        ),
        (
            "spanish",
            "uct:64 +0 =0 -2, alphabeta:1 +0 =0 -2, alphabeta:2 +0 =0 -2, alphabeta:3 +0 =0 -2",
        ),
        (
            "czech",
            "uct:64 +0 =0 -2, alphabeta:1 +0 =0 -2, alphabeta:2 +0 =0 -2, alphabeta:3 +0 =0 -2",
        ),
        (
            "killer",
            "uct:64 +0 =0 -4, alphabeta:1 +0 =0 -2, alphabeta:2 +0 =0 -2",
        ),
        (
            "antidraughts",
            "uct:64 +0 =0 -4, alphabeta:1 +0 =0 -2, uct:512 +0 =0 -2",
        ),
        (
            "breakthrough",
            "uct:16 +1 =0 -1, uct:32 +0 =0 -2, uct:64 +0 =0 -2, alphabeta:1 +0 =0 -2",
        ),
        (
            "frisian",
            "uct:32 +0 =1 -1, uct:64 +0 =0 -2, alphabeta:1 +0 =0 -2, alphabeta:2 +0 =0 -2",
        ),
        (
            "turkish",
            "uct:64 +0 =0 -4, uct:128 +0 =0 -2, uct:256 +0 =0 -2",
        ),
        (
            "canadian",
            "uct:32 +0 =0 -2, uct:64 +0 =0 -2, uct:128 +0 =0 -2, uct:256 +0 =0 -2",
        ),
    ];
    assert_eq!(BEFORE.len(), Variant::ALL.len());
    for v in Variant::ALL {
        let mut ladder = Ladder::builtin(v).unwrap();
        // The learned-evaluation rungs came later: without them the
        // placement starts where it did.
        ladder
            .rungs
            .retain(|r| !rafle_arena::ladder::plays_zoo_eval(&r.spec));
        assert_eq!(ladder.opening_plies, 4, "{v}");
        let p = place(v, &player("greedy", v), &ladder, 8, 7, &cfg(0, 0)).unwrap();
        let games = p
            .rungs
            .iter()
            .map(|r| {
                format!(
                    "{} +{} ={} -{}",
                    r.spec, r.wdl.wins, r.wdl.draws, r.wdl.losses
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        let want = BEFORE.iter().find(|(name, _)| *name == v.name()).unwrap().1;
        assert_eq!(games, want, "{v}");
    }
}
