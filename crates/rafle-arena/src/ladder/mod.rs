//! The ladder: one fixed Elo scale per variant, on which any player's
//! strength is read.
//!
//! A ladder is a list of reference players ("rungs": `random`, `greedy`,
//! `alphabeta:1` ... at depths cheap enough for thousands of games), each
//! with an Elo fitted by maximum likelihood over games between rungs
//! ([`fit::fit_pool`]), `random` = 0. The ladders are data: one TOML file
//! per variant in this crate's `ladder/` folder, written by `rafle ladder
//! calibrate` ([`calibrate`]) with the games they came from, and built
//! into the crate (so the `rafle` binary and the Python package carry
//! them). [`place`] puts a new player on a ladder by playing the rungs
//! nearest its strength.

pub mod calibrate;
pub mod fit;
pub mod place;

use crate::elo::{Pentanomial, Wdl};
use crate::play::Side;
use fit::Score;
use rafle_core::Variant;
use rafle_search::spec::EvalFile;
use rafle_search::PlayerSpec;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

// BUILTIN: (variant name, file text) of every file in `ladder/`, from build.rs.
include!(concat!(env!("OUT_DIR"), "/ladders.rs"));

/// Virtual draws added between every two players that met (the prior of
/// [`fit::fit_pool`]), and between a placed player and each rung it played.
pub const PRIOR_DRAWS: f64 = 2.0;

/// One reference player and its place on the scale.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rung {
    /// A player spec of `rafle_search::parse_player`.
    pub spec: String,
    pub elo: f64,
    /// 95% interval of `elo` (relative to `random`, which is exact).
    pub lo: f64,
    pub hi: f64,
    /// Standard deviation of `elo`.
    pub sd: f64,
    /// Standard deviation of the gap to the rung below (0 for the first).
    pub gap_sd: f64,
    /// Games this rung played in the calibration.
    pub games: u32,
    /// Its thinking time per move in the calibration (on the machine and
    /// load of that run: a guide, not a measurement of the player).
    pub ms_per_move: f64,
}

/// Games between two rungs: `a`'s wins, draws and losses against `b`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pairing {
    pub a: String,
    pub b: String,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// a's colour-swapped pairs by its points in the pair (0, 1/2, 1, 3/2,
    /// 2): what the intervals count (all zero in a file from before pairs
    /// were kept: its games count as independent).
    #[serde(default)]
    pub pairs: [u32; 5],
}

impl Pairing {
    pub fn wdl(&self) -> Wdl {
        Wdl {
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
        }
    }

    pub fn score(&self) -> Score {
        Score {
            wdl: self.wdl(),
            pairs: Pentanomial(self.pairs),
        }
    }
}

/// A variant's ladder: the rungs from weakest to strongest, how their
/// games were played, and the games themselves (the fit's evidence).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ladder {
    pub variant: String,
    /// When it was calibrated (UTC, YYYY-MM-DD) and from which rafle commit.
    pub date: String,
    pub commit: String,
    /// Arena settings of every game, placements included.
    pub opening_plies: usize,
    pub max_plies: usize,
    pub seed: u64,
    pub prior_draws: f64,
    /// Wall time of the calibration, and its worker threads.
    pub seconds: f64,
    pub threads: usize,
    /// The fingerprint of the shipped evaluation its `eval=zoo` rungs
    /// played ([`rafle_search::learned::zoo_fingerprint`]); empty without
    /// such rungs. Shipping another file makes those rungs stale.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub eval: String,
    #[serde(rename = "rung")]
    pub rungs: Vec<Rung>,
    #[serde(rename = "match")]
    pub matches: Vec<Pairing>,
}

/// The file of `variant`'s ladder in the source tree this crate was built
/// from (where `rafle ladder calibrate` writes by default).
pub fn source_path(variant: Variant) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("ladder")
        .join(format!("{}.toml", variant.name()))
}

/// Whether a rung plays the variant's shipped evaluation (`eval=zoo`).
pub fn plays_zoo_eval(spec: &str) -> bool {
    matches!(
        spec.parse::<PlayerSpec>(),
        Ok(PlayerSpec::AlphaBeta {
            eval: Some(EvalFile::Zoo),
            ..
        })
    )
}

/// The variants with a built-in ladder, in the order of the variant list.
pub fn calibrated() -> Vec<Variant> {
    Variant::ALL
        .into_iter()
        .filter(|v| BUILTIN.iter().any(|(n, _)| *n == v.name()))
        .collect()
}

impl Ladder {
    /// The ladder built into this crate for `variant`.
    pub fn builtin(variant: Variant) -> Result<Ladder, String> {
        Ladder::from_files(BUILTIN, variant)
    }

    /// The ladder of `variant` among `files` (variant name, text).
    fn from_files(files: &[(&str, &str)], variant: Variant) -> Result<Ladder, String> {
        let Some((_, text)) = files.iter().find(|(n, _)| *n == variant.name()) else {
            return Err(format!(
                "{variant} has no ladder yet (calibrate one with: rafle ladder calibrate --variant {})",
                variant.name()
            ));
        };
        Ladder::parse(variant, text).map_err(|e| format!("the built-in {variant} ladder: {e}"))
    }

    /// A ladder file's text, checked: its variant is `variant`, every rung
    /// spec is a player, Elos are finite and rise with the rungs' order
    /// (placement relies on it; calibration writes them so).
    pub fn parse(variant: Variant, text: &str) -> Result<Ladder, String> {
        let l: Ladder = toml::from_str(text).map_err(|e| {
            let e = e.to_string();
            e.lines().next().unwrap_or("").to_string() + " (not a ladder file)"
        })?;
        if l.variant.parse::<Variant>() != Ok(variant) {
            return Err(format!("it is a ladder of {:?}, not {variant}", l.variant));
        }
        if l.rungs.len() < 2 {
            return Err("a ladder needs at least two rungs".into());
        }
        for r in &l.rungs {
            rafle_search::parse_player(&r.spec, variant).map_err(|e| e.to_string())?;
            if ![r.elo, r.lo, r.hi, r.sd, r.gap_sd]
                .iter()
                .all(|x| x.is_finite())
            {
                return Err(format!("rung {}: a figure is not finite", r.spec));
            }
        }
        if let Some(w) = l.rungs.windows(2).find(|w| w[1].elo < w[0].elo) {
            return Err(format!(
                "the rungs must come in rising Elo order ({} {} before {} {})",
                w[0].spec, w[0].elo, w[1].spec, w[1].elo
            ));
        }
        if l.max_plies == 0 {
            return Err("max_plies must be at least 1".into());
        }
        Ok(l)
    }

    /// Whether its `eval=zoo` rungs played another file than the one
    /// shipped now (false without such rungs).
    pub fn stale_eval(&self, variant: Variant) -> bool {
        self.rungs.iter().any(|r| plays_zoo_eval(&r.spec))
            && rafle_search::learned::zoo_fingerprint(variant).as_deref()
                != Some(self.eval.as_str())
    }

    /// Drops the games of `eval=zoo` rungs where they played another file
    /// than the one shipped now, so a calibration that reuses this ladder
    /// plays them again.
    pub fn forget_stale_eval(&mut self, variant: Variant) {
        if self.stale_eval(variant) {
            self.matches
                .retain(|m| !plays_zoo_eval(&m.a) && !plays_zoo_eval(&m.b));
        }
    }

    /// The index of the rung named `spec` (case and spaces ignored).
    pub fn rung(&self, spec: &str) -> Option<usize> {
        let norm = |s: &str| s.trim().to_ascii_lowercase().replace(' ', "");
        self.rungs.iter().position(|r| norm(&r.spec) == norm(spec))
    }

    /// The Elo on this ladder implied by results `(opponent spec, what the
    /// player scored against it)`: the fit over those opponents that are
    /// rungs (the others are left out); None when none is a rung.
    pub fn implied(&self, results: &[(&str, Score)]) -> Option<fit::PlayerFit> {
        let rows: Vec<(f64, f64, Score)> = results
            .iter()
            .filter_map(|(spec, r)| {
                self.rung(spec)
                    .map(|i| (self.rungs[i].elo, self.rungs[i].sd, *r))
            })
            .collect();
        fit::fit_player(&rows, PRIOR_DRAWS).ok()
    }

    /// What a trainer prints under its evaluation table, from its games
    /// against opponents that are rungs (no extra games): the fit and the
    /// line `ladder elo E [lo, hi] (from the games against A, B; ...)`;
    /// None when no opponent is a rung.
    pub fn implied_line(&self, results: &[(&str, Score)]) -> Option<(fit::PlayerFit, String)> {
        let fit = self.implied(results)?;
        let (lo, hi) = fit.interval();
        let used: Vec<&str> = results
            .iter()
            .map(|r| r.0)
            .filter(|s| self.rung(s).is_some())
            .collect();
        let line = format!(
            "ladder elo {:.0} [{:.0}, {:.0}] (from the games against {}; rafle ladder places it properly)",
            fit.elo,
            lo,
            hi,
            used.join(", ")
        );
        Some((fit, line))
    }

    /// The rungs as match sides.
    pub fn sides(&self, variant: Variant) -> Result<Vec<Side>, String> {
        self.rungs
            .iter()
            .map(|r| {
                rafle_search::parse_player(&r.spec, variant)
                    .map(Side::Player)
                    .map_err(|e| e.to_string())
            })
            .collect()
    }

    /// The file's text: a comment saying what it is, then the fields.
    pub fn to_toml(&self) -> Result<String, String> {
        let body = toml::to_string(self).map_err(|e| e.to_string())?;
        Ok(format!(
            "# The {} ladder: reference players and their Elo (random = 0), fitted by\n\
             # `rafle ladder calibrate` from the games under [[match]] (a's W/D/L\n\
             # against b). See docs/how-to/evaluation.md, \"The ladder\".\n{body}",
            self.variant
        ))
    }

    /// Writes the file at `path` by a temporary name and a rename.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let text = self.to_toml()?;
        let tmp = path.with_extension(format!("toml.tmp{}", std::process::id()));
        std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, path))
            .map_err(|e| {
                let _ = std::fs::remove_file(&tmp);
                format!("cannot write {}: {e}", path.display())
            })
    }

    /// The table of rungs: spec, Elo with its interval, the gap's 95%
    /// half-width, games and time per move.
    pub fn table(&self) -> String {
        use std::fmt::Write;
        let w = self
            .rungs
            .iter()
            .map(|r| r.spec.len())
            .max()
            .unwrap_or(4)
            .max(4);
        let mut out = format!(
            "{:<w$} {:>7}  {:<18} {:>9} {:>6} {:>9}\n",
            "rung", "Elo", "95% interval", "gap +-", "games", "ms/move"
        );
        for r in &self.rungs {
            let _ = writeln!(
                out,
                "{:<w$} {:>7.0}  {:<18} {:>9} {:>6} {:>9.2}",
                r.spec,
                r.elo,
                format!("[{:.0}, {:.0}]", r.lo, r.hi),
                if r.gap_sd > 0.0 {
                    format!("{:.0}", crate::elo::Z95 * r.gap_sd)
                } else {
                    "-".into()
                },
                r.games,
                r.ms_per_move
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_ladder_reads_and_rises() {
        for v in calibrated() {
            let l = Ladder::builtin(v).unwrap();
            assert_eq!(l.rungs[0].spec, "random", "{v}");
            assert_eq!(l.rungs[0].elo, 0.0, "{v}");
            let back = Ladder::parse(v, &l.to_toml().unwrap()).unwrap();
            assert_eq!(back, l, "{v}");
        }
    }

    #[test]
    fn learned_rungs_played_the_shipped_evaluation() {
        for v in calibrated() {
            let l = Ladder::builtin(v).unwrap();
            assert!(
                !l.stale_eval(v),
                "the {v} ladder's eval=zoo rungs played another evaluation than the shipped one: \
                 recalibrate them (docs/how-to/learned-eval.md)"
            );
        }
    }

    #[test]
    fn stale_learned_rungs_lose_their_games() {
        let v = Variant::Thai;
        let mut l = Ladder::builtin(v).unwrap();
        let zoo = "alphabeta:d=6,eval=zoo";
        assert!(plays_zoo_eval(zoo) && plays_zoo_eval("ab:2, eval=zoo"));
        assert!(
            !plays_zoo_eval("alphabeta:6") && !plays_zoo_eval("alphabeta:6,eval=x.safetensors")
        );
        let top = l.rungs.last().unwrap().spec.clone();
        let mut rung = l.rungs.last().unwrap().clone();
        rung.spec = zoo.into();
        rung.elo += 100.0;
        l.rungs.push(rung);
        l.matches.push(Pairing {
            a: zoo.into(),
            b: top,
            wins: 1,
            draws: 0,
            losses: 1,
            pairs: [0, 0, 1, 0, 0],
        });
        let n = l.matches.len();
        l.eval = rafle_search::learned::zoo_fingerprint(v).unwrap();
        assert!(!l.stale_eval(v));
        l.forget_stale_eval(v);
        assert_eq!(l.matches.len(), n);
        l.eval = "0000000000000000".into();
        assert!(l.stale_eval(v));
        // Every match of a learned rung goes (the shipped ladder's own and
        // the one added here), the hand-written rungs' stay.
        let learned = |p: &Pairing| plays_zoo_eval(&p.a) || plays_zoo_eval(&p.b);
        let stale = l.matches.iter().filter(|p| learned(p)).count();
        assert!(stale >= 1);
        l.forget_stale_eval(v);
        assert_eq!(l.matches.len(), n - stale);
        assert!(!l.matches.iter().any(learned));
        let back = Ladder::parse(v, &l.to_toml().unwrap()).unwrap();
        assert_eq!(back.eval, l.eval);
    }

    #[test]
    fn bad_ladders_are_errors() {
        let v = Variant::Checkers;
        let good = Ladder {
            variant: "checkers".into(),
            date: "2025-01-01".into(),
            commit: "x".into(),
            opening_plies: 4,
            max_plies: 400,
            seed: 0,
            prior_draws: PRIOR_DRAWS,
            seconds: 1.0,
            threads: 1,
            eval: String::new(),
            rungs: ["random", "greedy"]
                .iter()
                .map(|s| Rung {
                    spec: s.to_string(),
                    elo: 0.0,
                    lo: 0.0,
                    hi: 0.0,
                    sd: 0.0,
                    gap_sd: 0.0,
                    games: 2,
                    ms_per_move: 0.0,
                })
                .collect(),
            matches: vec![],
        };
        let text = good.to_toml().unwrap();
        assert_eq!(Ladder::parse(v, &text).unwrap(), good);
        for (text, needle) in [
            ("nonsense", "not a ladder file"),
            (&text.replace("\"checkers\"", "\"thai\""), "not checkers"),
            (
                &text.replace("\"greedy\"", "\"minimax:3\""),
                "unknown player",
            ),
            (
                &text.replacen("elo = 0.0", "elo = 5.0", 1),
                "rising Elo order",
            ),
        ] {
            let e = Ladder::parse(v, text).unwrap_err();
            assert!(e.contains(needle), "{needle}: {e}");
        }
        let e = Ladder::from_files(&[("checkers", &text)], Variant::Thai).unwrap_err();
        assert!(e.contains("thai has no ladder yet"), "{e}");
        assert_eq!(Ladder::from_files(&[("checkers", &text)], v).unwrap(), good);
    }
}
