//! Engines through the protocols, end to end: rafle's Hub client driving
//! `rafle hub`, rafle's DXP initiator against `rafle dxp --listen`, each
//! giving exactly the games of the same match in-process; misbehaving
//! engines (tests/fake_hub.py for Hub, a fake follower thread for DXP)
//! that crash, send garbage, play an illegal move or fall silent, each
//! losing its game with the reason while nothing hangs, and a late one
//! that `stop` saves; DXP game results (GAMEEND reasons) both ways.
//! pydraughts' hosts and the asynchronous Hub engine are tested from
//! Python (python/tests/test_pydraughts.py).

use rafle_arena::{pdn, play_match, ArenaConfig, MatchResult, Side};
use rafle_core::{EndReason, Game, Variant};
use rafle_engine::dxp::message::Message;
use rafle_engine::dxp::Connection;
use rafle_engine::notation::WireMove;
use rafle_engine::{parse_player, EngineOptions, Level};
use rafle_search::network::EvalError;
use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

const RAFLE: &str = env!("CARGO_BIN_EXE_rafle");

fn fake_hub() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_hub.py")
}

fn opts(level: Option<Level>) -> EngineOptions {
    EngineOptions {
        level,
        timeout: Duration::from_secs(20),
        ..EngineOptions::default()
    }
}

fn cfg(games: usize, threads: usize) -> ArenaConfig {
    ArenaConfig {
        games,
        seed: 9,
        max_plies: 80,
        threads: Some(threads),
        ..ArenaConfig::default()
    }
}

/// `spec` for every game with seed 0, as `rafle hub`/`rafle dxp` build it.
fn fixed_seed(spec: &str, v: Variant) -> Side {
    let f = rafle_search::parse_player(spec, v).unwrap();
    Side::Player(Arc::new(move |_| f(0)))
}

/// The games as PDN with the engine's name replaced by the in-process one.
fn games_text(m: &MatchResult, engine_name: &str, name: &str) -> String {
    pdn::write_games(&m.games, "t").replace(engine_name, name)
}

/// A `rafle dxp` follower on a free port, and its address.
struct Follower(Child, String);

impl Follower {
    fn start(variant: Variant, player: &str) -> Follower {
        Follower::start_with(variant, player, &[])
    }

    fn start_with(variant: Variant, player: &str, args: &[&str]) -> Follower {
        let mut child = Command::new(RAFLE)
            .args([
                "dxp",
                "--listen",
                "0",
                "--variant",
                variant.name(),
                "--player",
                player,
            ])
            .args(args)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stderr.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .split_whitespace()
            .find(|w| w.starts_with("127.0.0.1:"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Follower(child, addr)
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn matches_through_hub_and_dxp_give_the_games_played_in_process() {
    let player = "alphabeta:2";
    // One variant of each numbering (rafle_engine::notation::Numbering).
    for v in [
        Variant::International,
        Variant::Thai,
        Variant::Russian,
        Variant::Checkers,
    ] {
        let a = Side::Player(rafle_search::parse_player(player, v).unwrap());
        let in_process = play_match(v, &a, &fixed_seed(player, v), &cfg(6, 2)).unwrap();
        let reference = games_text(&in_process, "", "");

        let hub = format!("hub:{RAFLE} hub --variant {} --player {player}", v.name());
        let b = Side::Player(parse_player(&hub, v, &opts(None)).unwrap());
        let through_hub = play_match(v, &a, &b, &cfg(6, 2)).unwrap();
        assert_eq!(
            games_text(&through_hub, &hub, player),
            reference,
            "{v} through Hub"
        );

        let follower = Follower::start(v, player);
        let dxp = format!("dxp:{}", follower.1);
        let b = Side::Player(parse_player(&dxp, v, &opts(None)).unwrap());
        let through_dxp = play_match(v, &a, &b, &cfg(6, 2)).unwrap();
        assert_eq!(
            games_text(&through_dxp, &dxp, player),
            reference,
            "{v} through DXP"
        );
        assert_eq!(through_dxp.wdl, in_process.wdl);
    }
}

#[test]
fn rafle_eval_plays_an_engine_from_the_command_line() {
    let dir = std::env::temp_dir().join(format!("rafle-engines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pdn_path = dir.join("m.pdn");
    let hub = format!("hub:{RAFLE} hub --player greedy");
    let out = Command::new(RAFLE)
        .args([
            "eval",
            "--variant",
            "international",
            "--a",
            "alphabeta:1",
            "--b",
            &hub,
        ])
        .args([
            "--games",
            "2",
            "--max-plies",
            "40",
            "--quiet",
            "--engine-level",
            "depth=2",
        ])
        .args([
            "--engine-param",
            "seed=3",
            "--engine-concurrency",
            "2",
            "--pdn",
        ])
        .arg(&pdn_path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains(&hub) && text.contains("2 games written"),
        "{text}"
    );
    let games = pdn::read_games(&std::fs::read_to_string(&pdn_path).unwrap()).unwrap();
    assert_eq!(games.len(), 2);
    // Bad engine input: one line, non-zero exit.
    for (args, needle) in [
        (vec!["--b", "hub:/no/such/engine"], "cannot start"),
        (vec!["--b", "dxp:127.0.0.1:notaport"], "port"),
        (
            vec!["--b", &hub, "--engine-level", "depth=x"],
            "--engine-level",
        ),
        (vec!["--b", &hub, "--engine-param", "book"], "name=value"),
        (
            vec!["--b", &hub, "--engine-param", "book=false"],
            "no parameter \"book\"",
        ),
    ] {
        let out = Command::new(RAFLE)
            .args([
                "eval",
                "--variant",
                "international",
                "--a",
                "random",
                "--games",
                "2",
            ])
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(
            err.contains(needle) && err.trim().lines().count() == 1,
            "{args:?}: {err}"
        );
    }
    let help = Command::new(RAFLE)
        .args(["eval", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for part in [
        "hub:<command line>",
        "dxp:<host>:<port>",
        "--engine-level",
        "--engine-concurrency",
    ] {
        assert!(help.contains(part), "rafle eval --help lacks {part}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A match of random against the fake Hub engine striking at its `after`-th search.
fn fake_hub_match(mode: &str, after: usize, games: usize) -> Result<MatchResult, EvalError> {
    let v = Variant::International;
    let spec = format!(
        "hub:python3 {} {mode} {after} -- {RAFLE} hub --player random",
        fake_hub().display()
    );
    let b = Side::Player(parse_player(&spec, v, &opts(Some(Level::MoveTime(0.05)))).unwrap());
    let a = Side::Player(rafle_search::parse_player("random", v).unwrap());
    play_match(
        v,
        &a,
        &b,
        &ArenaConfig {
            max_plies: 200,
            ..cfg(games, 1)
        },
    )
}

#[test]
fn a_hub_engine_that_misbehaves_loses_with_the_reason() {
    for (mode, reason, detail) in [
        ("crash", EndReason::EngineFailure, "crashing on purpose"),
        ("garbage", EndReason::ProtocolError, "banana"),
        ("illegal", EndReason::IllegalMove, "1-2 is not legal at"),
        ("silent", EndReason::TimeForfeit, "no move within 1.1 s"),
        // A bare `error` shows the line and what was sent before it.
        (
            "error",
            EndReason::ProtocolError,
            "an error without a message (\"error\"), after ",
        ),
    ] {
        let t = Instant::now();
        // It strikes at its third search: mid-game, in the first game.
        let m = fake_hub_match(mode, 2, 4).unwrap();
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "{mode} took {:?}",
            t.elapsed()
        );
        let first = &m.games[0];
        assert_eq!(first.termination, reason, "{mode}");
        assert_eq!(first.a_result().wins, 1, "{mode}: the engine lost game 1");
        let d = first.detail.as_deref().unwrap_or("");
        assert!(d.contains(detail) && d.starts_with("hub:"), "{mode}: {d}");
        if mode == "error" {
            assert!(d.contains("\"go think\""), "{d}");
        }
        let text = pdn::write_game(first, "t");
        assert!(
            text.contains(&format!("[Termination \"{reason}\"]")),
            "{text}"
        );
        // The match went on, each game with a fresh process (which
        // strikes again at its third search): every game is that forfeit.
        assert_eq!(m.games.len(), 4);
        assert!(m.games.iter().all(|g| g.termination == reason), "{mode}");
        assert_eq!((m.wdl.wins, m.wdl.draws, m.wdl.losses), (4, 0, 0), "{mode}");
    }
}

#[test]
fn a_first_version_hub_engine_plays_in_its_dialect() {
    let v1 = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_hub_v1.py");
    let spec = |variant: &str| {
        format!(
            "hub:python3 {} -- {RAFLE} hub --variant {variant} --player random",
            v1.display()
        )
    };
    let v = Variant::International;
    // Its lines are the first version's: a line of the second gets an
    // `error`, which would end the game as a protocol error.
    for level in [Level::MoveTime(0.05), Level::Depth(2)] {
        let b = Side::Player(parse_player(&spec("international"), v, &opts(Some(level))).unwrap());
        let a = Side::Player(rafle_search::parse_player("random", v).unwrap());
        let m = play_match(v, &a, &b, &cfg(2, 1)).unwrap();
        assert_eq!(m.games.len(), 2);
        for g in &m.games {
            assert!(!g.termination.is_forfeit(), "{level:?}: {:?}", g.detail);
            assert!(g.moves.len() > 6, "{level:?}: the game went on");
        }
    }
    // What the first version cannot do is said before the match.
    for (variant, level, needle) in [
        (Variant::Thai, None, "international draughts only"),
        (v, Some(Level::Nodes(100)), "no node level"),
    ] {
        match parse_player(&spec(variant.name()), variant, &opts(level)) {
            Err(e) => assert!(e.to_string().contains(needle), "{variant}: {e}"),
            Ok(_) => panic!("{variant} {level:?}: a first-version engine was accepted"),
        }
    }
}

#[test]
fn a_hub_engine_past_its_time_is_told_to_stop_and_its_move_counts() {
    // Silent until `stop`, which rafle sends when the move time (0.05 s,
    // twice that allowed) has passed: the game goes on, no forfeit.
    let t = Instant::now();
    let m = fake_hub_match("late", 2, 2).unwrap();
    assert!(t.elapsed() < Duration::from_secs(60));
    assert_eq!(m.games.len(), 2);
    for g in &m.games {
        assert!(!g.termination.is_forfeit(), "{:?}", g.detail);
        assert!(g.moves.len() > 6, "the game went past the late move");
    }
}

#[test]
fn an_engine_failing_every_game_stops_the_match_in_one_line() {
    match fake_hub_match("crash", 0, 40) {
        Err(EvalError::Aborted(why)) => {
            assert!(
                why.contains("5 forfeits in a row") && why.contains("engine failure"),
                "{why}"
            );
            assert!(!why.contains('\n'));
        }
        other => panic!("expected a stop, got {:?}", other.map(|m| m.wdl)),
    }
}

/// A DXP follower that plays its first legal moves and then, at its
/// `after`-th move, does what `mode` says; one connection, games in turn.
fn fake_follower(mode: &'static str, after: usize) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { return };
            std::thread::spawn(move || {
                let mut conn = Connection::new(stream).unwrap();
                let v = Variant::International;
                let mut game: Option<(Game, rafle_core::Color)> = None;
                let mut moves = 0;
                while let Ok(text) = conn.recv(Duration::from_secs(60), None) {
                    match Message::decode(&text) {
                        Ok(Message::GameRequest {
                            follower, position, ..
                        }) => {
                            let pos = match position {
                                None => rafle_core::Position::start(v),
                                Some((side, board)) => rafle_engine::notation::DXP
                                    .read(
                                        v,
                                        &format!(
                                            "{}{board}",
                                            rafle_engine::notation::DXP.side(side)
                                        ),
                                    )
                                    .unwrap(),
                            };
                            game = Some((Game::from_position(v, pos), follower));
                            let _ = conn.send(&Message::GameAccept {
                                name: "fake".into(),
                                code: '0',
                            });
                        }
                        Ok(Message::Move {
                            from, to, captured, ..
                        }) => {
                            if let Some((g, _)) = game.as_mut() {
                                let m = WireMove { from, to, captured }.find(v, g).unwrap();
                                g.play(&m).unwrap();
                            }
                        }
                        Ok(Message::GameEnd { .. }) => {
                            game = None;
                            let _ = conn.send(&Message::GameEnd {
                                reason: '0',
                                stop: '0',
                            });
                            continue;
                        }
                        _ => continue,
                    }
                    let Some((g, me)) = game.as_mut() else {
                        continue;
                    };
                    if g.turn() != *me || g.is_over() {
                        continue;
                    }
                    if moves == after {
                        moves += 1;
                        match mode {
                            "crash" => return,
                            "garbage" => {
                                let _ = conn.send(&Message::Chat("fine".into()));
                                let _ = conn.send_text("Mxyz");
                            }
                            "illegal" => {
                                let _ = conn.send(&Message::Move {
                                    seconds: 0,
                                    from: 1,
                                    to: 2,
                                    captured: vec![],
                                });
                            }
                            _ => {} // silent
                        }
                        continue;
                    }
                    moves += 1;
                    let m = g.legal_moves()[0];
                    let w = WireMove::of(v, &m);
                    g.play(&m).unwrap();
                    let _ = conn.send(&Message::Move {
                        seconds: 0,
                        from: w.from,
                        to: w.to,
                        captured: w.captured,
                    });
                }
            });
        }
    });
    addr
}

#[test]
fn a_dxp_engine_that_misbehaves_loses_with_the_reason() {
    let v = Variant::International;
    for (mode, reason, detail) in [
        ("crash", EndReason::EngineFailure, "closed the connection"),
        ("garbage", EndReason::ProtocolError, "\"Mxyz\""),
        ("illegal", EndReason::IllegalMove, "1-2 is not legal at"),
        ("silent", EndReason::TimeForfeit, "no move within 3.0 s"),
    ] {
        let addr = fake_follower(mode, 2);
        let o = EngineOptions {
            level: Some(Level::parse("time=60").unwrap()),
            timeout: Duration::from_secs(3),
            ..EngineOptions::default()
        };
        let b = Side::Player(parse_player(&format!("dxp:{addr}"), v, &o).unwrap());
        let a = Side::Player(rafle_search::parse_player("random", v).unwrap());
        let t = Instant::now();
        let m = play_match(
            v,
            &a,
            &b,
            &ArenaConfig {
                max_plies: 200,
                ..cfg(2, 1)
            },
        )
        .unwrap();
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "{mode} took {:?}",
            t.elapsed()
        );
        let first = &m.games[0];
        assert_eq!(first.termination, reason, "{mode}");
        assert_eq!(first.a_result().wins, 1, "{mode}");
        let d = first.detail.as_deref().unwrap_or("");
        assert!(d.contains(detail) && d.starts_with("dxp:"), "{mode}: {d}");
        assert_eq!(m.wdl.games(), 2);
    }
}

/// The DXP reason from `side`'s view of a game won by `winner`.
fn reason(winner: Option<rafle_core::Color>, side: rafle_core::Color) -> char {
    rafle_engine::dxp::client::reason_for(winner, side)
}

/// A DXP follower that plays `spec` and records each GAMEEND it receives
/// with its colour; it acknowledges with `claim`, or with the result from
/// its side (by the rules if they ended its game, else the initiator's).
type Ends = Arc<std::sync::Mutex<Vec<(rafle_core::Color, char)>>>;

fn recording_follower(spec: &str, claim: Option<char>) -> (String, Ends) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let ends: Ends = Arc::default();
    let (record, spec) = (ends.clone(), spec.to_string());
    std::thread::spawn(move || {
        let Some(Ok(stream)) = listener.incoming().next() else {
            return;
        };
        let v = Variant::International;
        let mut conn = Connection::new(stream).unwrap();
        let factory = rafle_search::parse_player(&spec, v).unwrap();
        let mut table: Option<(Game, rafle_core::Color, Box<dyn rafle_search::Player>)> = None;
        while let Ok(text) = conn.recv(Duration::from_secs(60), None) {
            match Message::decode(&text).unwrap() {
                Message::GameRequest {
                    follower, position, ..
                } => {
                    let pos = match position {
                        None => rafle_core::Position::start(v),
                        Some((side, board)) => rafle_engine::notation::DXP
                            .read(
                                v,
                                &format!("{}{board}", rafle_engine::notation::DXP.side(side)),
                            )
                            .unwrap(),
                    };
                    table = Some((Game::from_position(v, pos), follower, factory(1)));
                    conn.send(&Message::GameAccept {
                        name: "recorder".into(),
                        code: '0',
                    })
                    .unwrap();
                }
                Message::Move {
                    from, to, captured, ..
                } => {
                    let (g, _, _) = table.as_mut().unwrap();
                    let m = WireMove { from, to, captured }.find(v, g).unwrap();
                    g.play(&m).unwrap();
                }
                Message::GameEnd { reason: theirs, .. } => {
                    let (g, me, _) = table.take().unwrap();
                    record.lock().unwrap().push((me, theirs));
                    let ours = claim.unwrap_or_else(|| match g.outcome() {
                        Some(o) => reason(o.winner, me),
                        None => ['0', '3', '2', '1'][theirs as usize - '0' as usize],
                    });
                    conn.send(&Message::GameEnd {
                        reason: ours,
                        stop: '0',
                    })
                    .unwrap();
                    continue;
                }
                _ => continue,
            }
            let Some((g, me, player)) = table.as_mut() else {
                continue;
            };
            if g.turn() == *me && !g.is_over() {
                let m = player.choose(g).unwrap();
                let w = WireMove::of(v, &m);
                g.play(&m).unwrap();
                conn.send(&Message::Move {
                    seconds: 0,
                    from: w.from,
                    to: w.to,
                    captured: w.captured,
                })
                .unwrap();
            }
        }
    });
    (addr, ends)
}

#[test]
fn the_dxp_initiator_sends_the_arenas_result_and_notes_a_different_one() {
    let v = Variant::International;
    let mut seen = std::collections::BTreeSet::new();
    // The engine wins, loses, or the arena adjudicates a draw.
    for (ours, engine, max_plies) in [
        ("random", "alphabeta:2", 300),
        ("alphabeta:2", "random", 300),
        ("random", "random", 6),
    ] {
        let (addr, ends) = recording_follower(engine, None);
        let b = Side::Player(parse_player(&format!("dxp:{addr}"), v, &opts(None)).unwrap());
        let a = Side::Player(rafle_search::parse_player(ours, v).unwrap());
        let cfg = ArenaConfig {
            max_plies,
            ..cfg(2, 1)
        };
        let m = play_match(v, &a, &b, &cfg).unwrap();
        let ends = ends.lock().unwrap().clone();
        assert_eq!(ends.len(), 2, "{ours} against {engine}");
        for (g, (engine_side, sent)) in m.games.iter().zip(ends) {
            assert_eq!(
                sent,
                reason(g.winner, engine_side.opponent()),
                "{ours}/{engine}"
            );
            assert_eq!(g.detail, None, "the engine agreed");
            seen.insert(sent);
        }
    }
    assert_eq!(seen.into_iter().collect::<String>(), "123");
    // An engine that always claims the win: a note where it did not win.
    let (addr, _) = recording_follower("random", Some('3'));
    let b = Side::Player(parse_player(&format!("dxp:{addr}"), v, &opts(None)).unwrap());
    let a = Side::Player(rafle_search::parse_player("alphabeta:2", v).unwrap());
    let m = play_match(
        v,
        &a,
        &b,
        &ArenaConfig {
            max_plies: 300,
            ..cfg(2, 1)
        },
    )
    .unwrap();
    for g in &m.games {
        let d = g.detail.as_deref().unwrap_or("");
        assert!(
            d.contains("its GAMEEND says it won (reason 3, the arena's result being it lost)"),
            "{d}"
        );
        assert!(pdn::write_game(g, "t").contains(d));
    }
}

#[test]
fn the_dxp_follower_ends_games_with_its_result() {
    let v = Variant::International;
    let follower = Follower::start(v, "alphabeta:2");
    let wait = Duration::from_secs(20);
    let request = |fen: &str, follower_side| {
        let stream = std::net::TcpStream::connect(&follower.1).unwrap();
        let mut conn = Connection::new(stream).unwrap();
        let pos = Game::from_fen(v, fen).unwrap().position().to_owned();
        let board = rafle_engine::notation::DXP.write(v, &pos)[1..].to_string();
        conn.send(&Message::GameRequest {
            name: "test".into(),
            follower: follower_side,
            minutes: 5,
            moves: 0,
            position: (fen != "start").then_some((pos.side, board)),
        })
        .unwrap();
        let accepted = Message::decode(&conn.recv(wait, None).unwrap()).unwrap();
        assert!(matches!(accepted, Message::GameAccept { code: '0', .. }));
        conn
    };
    let next = |conn: &Connection| Message::decode(&conn.recv(wait, None).unwrap()).unwrap();
    let white = rafle_core::Color::White;
    // rafle (White) takes Black's last man: it won.
    let conn = request("W:W28:B22", white);
    assert!(matches!(
        next(&conn),
        Message::Move {
            from: 28,
            to: 17,
            ..
        }
    ));
    assert_eq!(
        next(&conn),
        Message::GameEnd {
            reason: '3',
            stop: '0'
        }
    );
    // Black (us) takes rafle's last man: it lost.
    let mut conn = request("B:W28:B22", white);
    conn.send(&Message::Move {
        seconds: 0,
        from: 22,
        to: 33,
        captured: vec![28],
    })
    .unwrap();
    assert_eq!(
        next(&conn),
        Message::GameEnd {
            reason: '1',
            stop: '0'
        }
    );
    // Ended by us: rafle gives the same result from its side.
    for (ours, theirs) in [('1', '3'), ('2', '2'), ('3', '1'), ('0', '0')] {
        let mut conn = request("W:W31,32,33:B18,19,20", rafle_core::Color::Black);
        conn.send(&Message::GameEnd {
            reason: ours,
            stop: '0',
        })
        .unwrap();
        assert_eq!(
            next(&conn),
            Message::GameEnd {
                reason: theirs,
                stop: '0'
            }
        );
    }
    // A draw by the rules (thai T9: one king each).
    let thai = Follower::start(Variant::Thai, "alphabeta:2");
    let stream = std::net::TcpStream::connect(&thai.1).unwrap();
    let mut conn = Connection::new(stream).unwrap();
    let pos = Game::from_fen(Variant::Thai, "W:WK29:BK4")
        .unwrap()
        .position()
        .to_owned();
    conn.send(&Message::GameRequest {
        name: "test".into(),
        follower: white,
        minutes: 5,
        moves: 0,
        position: Some((
            white,
            rafle_engine::notation::DXP.write(Variant::Thai, &pos)[1..].to_string(),
        )),
    })
    .unwrap();
    assert!(matches!(next(&conn), Message::GameAccept { code: '0', .. }));
    assert_eq!(
        next(&conn),
        Message::GameEnd {
            reason: '2',
            stop: '0'
        }
    );
}

#[test]
fn rafle_hub_numbers_the_squares_as_it_is_told() {
    // russian from the start, White to move: pydraughts numbers White's
    // first moves from a1 (9-13 ...), rafle from b8 (21-17 ...), as
    // pydraughts 0.5 (lidraughts-bot) does.
    let start = format!("W{}{}{}", "b".repeat(12), "e".repeat(8), "w".repeat(12));
    for (args, set, froms) in [
        (vec![], None, 9..=12),
        (vec!["--numbering", "rafle"], None, 21..=24),
        (vec![], Some("rafle"), 21..=24),
        (vec!["--numbering", "rafle"], Some("pydraughts"), 9..=12),
    ] {
        let mut child = Command::new(RAFLE)
            .args(["hub", "--variant", "russian", "--player", "greedy"])
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        let mut script = String::from("hub\n");
        if let Some(n) = set {
            script.push_str(&format!("set-param name=numbering value={n}\n"));
        }
        script.push_str(&format!("init\npos pos={start}\ngo think\n"));
        std::io::Write::write_all(&mut input, script.as_bytes()).unwrap();
        let mut done = String::new();
        for line in BufReader::new(child.stdout.take().unwrap()).lines() {
            let line = line.unwrap();
            if line.starts_with("done") {
                done = line;
                break;
            }
        }
        drop(input);
        let _ = child.wait();
        let from: usize = done
            .trim_start_matches("done move=")
            .split('-')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(froms.contains(&from), "{args:?} {set:?}: {done}");
    }
    // rafle's client in rafle's numbering tells rafle hub so, and a DXP
    // follower is given it: games with no forfeit.
    let v = Variant::Russian;
    let rafle_numbers = EngineOptions {
        numbering: rafle_engine::notation::Convention::Rafle,
        ..opts(None)
    };
    let follower = Follower::start_with(v, "greedy", &["--numbering", "rafle"]);
    for spec in [
        format!("hub:{RAFLE} hub --variant russian --player greedy"),
        format!("dxp:{}", follower.1),
    ] {
        let b = Side::Player(parse_player(&spec, v, &rafle_numbers).unwrap());
        let a = Side::Player(rafle_search::parse_player("greedy", v).unwrap());
        let m = play_match(v, &a, &b, &cfg(2, 1)).unwrap();
        assert!(
            m.games.iter().all(|g| !g.termination.is_forfeit()),
            "{spec}"
        );
    }
    let out = Command::new(RAFLE)
        .args(["hub", "--numbering", "fmjd"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("one of pydraughts, rafle"),
        "{err}"
    );
}

/// Whether process `pid` is alive (`kill -0`).
fn alive(pid: &str) -> bool {
    Command::new("kill")
        .args(["-0", pid])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn ctrl_c_ends_the_match_and_its_engine_processes() {
    let dir = std::env::temp_dir().join(format!("rafle-ctrlc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pid_file = dir.join("fake.pid");
    let hub = format!(
        "hub:python3 {} silent 0 -- {RAFLE} hub --player random",
        fake_hub().display()
    );
    let mut eval = Command::new(RAFLE)
        .args([
            "eval",
            "--variant",
            "international",
            "--a",
            "random",
            "--b",
            &hub,
        ])
        .args(["--games", "2", "--quiet", "--engine-level", "move-time=30"])
        .env("FAKE_PID_FILE", &pid_file)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the engine to be up and thinking (silently) on its first move.
    let t = Instant::now();
    while !pid_file.exists() && t.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(800));
    let fake = std::fs::read_to_string(&pid_file).unwrap();
    assert!(alive(&fake));
    Command::new("kill")
        .args(["-INT", &eval.id().to_string()])
        .status()
        .unwrap();
    let t = Instant::now();
    let status = loop {
        if let Some(s) = eval.try_wait().unwrap() {
            break s;
        }
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "rafle eval ignored Ctrl-C"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(!status.success());
    let mut err = String::new();
    std::io::Read::read_to_string(&mut eval.stderr.take().unwrap(), &mut err).unwrap();
    assert!(err.contains("interrupted"), "{err}");
    let t = Instant::now();
    while alive(&fake) && t.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!alive(&fake), "the engine process outlived rafle eval");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_dxp_follower_plays_a_game_and_answers_back_requests() {
    let v = Variant::International;
    let follower = Follower::start(v, "alphabeta:2");
    let stream = std::net::TcpStream::connect(&follower.1).unwrap();
    let mut conn = Connection::new(stream).unwrap();
    let wait = Duration::from_secs(20);
    let next = |conn: &Connection| Message::decode(&conn.recv(wait, None).unwrap()).unwrap();
    // rafle follows as Black from the start position: White (us) moves first.
    conn.send(&Message::GameRequest {
        name: "test".into(),
        follower: rafle_core::Color::Black,
        minutes: 5,
        moves: 0,
        position: None,
    })
    .unwrap();
    assert!(matches!(next(&conn), Message::GameAccept { code: '0', .. }));
    let mut game = Game::new(v);
    let ours = game.legal_moves()[0];
    let w = WireMove::of(v, &ours);
    conn.send(&Message::Move {
        seconds: 0,
        from: w.from,
        to: w.to,
        captured: w.captured,
    })
    .unwrap();
    game.play(&ours).unwrap();
    let Message::Move {
        from, to, captured, ..
    } = next(&conn)
    else {
        panic!("no move")
    };
    let reply = WireMove { from, to, captured }.find(v, &game).unwrap();
    game.play(&reply).unwrap();
    // Back to move 1, White to move: accepted, and nothing to play for Black.
    conn.send(&Message::BackRequest {
        move_number: 1,
        to_move: rafle_core::Color::White,
    })
    .unwrap();
    assert_eq!(next(&conn), Message::BackAccept { code: '0' });
    // Back to move 1, Black to move: rafle plays its reply again.
    conn.send(&Message::BackRequest {
        move_number: 1,
        to_move: rafle_core::Color::Black,
    })
    .unwrap();
    assert_eq!(
        next(&conn),
        Message::BackAccept { code: '2' },
        "ply 1 is not reached after going back to 0"
    );
    conn.send(&Message::Move {
        seconds: 0,
        from: WireMove::of(v, &ours).from,
        to: WireMove::of(v, &ours).to,
        captured: vec![],
    })
    .unwrap();
    assert!(matches!(next(&conn), Message::Move { .. }));
    conn.send(&Message::BackRequest {
        move_number: 1,
        to_move: rafle_core::Color::Black,
    })
    .unwrap();
    assert_eq!(next(&conn), Message::BackAccept { code: '0' });
    let Message::Move {
        from, to, captured, ..
    } = next(&conn)
    else {
        panic!("no move after going back")
    };
    assert!(WireMove { from, to, captured }
        .find(v, &{
            let mut g = Game::new(v);
            g.play(&ours).unwrap();
            g
        })
        .is_ok());
    // Out of range; then an illegal move ends the game; then the end.
    conn.send(&Message::BackRequest {
        move_number: 90,
        to_move: rafle_core::Color::White,
    })
    .unwrap();
    assert_eq!(next(&conn), Message::BackAccept { code: '2' });
    conn.send(&Message::Move {
        seconds: 0,
        from: 1,
        to: 2,
        captured: vec![],
    })
    .unwrap();
    assert!(matches!(next(&conn), Message::Chat(t) if t.contains("not legal")));
    assert_eq!(
        next(&conn),
        Message::GameEnd {
            reason: '0',
            stop: '0'
        }
    );
    conn.send(&Message::GameEnd {
        reason: '0',
        stop: '1',
    })
    .unwrap();
}
