//! rafle as a Hub engine (`rafle hub`): any rafle player behind Hub v2 on
//! stdin/stdout, for a Hub GUI or another program's Hub client.
//!
//! Parameters it declares: `variant` (Hub names: `normal` is
//! international, `killer`, `bt` breakthrough, `losing` antidraughts,
//! `frisian`, and
//! rafle's names for the other variants, whose positions are the
//! documented extension sized to their board), `player` (a player spec),
//! `threads` and `seed`. The player is built at `init` and afresh at each
//! `new-game`, from the seed, so games are reproducible.
//!
//! A `level` becomes the player's budget ([`rafle_search::Budget`]): depth,
//! nodes (simulations for UCT and network players), a move time, or a
//! clock divided over the moves left (30 when the level gives none); with
//! no level, or `level infinite`, the spec's own limits hold. A search runs
//! to its end: `stop` and `ponder-hit` are accepted and change nothing (the
//! protocol lets an engine answer whenever it likes), `ping` is answered
//! after the search.

use super::syntax::Line;
use crate::level::{Clock, Level};
use crate::notation::{WireMove, HUB};
use crate::{hub_variant, variant_of_hub};
use rafle_core::{Game, Variant};
use rafle_search::{Player, PlayerFactory};
use std::io::{BufRead, Write};

/// What the GUI may set before `init`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub variant: Variant,
    pub player: String,
    pub threads: usize,
    pub seed: u64,
}

/// Builds the player of the settings (rafle-zero's resolver: network
/// players need its network).
pub type MakePlayer = dyn Fn(&Settings) -> Result<PlayerFactory, String>;

struct Session<'a, W: Write> {
    out: W,
    settings: Settings,
    make: &'a MakePlayer,
    factory: Option<PlayerFactory>,
    player: Option<Box<dyn Player>>,
    game: Option<Game>,
    level: Option<Level>,
    clock: Option<Clock>,
}

impl<W: Write> Session<'_, W> {
    fn say(&mut self, line: Line) -> std::io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    fn error(&mut self, message: impl ToString) -> std::io::Result<()> {
        self.say(Line::new("error").arg("message", message.to_string()))
    }

    fn hello(&mut self) -> std::io::Result<()> {
        let s = self.settings.clone();
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
        self.say(
            Line::new("param")
                .arg("name", "player")
                .arg("value", &s.player)
                .arg("type", "string"),
        )?;
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

    fn init(&mut self) -> Result<(), String> {
        let f = (self.make)(&self.settings)?;
        self.player = Some(f(self.settings.seed));
        self.factory = Some(f);
        Ok(())
    }

    fn position(&mut self, line: &Line) -> Result<(), String> {
        self.game = None;
        let v = self.settings.variant;
        let pos = HUB.read(v, line.get("pos").ok_or("pos without pos=")?)?;
        let mut game = Game::from_position(v, pos);
        for tok in line.get("moves").unwrap_or("").split_whitespace() {
            let m = WireMove::parse_hub(tok, v.num_squares())?.find(&game)?;
            game.play(&m).map_err(|e| e.to_string())?;
        }
        self.game = Some(game);
        Ok(())
    }

    fn level(&mut self, line: &Line) -> Result<(), String> {
        self.level = Level::from_hub(line)?;
        // A clock line gives what is left now: it is the clock's state.
        self.clock = self.level.map(Clock::new);
        Ok(())
    }

    fn go(&mut self) -> std::io::Result<()> {
        let Some(game) = self.game.clone() else {
            return self.error("go without a position (pos pos=...)");
        };
        if game.is_over() {
            return self.error(format!("the game is over at {}", game.fen()));
        }
        let Some(player) = self.player.as_mut() else {
            return self.error("go before a successful init");
        };
        if let Some(level) = self.level {
            player.set_budget(level.budget(self.clock.as_ref()));
        }
        let m = match player.choose(&game) {
            Ok(m) => m,
            Err(f) => return self.error(format!("the player gave up: {f}")),
        };
        let v = game.variant();
        let info = player.info();
        let mut line = Line::new("info");
        if let Some(d) = info.depth {
            line = line.arg("depth", d);
        }
        if let Some(s) = info.score {
            line = line.arg("score", format!("{s:.2}"));
        }
        line = line.arg("nodes", info.nodes);
        let pv: Vec<String> = std::iter::once(m)
            .chain(info.pv.iter().skip(1).copied())
            .map(|m| WireMove::of(v, &m).to_hub())
            .collect();
        line = line.arg("pv", pv.join(" "));
        self.say(line)?;
        let mut done = Line::new("done").arg("move", WireMove::of(v, &m).to_hub());
        if let Some(p) = pv.get(1) {
            done = done.arg("ponder", p);
        }
        self.say(done)
    }
}

/// Serves Hub on `input`/`output` until `quit` or the end of the input.
pub fn serve(
    input: impl BufRead,
    output: impl Write,
    settings: Settings,
    make: &MakePlayer,
) -> std::io::Result<()> {
    let mut s = Session {
        out: output,
        settings,
        make,
        factory: None,
        player: None,
        game: None,
        level: None,
        clock: None,
    };
    for text in input.lines() {
        let text = text?;
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
                if let Some(f) = &s.factory {
                    s.player = Some(f(s.settings.seed));
                }
                Ok(())
            }
            "pos" => s.position(&line),
            "level" => s.level(&line),
            "go" => {
                s.go()?;
                Ok(())
            }
            "ping" => {
                s.say(Line::new("pong"))?;
                Ok(())
            }
            "quit" => return Ok(()),
            _ => Ok(()), // stop, ponder-hit, and what the protocol may add
        };
        if let Err(e) = outcome {
            s.error(e)?;
        }
    }
    Ok(())
}
