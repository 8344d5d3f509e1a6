//! The value of a position for the side to move, and its one-number code in
//! the table files.

use std::cmp::Ordering;
use std::fmt;

/// What a position is worth to the side to move under perfect play, with
/// the distance to the end of the game in plies: the winner takes the
/// shortest way, the loser the longest. `Loss(0)` is a finished game the
/// side to move has lost (no legal move; in breakthrough, the opponent has
/// crowned); `Win(1)` a position with a move that ends the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Win(u16),
    Draw,
    Loss(u16),
}

/// Distances are kept below this, so every code fits 16 bits.
pub const MAX_DISTANCE: u16 = 0x7FF0;

impl Value {
    /// The value, for the player who moved, of a move that leads to a
    /// position worth `self` to the opponent.
    #[inline]
    pub fn before(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// "win", "draw" or "loss".
    pub fn kind(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Draw => "draw",
            Value::Loss(_) => "loss",
        }
    }

    /// Plies to the end (0 for a draw).
    pub fn plies(self) -> u16 {
        match self {
            Value::Win(d) | Value::Loss(d) => d,
            Value::Draw => 0,
        }
    }

    /// A number that orders values from the side to move's view: a nearer
    /// win is better, a later loss is better.
    #[inline]
    pub fn rank(self) -> i32 {
        match self {
            Value::Win(d) => 0x10000 - d as i32,
            Value::Draw => 0,
            Value::Loss(d) => d as i32 - 0x10000,
        }
    }

    /// The code stored in a table (see [`Code`]).
    #[inline]
    pub fn code(self) -> u16 {
        match self {
            Value::Draw => Code::DRAW,
            Value::Win(d) => 2 + 2 * d,
            Value::Loss(d) => 3 + 2 * d,
        }
    }

    /// The value of a stored code; `None` for [`Code::NONE`].
    #[inline]
    pub fn from_code(c: u16) -> Option<Value> {
        match c {
            Code::DRAW => Some(Value::Draw),
            Code::NONE => None,
            c if c & 1 == 0 => Some(Value::Win((c - 2) / 2)),
            c => Some(Value::Loss((c - 3) / 2)),
        }
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, o: &Value) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// Better for the side to move is greater.
impl Ord for Value {
    fn cmp(&self, o: &Value) -> Ordering {
        self.rank().cmp(&o.rank())
    }
}

impl fmt::Display for Value {
    /// `win 7`, `loss 12`, `draw`: the first line of `rafle egtb probe`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Draw => f.write_str("draw"),
            v => write!(f, "{} {}", v.kind(), v.plies()),
        }
    }
}

/// The codes of a table: one per index of a slice, 8 or 16 bits wide.
///
/// ```text
/// 0        draw
/// 1        no position (the index puts two men on one square)
/// 2 + 2d   win in d plies
/// 3 + 2d   loss in d plies
/// ```
#[derive(Debug)]
pub struct Code;

impl Code {
    pub const DRAW: u16 = 0;
    pub const NONE: u16 = 1;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_order() {
        let vals = [
            Value::Win(1),
            Value::Win(7),
            Value::Draw,
            Value::Loss(20),
            Value::Loss(0),
        ];
        for v in vals {
            assert_eq!(Value::from_code(v.code()), Some(v));
        }
        assert_eq!(Value::from_code(Code::NONE), None);
        for w in vals.windows(2) {
            assert!(w[0] > w[1], "{:?} > {:?}", w[0], w[1]);
        }
        assert_eq!(Value::Loss(4).before(), Value::Win(5));
        assert_eq!(Value::Win(3).before(), Value::Loss(4));
        assert_eq!(Value::Win(3).to_string(), "win 3");
        assert_eq!(Value::Draw.to_string(), "draw");
    }
}
