//! `rafle.Game`: one game with history, in move notation.

use crate::errors::{parse_variant, value_error};
use pyo3::prelude::*;
use pyo3::types::PyType;
use rafle_core::{parse_fen, to_fen, Position};

/// A game of draughts: position, history, draw rules and the result.
///
/// Moves are strings in path notation: "32-28" for a quiet move, "28x19x10"
/// for a capture with every landing square (the short "28x10" is accepted when
/// it names one move).
#[pyclass(module = "rafle", name = "Game")]
#[derive(Clone, Debug)]
pub struct Game {
    game: rafle_core::Game,
    /// Where the game started, so that a pickle can replay the history.
    start: Position,
}

impl Game {
    /// The rule engine's game (for players and searches).
    pub(crate) fn inner(&self) -> &rafle_core::Game {
        &self.game
    }

    fn start_fen(&self) -> String {
        to_fen(self.game.variant(), &self.start)
    }

    fn history_strings(&self) -> Vec<String> {
        self.game
            .history()
            .map(|m| rafle_core::notation::move_to_string(self.game.variant(), m))
            .collect()
    }

    /// `moves` in full path notation.
    fn move_strings(&self, moves: &[rafle_core::Move]) -> Vec<String> {
        moves.iter().map(|m| self.game.move_string(m)).collect()
    }

    fn board_text(&self) -> String {
        rafle_core::board_text(self.game.variant(), self.game.position())
    }
}

impl From<rafle_core::Game> for Game {
    /// A game with its history; its start is the core game's.
    fn from(game: rafle_core::Game) -> Self {
        let start = *game.start_position();
        Game { game, start }
    }
}

#[pymethods]
impl Game {
    /// A game of `variant` from its start position or from a PDN FEN.
    #[new]
    #[pyo3(signature = (variant, fen = None))]
    fn new(variant: &str, fen: Option<&str>) -> PyResult<Self> {
        let v = parse_variant(variant)?;
        let start = match fen {
            Some(f) => parse_fen(v, f).map_err(value_error)?,
            None => Position::start(v),
        };
        Ok(Game {
            game: rafle_core::Game::from_position(v, start),
            start,
        })
    }

    /// The variant's name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.game.variant().name()
    }

    /// The side to move: "white" or "black".
    #[getter]
    fn turn(&self) -> &'static str {
        self.game.turn().name()
    }

    /// Moves played since the start position.
    #[getter]
    fn ply(&self) -> usize {
        self.game.ply()
    }

    /// The current position as a PDN FEN.
    fn fen(&self) -> String {
        self.game.fen()
    }

    /// Legal moves in full path notation, each move once; empty once the
    /// game is over, whether won or drawn (`perft` still counts the moves of
    /// the move rules).
    fn legal_moves(&self) -> Vec<String> {
        self.move_strings(self.game.legal_moves())
    }

    /// Every path of each legal move in full path notation: a capture that
    /// takes the same pieces to the same square along several paths shows
    /// once per path (the step chains the env accepts); empty once the game
    /// is over.
    fn legal_paths(&self) -> Vec<String> {
        self.move_strings(&self.game.legal_paths())
    }

    /// Plays a move; ValueError if it is malformed, illegal or the game is over.
    fn play(&mut self, r#move: &str) -> PyResult<()> {
        self.game.play_str(r#move).map(|_| ()).map_err(value_error)
    }

    /// Takes back the last move and returns it; ValueError if there is none.
    fn undo(&mut self) -> PyResult<String> {
        let m = self.game.undo().map_err(value_error)?;
        Ok(self.game.move_string(&m))
    }

    /// The moves played so far, in full path notation.
    fn history(&self) -> Vec<String> {
        self.history_strings()
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// None while the game goes on, else "white", "black" or "draw".
    fn result(&self) -> Option<&'static str> {
        self.game.outcome().map(|o| o.result_str())
    }

    /// Why the game ended ("no legal move", "threefold repetition", "no
    /// progress", "one king each", "lone king rule"), None while it goes on.
    fn result_reason(&self) -> Option<&'static str> {
        self.game.outcome().map(|o| o.reason.name())
    }

    /// Number of leaf nodes `depth` plies below the current position.
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let g = &self.game;
        py.detach(|| g.perft(depth))
    }

    /// An independent copy, history included.
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// Pickled as (variant, start FEN) plus the moves played, so that undo
    /// and repetition still work after unpickling.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyType>, (&'static str, String), Vec<String>) {
        (
            py.get_type::<Game>(),
            (self.variant(), self.start_fen()),
            self.history_strings(),
        )
    }

    /// Replays `moves` from the start position (the pickle state).
    fn __setstate__(&mut self, moves: Vec<String>) -> PyResult<()> {
        let mut game = rafle_core::Game::from_position(self.game.variant(), self.start);
        for m in &moves {
            game.play_str(m).map_err(value_error)?;
        }
        self.game = game;
        Ok(())
    }

    /// The board as an SVG document, `size` pixels wide, the last move
    /// highlighted; `flipped` puts Black at the bottom.
    #[pyo3(signature = (size = 400, *, numbers = true, flipped = false))]
    fn to_svg(&self, size: u32, numbers: bool, flipped: bool) -> PyResult<String> {
        let n = self.game.geometry().n as u32;
        if size < n {
            return Err(value_error(format!("size must be at least {n} pixels")));
        }
        let geo = self.game.geometry();
        let last_move = self
            .game
            .history()
            .last()
            .map_or_else(Vec::new, |m| m.path_squares(&geo));
        let opts = rafle_core::SvgOptions {
            square_px: f64::from(size) / f64::from(n),
            numbers,
            last_move,
            flipped,
        };
        Ok(rafle_core::board_svg(
            self.game.variant(),
            self.game.position(),
            &opts,
        ))
    }

    /// Jupyter shows a game as its board.
    fn _repr_svg_(&self) -> PyResult<String> {
        self.to_svg(400, true, false)
    }

    fn __repr__(&self) -> String {
        let status = match self.game.outcome() {
            Some(o) => format!("game over: {o}"),
            None => format!("{} to move", self.game.turn()),
        };
        format!(
            "rafle.Game({:?}, fen={:?})\n{}\n{status}",
            self.variant(),
            self.game.fen(),
            self.board_text()
        )
    }
}
