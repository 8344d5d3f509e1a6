//! The JSON API over loopback, against a server started in this process on
//! a free port: the contract of every route, bad requests as JSON errors,
//! a dropped request's search stopped, a watched match streamed to its end.

use rafle_arena::{ArenaConfig, NetworkSide, Side};
use rafle_core::rng::Rng;
use rafle_core::{Game, Variant};
use rafle_search::network::{shared, EvalError, Leaves, SearchParams};
use rafle_serve::{spec_resolver, Resolve, ServeConfig, Server};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A stand-in network: logits from the action number, value 0.5.
fn fake_network() -> Side {
    let eval = |l: &Leaves, logits: &mut [f32], values: &mut [f32]| -> Result<(), EvalError> {
        let na = logits.len() / l.n;
        for row in logits.chunks_mut(na) {
            for (a, x) in row.iter_mut().enumerate() {
                *x = ((a * 37) % 11) as f32 / 4.0;
            }
        }
        values.fill(0.5);
        Ok(())
    };
    Side::Network(NetworkSide {
        name: "net".into(),
        evaluator: shared(eval),
        params: SearchParams::default(),
        simulations: 8,
    })
}

fn server() -> Server {
    let specs = spec_resolver(Default::default());
    let resolve: Resolve = Arc::new(move |name: &str, v: Variant| match name {
        "net" => Ok(fake_network()),
        _ => specs(name, v),
    });
    let players = ["alphabeta:2", "random", "net", "alphabeta:t=60s", "uct:200"]
        .map(String::from)
        .to_vec();
    let config = ServeConfig {
        resolve,
        ..ServeConfig::new(Variant::Thai, players)
    };
    rafle_serve::start(config, "127.0.0.1", 0).unwrap()
}

/// One HTTP/1.1 request; the status and the body (chunks joined).
fn request(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8(raw).unwrap();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap();
    let status: u16 = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    (status, if chunked { unchunk(rest) } else { rest.into() })
}

fn unchunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&tail[..n]);
        rest = &tail[n + 2..];
    }
    out
}

fn post(addr: SocketAddr, path: &str, body: &Value) -> (u16, Value) {
    let (status, text) = request(addr, "POST", path, &body.to_string());
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

fn ok(addr: SocketAddr, path: &str, body: &Value) -> Value {
    let (status, v) = post(addr, path, body);
    assert_eq!(status, 200, "{path} {body}: {v}");
    v
}

fn game(v: Variant, fen: Option<&str>, moves: &[String]) -> Value {
    json!({"variant": v.name(), "fen": fen, "moves": moves})
}

/// The moves of a seeded random game up to its first position with a
/// multi-capture.
fn to_multi_capture(v: Variant) -> Vec<String> {
    let mut rng = Rng::new(3);
    for _ in 0..200 {
        let mut g = Game::new(v);
        while !g.is_over() && g.ply() < 300 {
            if g.legal_moves().iter().any(|m| m.landings().len() >= 2) {
                return g.history().map(|m| g.move_string(m)).collect();
            }
            let legal = g.legal_moves();
            let m = legal[rng.below(legal.len())];
            g.play(&m).unwrap();
        }
    }
    panic!("{v}: no multi-capture in 200 random games");
}

#[test]
fn positions_moves_and_undo_in_every_variant() {
    let s = server();
    for v in Variant::ALL {
        let start = ok(s.addr, "/api/state", &json!({"game": game(v, None, &[])}));
        let g = Game::new(v);
        assert_eq!(start["variant"], v.name());
        assert_eq!(start["board"]["n"], v.board_size());
        assert_eq!(start["fen"], g.fen());
        assert_eq!(start["ply"], 0);
        assert_eq!(
            start["legal"].as_array().unwrap().len(),
            g.legal_moves().len()
        );
        let pieces = start["pieces"].as_array().unwrap().len();
        assert_eq!(
            start["svg"].as_str().unwrap().matches("<circle").count(),
            pieces
        );
        // Every legal move with its path and captured squares, at a
        // position with a multi-capture.
        let line = to_multi_capture(v);
        let st = ok(s.addr, "/api/state", &json!({"game": game(v, None, &line)}));
        let legal = st["legal"].as_array().unwrap();
        assert!(
            legal
                .iter()
                .any(|m| m["path"].as_array().unwrap().len() > 2),
            "{v}"
        );
        for m in legal {
            let path = m["path"].as_array().unwrap();
            let captured = m["captured"].as_array().unwrap();
            assert_eq!(captured.len(), path.len() - 1, "{v} {m}");
            let after = ok(
                s.addr,
                "/api/play",
                &json!({"game": game(v, None, &line), "move": m["move"]}),
            );
            assert_eq!(after["ply"], line.len() + 1);
            assert_eq!(
                after["moves"].as_array().unwrap().last().unwrap(),
                &m["move"]
            );
            let back = ok(s.addr, "/api/undo", &json!({"game": after_game(v, &after)}));
            assert_eq!(back["fen"], st["fen"], "{v}");
        }
    }
}

fn after_game(v: Variant, state: &Value) -> Value {
    json!({"variant": v.name(), "moves": state["moves"]})
}

#[test]
fn bad_requests_are_json_errors() {
    let s = server();
    let thai = |moves: Value| json!({"variant": "thai", "moves": moves});
    for (path, body, status, needle) in [
        (
            "/api/state",
            json!({"game": {"variant": "chess"}}),
            400,
            "unknown variant",
        ),
        (
            "/api/state",
            json!({"game": {"variant": "thai", "fen": "W:Wzz"}}),
            400,
            "FEN",
        ),
        (
            "/api/state",
            json!({"game": thai(json!(["1-2"]))}),
            400,
            "move 1",
        ),
        (
            "/api/state",
            json!({"game": thai(json!(["nonsense"]))}),
            400,
            "malformed move",
        ),
        ("/api/state", json!({"gam": {}}), 400, "bad request body"),
        (
            "/api/state",
            json!({"game": {"variant": "thai", "color": 1}}),
            400,
            "unknown field",
        ),
        (
            "/api/play",
            json!({"game": thai(json!([])), "move": "9-13"}),
            400,
            "illegal move",
        ),
        (
            "/api/undo",
            json!({"game": thai(json!([]))}),
            400,
            "no move to undo",
        ),
        (
            "/api/pdn/read",
            json!({"pdn": "[Event \"x\"\n\n1. 99-98 *"}),
            400,
            "PDN",
        ),
        ("/api/pdn/read", json!({"pdn": ""}), 400, "no game"),
        (
            "/api/engine",
            json!({"game": thai(json!([])), "player": "hub:/bin/sh"}),
            400,
            "not offered",
        ),
        (
            "/api/engine",
            json!({"game": thai(json!([])), "player": "random", "budget": {"depth": 0}}),
            400,
            "depth",
        ),
        (
            "/api/engine",
            json!({"game": thai(json!([])), "player": "random", "budget": {"time": 1e9}}),
            400,
            "time",
        ),
        (
            "/api/engine",
            json!({"game": thai(json!([])), "player": "random", "budget": {"depth": 2, "nodes": 5}}),
            400,
            "one of",
        ),
        (
            "/api/engine",
            json!({"game": {"variant": "thai", "fen": "W:W:B1"}, "player": "random"}),
            400,
            "game is over",
        ),
        ("/api/watch", json!(null), 404, "no match"),
        ("/api/nowhere", json!({}), 404, "no such"),
    ] {
        let (code, text) = if path == "/api/watch" {
            request(s.addr, "GET", path, "")
        } else {
            request(s.addr, "POST", path, &body.to_string())
        };
        let v: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{path}: {text}"));
        let e = v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{path} {body}: {v}"));
        assert_eq!(code, status, "{path} {body}: {e}");
        assert!(e.contains(needle), "{path} {body}: {e:?} lacks {needle:?}");
    }
    // A body that is not JSON, and one with too many moves.
    let (code, text) = request(s.addr, "POST", "/api/state", "{not json");
    assert_eq!(code, 400);
    assert!(text.contains("\"error\""), "{text}");
    let many = vec!["9-13"; rafle_serve::board::MAX_MOVES + 1];
    let (code, v) = post(s.addr, "/api/state", &json!({"game": thai(json!(many))}));
    assert_eq!(code, 400);
    assert!(v["error"].as_str().unwrap().contains("at most"), "{v}");
    // The server still answers.
    ok(s.addr, "/api/state", &json!({"game": thai(json!([]))}));
}

#[test]
fn engine_moves_and_inspect_report_their_search() {
    let s = server();
    let info = request(s.addr, "GET", "/api/info", "").1;
    let info: Value = serde_json::from_str(&info).unwrap();
    assert_eq!(info["variant"], "thai");
    assert_eq!(info["players"][2], "net");
    assert_eq!(
        info["variants"].as_array().unwrap().len(),
        Variant::ALL.len()
    );
    let v = Variant::International;
    let line = to_multi_capture(v);
    let g = game(v, None, &line);
    let r = ok(
        s.addr,
        "/api/engine",
        &json!({"game": g, "player": "alphabeta:2", "budget": {"depth": 3}, "seed": 1}),
    );
    let legal: Vec<String> = {
        let st = ok(s.addr, "/api/state", &json!({"game": g}));
        st["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(
        legal.contains(&r["move"].as_str().unwrap().to_string()),
        "{r}"
    );
    assert_eq!(r["state"]["ply"], line.len() + 1);
    // The network: one probability per legal move, summing to one; its
    // value; and its search's move.
    let i = ok(s.addr, "/api/inspect", &json!({"game": g, "player": "net"}));
    let policy = i["network"]["policy"].as_array().unwrap();
    assert_eq!(policy.len(), legal.len());
    let sum: f64 = policy.iter().map(|x| x["p"].as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-4, "{sum}");
    for x in policy {
        assert!(legal.contains(&x["move"].as_str().unwrap().to_string()));
    }
    assert_eq!(i["network"]["value"], 0.5);
    assert!(legal.contains(&i["search"]["move"].as_str().unwrap().to_string()));
    // Alpha-beta's search: its depth, score and principal variation.
    let i = ok(
        s.addr,
        "/api/inspect",
        &json!({"game": game(v, None, &[]), "player": "alphabeta:2", "budget": {"depth": 4}}),
    );
    assert_eq!(i["search"]["depth"], 4, "{i}");
    assert!(i["search"]["score"].is_number());
    assert!(!i["search"]["pv"].as_array().unwrap().is_empty());
    assert_eq!(i["search"]["pv"][0], i["search"]["move"]);
    assert!(i["network"].is_null() && i["tablebase"].is_null());
    // UCT's: its score and the most visited line.
    let i = ok(
        s.addr,
        "/api/inspect",
        &json!({"game": game(v, None, &[]), "player": "uct:200", "seed": 3}),
    );
    let score = i["search"]["score"].as_f64().unwrap();
    assert!((-1.0..=1.0).contains(&score), "{i}");
    assert!(i["search"]["pv"].as_array().unwrap().len() >= 2, "{i}");
    assert_eq!(i["search"]["pv"][0], i["search"]["move"]);
}

#[test]
fn pdn_export_reads_back() {
    let s = server();
    for v in Variant::ALL {
        // From a set-up position (the FEN of a game's 5th ply), 6 more plies.
        let mut g = Game::new(v);
        let mut rng = Rng::new(11);
        let mut moves = Vec::new();
        let mut fen = None;
        while !g.is_over() && moves.len() < 6 {
            if g.ply() == 5 && fen.is_none() {
                fen = Some(g.fen());
            }
            let legal = g.legal_moves();
            let m = legal[rng.below(legal.len())];
            if fen.is_some() {
                moves.push(g.move_string(&m));
            }
            g.play(&m).unwrap();
        }
        let spec = game(v, fen.as_deref(), &moves);
        let pdn = ok(
            s.addr,
            "/api/pdn",
            &json!({"game": spec, "white": "me", "black": "it"}),
        );
        let text = pdn["pdn"].as_str().unwrap();
        assert!(
            text.contains("[White \"me\"]") && text.contains("[FEN "),
            "{text}"
        );
        let back = ok(s.addr, "/api/pdn/read", &json!({"pdn": text}));
        let read = &back["games"][0];
        assert_eq!(read["game"]["moves"], json!(moves), "{v}: {text}");
        assert_eq!(read["game"]["fen"], json!(fen), "{v}");
        assert_eq!(read["game"]["variant"], v.name());
    }
}

#[test]
fn a_dropped_request_stops_its_search() {
    let s = server();
    let running = || {
        let (_, t) = request(s.addr, "GET", "/api/info", "");
        serde_json::from_str::<Value>(&t).unwrap()["searches_running"]
            .as_u64()
            .unwrap()
    };
    // A one-minute search, its connection closed once it runs.
    let body =
        json!({"game": game(Variant::International, None, &[]), "player": "alphabeta:t=60s"})
            .to_string();
    let mut c = TcpStream::connect(s.addr).unwrap();
    write!(
        c,
        "POST /api/engine HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while running() == 0 {
        assert!(Instant::now() < deadline, "the search never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(c);
    while running() > 0 {
        assert!(
            Instant::now() < deadline,
            "the search went on after its request was dropped"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_watched_match_streams_to_its_end() {
    let watch = rafle_serve::Watch::new("thai: random vs greedy");
    let config = ServeConfig {
        watch: Some(watch.clone()),
        ..ServeConfig::new(Variant::Thai, Vec::new())
    };
    let s = rafle_serve::start(config, "127.0.0.1", 0).unwrap();
    let addr = s.addr;
    // The page's stream, read on its own thread while the match is played.
    let reader = std::thread::spawn(move || request(addr, "GET", "/api/watch", ""));
    let cfg = ArenaConfig {
        games: 2,
        watcher: Some(watch.watcher()),
        ..ArenaConfig::default()
    };
    let side = |spec| Side::Player(rafle_search::parse_player(spec, Variant::Thai).unwrap());
    let m = rafle_arena::play_match(Variant::Thai, &side("random"), &side("greedy"), &cfg).unwrap();
    watch.finish(rafle_arena::report::match_table(&m));
    let (code, body) = reader.join().unwrap();
    assert_eq!(code, 200);
    let events: Vec<Value> = body
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .map(|d| serde_json::from_str(d.trim()).unwrap())
        .collect();
    let last = events.last().unwrap();
    assert!(last["done"].as_str().unwrap().contains("random"), "{last}");
    // Every game seen to its end, with every move of its record.
    let mut boards = std::collections::BTreeMap::new();
    for e in &events {
        for b in e["boards"].as_array().unwrap() {
            boards.insert(b["game"].as_u64().unwrap(), b.clone());
        }
    }
    assert_eq!(boards.len(), 2);
    for (i, rec) in m.games.iter().enumerate() {
        let b = &boards[&(i as u64)];
        assert!(b["result"].is_string(), "{b}");
        assert_eq!(b["moves"].as_array().unwrap().len(), rec.moves.len());
    }
    let scores = events.iter().rev().find_map(|e| e.get("scores")).unwrap();
    assert_eq!(scores[0]["games"], 2);
}

#[test]
fn the_tables_value_the_positions_they_cover() {
    use rafle_egtb::index::Indexer;
    use rafle_egtb::{build, Material, Selection, Tablebase};
    let v = Variant::Thai;
    let m = Material::example(v);
    let dir = std::env::temp_dir().join(format!("rafle-serve-egtb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    build(v, &dir, &Selection::Slices(vec![m]), &|_| {}).unwrap();
    let tb = Arc::new(Tablebase::open(v, &dir).unwrap());
    let config = ServeConfig {
        tables: Some(tb.clone()),
        resolve: spec_resolver(rafle_search::PlayerOptions {
            egtb: Some(tb.clone()),
        }),
        ..ServeConfig::new(v, vec!["egtb".into()])
    };
    let s = rafle_serve::start(config, "127.0.0.1", 0).unwrap();
    let ix = Indexer::new(v);
    let slice = ix.slice(m).unwrap();
    let mut rng = Rng::new(2);
    let mut checked = 0;
    while checked < 5 {
        let g = Game::from_position(v, ix.random_position(&slice, &mut rng));
        if g.is_over() {
            continue;
        }
        let spec = game(v, Some(&g.fen()), &[]);
        let i = ok(s.addr, "/api/inspect", &json!({"game": spec}));
        let want = tb.probe(g.position()).unwrap();
        assert_eq!(i["tablebase"]["value"], want.kind(), "{}", g.fen());
        assert_eq!(i["tablebase"]["plies"], want.plies());
        let moves = i["tablebase"]["moves"].as_array().unwrap();
        assert_eq!(moves.len(), g.legal_moves().len());
        // The egtb player plays one of the moves the tables rank best.
        let best: Vec<String> = tb
            .best_moves(g.position())
            .unwrap()
            .iter()
            .map(|(m, _)| g.move_string(m))
            .collect();
        let r = ok(
            s.addr,
            "/api/engine",
            &json!({"game": spec, "player": "egtb"}),
        );
        assert!(
            best.contains(&r["move"].as_str().unwrap().to_string()),
            "{r}"
        );
        checked += 1;
    }
    // The start is not covered.
    let i = ok(s.addr, "/api/inspect", &json!({"game": game(v, None, &[])}));
    assert!(i["tablebase"].is_null());
    std::fs::remove_dir_all(&dir).unwrap();
}
