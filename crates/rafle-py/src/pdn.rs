//! PDN games in: `rafle._rafle.read_pdn` (games replayed into `rafle.Game`,
//! every bad game reported in its place) and `pdn_samples` (supervised
//! training arrays from games). `rafle.read_pdn` (python/rafle/pdn.py) turns
//! the reports into warnings.

use crate::errors::{parse_variant, value_error};
use crate::game::Game;
use crate::selfplay::dense_dict;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rafle_arena::pdn::read_each;
use rafle_core::{Color, Variant};
use rafle_env::Env;
use rafle_train::sample::{game_samples, Dense};

/// One game read from PDN, replayed.
#[pyclass(module = "rafle", name = "PdnGame", frozen)]
#[derive(Debug)]
pub struct PdnGame {
    tags: Vec<(String, String)>,
    moves: Vec<String>,
    result: Option<String>,
    winner: Option<Option<Color>>,
    game: rafle_core::Game,
}

#[pymethods]
impl PdnGame {
    /// The tag pairs, in file order.
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.tags {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// The moves as written in the file.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.moves.clone()
    }

    /// The result token ("2-0", "1-1", "0-2", "*", ...), if any.
    #[getter]
    fn result(&self) -> Option<String> {
        self.result.clone()
    }

    /// "white", "black", "draw", or None when the result is unknown.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.winner.map(|w| w.map_or("draw", |c| c.name()))
    }

    /// The start position's FEN tag, if the game has one.
    #[getter]
    fn fen(&self) -> Option<String> {
        self.tags
            .iter()
            .find(|(k, _)| k == "FEN")
            .map(|(_, v)| v.clone())
    }

    #[getter]
    fn variant(&self) -> &'static str {
        self.game.variant().name()
    }

    /// The game replayed: a `rafle.Game` with every move played.
    fn game(&self) -> Game {
        Game::from(self.game.clone())
    }

    fn __len__(&self) -> usize {
        self.game.ply()
    }

    fn __repr__(&self) -> String {
        let tag = |k: &str| {
            self.tags
                .iter()
                .find(|(n, _)| n == k)
                .map_or("?", |(_, v)| v.as_str())
                .to_string()
        };
        format!(
            "rafle.PdnGame({}, {} - {}, {} plies, {})",
            self.game.variant().name(),
            tag("White"),
            tag("Black"),
            self.game.ply(),
            self.result.as_deref().unwrap_or("no result")
        )
    }
}

/// Reads the games of a PDN text; returns the games that replay and one
/// line per game that does not ("game 3 (A - B): move 12 (17x26): illegal
/// move ..."). `variant` is for games with neither a Variant nor a
/// GameType tag.
#[pyfunction]
#[pyo3(signature = (text, variant = None))]
pub fn read_pdn(
    py: Python<'_>,
    text: &str,
    variant: Option<&str>,
) -> PyResult<(Vec<PdnGame>, Vec<String>)> {
    let default: Option<Variant> = variant.map(parse_variant).transpose()?;
    let text = text.to_string();
    py.detach(move || {
        let mut games = Vec::new();
        let mut errors = Vec::new();
        for (i, g) in read_each(&text).into_iter().enumerate() {
            let n = i + 1;
            let read = g.and_then(|g| match g.replay(default) {
                Ok(game) => Ok((g, game)),
                Err(e) => Err(format!("{}: {e}", g.label(n))),
            });
            match read {
                Ok((g, game)) => games.push(PdnGame {
                    winner: g.winner(),
                    tags: g.tags,
                    moves: g.moves,
                    result: g.result,
                    game,
                }),
                Err(e) if e.starts_with("game ") => errors.push(e),
                Err(e) => errors.push(format!("game {n}: {e}")),
            }
        }
        Ok((games, errors))
    })
}

/// Supervised training arrays from games (see `rafle.pdn_samples`): the
/// arrays of `SelfPlay.play`, one row per step of every move, the played
/// step as policy target and the game's result as value target. Games of
/// unknown result are left out. All games must be of one variant.
#[pyfunction]
pub fn pdn_samples<'py>(
    py: Python<'py>,
    games: Vec<PyRef<'py, PdnGame>>,
) -> PyResult<Bound<'py, PyDict>> {
    let Some(first) = games.first() else {
        return Err(value_error("pdn_samples needs at least one game"));
    };
    let v = first.game.variant();
    if let Some(g) = games.iter().find(|g| g.game.variant() != v) {
        return Err(value_error(format!(
            "the games are of several variants ({v} and {}): give one variant's games",
            g.game.variant()
        )));
    }
    let mut samples = Vec::new();
    for g in &games {
        if let Some(winner) = g.winner {
            samples.extend(game_samples(&g.game, winner));
        }
    }
    let env = Env::of(v);
    let d = Dense::new(samples.iter(), env.num_actions(), 0.0);
    dense_dict(py, env.observation_shape(), env.num_actions(), &d)
}
