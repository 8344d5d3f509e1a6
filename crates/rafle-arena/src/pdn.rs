//! PDN output of arena games, and a small reader for it.
//!
//! Tags written: Event, Round, White, Black, Result, GameType, Variant,
//! Termination, PlyCount, Opening. GameType and the result tokens are the
//! PDN standard's for the variant (`Rules::PDN_GAME_TYPE`,
//! `Rules::PDN_RESULTS` in rafle-core; `english` and `checkers` share game
//! type 21 and the `Variant` tag tells them apart).
//! Movetext uses full capture paths (`28x19x10`) and starts with the
//! variant's first player (Black in thai, english and checkers).

use crate::play::GameRecord;
use rafle_core::notation::move_to_string;
use rafle_core::{Color, Game, Move, Variant};
use std::fmt::Write;

/// The winner named by a result token (`Some(None)` = draw; None = unknown).
pub fn parse_result(tok: &str) -> Option<Option<Color>> {
    match tok {
        "2-0" | "1-0" => Some(Some(Color::White)),
        "0-2" | "0-1" => Some(Some(Color::Black)),
        "1-1" | "1/2-1/2" | "0-0" => Some(None),
        _ => None,
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One game as PDN text (tags, blank line, movetext, blank line).
pub fn write_game(rec: &GameRecord, event: &str) -> String {
    let v = rec.variant;
    let tags = [
        ("Event", event.to_string()),
        ("Round", rec.round.to_string()),
        ("White", rec.white.clone()),
        ("Black", rec.black.clone()),
        ("Result", v.pdn_result(rec.winner).to_string()),
        ("GameType", v.pdn_game_type().to_string()),
        ("Variant", v.name().to_string()),
        ("Termination", rec.termination.name().to_string()),
        ("PlyCount", rec.moves.len().to_string()),
        ("Opening", rec.opening.clone()),
    ];
    let result = v.pdn_result(rec.winner);
    write_pdn(
        &tags,
        v,
        v.first_player(),
        &rec.moves,
        rec.detail.as_deref(),
        result,
    )
}

/// A game as PDN text: `tags` in order, then `moves` played by `first`
/// onwards (move numbers count from the variant's first player: a game
/// set up with the other side to move starts `1...`), `comment` (braces
/// removed) and the `result` token (`*` for a game in progress).
pub fn write_pdn(
    tags: &[(&str, String)],
    v: Variant,
    first: Color,
    moves: &[Move],
    comment: Option<&str>,
    result: &str,
) -> String {
    let mut out = String::new();
    for (k, val) in tags {
        let _ = writeln!(out, "[{k} \"{}\"]", escape(val));
    }
    out.push('\n');
    let offset = usize::from(first != v.first_player());
    let mut line = String::new();
    for (i, m) in moves.iter().enumerate() {
        let mut tok = String::new();
        let ply = i + offset;
        if ply % 2 == 0 {
            let _ = write!(tok, "{}. ", ply / 2 + 1);
        } else if i == 0 {
            let _ = write!(tok, "{}... ", ply / 2 + 1);
        }
        tok.push_str(&move_to_string(v, m));
        if line.len() + tok.len() + 1 > 79 {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
        line.push_str(&tok);
        line.push(' ');
    }
    // A forfeit's detail as a comment before the result (braces end a
    // PDN comment, so none inside).
    let comment = comment.map(|d| format!("{{{}}} ", d.replace(['{', '}'], "")));
    for tok in comment.iter().map(String::as_str).chain([result]) {
        if !line.is_empty() && line.len() + tok.len() > 79 {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
        line.push_str(tok);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// All games of a match as one PDN file.
pub fn write_games(records: &[GameRecord], event: &str) -> String {
    records.iter().map(|r| write_game(r, event)).collect()
}

/// A game read from PDN: its tags, moves (as written) and result token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    pub result: Option<String>,
}

impl PdnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The game's variant: its `Variant` tag (rafle's names), else its
    /// `GameType` (the number before any comma: 20 is international, 21
    /// standard checkers, and the other types of rafle's variants), else
    /// `default`.
    pub fn variant(&self, default: Option<Variant>) -> Result<Variant, String> {
        if let Some(name) = self.tag("Variant") {
            return name.parse::<Variant>().map_err(|e| e.to_string());
        }
        if let Some(t) = self.tag("GameType") {
            let n = t.split(',').next().unwrap_or("").trim();
            let n: u32 = n
                .parse()
                .map_err(|_| format!("GameType {t:?} is not a number"))?;
            // Types several variants share read as the standard game of the type.
            let standard = match n {
                20 => Some(Variant::International),
                21 => Some(Variant::Checkers),
                _ => Variant::ALL.into_iter().find(|v| v.pdn_game_type() == n),
            };
            return standard.ok_or_else(|| {
                let known: Vec<String> = Variant::ALL
                    .iter()
                    .map(|v| format!("{} {}", v.pdn_game_type(), v.name()))
                    .collect();
                format!(
                    "GameType {n} is no variant rafle plays (known: {})",
                    known.join(", ")
                )
            });
        }
        default.ok_or_else(|| "no Variant or GameType tag, and no variant given".into())
    }

    /// Replays the moves from the game's start (its `FEN` tag, or the
    /// variant's start position). The error names the move: "move 12
    /// (17x26): illegal move ...".
    pub fn replay(&self, variant: Option<Variant>) -> Result<Game, String> {
        let v = self.variant(variant)?;
        let mut game = match self.tag("FEN") {
            Some(fen) => Game::from_fen(v, fen).map_err(|e| format!("FEN: {e}"))?,
            None => Game::new(v),
        };
        let first = game.turn();
        for (i, m) in self.moves.iter().enumerate() {
            // Move numbers count pairs of plies from the first mover.
            let number = (i + usize::from(first != v.first_player())) / 2 + 1;
            if game.is_over() {
                return Err(format!("move {number} ({m}): the game is already over"));
            }
            game.play_str(m)
                .map_err(|e| format!("move {number} ({m}): {e}"))?;
        }
        Ok(game)
    }

    /// The winner by the `Result` tag or token (outer None: no result).
    pub fn winner(&self) -> Option<Option<Color>> {
        self.result
            .as_deref()
            .or(self.tag("Result"))
            .and_then(parse_result)
    }

    /// A name for messages: "game 3 (alphabeta:2 - greedy)".
    pub fn label(&self, index: usize) -> String {
        match (self.tag("White"), self.tag("Black")) {
            (Some(w), Some(b)) => format!("game {index} ({w} - {b})"),
            _ => format!("game {index}"),
        }
    }
}

fn parse_tag(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| format!("malformed tag line {line:?}"))?;
    let (name, rest) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("malformed tag line {line:?}"))?;
    let value = rest
        .trim()
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(|| format!("tag {name}: value must be quoted"))?;
    Ok((
        name.to_string(),
        value.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

/// Reads every game of a PDN text. Comments `{...}` and move numbers are
/// skipped; a result token or the next tag section ends a game. The first
/// malformed game is the error (see [`read_each`] to keep the others).
pub fn read_games(text: &str) -> Result<Vec<PdnGame>, String> {
    read_each(text).into_iter().collect()
}

/// Reads every game of a PDN text, each on its own: a game with a malformed
/// tag, or with no result token (a file cut inside it), is an error in its
/// place and the games around it are kept.
pub fn read_each(text: &str) -> Vec<Result<PdnGame, String>> {
    let mut games = Vec::new();
    let mut cur = PdnGame::default();
    let mut bad: Option<String> = None;
    let mut in_moves = false;
    let mut in_comment = false;
    let finish =
        |cur: &mut PdnGame, bad: &mut Option<String>, games: &mut Vec<Result<PdnGame, String>>| {
            if !cur.tags.is_empty() || !cur.moves.is_empty() || bad.is_some() {
                let game = std::mem::take(cur);
                if game.result.is_none() {
                    bad.get_or_insert_with(|| {
                        format!(
                            "no result token after {} moves (a game cut off?)",
                            game.moves.len()
                        )
                    });
                }
                games.push(match bad.take() {
                    Some(e) => Err(e),
                    None => Ok(game),
                });
            }
        };
    for line in text.lines() {
        let t = line.trim();
        if !in_comment && t.starts_with('[') {
            if in_moves {
                finish(&mut cur, &mut bad, &mut games);
                in_moves = false;
            }
            match parse_tag(t) {
                Ok(tag) => cur.tags.push(tag),
                Err(e) => {
                    bad.get_or_insert(e);
                }
            }
            continue;
        }
        let mut rest = t;
        while !rest.is_empty() {
            if in_comment {
                match rest.find('}') {
                    Some(k) => {
                        in_comment = false;
                        rest = &rest[k + 1..];
                    }
                    None => rest = "",
                }
                continue;
            }
            rest = rest.trim_start();
            if let Some(r) = rest.strip_prefix('{') {
                in_comment = true;
                rest = r;
                continue;
            }
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '{')
                .unwrap_or(rest.len());
            let tok = &rest[..end];
            rest = &rest[end..];
            if tok.is_empty() {
                continue;
            }
            in_moves = true;
            if parse_result(tok).is_some() || tok == "*" {
                cur.result = Some(tok.to_string());
                finish(&mut cur, &mut bad, &mut games);
                in_moves = false;
                continue;
            }
            // Drop a move number: "12." or "12..." alone or glued to the move.
            let mv = tok.trim_start_matches(|c: char| c.is_ascii_digit());
            let mv = if mv.starts_with('.') {
                mv.trim_start_matches('.')
            } else {
                tok
            };
            if !mv.is_empty() {
                cur.moves.push(mv.to_string());
            }
        }
    }
    finish(&mut cur, &mut bad, &mut games);
    games
}
