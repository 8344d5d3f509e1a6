//! Moves and positions as the protocols write them.
//!
//! Both protocols name a move by its from and to squares and, for a
//! capture, the captured squares (not the landing squares): Hub writes
//! `from-to` or `fromxtoxcapturedxcaptured...` (any order), DXP sends the
//! same three things as numbers. rafle's moves are identified by exactly
//! that triple (rule B7 of the rule book), so the conversion is exact both
//! ways, also when two captures share from and to but take different
//! pieces.
//!
//! A position is the side to move and one character per playable square in
//! the variant's square order (1, 2, ...): 51 characters on 10x10, 33 on
//! 8x8, 65 on turkish's full board. Hub uses `W`/`B` for the side and
//! `w b W B e` for the squares, DXP `W`/`Z` and `w z W Z e`.
//!
//! Neither protocol numbers the squares of boards other than 10x10, so
//! rafle follows pydraughts, the host engines run under (lidraughts-bot
//! drives them with it), for every variant pydraughts has, and its own
//! numbers (rule book B2) for the others ([`Convention`], [`Numbering`]).

use rafle_core::{Color, Game, Move, Piece, Position, Variant};
use std::fmt;

/// Whose square numbering the protocols follow where pydraughts' differs
/// from rafle's (russian, brazilian, turkish, english/checkers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Convention {
    /// pydraughts 0.6 and later (its `Board` and the `HubEngine` and
    /// `DXPEngine` that drive engines from it): positions in its board's
    /// internal numbering, moves in the variant's own.
    #[default]
    Pydraughts,
    /// rafle's numbers everywhere, which is also what pydraughts 0.5 sends
    /// (lidraughts-bot pins pydraughts 0.5.7) for every variant of
    /// lidraughts.org.
    Rafle,
}

impl Convention {
    pub const ALL: [Convention; 2] = [Convention::Pydraughts, Convention::Rafle];

    pub fn name(self) -> &'static str {
        match self {
            Convention::Pydraughts => "pydraughts",
            Convention::Rafle => "rafle",
        }
    }
}

impl fmt::Display for Convention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Convention {
    type Err = String;
    fn from_str(s: &str) -> Result<Convention, String> {
        Convention::ALL
            .into_iter()
            .find(|c| c.name() == s.trim())
            .ok_or_else(|| format!("numbering {s:?}: one of pydraughts, rafle"))
    }
}

/// How a protocol numbers a variant's squares. pydraughts writes a
/// position in its board's internal numbering and a move in the variant's
/// numbering; where either differs from rafle's, it is mapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbering {
    /// rafle's numbers for positions and moves: the 10x10 variants and
    /// italian (where pydraughts numbers as rafle does), every variant
    /// pydraughts lacks, and [`Convention::Rafle`].
    Rafle,
    /// Positions in rafle's numbers; moves numbered from White's side, the
    /// rows in reverse order (1 is a1 on 8x8): pydraughts' russian,
    /// brazilian and turkish.
    MovesFromWhite,
    /// Moves in rafle's numbers; the position turned half a turn with the
    /// colours exchanged (character i describes rafle's square N+1-i and
    /// its "white" is rafle's Black): pydraughts' english, whose first
    /// mover, Black, is its internal White at the bottom of the board.
    Turned,
}

impl Numbering {
    pub fn of(v: Variant, convention: Convention) -> Numbering {
        match (convention, v) {
            (Convention::Rafle, _) => Numbering::Rafle,
            (_, Variant::Russian | Variant::Brazilian | Variant::Turkish) => {
                Numbering::MovesFromWhite
            }
            (_, Variant::English | Variant::Checkers) => Numbering::Turned,
            _ => Numbering::Rafle,
        }
    }

    /// The protocol's number of rafle's square `s` in a move, and rafle's
    /// square of a protocol's number (the map is its own inverse).
    pub fn move_square(self, v: Variant, s: usize) -> usize {
        match self {
            Numbering::MovesFromWhite => {
                let g = v.geometry();
                let (row, k) = ((s - 1) / g.h, (s - 1) % g.h);
                (g.n - 1 - row) * g.h + k + 1
            }
            Numbering::Rafle | Numbering::Turned => s,
        }
    }

    /// rafle's square described by character `i` (1-based) of a position.
    fn position_square(self, v: Variant, i: usize) -> usize {
        match self {
            Numbering::Turned => v.num_squares() + 1 - i,
            Numbering::Rafle | Numbering::MovesFromWhite => i,
        }
    }

    /// The position's colours are exchanged.
    fn turned(self) -> bool {
        self == Numbering::Turned
    }
}

/// A variant's board as a protocol writes it. A bare [`Variant`] converts
/// to its board in the default convention.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wire {
    pub variant: Variant,
    pub numbering: Numbering,
}

impl Wire {
    pub fn new(variant: Variant, convention: Convention) -> Wire {
        Wire {
            variant,
            numbering: Numbering::of(variant, convention),
        }
    }

    /// The protocol's number of rafle's square `s` in a move (and back).
    fn square(self, s: usize) -> usize {
        self.numbering.move_square(self.variant, s)
    }
}

impl From<Variant> for Wire {
    fn from(v: Variant) -> Wire {
        Wire::new(v, Convention::default())
    }
}

/// A move as a protocol carries it: squares in the variant's numbering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireMove {
    pub from: usize,
    pub to: usize,
    /// Captured squares (empty for a quiet move), in the order given.
    pub captured: Vec<usize>,
}

impl WireMove {
    /// The wire form of a rafle move (captured squares ascending).
    pub fn of(wire: impl Into<Wire>, m: &Move) -> WireMove {
        let w: Wire = wire.into();
        let g = w.variant.geometry();
        let mut captured: Vec<usize> = m
            .captured_squares(&g)
            .into_iter()
            .map(|s| w.square(s))
            .collect();
        captured.sort_unstable();
        WireMove {
            from: w.square(m.from_square(&g)),
            to: w.square(m.to_square(&g)),
            captured,
        }
    }

    /// The legal move of `game` this names, or why there is none.
    pub fn find(&self, wire: impl Into<Wire>, game: &Game) -> Result<Move, String> {
        self.find_in(wire.into(), game, game.legal_moves())
    }

    /// The move of `moves` (moves of `game`'s position) this names.
    fn find_in(&self, wire: Wire, game: &Game, moves: &[Move]) -> Result<Move, String> {
        let mut captured: Vec<usize> = self.captured.clone();
        captured.sort_unstable();
        let before = captured.len();
        captured.dedup();
        if captured.len() != before {
            return Err(format!("{self} names a captured square twice"));
        }
        let sorted = WireMove {
            captured,
            ..self.clone()
        };
        moves
            .iter()
            .find(|m| WireMove::of(wire, m) == sorted)
            .copied()
            .ok_or_else(|| format!("{self} is not legal at {}", game.fen()))
    }

    /// Plays this move in `game`, also where rafle's rules have ended the
    /// game but a host's go on (its draw rules differ): then the move must
    /// be legal by the move rules, and the game goes on from the position
    /// after it (its history forgotten).
    pub fn play_on(&self, wire: impl Into<Wire>, game: &mut Game) -> Result<(), String> {
        let wire = wire.into();
        if !game.is_over() {
            let m = self.find(wire, game)?;
            return game.play(&m).map_err(|e| e.to_string());
        }
        let v = game.variant();
        let m = self.find_in(wire, game, &move_rule_moves(game))?;
        let mut pos = *game.position();
        pos.apply_in(v, &m);
        *game = Game::from_position(v, pos);
        Ok(())
    }

    /// Hub's notation: `32-28`, `28x19x23` (from x to x captured...).
    pub fn to_hub(&self) -> String {
        if self.captured.is_empty() {
            format!("{}-{}", self.from, self.to)
        } else {
            let mut s = format!("{}x{}", self.from, self.to);
            for c in &self.captured {
                s.push_str(&format!("x{c}"));
            }
            s
        }
    }

    /// Reads Hub's notation for a board of `squares` squares.
    pub fn parse_hub(text: &str, squares: usize) -> Result<WireMove, String> {
        let t = text.trim();
        let square = |s: &str| -> Result<usize, String> {
            match s.parse::<usize>() {
                Ok(n) if (1..=squares).contains(&n) && !s.starts_with('+') => Ok(n),
                _ => Err(format!(
                    "{t:?} is not a Hub move: {s:?} is not a square 1-{squares}"
                )),
            }
        };
        if let Some((a, b)) = t.split_once('-') {
            return Ok(WireMove {
                from: square(a)?,
                to: square(b)?,
                captured: Vec::new(),
            });
        }
        let parts: Vec<&str> = t.split('x').collect();
        if parts.len() < 3 {
            return Err(format!(
                "{t:?} is not a Hub move (from-to, or from x to x captured...)"
            ));
        }
        Ok(WireMove {
            from: square(parts[0])?,
            to: square(parts[1])?,
            captured: parts[2..]
                .iter()
                .map(|s| square(s))
                .collect::<Result<_, _>>()?,
        })
    }
}

impl fmt::Display for WireMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hub())
    }
}

/// The legal moves of `game`'s position by the move rules alone (a game
/// over by a draw rule has none in [`Game::legal_moves`]).
pub fn move_rule_moves(game: &Game) -> Vec<Move> {
    let pos = *game.position();
    rafle_core::with_rules!(game.variant(), R => {
        rafle_core::movegen::legal_moves::<R>(&pos).to_vec()
    })
}

/// The characters of a protocol's position string: the two sides, then
/// white man, black man, white king, black king, empty.
#[derive(Clone, Copy, Debug)]
pub struct Alphabet {
    pub sides: [char; 2],
    pub pieces: [char; 5],
    /// Where [`Numbering::Turned`] exchanges the colours of the pieces, the
    /// side to move is exchanged too (pydraughts does so in Hub, and writes
    /// the real side to move in DXP).
    pub side_turns: bool,
}

/// Hub: `W`/`B`, `w b W B e`.
pub const HUB: Alphabet = Alphabet {
    sides: ['W', 'B'],
    pieces: ['w', 'b', 'W', 'B', 'e'],
    side_turns: true,
};

/// DXP: `W`/`Z` (zwart), `w z W Z e`.
pub const DXP: Alphabet = Alphabet {
    sides: ['W', 'Z'],
    pieces: ['w', 'z', 'W', 'Z', 'e'],
    side_turns: false,
};

impl Alphabet {
    pub fn side(&self, c: Color) -> char {
        self.sides[c.index()]
    }

    pub fn color_of(&self, ch: char) -> Option<Color> {
        match self.sides.iter().position(|&s| s == ch)? {
            0 => Some(Color::White),
            _ => Some(Color::Black),
        }
    }

    /// The position as the side to move and one character per square, in
    /// the variant's [`Numbering`].
    pub fn write(&self, wire: impl Into<Wire>, pos: &Position) -> String {
        let Wire {
            variant,
            numbering: n,
        } = wire.into();
        let g = variant.geometry();
        let as_written = |c: Color| if n.turned() { c.opponent() } else { c };
        let mut s = String::with_capacity(g.squares + 1);
        s.push(self.side(if self.side_turns {
            as_written(pos.side)
        } else {
            pos.side
        }));
        for i in 1..=g.squares {
            s.push(match pos.piece_at(&g, n.position_square(variant, i)) {
                Some(Piece::Man(c)) => self.pieces[as_written(c).index()],
                Some(Piece::King(c)) => self.pieces[2 + as_written(c).index()],
                None => self.pieces[4],
            });
        }
        s
    }

    /// Reads a position string of `variant`'s board.
    pub fn read(&self, wire: impl Into<Wire>, text: &str) -> Result<Position, String> {
        let Wire {
            variant,
            numbering: n,
        } = wire.into();
        let g = variant.geometry();
        let chars: Vec<char> = text.trim().chars().collect();
        if chars.len() != g.squares + 1 {
            return Err(format!(
                "a {n}x{n} position has {} characters (side to move, then {} squares), not {}",
                g.squares + 1,
                g.squares,
                chars.len(),
                n = g.n
            ));
        }
        let as_read = |c: Color| if n.turned() { c.opponent() } else { c };
        let mut pos = Position::EMPTY;
        let side = self.color_of(chars[0]).ok_or_else(|| {
            format!(
                "the side to move is {:?}, not {} or {}",
                chars[0], self.sides[0], self.sides[1]
            )
        })?;
        pos.side = if self.side_turns { as_read(side) } else { side };
        for (i, &ch) in chars[1..].iter().enumerate() {
            let piece = match self.pieces.iter().position(|&p| p == ch) {
                Some(0) => Some(Piece::Man(as_read(Color::White))),
                Some(1) => Some(Piece::Man(as_read(Color::Black))),
                Some(2) => Some(Piece::King(as_read(Color::White))),
                Some(3) => Some(Piece::King(as_read(Color::Black))),
                Some(_) => None,
                None => {
                    return Err(format!(
                        "square {} is {ch:?}, not one of {}",
                        i + 1,
                        self.pieces.iter().collect::<String>()
                    ))
                }
            };
            pos.set(&g, n.position_square(variant, i + 1), piece);
        }
        Ok(pos)
    }
}

/// Where the game's reversible tail starts: the position after its last
/// capture or man move (the start position if none), and the moves since,
/// which are what Hub's `pos ... moves=` carries for repetition detection.
/// Position strings carry no king-move runs (frisian, rule book F6), so
/// there the tail is the whole game, from which the engine rebuilds them.
pub fn reversible_tail(game: &Game) -> (Position, Vec<Move>) {
    let mut pos = *game.start_position();
    let mut base = pos;
    let mut tail = Vec::new();
    let whole_game = game.variant().rules().king_move_limit > 0;
    for m in game.history() {
        let man_move = pos.men(pos.side) & (1 << m.from) != 0;
        pos.apply_in(game.variant(), m);
        if (m.is_capture() || man_move) && !whole_game {
            base = pos;
            tail.clear();
        } else {
            tail.push(*m);
        }
    }
    (base, tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wire(from: usize, to: usize, captured: &[usize]) -> WireMove {
        WireMove {
            from,
            to,
            captured: captured.to_vec(),
        }
    }

    #[test]
    fn hub_moves_read_and_print() {
        for (text, w) in [
            ("32-28", wire(32, 28, &[])),
            ("28x19x23", wire(28, 19, &[23])),
            ("46x5x41x32x23x14", wire(46, 5, &[41, 32, 23, 14])),
        ] {
            assert_eq!(WireMove::parse_hub(text, 50).unwrap(), w);
            assert_eq!(w.to_hub(), text);
        }
        for bad in [
            "", "32", "32-", "0-5", "51-46", "28x19", "ax3x4", "3x4x+5", "32--28",
        ] {
            let e = WireMove::parse_hub(bad, 50).unwrap_err();
            assert!(e.contains("Hub move"), "{bad:?}: {e}");
        }
        // 8x8: squares up to 32 only.
        assert!(WireMove::parse_hub("33-28", 32).is_err());
        assert_eq!(WireMove::parse_hub("9-13", 32).unwrap(), wire(9, 13, &[]));
    }

    #[test]
    fn every_legal_move_goes_to_the_wire_and_back_on_every_variant() {
        for v in Variant::ALL {
            let mut game = Game::new(v);
            let mut rng = rafle_core::rng::Rng::new(7);
            while !game.is_over() && game.ply() < 120 {
                for m in game.legal_moves() {
                    let w = WireMove::of(v, m);
                    let back = WireMove::parse_hub(&w.to_hub(), v.num_squares()).unwrap();
                    assert_eq!(back.find(v, &game), Ok(*m), "{v} {}", w);
                }
                let legal = game.legal_moves();
                let m = legal[rng.below(legal.len())];
                game.play(&m).unwrap();
            }
        }
    }

    #[test]
    fn captures_with_the_same_from_and_to_are_told_apart_by_the_captured_squares() {
        // Random positions of a white king among black men meet such pairs
        // (a king circling a block of men either way round).
        let mut found = 0;
        for v in [Variant::International, Variant::Russian, Variant::Thai] {
            let g = v.geometry();
            let mut rng = rafle_core::rng::Rng::new(11);
            for _ in 0..3000 {
                let mut pos = Position::EMPTY;
                pos.set(
                    &g,
                    1 + rng.below(g.squares),
                    Some(Piece::King(Color::White)),
                );
                for _ in 0..7 {
                    let s = 1 + rng.below(g.squares);
                    if pos.piece_at(&g, s).is_none() {
                        pos.set(&g, s, Some(Piece::Man(Color::Black)));
                    }
                }
                let game = Game::from_position(v, pos);
                let legal = game.legal_moves();
                for (i, a) in legal.iter().enumerate() {
                    for b in &legal[i + 1..] {
                        if a.from == b.from && a.to() == b.to() {
                            found += 1;
                            let (wa, wb) = (WireMove::of(v, a), WireMove::of(v, b));
                            assert_ne!(wa.to_hub(), wb.to_hub());
                            assert_eq!(wa.find(v, &game), Ok(*a));
                            assert_eq!(wb.find(v, &game), Ok(*b));
                        }
                    }
                }
            }
        }
        assert!(found > 0, "no ambiguous capture met");
    }

    #[test]
    fn a_move_that_is_not_legal_says_where() {
        let game = Game::new(Variant::International);
        let e = wire(1, 2, &[])
            .find(Variant::International, &game)
            .unwrap_err();
        assert!(e.contains("1-2 is not legal at W:"), "{e}");
        let e = wire(31, 27, &[22, 22])
            .find(Variant::International, &game)
            .unwrap_err();
        assert!(e.contains("twice"), "{e}");
        // A capture notation where the move is quiet.
        assert!(wire(31, 27, &[22])
            .find(Variant::International, &game)
            .is_err());
    }

    #[test]
    fn positions_round_trip_in_both_alphabets() {
        let start = HUB.write(
            Variant::International,
            &Position::start(Variant::International),
        );
        assert_eq!(
            start,
            format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20))
        );
        for v in Variant::ALL {
            let mut game = Game::new(v);
            let mut rng = rafle_core::rng::Rng::new(3);
            while !game.is_over() && game.ply() < 150 {
                // The strings hold pieces and side, not king-move runs.
                let mut pos = *game.position();
                pos.king_runs = Default::default();
                for abc in [HUB, DXP] {
                    let s = abc.write(v, &pos);
                    assert_eq!(s.len(), v.num_squares() + 1);
                    assert_eq!(abc.read(v, &s).unwrap(), pos, "{v} {s}");
                }
                let legal = game.legal_moves();
                let m = legal[rng.below(legal.len())];
                game.play(&m).unwrap();
            }
        }
        for (bad, needle) in [
            ("W", "51 characters"),
            (&format!("X{}", "e".repeat(50)), "side to move"),
            (&format!("W{}q", "e".repeat(49)), "square 50 is 'q'"),
        ] {
            let e = HUB.read(Variant::International, bad).unwrap_err();
            assert!(e.contains(needle), "{bad}: {e}");
        }
        // DXP's black is Z; Hub's B is not a DXP character.
        assert!(DXP
            .read(Variant::International, &format!("Z{}", "z".repeat(50)))
            .is_ok());
        assert!(DXP
            .read(Variant::International, &format!("B{}", "e".repeat(50)))
            .is_err());
        assert_eq!(
            HUB.write(Variant::English, &Position::start(Variant::English))
                .len(),
            33
        );
    }

    #[test]
    fn start_positions_and_first_moves_are_written_as_pydraughts_writes_them() {
        // pydraughts 0.6.7: `Board(v)._game.initial_hub_fen` and the
        // `hub_move` of each of `Board(v).legal_moves()`.
        let eight = format!("W{}{}{}", "b".repeat(12), "e".repeat(8), "w".repeat(12));
        let ten = format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20));
        let turkish = format!(
            "W{}{}{}{}{}",
            "e".repeat(8),
            "b".repeat(16),
            "e".repeat(16),
            "w".repeat(16),
            "e".repeat(8)
        );
        let cases: [(Variant, &str, &str); 6] = [
            (
                Variant::International,
                &ten,
                "31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30",
            ),
            (
                Variant::Russian,
                &eight,
                "9-13 10-13 10-14 11-14 11-15 12-15 12-16",
            ),
            (
                Variant::Brazilian,
                &eight,
                "9-13 10-13 10-14 11-14 11-15 12-15 12-16",
            ),
            (
                Variant::Italian,
                &eight,
                "21-17 21-18 22-18 22-19 23-19 23-20 24-20",
            ),
            (
                Variant::Checkers,
                &eight,
                "12-16 11-16 11-15 10-15 10-14 9-14 9-13",
            ),
            (
                Variant::Turkish,
                &turkish,
                "17-25 18-26 19-27 20-28 21-29 22-30 23-31 24-32",
            ),
        ];
        for (v, start, moves) in cases {
            let game = Game::new(v);
            assert_eq!(HUB.write(v, game.position()), start, "{v}");
            assert_eq!(HUB.read(v, start).unwrap(), *game.position(), "{v}");
            let mut ours: Vec<String> = game
                .legal_moves()
                .iter()
                .map(|m| WireMove::of(v, m).to_hub())
                .collect();
            let mut theirs: Vec<&str> = moves.split(' ').collect();
            ours.sort();
            theirs.sort();
            assert_eq!(ours, theirs, "{v}");
        }
        // russian a1 is 1 on the wire (rafle's 29), h8 is 32 (rafle's 4);
        // english's position is turned: its first character is rafle's 32.
        let n = Numbering::of(Variant::Russian, Convention::Pydraughts);
        assert_eq!(
            (
                n.move_square(Variant::Russian, 29),
                n.move_square(Variant::Russian, 4)
            ),
            (1, 32)
        );
        let mut pos = Position::EMPTY;
        let g = Variant::Checkers.geometry();
        pos.set(&g, 32, Some(Piece::King(Color::Black)));
        pos.side = Color::White;
        let s = HUB.write(Variant::Checkers, &pos);
        assert_eq!(&s[..2], "BW", "{s}");
        // DXP writes the real side to move, the board as Hub does.
        assert_eq!(&DXP.write(Variant::Checkers, &pos)[..2], "WW");
    }

    #[test]
    fn the_rafle_convention_is_what_pydraughts_0_5_sends() {
        // pydraughts 0.5.7 (lidraughts-bot): `Game(v).initial_hub_fen` and
        // the hub_move of its legal moves, in its internal numbering.
        let eight = format!("W{}{}{}", "b".repeat(12), "e".repeat(8), "w".repeat(12));
        for v in [Variant::Russian, Variant::Brazilian] {
            let wire = Wire::new(v, Convention::Rafle);
            let game = Game::new(v);
            assert_eq!(HUB.write(wire, game.position()), eight);
            let mut ours: Vec<String> = game
                .legal_moves()
                .iter()
                .map(|m| WireMove::of(wire, m).to_hub())
                .collect();
            ours.sort();
            assert_eq!(
                ours,
                ["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"]
            );
        }
        for v in Variant::ALL {
            assert_eq!(Numbering::of(v, Convention::Rafle), Numbering::Rafle);
        }
        assert_eq!("rafle".parse(), Ok(Convention::Rafle));
        assert!("pydraughts-0.5"
            .parse::<Convention>()
            .unwrap_err()
            .contains("one of pydraughts, rafle"));
    }

    #[test]
    fn the_reversible_tail_starts_after_the_last_capture_or_man_move() {
        let mut game = Game::from_fen(Variant::International, "W:WK46,K47:BK5,K4").unwrap();
        for m in ["47-42", "4-10", "42-47", "10-4"] {
            game.play_str(m).unwrap();
        }
        let (base, tail) = reversible_tail(&game);
        assert_eq!(base, *game.start_position());
        assert_eq!(tail.len(), 4);
        let mut game = Game::new(Variant::International);
        game.play_str("32-28").unwrap();
        let (base, tail) = reversible_tail(&game);
        assert_eq!(base, *game.position());
        assert!(tail.is_empty());
    }
}
