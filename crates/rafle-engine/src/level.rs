//! How long an engine may think: the level of `--engine-level` and
//! `level=` in Python, in Hub's terms, and the clock that enforces it.
//!
//! ```text
//! depth=6                 plies
//! nodes=100000            nodes (simulations for rafle's UCT and network players)
//! move-time=0.2           seconds per move
//! time=60 [moves=75] [inc=1]   a game clock in seconds: sudden death, moves/time, or Fischer
//! ```
//!
//! An engine's move must come within: `--engine-timeout` (depth, nodes);
//! twice the move time plus [`GRACE`] (move time); what is left on its clock
//! plus the increment plus [`GRACE`] (a clock). Later, it loses on time.

use crate::hub::syntax::Line;
use rafle_search::Budget;
use std::time::Duration;

/// Slack for pipes, sockets and process scheduling on every deadline.
pub const GRACE: Duration = Duration::from_secs(1);

/// Moves a sudden-death clock is expected to last, when dividing it.
const MOVES_TO_GO: u32 = 30;

/// An engine's search limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Level {
    Depth(u32),
    Nodes(u64),
    /// Seconds per move.
    MoveTime(f64),
    /// A game clock: seconds, moves per period (None: sudden death) and
    /// the increment added before every move.
    Clock {
        time: f64,
        moves: Option<u32>,
        inc: f64,
    },
}

fn number<T: std::str::FromStr>(key: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("level: {key}={v:?} is not a number"))
}

fn seconds(key: &str, v: &str) -> Result<f64, String> {
    let s: f64 = number(key, v)?;
    if !(s.is_finite() && (0.0..=86_400.0).contains(&s)) {
        return Err(format!("level: {key}={v} must be in 0..=86400 seconds"));
    }
    Ok(s)
}

impl Level {
    /// Reads `depth=6`, `nodes=N`, `move-time=S` or `time=S [moves=N] [inc=S]`.
    pub fn parse(text: &str) -> Result<Level, String> {
        let mut keys: Vec<(&str, &str)> = Vec::new();
        for part in text.split_whitespace() {
            let Some((k, v)) = part.split_once('=') else {
                return Err(format!(
                    "level {text:?}: {part:?} is not key=value (depth=6, nodes=N, move-time=S, time=S moves=N inc=S)"
                ));
            };
            keys.push((k, v));
        }
        let get = |k: &str| keys.iter().find(|(key, _)| *key == k).map(|(_, v)| *v);
        for (k, _) in &keys {
            if !["depth", "nodes", "move-time", "time", "moves", "inc"].contains(k) {
                return Err(format!(
                    "level {text:?}: unknown key {k:?} (depth, nodes, move-time, time, moves, inc)"
                ));
            }
        }
        let level = match (get("depth"), get("nodes"), get("move-time"), get("time")) {
            (Some(d), None, None, None) => match number::<u32>("depth", d)? {
                d @ 1..=64 => Level::Depth(d),
                _ => return Err("level: depth must be in 1..=64".into()),
            },
            (None, Some(n), None, None) => match number::<u64>("nodes", n)? {
                0 => return Err("level: nodes must be at least 1".into()),
                n => Level::Nodes(n),
            },
            (None, None, Some(t), None) => match seconds("move-time", t)? {
                t if t > 0.0 => Level::MoveTime(t),
                _ => return Err("level: move-time must be above 0".into()),
            },
            (None, None, None, Some(t)) => {
                let time = seconds("time", t)?;
                let moves = get("moves")
                    .map(|m| number::<u32>("moves", m))
                    .transpose()?;
                if moves == Some(0) || moves.is_some_and(|m| m > 999) {
                    return Err("level: moves must be in 1..=999".into());
                }
                let inc = get("inc")
                    .map(|i| seconds("inc", i))
                    .transpose()?
                    .unwrap_or(0.0);
                if time <= 0.0 {
                    return Err("level: time must be above 0".into());
                }
                Level::Clock { time, moves, inc }
            }
            (None, None, None, None) => {
                return Err(format!(
                    "level {text:?}: give one of depth=, nodes=, move-time=, time="
                ))
            }
            _ => {
                return Err(format!(
                    "level {text:?}: give one of depth=, nodes=, move-time=, time= (not several)"
                ))
            }
        };
        if !matches!(level, Level::Clock { .. }) && (get("moves").is_some() || get("inc").is_some())
        {
            return Err(format!("level {text:?}: moves= and inc= go with time="));
        }
        Ok(level)
    }

    /// A Hub `level` line as an engine reads it (None: `level infinite`).
    pub fn from_hub(line: &Line) -> Result<Option<Level>, String> {
        if line.has("infinite") {
            return Ok(None);
        }
        let text: Vec<String> = line
            .args
            .iter()
            .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}={v}")))
            .collect();
        Level::parse(&text.join(" ")).map(Some)
    }

    /// The budget of one move for a player behind the protocol, `clock`
    /// being what is left when the level is a clock.
    pub fn budget(&self, clock: Option<&Clock>) -> Budget {
        match *self {
            Level::Depth(d) => Budget::Depth(d),
            Level::Nodes(n) => Budget::Nodes(n),
            Level::MoveTime(t) => Budget::Time(Duration::from_secs_f64(t)),
            Level::Clock { time, moves, inc } => {
                let (left, to_go) = match clock {
                    Some(c) => (c.left, c.moves_left.unwrap_or(MOVES_TO_GO)),
                    None => (time, moves.unwrap_or(MOVES_TO_GO)),
                };
                let per_move = left / to_go.max(1) as f64 + inc;
                Budget::Time(Duration::from_secs_f64(per_move.clamp(0.001, left + inc)))
            }
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Level::Depth(d) => write!(f, "depth={d}"),
            Level::Nodes(n) => write!(f, "nodes={n}"),
            Level::MoveTime(t) => write!(f, "move-time={t}"),
            Level::Clock { time, moves, inc } => {
                if let Some(m) = moves {
                    write!(f, "moves={m} ")?;
                }
                write!(f, "time={time}")?;
                if inc > 0.0 {
                    write!(f, " inc={inc}")?;
                }
                Ok(())
            }
        }
    }
}

/// One side's clock in a game with a [`Level::Clock`] (and the deadline of
/// every level).
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    pub level: Level,
    /// Seconds left (before the increment of the next move).
    pub left: f64,
    /// Moves left in this period (None: sudden death).
    pub moves_left: Option<u32>,
}

impl Clock {
    pub fn new(level: Level) -> Clock {
        let (left, moves_left) = match level {
            Level::Clock { time, moves, .. } => (time, moves),
            _ => (0.0, None),
        };
        Clock {
            level,
            left,
            moves_left,
        }
    }

    /// The Hub `level` line for the next search.
    pub fn hub_line(&self) -> Line {
        let l = Line::new("level");
        match self.level {
            Level::Depth(d) => l.arg("depth", d),
            Level::Nodes(n) => l.arg("nodes", n),
            Level::MoveTime(t) => l.arg("move-time", format!("{t:.3}")),
            Level::Clock { inc, .. } => {
                let l = match self.moves_left {
                    Some(m) => l.arg("moves", m),
                    None => l,
                };
                let l = l.arg("time", format!("{:.3}", self.left.max(0.0)));
                if inc > 0.0 {
                    l.arg("inc", format!("{inc:.3}"))
                } else {
                    l
                }
            }
        }
    }

    /// The first Hub version's line for the next search: `depth N`, `time
    /// MS` (a move time) or `level MOVES MS INC_MS` (a clock; 0 moves:
    /// sudden death). None for a node level, which that version lacks.
    pub fn hub_v1_line(&self) -> Option<Line> {
        let ms = |s: f64| format!("{:.0}", (s * 1000.0).max(0.0));
        Some(match self.level {
            Level::Depth(d) => Line::new("depth").flag(&d.to_string()),
            Level::Nodes(_) => return None,
            Level::MoveTime(t) => Line::new("time").flag(&ms(t)),
            Level::Clock { inc, .. } => Line::new("level")
                .flag(&self.moves_left.unwrap_or(0).to_string())
                .flag(&ms(self.left))
                .flag(&ms(inc)),
        })
    }

    /// How long the next move may take before it is a time forfeit
    /// (`timeout` for depth and node levels).
    pub fn deadline(&self, timeout: Duration) -> Duration {
        match self.level {
            Level::Depth(_) | Level::Nodes(_) => timeout,
            Level::MoveTime(t) => Duration::from_secs_f64(2.0 * t) + GRACE,
            Level::Clock { inc, .. } => Duration::from_secs_f64((self.left + inc).max(0.0)) + GRACE,
        }
    }

    /// Charges a move that took `elapsed`.
    pub fn spend(&mut self, elapsed: Duration) {
        if let Level::Clock { time, moves, inc } = self.level {
            self.left += inc - elapsed.as_secs_f64();
            if let Some(m) = self.moves_left.as_mut() {
                *m -= 1;
                if *m == 0 {
                    *m = moves.unwrap_or(1);
                    self.left += time;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_read_and_print() {
        for (text, level) in [
            ("depth=6", Level::Depth(6)),
            ("nodes=100000", Level::Nodes(100_000)),
            ("move-time=0.2", Level::MoveTime(0.2)),
            (
                "time=60",
                Level::Clock {
                    time: 60.0,
                    moves: None,
                    inc: 0.0,
                },
            ),
            (
                "time=60 moves=75",
                Level::Clock {
                    time: 60.0,
                    moves: Some(75),
                    inc: 0.0,
                },
            ),
            (
                "time=5 inc=0.5",
                Level::Clock {
                    time: 5.0,
                    moves: None,
                    inc: 0.5,
                },
            ),
        ] {
            let l = Level::parse(text).unwrap();
            assert_eq!(l, level, "{text}");
            assert_eq!(Level::parse(&l.to_string()).unwrap(), l);
        }
        for (bad, needle) in [
            ("", "give one of"),
            ("depth=0", "1..=64"),
            ("depth=six", "not a number"),
            ("depth=3 nodes=4", "not several"),
            ("fast", "key=value"),
            ("speed=3", "unknown key"),
            ("move-time=-1", "0..=86400"),
            ("move-time=0", "above 0"),
            ("time=60 moves=0", "1..=999"),
            ("depth=4 inc=1", "go with time="),
        ] {
            let e = Level::parse(bad).unwrap_err();
            assert!(e.contains(needle), "{bad:?}: {e}");
        }
    }

    #[test]
    fn a_clock_runs_down_and_refills_each_period() {
        let mut c = Clock::new(Level::parse("time=10 moves=2 inc=1").unwrap());
        assert_eq!(
            c.hub_line().to_string(),
            "level moves=2 time=10.000 inc=1.000"
        );
        assert_eq!(c.deadline(Duration::ZERO), Duration::from_secs(12));
        c.spend(Duration::from_secs(3));
        assert_eq!((c.left, c.moves_left), (8.0, Some(1)));
        c.spend(Duration::from_secs(4));
        assert_eq!((c.left, c.moves_left), (15.0, Some(2)));
        let m = Clock::new(Level::MoveTime(0.5));
        assert_eq!(m.deadline(Duration::ZERO), Duration::from_secs(2));
        let d = Clock::new(Level::Depth(4));
        assert_eq!(d.deadline(Duration::from_secs(7)), Duration::from_secs(7));
        assert_eq!(d.hub_line().to_string(), "level depth=4");
    }

    #[test]
    fn hub_levels_become_budgets() {
        let read = |s: &str| Level::from_hub(&Line::parse(s).unwrap()).unwrap();
        assert_eq!(read("level infinite"), None);
        assert_eq!(
            read("level depth=5").unwrap().budget(None),
            Budget::Depth(5)
        );
        assert_eq!(
            read("level nodes=800").unwrap().budget(None),
            Budget::Nodes(800)
        );
        assert_eq!(
            read("level move-time=0.25").unwrap().budget(None),
            Budget::Time(Duration::from_millis(250))
        );
        // 60 s for 30 moves: 2 s a move, plus the increment.
        assert_eq!(
            read("level moves=30 time=60 inc=1").unwrap().budget(None),
            Budget::Time(Duration::from_secs(3))
        );
        assert!(Level::from_hub(&Line::parse("level depth=x").unwrap()).is_err());
    }
}
