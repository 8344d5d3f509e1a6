//! Games in and out of JSON: the game a request names ([`GameSpec`],
//! replayed and checked) and the position the page draws ([`state`]).

use crate::error::{ApiError, ApiResult};
use rafle_core::notation::square_name;
use rafle_core::{board_svg, to_fen, Color, Game, Move, SvgOptions, Variant};
use serde::Deserialize;
use serde_json::{json, Value};

/// Moves a request may carry (the longest arena game is 400 plies by
/// default; this leaves room for long hand-played games).
pub const MAX_MOVES: usize = 4000;

/// Side of a square of the board picture in pixels (the page scales it).
const SQUARE_PX: f64 = 60.0;

/// A game as a request names it: the variant, the start position (FEN;
/// the variant's start when absent) and the moves played since, in path
/// notation (or the short capture form when it names one move).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSpec {
    pub variant: String,
    #[serde(default)]
    pub fen: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
    /// Draw the board with Black at the bottom.
    #[serde(default)]
    pub flipped: bool,
}

/// The variant named by `name`, or an error listing the known ones.
pub fn parse_variant(name: &str) -> ApiResult<Variant> {
    name.parse::<Variant>()
        .map_err(|e| ApiError::bad(e.to_string()))
}

impl GameSpec {
    pub fn variant(&self) -> ApiResult<Variant> {
        parse_variant(&self.variant)
    }

    /// The game after every move; the error names the first bad one
    /// ("move 12 (17x26): illegal move: 17x26").
    pub fn replay(&self) -> ApiResult<Game> {
        let v = self.variant()?;
        if self.moves.len() > MAX_MOVES {
            return Err(ApiError::bad(format!(
                "{} moves: at most {MAX_MOVES} are accepted",
                self.moves.len()
            )));
        }
        let mut game = match self.fen.as_deref().map(str::trim) {
            Some(f) if !f.is_empty() => {
                Game::from_fen(v, f).map_err(|e| ApiError::bad(e.to_string()))?
            }
            _ => Game::new(v),
        };
        for (i, m) in self.moves.iter().enumerate() {
            game.play_str(m)
                .map_err(|e| ApiError::bad(format!("move {} ({m}): {e}", i + 1)))?;
        }
        Ok(game)
    }
}

/// The squares of a move for the page: its path (from, every landing) and
/// the squares it captures, as PDN numbers.
pub fn move_json(game: &Game, m: &Move) -> Value {
    let g = game.geometry();
    json!({
        "move": game.move_string(m),
        "path": m.path_squares(&g),
        "captured": m.captured_squares(&g),
    })
}

fn color_name(c: Color) -> &'static str {
    c.name()
}

/// The board's squares for the page: `squares[s - 1]` is `[row, col]` of
/// PDN square `s` seen from White (row 0 at the top), and its name.
pub fn geometry_json(v: Variant) -> Value {
    let g = v.geometry();
    let squares: Vec<(usize, usize)> = (1..=g.squares).map(|s| g.row_col(s)).collect();
    let names: Vec<String> = (1..=g.squares).map(|s| square_name(v, s)).collect();
    json!({ "n": g.n, "squares": squares, "names": names })
}

/// Everything the page shows of a game: the board (picture, pieces,
/// squares), the side to move, the legal moves with their paths and
/// captured squares, the moves so far, the outcome, the FENs.
pub fn state(game: &Game, flipped: bool) -> Value {
    let v = game.variant();
    let g = game.geometry();
    let history: Vec<Move> = game.history().copied().collect();
    let pos = game.position();
    let pieces: Vec<Value> = (1..=g.squares)
        .filter_map(|s| {
            pos.piece_at(&g, s)
                .map(|p| json!({"square": s, "color": color_name(p.color()), "king": p.is_king()}))
        })
        .collect();
    let last_move = history
        .last()
        .map(|m| m.path_squares(&g))
        .unwrap_or_default();
    let svg = board_svg(
        v,
        pos,
        &SvgOptions {
            square_px: SQUARE_PX,
            numbers: true,
            last_move: last_move.clone(),
            flipped,
        },
    );
    let outcome = game.outcome().map(|o| {
        json!({
            "winner": o.winner.map(color_name),
            "reason": o.reason.name(),
            "result": v.pdn_result(o.winner),
            "text": o.to_string(),
        })
    });
    json!({
        "variant": v.name(),
        "board": geometry_json(v),
        "flipped": flipped,
        "start_fen": to_fen(v, game.start_position()),
        "fen": game.fen(),
        "turn": color_name(game.turn()),
        "first_player": color_name(v.first_player()),
        "ply": game.ply(),
        "moves": history.iter().map(|m| game.move_string(m)).collect::<Vec<_>>(),
        "last_move": last_move,
        "pieces": pieces,
        "legal": game.legal_moves().iter().map(|m| move_json(game, m)).collect::<Vec<_>>(),
        "outcome": outcome,
        "svg": svg,
    })
}
