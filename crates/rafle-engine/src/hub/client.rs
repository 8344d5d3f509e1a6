//! A Hub engine as a rafle player: one process per game in flight, kept
//! between games (`new-game` starts the next), replaced after a failure.
//!
//! Per move: `pos pos=<position after the last capture or man move>
//! moves="<king moves since>"`, the `level` line (the clock's state), `go
//! think`; `info` lines are kept for [`Player::info`], `done move=` ends
//! the search. An engine that passes its time (the deadline of
//! [`Clock::deadline`] less [`GRACE`]) is sent `stop`, and has the grace
//! to answer. The engine forfeits the game when it exits
//! ([`EndReason::EngineFailure`], with its exit status and last stderr
//! line), sends a malformed line, an `error` or an unreadable move
//! ([`EndReason::ProtocolError`]), a move that is not legal
//! ([`EndReason::IllegalMove`], with the position), or no move in time
//! ([`EndReason::TimeForfeit`]).
//!
//! Engines of the first Hub version (Scan 2.0: `name` instead of `id` in
//! the handshake) get that dialect ([`Dialect::V1`]): `new`, `pos <whole
//! position>` (no move history: repetitions are the arena's to count),
//! `depth N`, `time MS` or `level MOVES MS INC_MS`, `go`, answered by
//! `move <move> [<ponder>]`; international draughts only, no node level.

use super::syntax::Line;
use crate::level::{Clock, Level, GRACE};
use crate::link::{Inbox, Overlong, Silence};
use crate::notation::{reversible_tail, Wire, WireMove, HUB};
use crate::pool::Pool;
use crate::{hub_variant, EngineOptions};
use rafle_core::{EndReason, Game, Move, Variant};
use rafle_search::{Forfeit, Player, SearchInfo};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Lines of the engine's stderr kept for the report of a failure.
const STDERR_LINES: usize = 4;
/// Lines sent to the engine kept for the report of its `error` (a search
/// sends three: `pos`, `level`, `go`).
const SENT_LINES: usize = 3;

/// The Hub version an engine speaks, told by its handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Hub 2 (Scan 3, rafle): `id`, `param`s, key=value arguments.
    V2,
    /// The first Hub (Scan 2.0): `name`, positional arguments.
    V1,
}

/// A started Hub engine, past `init`.
#[derive(Debug)]
pub struct HubEngine {
    child: Child,
    stdin: ChildStdin,
    inbox: Inbox,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// The last lines sent, oldest first.
    sent: VecDeque<String>,
    /// The `id name=` it gave (`name` in the first Hub).
    pub id: String,
    pub dialect: Dialect,
}

impl HubEngine {
    /// Starts `command` and runs the initialisation (`hub` ... `wait`,
    /// `set-param`s, `init` ... `ready`) within `opts.timeout`.
    pub fn start(
        command: &[String],
        variant: Variant,
        opts: &EngineOptions,
    ) -> Result<HubEngine, String> {
        let (program, args) = command.split_first().ok_or("an empty command line")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {program:?}: {e}"))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            return Err("no pipes to the engine".into());
        };
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let keep = tail.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let mut t = keep.lock().unwrap_or_else(|p| p.into_inner());
                if t.len() == STDERR_LINES {
                    t.pop_front();
                }
                t.push_back(line);
            }
        });
        let mut engine = HubEngine {
            child,
            stdin,
            inbox: Inbox::spawn(stdout, b'\n', super::MAX_LINE, Overlong::Skip),
            stderr: tail,
            sent: VecDeque::new(),
            id: String::new(),
            dialect: Dialect::V2,
        };
        engine.handshake(variant, opts).map_err(|e| e.detail)?;
        Ok(engine)
    }

    fn handshake(&mut self, variant: Variant, opts: &EngineOptions) -> Result<(), Forfeit> {
        let deadline = Instant::now() + opts.timeout;
        self.send(&Line::new("hub"))?;
        let mut params: Vec<Line> = Vec::new();
        let (mut id, mut name) = (false, None);
        loop {
            let line = self.read(deadline, opts, "the hub handshake (no wait)")?;
            match line.command.as_str() {
                "id" => {
                    id = true;
                    self.id = line.get("name").unwrap_or("").to_string();
                }
                "name" => {
                    name = Some(
                        line.args
                            .iter()
                            .map(|(k, _)| k.as_str())
                            .collect::<Vec<_>>()
                            .join(" "),
                    )
                }
                "param" => params.push(line),
                "wait" => break,
                _ => {}
            }
        }
        let failed = |why: String| Forfeit::new(EndReason::EngineFailure, why);
        if let (false, Some(name)) = (id, name) {
            self.dialect = Dialect::V1;
            self.id = name;
            if variant != Variant::International {
                return Err(failed(format!(
                    "a first-version Hub engine ({}) plays international draughts only, not {variant}",
                    self.id
                )));
            }
            if matches!(opts.level, Some(Level::Nodes(_))) {
                return Err(failed(format!(
                    "a first-version Hub engine ({}) has no node level (depth, move-time or a clock)",
                    self.id
                )));
            }
        }
        let param = |name: &str| params.iter().find(|p| p.get("name") == Some(name));
        if let Some(p) = param("variant") {
            let ours = hub_variant(variant);
            if let Some(values) = p.get("values") {
                if !values.split_whitespace().any(|x| x == ours) {
                    return Err(failed(format!(
                        "the engine does not play {variant} (Hub name {ours:?}; it plays: {values})"
                    )));
                }
            }
            self.send(
                &Line::new("set-param")
                    .arg("name", "variant")
                    .arg("value", ours),
            )?;
        }
        // An engine that numbers squares either way (rafle) is told ours.
        if param("numbering").is_some() {
            self.send(
                &Line::new("set-param")
                    .arg("name", "numbering")
                    .arg("value", opts.numbering),
            )?;
        }
        for (name, value) in &opts.params {
            if param(name).is_none() {
                let known: Vec<&str> = params.iter().filter_map(|p| p.get("name")).collect();
                return Err(failed(format!(
                    "the engine has no parameter {name:?} (its parameters: {})",
                    known.join(", ")
                )));
            }
            self.send(&Line::new("set-param").arg("name", name).arg("value", value))?;
        }
        self.send(&Line::new("init"))?;
        loop {
            if self.read(deadline, opts, "init (no ready)")?.command == "ready" {
                return Ok(());
            }
        }
    }

    /// Tells the engine a new game starts.
    fn new_game(&mut self) -> Result<(), Forfeit> {
        self.send(&Line::new(match self.dialect {
            Dialect::V2 => "new-game",
            Dialect::V1 => "new",
        }))
    }

    fn send(&mut self, line: &Line) -> Result<(), Forfeit> {
        if self.sent.len() == SENT_LINES {
            self.sent.pop_front();
        }
        self.sent.push_back(line.to_string());
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| self.failure())
    }

    /// Why the engine stopped answering: its exit status and last stderr line.
    fn failure(&mut self) -> Forfeit {
        let mut status = None;
        for _ in 0..20 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let mut why = match status {
            Some(s) => format!("the engine exited ({s})"),
            None => "the engine closed its output".to_string(),
        };
        let tail = self.stderr.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(last) = tail.back() {
            why.push_str(&format!("; its stderr ends: {last}"));
        }
        Forfeit::new(EndReason::EngineFailure, why)
    }

    /// The next well-formed line before `deadline`; an `error` line is a
    /// forfeit whose reason gives its message (or the line itself, where it
    /// has none, as older Hub engines send) and what was sent before it.
    fn read(
        &mut self,
        deadline: Instant,
        opts: &EngineOptions,
        waiting: &str,
    ) -> Result<Line, Forfeit> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.inbox.recv(left, opts.stop.as_deref()) {
            Ok(text) => {
                let line = Line::parse(&text).map_err(|e| {
                    Forfeit::new(
                        EndReason::ProtocolError,
                        format!("a malformed line {text:?}: {e}"),
                    )
                })?;
                if line.command != "error" {
                    return Ok(line);
                }
                let what = match line.get("message").filter(|m| !m.is_empty()) {
                    Some(m) => format!("the engine reported an error: {m}"),
                    None => format!("the engine reported an error without a message ({text:?})"),
                };
                let sent: Vec<String> = self.sent.iter().map(|l| format!("{l:?}")).collect();
                Err(Forfeit::new(
                    EndReason::ProtocolError,
                    format!("{what}, after {}", sent.join(", ")),
                ))
            }
            Err(Silence::Closed) => Err(self.failure()),
            Err(Silence::Timeout) => Err(Forfeit::new(
                EndReason::TimeForfeit,
                format!("no answer in time during {waiting}"),
            )),
            Err(Silence::Stopped) => Err(Forfeit::new(EndReason::EngineFailure, "stopped")),
        }
    }

    /// Searches `game` under `clock` and returns the engine's move.
    pub fn search(
        &mut self,
        game: &Game,
        clock: Option<&Clock>,
        opts: &EngineOptions,
        info: &mut SearchInfo,
    ) -> Result<Move, Forfeit> {
        let v = game.variant();
        let wire = Wire::new(v, opts.numbering);
        match self.dialect {
            Dialect::V2 => {
                let (base, tail) = reversible_tail(game);
                let mut pos = Line::new("pos").arg("pos", HUB.write(wire, &base));
                if !tail.is_empty() {
                    let moves: Vec<String> = tail
                        .iter()
                        .map(|m| WireMove::of(wire, m).to_hub())
                        .collect();
                    pos = pos.arg("moves", moves.join(" "));
                }
                self.send(&pos)?;
                if let Some(c) = clock {
                    self.send(&c.hub_line())?;
                }
                self.send(&Line::new("go").flag("think"))?;
            }
            Dialect::V1 => {
                // The side to move in lower case, then the squares as Hub 2.
                let written = HUB.write(wire, game.position());
                let pos = written[..1].to_lowercase() + &written[1..];
                self.send(&Line::new("pos").flag(&pos))?;
                if let Some(line) = clock.and_then(Clock::hub_v1_line) {
                    self.send(&line)?;
                }
                self.send(&Line::new("go"))?;
            }
        }
        let within = clock.map_or(opts.timeout, |c| c.deadline(opts.timeout));
        let start = Instant::now();
        let deadline = start + within;
        // Past its budget the engine is asked to stop; it forfeits if it
        // has not moved within the grace after that.
        let mut stop_at = deadline.checked_sub(GRACE).filter(|&t| t > start);
        *info = SearchInfo::default();
        loop {
            let line = match self.read(stop_at.unwrap_or(deadline), opts, "a search") {
                Err(f) if f.reason == EndReason::TimeForfeit && stop_at.is_some() => {
                    stop_at = None;
                    self.send(&Line::new("stop"))?;
                    continue;
                }
                Err(f) if f.reason == EndReason::TimeForfeit => {
                    return Err(Forfeit::new(
                        EndReason::TimeForfeit,
                        format!("no move within {:.1} s", within.as_secs_f64()),
                    ))
                }
                other => other?,
            };
            let text = match (self.dialect, line.command.as_str()) {
                (Dialect::V2, "info") => {
                    read_info(&line, wire, game, info);
                    continue;
                }
                (Dialect::V2, "done") => line.get("move").unwrap_or(""),
                (Dialect::V1, "move") => line.args.first().map_or("", |(m, _)| m.as_str()),
                _ => continue,
            };
            let played = WireMove::parse_hub(text, v.num_squares()).map_err(|e| {
                Forfeit::new(EndReason::ProtocolError, format!("done move={text:?}: {e}"))
            })?;
            return played.find(wire, game).map_err(|e| {
                Forfeit::new(EndReason::IllegalMove, format!("the engine played {e}"))
            });
        }
    }
}

/// Depth, score, nodes and the PV's legal prefix from an `info` line.
fn read_info(line: &Line, wire: Wire, game: &Game, info: &mut SearchInfo) {
    if let Some(d) = line.get("depth").and_then(|d| d.parse().ok()) {
        info.depth = Some(d);
    }
    if let Some(s) = line.get("score").and_then(|s| s.parse().ok()) {
        info.score = Some(s);
    }
    if let Some(n) = line.get("nodes").and_then(|n| n.parse().ok()) {
        info.nodes = n;
    }
    if let Some(pv) = line.get("pv") {
        let mut g = game.clone();
        info.pv.clear();
        for tok in pv.split_whitespace() {
            let Ok(m) =
                WireMove::parse_hub(tok, g.variant().num_squares()).and_then(|w| w.find(wire, &g))
            else {
                break;
            };
            if g.play(&m).is_err() {
                break;
            }
            info.pv.push(m);
        }
    }
}

impl Drop for HubEngine {
    /// `quit`, a moment to obey, then the process is killed.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|_| self.stdin.flush());
        for _ in 0..10 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the players of one `hub:` spec share: the command, the options and
/// the idle engines.
#[derive(Debug)]
pub struct HubShared {
    pub name: String,
    pub command: Vec<String>,
    pub variant: Variant,
    pub opts: EngineOptions,
    pub pool: Pool<HubEngine>,
}

/// One game's side played by a Hub engine.
#[derive(Debug)]
pub struct HubPlayer {
    shared: Arc<HubShared>,
    engine: Option<HubEngine>,
    /// The engine failed this game: it is not given back.
    failed: bool,
    clock: Option<Clock>,
    info: SearchInfo,
    /// Nodes the engine reported over the game.
    nodes: u64,
}

impl HubPlayer {
    pub fn new(shared: Arc<HubShared>) -> HubPlayer {
        let clock = shared.opts.level.map(Clock::new);
        HubPlayer {
            shared,
            engine: None,
            failed: false,
            clock,
            info: SearchInfo::default(),
            nodes: 0,
        }
    }

    fn engine(&mut self) -> Result<&mut HubEngine, Forfeit> {
        if self.engine.is_none() {
            let s = &self.shared;
            let mut e = match s.pool.take() {
                Some(e) => e,
                None => HubEngine::start(&s.command, s.variant, &s.opts)
                    .map_err(|why| Forfeit::new(EndReason::EngineFailure, why))?,
            };
            e.new_game()?;
            self.engine = Some(e);
        }
        Ok(self.engine.as_mut().expect("set above"))
    }
}

impl Player for HubPlayer {
    fn name(&self) -> String {
        self.shared.name.clone()
    }

    fn choose(&mut self, game: &Game) -> Result<Move, Forfeit> {
        let t = Instant::now();
        let shared = self.shared.clone();
        let mut info = SearchInfo::default();
        let clock = self.clock.clone();
        let result = self
            .engine()
            .and_then(|e| e.search(game, clock.as_ref(), &shared.opts, &mut info));
        if let Some(c) = &mut self.clock {
            c.spend(t.elapsed());
        }
        self.nodes += info.nodes;
        self.info = info;
        if result.is_err() {
            self.failed = true;
            self.engine = None;
        }
        result
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }

    fn info(&self) -> SearchInfo {
        self.info.clone()
    }
}

impl Drop for HubPlayer {
    fn drop(&mut self) {
        if let (Some(e), false) = (self.engine.take(), self.failed) {
            self.shared.pool.put(e);
        }
    }
}
