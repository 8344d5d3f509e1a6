//! rafle-props: what every reader of outside input must keep, one function
//! per reader. Each takes any bytes, must not panic, and checks a property
//! of what it reads (it panics when the property fails): a FEN prints back
//! to a FEN that reads to the same position, a DXP message that decodes
//! encodes to the same bytes, a PDN game that reads replays, and so on.
//!
//! The same functions run three ways: as cargo-fuzz targets
//! (`fuzz/fuzz_targets/*.rs`, one per function, same name), on the corpus
//! those campaigns kept (`fuzz/corpus/<name>/`, replayed by
//! `tests/it/corpus.rs` in the default test run) and on proptest's random
//! inputs (`tests/it/props.rs`). [`TARGETS`] lists them.

use rafle_core::{parse_fen, to_fen, Game, Variant};
use rafle_engine::dxp::message::Message;
use rafle_engine::hub::syntax::Line;
use rafle_engine::notation::{Convention, Wire, WireMove, DXP};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// A property: any bytes in, a panic only when the property fails.
pub type Property = fn(&[u8]);

/// Every property by its target name.
pub const TARGETS: [(&str, Property); 12] = [
    ("fen", fen),
    ("moves", moves),
    ("pdn", pdn),
    ("hub_line", hub_line),
    ("hub_engine", hub_engine),
    ("dxp_message", dxp_message),
    ("dxp_follower", dxp_follower),
    ("player_spec", player_spec),
    ("run_config", run_config),
    ("replay_file", replay_file),
    ("checkpoint_meta", checkpoint_meta),
    ("egtb_file", egtb_file),
];

/// The variant the first byte names, and the rest as text (bytes that
/// are not UTF-8 replaced, as the readers of files and sockets do).
fn variant_and_text(data: &[u8]) -> (Variant, String) {
    let (v, rest) = match data.split_first() {
        Some((&b, rest)) => (Variant::ALL[b as usize % Variant::ALL.len()], rest),
        None => (Variant::ALL[0], data),
    };
    (v, String::from_utf8_lossy(rest).into_owned())
}

/// A game after the plies the first bytes choose (the first byte of
/// `data` says how many, each next one which legal move), and the rest.
fn game_and_rest(v: Variant, data: &[u8]) -> (Game, &[u8]) {
    let mut game = Game::new(v);
    let Some((&n, mut rest)) = data.split_first() else {
        return (game, data);
    };
    for _ in 0..n % 64 {
        let Some((&b, tail)) = rest.split_first() else {
            break;
        };
        if game.is_over() {
            break;
        }
        let m = game.legal_moves()[b as usize % game.legal_moves().len()];
        game.play(&m).expect("a legal move plays");
        rest = tail;
    }
    (game, rest)
}

/// FEN: a position that reads prints to a FEN that reads to the same
/// position and prints the same; its game generates moves.
pub fn fen(data: &[u8]) {
    let (v, text) = variant_and_text(data);
    let Ok(pos) = parse_fen(v, &text) else {
        return;
    };
    let printed = to_fen(v, &pos);
    let again = parse_fen(v, &printed)
        .unwrap_or_else(|e| panic!("{text:?} read, its print {printed:?} does not: {e}"));
    assert_eq!(again, pos, "{text:?} -> {printed:?}");
    assert_eq!(to_fen(v, &again), printed);
    let game = Game::from_position(v, pos);
    let _ = (game.legal_moves().len(), game.outcome());
}

/// Moves, rafle's notation (numeric or algebraic, by variant) and Hub's:
/// a text that reads is a legal move; every legal move reads back from its
/// own text in both notations.
pub fn moves(data: &[u8]) {
    let Some((&b, rest)) = data.split_first() else {
        return;
    };
    let v = Variant::ALL[b as usize % Variant::ALL.len()];
    let (game, rest) = game_and_rest(v, rest);
    let text = String::from_utf8_lossy(rest);
    if let Ok(m) = game.parse_move(&text) {
        assert!(game.legal_moves().contains(&m), "{text:?} read as {m:?}");
    }
    let wire = Wire::new(v, Convention::default());
    if let Ok(w) = WireMove::parse_hub(&text, v.num_squares()) {
        assert_eq!(
            WireMove::parse_hub(&w.to_hub(), v.num_squares()),
            Ok(w.clone())
        );
        if let Ok(m) = w.find(wire, &game) {
            assert!(game.legal_moves().contains(&m));
        }
    }
    for m in game.legal_moves() {
        let s = game.move_string(m);
        assert_eq!(game.parse_move(&s).as_ref(), Ok(m), "{s} at {}", game.fen());
        let w = WireMove::of(wire, m);
        let hub = WireMove::parse_hub(&w.to_hub(), v.num_squares());
        assert_eq!(hub.as_ref(), Ok(&w));
        let found = w.find(wire, &game).expect("a legal move is found");
        assert_eq!(WireMove::of(wire, &found), w);
    }
}

/// PDN: every game that reads and replays has as many plies as moves, and
/// its moves, printed by rafle, replay to the same position.
pub fn pdn(data: &[u8]) {
    let (v, text) = variant_and_text(data);
    for (i, g) in rafle_arena::pdn::read_each(&text).into_iter().enumerate() {
        let Ok(g) = g else {
            continue;
        };
        let _ = (g.label(i + 1), g.winner());
        let Ok(game) = g.replay(Some(v)) else {
            continue;
        };
        assert_eq!(game.ply(), g.moves.len());
        let mut again = Game::from_position(game.variant(), *game.start_position());
        for m in game.history() {
            let s = again.move_string(m);
            again
                .play_str(&s)
                .unwrap_or_else(|e| panic!("{s} does not replay: {e}"));
        }
        assert_eq!(again.position(), game.position());
    }
}

/// Hub lines: a line that reads prints to a line that reads the same.
pub fn hub_line(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(line) = Line::parse(&text) else {
        return;
    };
    let printed = line.to_string();
    assert_eq!(
        Line::parse(&printed).as_ref(),
        Ok(&line),
        "{text:?} -> {printed:?}"
    );
    // What the engine reads of it.
    let _ = rafle_engine::level::Level::from_hub(&line);
    if let Some(pos) = line.get("pos") {
        for c in Convention::ALL {
            let _ = rafle_engine::notation::HUB.read(Wire::new(Variant::International, c), pos);
        }
    }
}

/// Output shared with the Hub engine's threads.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `rafle hub` on any input (a random player, so searches end at once):
/// it reads to the end without an I/O error, and every line it writes
/// is a Hub line.
pub fn hub_engine(data: &[u8]) {
    use rafle_engine::hub::server::{serve, Settings};
    let out = Sink::default();
    let settings = Settings {
        variant: Variant::International,
        player: "random".into(),
        threads: 1,
        seed: 0,
        numbering: Convention::default(),
    };
    let make =
        |s: &Settings| rafle_search::parse_player("random", s.variant).map_err(|e| e.to_string());
    serve(data, out.clone(), settings, &make).expect("in-memory input never fails");
    let written = out.0.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let text = String::from_utf8(written).expect("the engine writes UTF-8");
    for line in text.lines() {
        assert!(Line::parse(line).is_ok(), "the engine wrote {line:?}");
    }
}

/// DXP messages: one that decodes encodes to the same text; the position
/// of a game request that reads writes back to the same position.
pub fn dxp_message(data: &[u8]) {
    let (v, text) = variant_and_text(data);
    let Ok(m) = Message::decode(&text) else {
        return;
    };
    assert_eq!(m.encode(), text, "{m:?}");
    assert_eq!(Message::decode(&m.encode()).as_ref(), Ok(&m));
    let wire = Wire::new(v, Convention::default());
    match &m {
        Message::GameRequest {
            position: Some((side, board)),
            ..
        } => {
            if let Ok(pos) = DXP.read(wire, &format!("{}{board}", DXP.side(*side))) {
                let printed = DXP.write(wire, &pos);
                assert_eq!(DXP.read(wire, &printed), Ok(pos), "{printed}");
            }
        }
        Message::Move {
            from, to, captured, ..
        } => {
            let w = WireMove {
                from: *from,
                to: *to,
                captured: captured.clone(),
            };
            let game = Game::new(v);
            if let Ok(m) = w.find(wire, &game) {
                assert!(game.legal_moves().contains(&m));
            }
        }
        _ => {}
    }
}

/// The follower's side of a session: messages (NUL-separated in `data`)
/// sent to `rafle dxp --listen` on loopback; whatever it answers decodes,
/// and it closes the connection or keeps serving (a fresh connection is
/// answered).
pub fn dxp_follower(data: &[u8]) {
    use std::io::Read;
    use std::net::{Shutdown, TcpStream};
    let addr = follower();
    let mut s = TcpStream::connect(addr).expect("the follower listens");
    let _ = s.write_all(data);
    let _ = s.shutdown(Shutdown::Write);
    let _ = s.set_read_timeout(Some(std::time::Duration::from_secs(30)));
    let mut got = Vec::new();
    let _ = s.read_to_end(&mut got);
    for text in got.split(|&b| b == 0).filter(|t| !t.is_empty()) {
        let text = String::from_utf8_lossy(text);
        assert!(Message::decode(&text).is_ok(), "the follower sent {text:?}");
    }
}

/// A follower on loopback for [`dxp_follower`], started once, sending
/// without pauses (the pace is for pydraughts, not a property).
fn follower() -> std::net::SocketAddr {
    use rafle_engine::dxp::server::{serve_with_pace, Follower, Limits};
    use std::sync::OnceLock;
    static ADDR: OnceLock<std::net::SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let addr = listener.local_addr().expect("its address");
        let v = Variant::English;
        let f = Follower {
            variant: v,
            factory: rafle_search::parse_player("random", v).expect("random"),
            seed: 0,
            name: "rafle".into(),
            numbering: Convention::default(),
            stop: None,
            limits: Limits::default(),
        };
        std::thread::spawn(move || serve_with_pace(listener, f, None));
        addr
    })
}

/// Player specs (rafle's players and the engine forms, parsed without
/// starting anything), levels: a spec that reads prints its canonical form,
/// which reads back to the same spec; a spec that parses builds its player.
pub fn player_spec(data: &[u8]) {
    let (v, text) = variant_and_text(data);
    if let Ok(spec) = text.parse::<rafle_search::PlayerSpec>() {
        let printed = spec.to_string();
        assert_eq!(printed.parse(), Ok(spec), "{text:?} printed as {printed:?}");
    }
    if let Ok(f) = rafle_search::parse_player(&text, v) {
        let p = f(0);
        let _ = p.name();
    }
    let _ = rafle_engine::engine_spec(&text);
    if let Ok(level) = rafle_engine::level::Level::parse(&text) {
        let _ = level.budget(None);
    }
}

/// Run configurations: a text that reads prints to TOML that reads to the
/// same configuration.
pub fn run_config(data: &[u8]) {
    use rafle_train::config::Config;
    let text = String::from_utf8_lossy(data);
    let Ok(cfg) = Config::parse(&text) else {
        return;
    };
    let printed = cfg.to_toml();
    let again = Config::parse(&printed)
        .unwrap_or_else(|e| panic!("a config read, its print does not: {e:#}\n{printed}"));
    assert_eq!(again.to_toml(), printed);
}

/// Replay files (header and tensors): one that reads writes back to bytes
/// that read to the same positions.
pub fn replay_file(data: &[u8]) {
    use rafle_train::replay::Replay;
    let Ok(r) = Replay::from_bytes(data, 1 << 16, "input") else {
        return;
    };
    let bytes = r.to_bytes().expect("a window that read writes");
    let again = Replay::from_bytes(&bytes, 1 << 16, "printed").expect("and reads back");
    assert_eq!(again.total_added, r.total_added);
    assert_eq!(again.len(), r.len());
    for (a, b) in again.iter().zip(r.iter()) {
        assert_eq!(
            (&a.obs, a.wdl, a.q.to_bits()),
            (&b.obs, b.wdl, b.q.to_bits())
        );
        let bits = |s: &rafle_train::sample::Sample| -> Vec<(u16, u32)> {
            s.policy.iter().map(|&(a, p)| (a, p.to_bits())).collect()
        };
        assert_eq!(bits(a), bits(b));
    }
}

/// Asserts that a reader's error is one line that starts with the file's
/// name.
fn one_line_naming(e: &str, name: &str) {
    assert!(
        !e.contains('\n') && e.starts_with(name),
        "not a one-line error naming {name}: {e:?}"
    );
}

/// Checkpoint metadata (`latest.json`): text that reads writes back to
/// JSON that reads to the same metadata and writes the same; text that
/// does not is a one-line error naming the file.
pub fn checkpoint_meta(data: &[u8]) {
    use rafle_train::checkpoint::Metadata;
    let text = String::from_utf8_lossy(data);
    let meta = match Metadata::parse(&text, "latest.json") {
        Ok(m) => m,
        Err(e) => return one_line_naming(&format!("{e:#}"), "latest.json"),
    };
    let printed = meta.to_json();
    let again = Metadata::parse(&printed, "printed")
        .unwrap_or_else(|e| panic!("metadata read, its print does not: {e:#}\n{printed}"));
    assert_eq!(again, meta);
    assert_eq!(again.to_json(), printed);
}

/// Endgame table files: bytes that read are exactly the file the writer
/// makes of the codes read; any others are a one-line error naming the
/// file. The first byte chooses the variant (its bits above the lowest)
/// and, when even, writes the right checksum into the rest, as a hostile
/// writer could, so that the checks past it are reached. The slice is the
/// one the header names.
pub fn egtb_file(data: &[u8]) {
    use rafle_egtb::{file, Material};
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let v = Variant::ALL[(first >> 1) as usize % Variant::ALL.len()];
    let mut bytes = rest.to_vec();
    if first & 1 == 0 {
        file::seal(&mut bytes);
    }
    let m = match bytes.get(32..36) {
        Some(&[own_men, own_kings, opp_men, opp_kings]) => Material {
            own_men,
            own_kings,
            opp_men,
            opp_kings,
        },
        _ => Material::example(v),
    };
    let name = std::path::Path::new("slice.egtb");
    match file::decode(name, bytes.clone(), v, m) {
        Err(e) => one_line_naming(&e, "slice.egtb: "),
        Ok(table) => {
            let (stats, again) = file::encode(v, m, &table.codes());
            assert_eq!(stats, table.stats);
            assert!(again == bytes, "{v} {m}: read, but written back differs");
        }
    }
}
