//! rafle as a Hub engine (`rafle hub`): any rafle player behind Hub v2 on
//! stdin/stdout, for a Hub GUI, pydraughts and lidraughts-bot, or another
//! program's Hub client.
//!
//! Parameters it declares: `variant` (Hub names, see
//! [`crate::hub_variant`]), `numbering` (`pydraughts` or `rafle`, see
//! [`crate::notation::Convention`]), `player` (a player spec), `threads`
//! and `seed`. Other parameters are ignored (the protocol's
//! rule; lidraughts-bot sends its own). The player is built at `init` and
//! afresh at each `new-game`, from the seed, so games are reproducible.
//!
//! A search runs on its own thread while this one reads the input:
//! - `info` lines come as the search goes (alpha-beta: one per completed
//!   iteration, with depth, score, nodes, time and the principal
//!   variation), then a last one and `done move=... ponder=...`.
//! - `stop` ends the search at once: the player returns its best move so
//!   far (alpha-beta: of its last completed iteration), within about a
//!   millisecond for alpha-beta and UCT, one evaluator call for a network
//!   player ([`rafle_search::SearchControl`]).
//! - `go ponder` searches without a time limit (a depth or node level
//!   still holds); `ponder-hit` gives it the level's time from then on.
//! - `ping` is answered at once; `quit` (or the end of the input) exits at
//!   once, without waiting for a search.
//!
//! A `level` becomes the player's budget ([`rafle_search::Budget`]): depth,
//! nodes (simulations for UCT and network players), a move time, or a
//! clock divided over the moves left (30 when the level gives none); with
//! no level the spec's own limits hold, and `level infinite` searches until
//! `stop`. A position that rafle's rules have ended (a draw rule the host
//! does not have) is still searched from its pieces, so a host that plays
//! on gets a move.

use super::syntax::Line;
use crate::level::{Clock, Level};
use crate::notation::{move_rule_moves, Convention, Wire, WireMove, HUB};
use crate::{hub_variant, variant_of_hub};
use rafle_core::{Game, Move, Variant};
use rafle_search::alphabeta::{WIN, WIN_BOUND};
use rafle_search::{Budget, Player, PlayerFactory, SearchControl, SearchInfo};
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The time budget of a search that only `stop` or `ponder-hit` ends.
const UNBOUNDED: Duration = Duration::from_secs(24 * 3600);

/// What the GUI may set before `init`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub variant: Variant,
    pub player: String,
    pub threads: usize,
    pub seed: u64,
    pub numbering: Convention,
}

/// Builds the player of the settings (rafle-zero's resolver: network
/// players need its network).
pub type MakePlayer = dyn Fn(&Settings) -> Result<PlayerFactory, String>;

/// The output, shared by the reading thread and the search thread; one
/// line at a time.
#[derive(Clone)]
struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    fn say(&self, line: &Line) -> std::io::Result<()> {
        let mut w = self.0.lock().unwrap_or_else(|p| p.into_inner());
        writeln!(w, "{line}")?;
        w.flush()
    }
}

/// A search in progress on its own thread, which gives the player back.
struct Running {
    control: Arc<SearchControl>,
    thread: JoinHandle<Box<dyn Player>>,
    /// A `go ponder` search before its `ponder-hit`: the time the level
    /// gives it from then on (None: a depth or node level, or none).
    ponder: Option<Option<Duration>>,
}

struct Session<'a> {
    out: Out,
    settings: Settings,
    make: &'a MakePlayer,
    factory: Option<PlayerFactory>,
    /// The player, while no search holds it.
    player: Option<Box<dyn Player>>,
    search: Option<Running>,
    game: Option<Game>,
    level: Option<Level>,
    /// `level infinite`: search until `stop`.
    infinite: bool,
    clock: Option<Clock>,
}

/// A score as Hub writes it, in men; a forced win or loss as Scan writes
/// it (100 men less a hundredth per ply), which pydraughts reads as one.
fn hub_score(men: f64) -> String {
    let centi = (men * 100.0).round() as i64;
    let (win, bound) = (WIN as i64, WIN_BOUND as i64);
    let centi = if centi.abs() > bound {
        centi.signum() * (10_000 - (win - centi.abs()).clamp(0, 999))
    } else {
        centi
    };
    format!("{:.2}", centi as f64 / 100.0)
}

/// The `info` line of `info` (moves written in the wire's numbering).
fn info_line(wire: Wire, info: &SearchInfo, elapsed: Duration) -> Line {
    let mut line = Line::new("info");
    if let Some(d) = info.depth {
        line = line.arg("depth", d);
    }
    if let Some(s) = info.score {
        line = line.arg("score", hub_score(s));
    }
    let secs = elapsed.as_secs_f64();
    line = line
        .arg("nodes", info.nodes)
        .arg("time", format!("{secs:.3}"));
    if secs > 0.0 {
        // Scan's unit: millions of nodes per second.
        line = line.arg("nps", format!("{:.3}", info.nodes as f64 / secs / 1e6));
    }
    if !info.pv.is_empty() {
        let pv: Vec<String> = info
            .pv
            .iter()
            .map(|m| WireMove::of(wire, m).to_hub())
            .collect();
        line = line.arg("pv", pv.join(" "));
    }
    line
}

/// The last `info` and `done` of a search that chose `m`.
fn answer(out: &Out, wire: Wire, m: Move, info: &SearchInfo, elapsed: Duration) {
    let mut pv = vec![m];
    if info.pv.first() == Some(&m) {
        pv.extend(info.pv.iter().skip(1));
    }
    let info = SearchInfo { pv, ..info.clone() };
    let mut done = Line::new("done").arg("move", WireMove::of(wire, &m).to_hub());
    if let Some(p) = info.pv.get(1) {
        done = done.arg("ponder", WireMove::of(wire, p).to_hub());
    }
    let _ = out.say(&info_line(wire, &info, elapsed));
    let _ = out.say(&done);
}

impl Session<'_> {
    fn say(&self, line: Line) -> std::io::Result<()> {
        self.out.say(&line)
    }

    fn error(&self, message: impl ToString) -> std::io::Result<()> {
        self.say(Line::new("error").arg("message", message.to_string()))
    }

    fn hello(&self) -> std::io::Result<()> {
        let s = &self.settings;
        let variants: Vec<&str> = Variant::ALL.iter().map(|&v| hub_variant(v)).collect();
        self.say(
            Line::new("id")
                .arg("name", "rafle")
                .arg("version", env!("CARGO_PKG_VERSION"))
                .arg("author", "the rafle developers"),
        )?;
        self.say(
            Line::new("param")
                .arg("name", "variant")
                .arg("value", hub_variant(s.variant))
                .arg("type", "enum")
                .arg("values", variants.join(" ")),
        )?;
        let conventions: Vec<&str> = Convention::ALL.iter().map(|c| c.name()).collect();
        self.say(
            Line::new("param")
                .arg("name", "numbering")
                .arg("value", s.numbering)
                .arg("type", "enum")
                .arg("values", conventions.join(" ")),
        )?;
        // pydraughts splits each argument at every '=', quoted or not, and
        // fails on a value holding one (alphabeta:t=1s): such a value is
        // left out of the declaration.
        let mut player = Line::new("param").arg("name", "player");
        if !s.player.contains('=') {
            player = player.arg("value", &s.player);
        }
        self.say(player.arg("type", "string"))?;
        for (name, value, max) in [
            ("threads", s.threads as u64, 1024),
            ("seed", s.seed, u32::MAX as u64),
        ] {
            self.say(
                Line::new("param")
                    .arg("name", name)
                    .arg("value", value)
                    .arg("type", "int")
                    .arg("min", if name == "threads" { 1 } else { 0 })
                    .arg("max", max),
            )?;
        }
        self.say(Line::new("wait"))
    }

    fn set_param(&mut self, line: &Line) -> Result<(), String> {
        let value = line.get("value").unwrap_or("");
        match line.get("name").unwrap_or("") {
            "variant" => self.settings.variant = variant_of_hub(value)?,
            "numbering" => self.settings.numbering = value.parse()?,
            "player" => self.settings.player = value.to_string(),
            "threads" => match value.parse::<usize>() {
                Ok(n) if n >= 1 => self.settings.threads = n,
                _ => return Err(format!("threads={value:?}: a count of at least 1")),
            },
            "seed" => {
                self.settings.seed = value
                    .parse()
                    .map_err(|_| format!("seed={value:?}: a number"))?
            }
            _ => {} // unknown parameters are ignored (the protocol's rule)
        }
        Ok(())
    }

    fn wire(&self) -> Wire {
        Wire::new(self.settings.variant, self.settings.numbering)
    }

    /// Ends the search in progress, if any, and takes the player back.
    fn finish(&mut self) {
        if let Some(r) = self.search.take() {
            r.control.stop();
            match r.thread.join() {
                Ok(p) => self.player = Some(p),
                // The search panicked (its thread said so): a fresh player.
                Err(_) => self.player = self.factory.as_ref().map(|f| f(self.settings.seed)),
            }
        }
    }

    fn init(&mut self) -> Result<(), String> {
        self.finish();
        let f = (self.make)(&self.settings)?;
        self.player = Some(f(self.settings.seed));
        self.factory = Some(f);
        Ok(())
    }

    fn position(&mut self, line: &Line) -> Result<(), String> {
        self.game = None;
        let v = self.settings.variant;
        let wire = self.wire();
        let pos = HUB.read(wire, line.get("pos").ok_or("pos without pos=")?)?;
        let mut game = Game::from_position(v, pos);
        for tok in line.get("moves").unwrap_or("").split_whitespace() {
            WireMove::parse_hub(tok, v.num_squares())?.play_on(wire, &mut game)?;
        }
        self.game = Some(game);
        Ok(())
    }

    fn level(&mut self, line: &Line) -> Result<(), String> {
        self.infinite = line.has("infinite");
        self.level = Level::from_hub(line)?;
        // A clock line gives what is left now: it is the clock's state.
        self.clock = self.level.map(Clock::new);
        Ok(())
    }

    /// Starts a search (`go think`, `go ponder`, `go analyze`).
    fn go(&mut self, ponder: bool) -> std::io::Result<()> {
        self.finish();
        let Some(game) = self.game.clone() else {
            return self.error("go without a position (pos pos=...)");
        };
        let v = game.variant();
        let wire = self.wire();
        // A game over by rafle's rules only: go on from its pieces.
        let game = if game.is_over() {
            Game::from_position(v, *game.position())
        } else {
            game
        };
        if game.is_over() {
            return match move_rule_moves(&game).first() {
                Some(&m) => {
                    answer(&self.out, wire, m, &SearchInfo::default(), Duration::ZERO);
                    Ok(())
                }
                None => self.error(format!("the game is over at {}", game.fen())),
            };
        }
        let Some(mut player) = self.player.take() else {
            return self.error("go before a successful init");
        };
        let level = self.level.map(|l| l.budget(self.clock.as_ref()));
        let mut ponder_time = None;
        match level {
            // Pondering or analysing: no time limit until ponder-hit or stop.
            Some(Budget::Time(t)) if ponder => {
                ponder_time = Some(t);
                player.set_budget(Budget::Time(UNBOUNDED));
            }
            Some(b) => player.set_budget(b),
            None if self.infinite || ponder => player.set_budget(Budget::Time(UNBOUNDED)),
            None => {}
        }
        let start = Instant::now();
        let out = self.out.clone();
        let control = Arc::new(SearchControl::with_progress(move |info| {
            let _ = out.say(&info_line(wire, info, start.elapsed()));
        }));
        player.set_control(Some(control.clone()));
        let out = self.out.clone();
        let thread = std::thread::spawn(move || {
            let chosen =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| player.choose(&game)));
            match chosen {
                Ok(Ok(m)) => answer(&out, wire, m, &player.info(), start.elapsed()),
                Ok(Err(f)) => {
                    let why = format!("the player gave up: {f}");
                    let _ = out.say(&Line::new("error").arg("message", why));
                }
                Err(_) => {
                    let _ = out.say(&Line::new("error").arg("message", "the search panicked"));
                    std::panic::resume_unwind(Box::new("the search panicked"));
                }
            }
            player.set_control(None);
            player
        });
        self.search = Some(Running {
            control,
            thread,
            ponder: ponder.then_some(ponder_time),
        });
        Ok(())
    }

    /// `ponder-hit`: the search goes on with the level's time from now.
    fn ponder_hit(&mut self) {
        if let Some(r) = &mut self.search {
            if let Some(Some(t)) = r.ponder.take() {
                r.control.stop_at(Instant::now() + t);
            }
        }
    }

    fn stop(&self) {
        if let Some(r) = &self.search {
            r.control.stop();
        }
    }
}

/// Serves Hub on `input`/`output` until `quit` or the end of the input.
pub fn serve(
    mut input: impl BufRead,
    output: impl Write + Send + 'static,
    settings: Settings,
    make: &MakePlayer,
) -> std::io::Result<()> {
    let mut s = Session {
        out: Out(Arc::new(Mutex::new(Box::new(output)))),
        settings,
        make,
        factory: None,
        player: None,
        search: None,
        game: None,
        level: None,
        infinite: false,
        clock: None,
    };
    while let Some(text) = crate::link::read_line(&mut input, super::MAX_LINE)? {
        // Over-long lines and bytes that are not text: said, and skipped.
        let text = match text {
            Ok(t) => t,
            Err(e) => {
                s.error(e)?;
                continue;
            }
        };
        if text.trim().is_empty() {
            continue;
        }
        let line = match Line::parse(&text) {
            Ok(l) => l,
            Err(e) => {
                s.error(format!("cannot read {text:?}: {e}"))?;
                continue;
            }
        };
        let outcome = match line.command.as_str() {
            "hub" => {
                s.hello()?;
                Ok(())
            }
            "set-param" => s.set_param(&line),
            "init" => {
                let r = s.init();
                s.say(Line::new("ready"))?;
                r
            }
            "new-game" => {
                s.finish();
                if let Some(f) = &s.factory {
                    s.player = Some(f(s.settings.seed));
                }
                Ok(())
            }
            "pos" => s.position(&line),
            "level" => s.level(&line),
            "go" => {
                s.go(line.has("ponder"))?;
                Ok(())
            }
            "stop" => {
                s.stop();
                Ok(())
            }
            "ponder-hit" => {
                s.ponder_hit();
                Ok(())
            }
            "ping" => {
                s.say(Line::new("pong"))?;
                Ok(())
            }
            // A search in progress is left to the process's exit.
            "quit" => break,
            _ => Ok(()), // what the protocol may add
        };
        if let Err(e) = outcome {
            s.error(e)?;
        }
    }
    s.stop();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forced_results_are_written_as_scan_writes_them() {
        assert_eq!(hub_score(0.25), "0.25");
        assert_eq!(hub_score(-1.0), "-1.00");
        // A win in 7 plies, a loss in 4.
        assert_eq!(hub_score((WIN - 7) as f64 / 100.0), "99.93");
        assert_eq!(hub_score(-(WIN - 4) as f64 / 100.0), "-99.96");
    }
}
