//! `rafle.Tablebase`: probes of the endgame tables `rafle egtb build` writes.

use crate::errors::{parse_variant, value_error};
use crate::game::Game;
use pyo3::prelude::*;
use rafle_egtb::Value;
use std::path::PathBuf;
use std::sync::Arc;

/// The endgame tables of one variant in one folder (built by `rafle egtb
/// build --variant V --pieces N --dir DIR`).
///
/// `probe(game)` gives the value of the game's position for the side to
/// move, as `("win" | "draw" | "loss", plies)`: plies to the end of the game
/// under perfect play (the winner the shortest way, the loser the longest;
/// 0 for a draw). Move-count and repetition draw rules are not part of it.
/// `best_moves(game)` lists the moves that keep that value, best first.
/// A missing folder, another variant's tables, a game of another variant or
/// a position outside the tables is a ValueError naming what is wrong.
#[pyclass(module = "rafle", name = "Tablebase", frozen)]
#[derive(Clone, Debug)]
pub struct Tablebase {
    pub(crate) tb: Arc<rafle_egtb::Tablebase>,
}

impl Tablebase {
    /// Tables from what Python passed as `egtb=`: a `Tablebase` or a folder.
    pub(crate) fn from_arg(
        variant: rafle_core::Variant,
        arg: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<Arc<rafle_egtb::Tablebase>>> {
        let Some(arg) = arg.filter(|a| !a.is_none()) else {
            return Ok(None);
        };
        let tb = if let Ok(t) = arg.cast::<Tablebase>() {
            t.get().tb.clone()
        } else if let Ok(dir) = arg.extract::<PathBuf>() {
            Arc::new(rafle_egtb::Tablebase::open(variant, &dir).map_err(value_error)?)
        } else {
            return Err(value_error(
                "egtb must be a folder of tables or a rafle.Tablebase",
            ));
        };
        if tb.variant() != variant {
            return Err(value_error(format!(
                "egtb: the tables are {}'s, the game is {variant}",
                tb.variant()
            )));
        }
        Ok(Some(tb))
    }

    fn position(&self, game: &Game) -> PyResult<rafle_core::Position> {
        let g = game.inner();
        if g.variant() != self.tb.variant() {
            return Err(value_error(format!(
                "a {} game, and these are {} tables",
                g.variant(),
                self.tb.variant()
            )));
        }
        Ok(*g.position())
    }
}

fn pair(v: Value) -> (&'static str, u16) {
    (v.kind(), v.plies())
}

#[pymethods]
impl Tablebase {
    #[new]
    fn new(variant: &str, dir: PathBuf) -> PyResult<Self> {
        let v = parse_variant(variant)?;
        let tb = rafle_egtb::Tablebase::open(v, &dir).map_err(value_error)?;
        Ok(Tablebase { tb: Arc::new(tb) })
    }

    #[getter]
    fn variant(&self) -> &'static str {
        self.tb.variant().name()
    }

    #[getter]
    fn dir(&self) -> String {
        self.tb.dir().display().to_string()
    }

    /// Every slice with this many pieces or fewer has a table.
    #[getter]
    fn max_pieces(&self) -> u32 {
        self.tb.max_pieces()
    }

    /// Do the tables cover the game's position?
    fn covers(&self, game: PyRef<'_, Game>) -> PyResult<bool> {
        Ok(self.tb.covers(&self.position(&game)?))
    }

    /// `("win" | "draw" | "loss", plies)` for the side to move.
    fn probe(&self, game: PyRef<'_, Game>) -> PyResult<(&'static str, u16)> {
        let pos = self.position(&game)?;
        self.tb.probe(&pos).map(pair).map_err(value_error)
    }

    /// The moves that keep the position's value, best first (path notation).
    fn best_moves(&self, game: PyRef<'_, Game>) -> PyResult<Vec<String>> {
        let pos = self.position(&game)?;
        let g = game.inner();
        Ok(self
            .tb
            .best_moves(&pos)
            .map_err(value_error)?
            .into_iter()
            .map(|(m, _)| g.move_string(&m))
            .collect())
    }

    /// Every legal move with its value for the side to move, best first:
    /// `[(move, kind, plies), ...]`.
    fn move_values(&self, game: PyRef<'_, Game>) -> PyResult<Vec<(String, &'static str, u16)>> {
        let pos = self.position(&game)?;
        let g = game.inner();
        Ok(self
            .tb
            .move_values(&pos)
            .map_err(value_error)?
            .into_iter()
            .map(|(m, v)| (g.move_string(&m), v.kind(), v.plies()))
            .collect())
    }

    fn __repr__(&self) -> String {
        format!(
            "Tablebase({:?}, {:?}, complete up to {} pieces)",
            self.tb.variant().name(),
            self.tb.dir().display().to_string(),
            self.tb.max_pieces()
        )
    }
}
