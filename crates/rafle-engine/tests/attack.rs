//! The DXP follower under attack, on loopback: garbage, over-long, cut
//! and out-of-order messages close their connection (with a chat line
//! saying why) and the server goes on; a hundred connections at once
//! (idle, slow, hostile) leave an honest initiator playing its games to
//! the end; the caps on connections and games and the idle limit hold.
//! The honest games per minute with and without the attack, and the
//! process's peak memory, are printed (`--nocapture`) for
//! docs/how-to/reliability.md.

use rafle_core::{Color, Game, Variant};
use rafle_engine::dxp::message::Message;
use rafle_engine::dxp::server::{serve, Follower, Limits};
use rafle_engine::dxp::Connection;
use rafle_engine::notation::{Convention, Wire, WireMove};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const V: Variant = Variant::International;
/// Moves the follower plays per game before it ends it (`E0`).
const MOVES: u32 = 12;
/// How long the test waits for anything before it calls the server stuck.
const STUCK: Duration = Duration::from_secs(30);

fn start(limits: Limits) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let follower = Follower {
        variant: V,
        factory: rafle_search::parse_player("alphabeta:d=2", V).unwrap(),
        seed: 0,
        name: "rafle".into(),
        numbering: Convention::default(),
        stop: None,
        limits,
    };
    std::thread::spawn(move || serve(listener, follower));
    addr
}

fn connect(addr: SocketAddr) -> Connection {
    Connection::new(TcpStream::connect(addr).unwrap()).unwrap()
}

fn next(conn: &Connection) -> Message {
    let text = conn.recv(STUCK, None).expect("the server answers");
    Message::decode(&text).unwrap()
}

/// An honest initiator's game (white, the first move), to the follower's
/// `E`; Ok(plies) or what went wrong.
fn honest_game(conn: &mut Connection) -> Result<usize, String> {
    conn.send(&Message::GameRequest {
        name: "honest".into(),
        follower: Color::Black,
        minutes: 5,
        moves: MOVES,
        position: None,
    })
    .map_err(|e| e.to_string())?;
    match next(conn) {
        Message::GameAccept { code: '0', .. } => {}
        m => return Err(format!("not accepted: {m:?}")),
    }
    let wire = Wire::new(V, Convention::default());
    let mut game = Game::new(V);
    loop {
        if !game.is_over() && game.turn() == Color::White {
            let m = game.legal_moves()[game.ply() % game.legal_moves().len()];
            let w = WireMove::of(wire, &m);
            conn.send(&Message::Move {
                seconds: 0,
                from: w.from,
                to: w.to,
                captured: w.captured,
            })
            .map_err(|e| e.to_string())?;
            game.play(&m).unwrap();
            continue;
        }
        match next(conn) {
            Message::Move {
                from, to, captured, ..
            } => {
                let m = WireMove { from, to, captured }.find(wire, &game)?;
                game.play(&m).unwrap();
            }
            Message::GameEnd { .. } => return Ok(game.ply()),
            Message::Chat(t) => return Err(t),
            m => return Err(format!("unexpected {m:?}")),
        }
    }
}

/// Honest games on one connection for `span` (at least one), each played
/// to its end: their count and games per minute.
fn honest_games(addr: SocketAddr, span: Duration) -> (usize, f64) {
    let mut conn = connect(addr);
    let t = Instant::now();
    let mut games = 0;
    while games == 0 || t.elapsed() < span {
        let plies = honest_game(&mut conn).unwrap_or_else(|e| panic!("game {games}: {e}"));
        assert!(
            plies >= 2 * MOVES as usize - 1,
            "game {games}: {plies} plies"
        );
        games += 1;
    }
    (games, games as f64 / t.elapsed().as_secs_f64() * 60.0)
}

/// Reads `stream` to its end (the server closed it), within [`STUCK`];
/// the text received.
fn read_to_close(stream: &mut TcpStream) -> String {
    stream.set_read_timeout(Some(STUCK)).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
            Err(e) => panic!("the server kept the connection open: {e}"),
        }
    }
    String::from_utf8_lossy(&got).into_owned()
}

/// Hostile inputs: the bytes, and what the server's closing chat says.
fn hostile(i: usize) -> (Vec<u8>, &'static str) {
    let request = Message::GameRequest {
        name: "x".into(),
        follower: Color::White,
        minutes: 1,
        moves: 0,
        position: None,
    }
    .encode();
    match i % 7 {
        // No terminator, ever: cut at the protocol's length.
        // (Its chat may be lost: the server closes with the rest unread.)
        0 => (vec![b'C'; 1 << 20], ""),
        1 => (
            (0..200u8).map(|b| b | 0x80).chain([0]).collect(),
            "not ASCII",
        ),
        2 => (b"M00\0".to_vec(), "too short"),
        3 => (b"M0000322800\0".to_vec(), "no game in progress"),
        4 => (
            format!("{}\0", Message::BackAccept { code: '0' }.encode()).into_bytes(),
            "out of order",
        ),
        5 => (format!("{}\0R01\0", request).into_bytes(), "too short"),
        // Stray terminators are skipped; then a message of nothing known.
        _ => (b"\0\0\0X\0".to_vec(), "no DXP message"),
    }
}

/// A memory figure of this process (`VmRSS`, `VmHWM`: the peak), KiB.
fn rss_kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn hostile_messages_close_their_connection_and_the_server_goes_on() {
    let addr = start(Limits::default());
    for i in 0..7 {
        let (bytes, says) = hostile(i);
        let mut s = TcpStream::connect(addr).unwrap();
        // The server may close before all is written (the long one).
        let _ = s.write_all(&bytes);
        let got = read_to_close(&mut s);
        assert!(got.contains(says), "{i}: {got:?}");
        assert!(says.is_empty() || got.contains("Cerror: "), "{i}: {got:?}");
    }
    let mut conn = connect(addr);
    assert!(honest_game(&mut conn).is_ok());
}

#[test]
fn a_sender_past_the_length_limit_is_cut_off_not_drained() {
    // 200 MB without a terminator: the server closes the connection once
    // the message passes its length, so the writer fails after what the
    // kernel's socket buffers took (a few MB), long before the end.
    let addr = start(Limits::default());
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_write_timeout(Some(STUCK)).unwrap();
    let chunk = vec![b'C'; 64 * 1024];
    let mut sent = 0usize;
    while sent < 200 << 20 {
        match s.write(&chunk) {
            Ok(n) => sent += n,
            Err(e) => {
                assert_ne!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock,
                    "the server stopped reading but kept the connection"
                );
                break;
            }
        }
    }
    assert!(
        sent < 32 << 20,
        "the server read {sent} bytes of an over-long message"
    );
    let mut conn = connect(addr);
    assert!(honest_game(&mut conn).is_ok());
}

#[test]
fn an_honest_initiator_plays_on_through_a_hundred_hostile_connections() {
    let addr = start(Limits::default());
    let span = Duration::from_secs(2);
    let (_, before) = honest_games(addr, span);
    let rss_before = rss_kib("VmRSS");
    let stop = Arc::new(AtomicBool::new(false));
    let mut sent = 0usize;
    // 40 idle, 30 slow (a byte a second of a game request), 30 hostile
    // (each of the kinds above, again and again until the honest games end).
    let idle: Vec<TcpStream> = (0..40).map(|_| TcpStream::connect(addr).unwrap()).collect();
    let slow: Vec<TcpStream> = (0..30).map(|_| TcpStream::connect(addr).unwrap()).collect();
    let slow_thread = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut slow = slow;
            let (mut sent, mut at) = (0, 0);
            let request = b"R01slow";
            while !stop.load(Ordering::Relaxed) {
                for s in &mut slow {
                    sent += s.write(&request[at % request.len()..][..1]).unwrap_or(0);
                }
                at += 1;
                std::thread::sleep(Duration::from_secs(1));
            }
            sent
        })
    };
    let hostile_threads: Vec<_> = (0..30)
        .map(|i| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let (mut sent, mut closed) = (0usize, 0usize);
                let mut k = i;
                while !stop.load(Ordering::Relaxed) {
                    let (bytes, says) = hostile(k);
                    let mut s = TcpStream::connect(addr).unwrap();
                    let _ = s.write_all(&bytes);
                    sent += bytes.len();
                    let got = read_to_close(&mut s);
                    assert!(got.contains(says), "{k}: {got:?}");
                    closed += 1;
                    k += 1;
                    // 30 of them: some 1,500 hostile connections a second.
                    std::thread::sleep(Duration::from_millis(20));
                }
                (sent, closed)
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let (games, during) = honest_games(addr, span);
    stop.store(true, Ordering::Relaxed);
    let slow_bytes = slow_thread.join().unwrap();
    let mut closed = 0;
    for t in hostile_threads {
        let (s, c) = t.join().unwrap();
        sent += s;
        closed += c;
    }
    // The idle ones are still open: the server did not drop everyone.
    for mut s in idle {
        s.set_read_timeout(Some(Duration::from_millis(1))).unwrap();
        let mut b = [0u8; 1];
        assert!(matches!(s.read(&mut b), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock));
    }
    assert!(closed >= 30);
    eprintln!(
        "dxp attack: 100 connections (40 idle, 30 slow: {slow_bytes} bytes, 30 hostile: \
         {closed} connections closed by the server, {sent} bytes); honest games/min \
         {before:.0} alone, {during:.0} under attack ({games} games); RSS {} MiB before, \
         peak {} MiB (server and clients in one process)",
        rss_before / 1024,
        rss_kib("VmHWM") / 1024
    );
}

#[test]
fn caps_and_the_idle_limit_hold() {
    let limits = Limits {
        connections: 3,
        games: 1,
        idle: Duration::from_secs(2),
        ..Limits::default()
    };
    let addr = start(limits);
    let request = |name: &str| Message::GameRequest {
        name: name.into(),
        follower: Color::Black,
        minutes: 5,
        moves: 0,
        position: None,
    };
    // One game in progress: a second request elsewhere is refused (9).
    let playing = {
        let mut c = connect(addr);
        c.send(&request("a")).unwrap();
        assert!(matches!(next(&c), Message::GameAccept { code: '0', .. }));
        c
    };
    let mut second = connect(addr);
    second.send(&request("b")).unwrap();
    assert!(matches!(
        next(&second),
        Message::GameAccept { code: '9', .. }
    ));
    // Three connections open: a fourth is closed at once, unanswered.
    let mut third = TcpStream::connect(addr).unwrap();
    let mut fourth = TcpStream::connect(addr).unwrap();
    assert_eq!(read_to_close(&mut fourth), "");
    // Silent with no game: closed after the idle limit, saying why; the
    // initiator in a game may think for its whole clock.
    let got = read_to_close(&mut third);
    assert!(got.contains("Cerror: silent for 2s"), "{got:?}");
    assert_eq!(
        playing.recv(Duration::from_millis(200), None),
        Err(rafle_engine::link::Silence::Timeout)
    );
    drop((playing, second));
    // Places free again (once the server has seen the closes): a game.
    let t = Instant::now();
    loop {
        let mut c = connect(addr);
        c.send(&request("again")).unwrap();
        if let Message::GameAccept { code: '0', .. } = next(&c) {
            break;
        }
        assert!(t.elapsed() < STUCK, "the places were never freed");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Output shared with the Hub engine's search thread.
#[derive(Clone, Default)]
struct Sink(Arc<std::sync::Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn rafle_hub_skips_bad_lines_and_ends_with_its_input_mid_search() {
    use rafle_engine::hub::server::{serve, Settings};
    use rafle_engine::hub::MAX_LINE;
    let mut input = b"hub\ninit\n".to_vec();
    // A line far over the limit, bytes that are not UTF-8, NULs, a line
    // that does not parse: each an error line, then the engine goes on.
    input.extend(std::iter::repeat_n(b'x', 10 * MAX_LINE));
    input.extend_from_slice(b"\n\xff\xfe\xc0 garbage\n\0\0\0\npos pos=\"W\nping\n");
    // A search that only stop ends, and then the input ends.
    input.extend_from_slice(b"pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww\n");
    input.extend_from_slice(b"level infinite\ngo think\n");
    let out = Sink::default();
    let settings = Settings {
        variant: V,
        player: "alphabeta:t=60s".into(),
        threads: 1,
        seed: 0,
        numbering: Convention::default(),
    };
    let (tx, rx) = std::sync::mpsc::channel();
    let sink = out.clone();
    std::thread::spawn(move || {
        let make = |s: &Settings| {
            rafle_search::parse_player(&s.player, s.variant).map_err(|e| e.to_string())
        };
        let _ = tx.send(serve(&input[..], sink, settings, &make).map_err(|e| e.to_string()));
    });
    // The end of the input ends the session though the search goes on.
    assert_eq!(rx.recv_timeout(STUCK), Ok(Ok(())));
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    let errors: Vec<&str> = text.lines().filter(|l| l.starts_with("error")).collect();
    assert!(
        errors[0].contains(&format!("a line of {} bytes", 10 * MAX_LINE)),
        "{errors:?}"
    );
    assert!(errors[1].contains("not UTF-8"), "{errors:?}");
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(text.contains("\npong\n"), "{text}");
}
