//! DXP (DamExchange Protocol) messages: fixed-width ASCII fields, one
//! message per NUL-terminated string on a TCP stream, at most 127
//! characters. The layouts (version 01):
//!
//! ```text
//! R 01 name:32 fcolor:1 minutes:3 moves:3 'A'                 game request (initiator)
//! R 01 name:32 fcolor:1 minutes:3 moves:3 'B' tomove:1 board  ... from a position
//! A name:32 code:1                                            game accepted ('0') or refused
//! M time:4 from:2 to:2 n:2 captured:2*n                       a move
//! E reason:1 stop:1                                           game end
//! C text                                                      chat
//! B move:3 tomove:1                                           back request
//! K code:1                                                    back accepted ('0') or not
//! ```
//!
//! Colours are `W` and `Z` (zwart); `fcolor` is the follower's colour; the
//! board is the [`crate::notation::DXP`] string (50 squares on 10x10; rafle's
//! extension sizes it to the board). End reasons are the sender's view:
//! 0 unknown, 1 I lose, 2 draw, 3 I win; stop 0 asks for another game, 1
//! ends the session.

use rafle_core::Color;

/// Longest message the protocol allows.
pub const MAX_LEN: usize = 127;

/// A DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    GameRequest {
        name: String,
        /// The follower's colour.
        follower: Color,
        minutes: u32,
        moves: u32,
        /// The side to move and the board (`[crate::notation::DXP]` string
        /// without its first character); None for the start position.
        position: Option<(Color, String)>,
    },
    GameAccept {
        name: String,
        /// '0' accepted; '1' colour, '2' time, '3' position, '9' anything else refused.
        code: char,
    },
    Move {
        /// Seconds the move took.
        seconds: u32,
        from: usize,
        to: usize,
        captured: Vec<usize>,
    },
    GameEnd {
        reason: char,
        stop: char,
    },
    Chat(String),
    BackRequest {
        move_number: u32,
        to_move: Color,
    },
    BackAccept {
        code: char,
    },
}

fn side(c: Color) -> char {
    crate::notation::DXP.side(c)
}

fn padded(name: &str) -> String {
    let mut s: String = name
        .chars()
        .filter(|c| c.is_ascii() && *c != '\0')
        .take(32)
        .collect();
    while s.len() < 32 {
        s.push(' ');
    }
    s
}

fn digits(n: impl Into<u64>, width: usize) -> String {
    let n = n.into();
    let max = 10u64.pow(width as u32) - 1;
    format!("{:0width$}", n.min(max))
}

impl Message {
    /// The message text (without the NUL).
    pub fn encode(&self) -> String {
        match self {
            Message::GameRequest {
                name,
                follower,
                minutes,
                moves,
                position,
            } => {
                let mut s = format!(
                    "R01{}{}{}{}",
                    padded(name),
                    side(*follower),
                    digits(*minutes, 3),
                    digits(*moves, 3)
                );
                match position {
                    None => s.push('A'),
                    Some((c, board)) => {
                        s.push('B');
                        s.push(side(*c));
                        s.push_str(board);
                    }
                }
                s
            }
            Message::GameAccept { name, code } => format!("A{}{code}", padded(name)),
            Message::Move {
                seconds,
                from,
                to,
                captured,
            } => {
                let mut s = format!(
                    "M{}{}{}{}",
                    digits(*seconds, 4),
                    digits(*from as u64, 2),
                    digits(*to as u64, 2),
                    digits(captured.len() as u64, 2)
                );
                for c in captured {
                    s.push_str(&digits(*c as u64, 2));
                }
                s
            }
            Message::GameEnd { reason, stop } => format!("E{reason}{stop}"),
            Message::Chat(text) => {
                let t: String = text
                    .chars()
                    .filter(|c| c.is_ascii() && *c != '\0')
                    .take(MAX_LEN - 1)
                    .collect();
                format!("C{t}")
            }
            Message::BackRequest {
                move_number,
                to_move,
            } => format!("B{}{}", digits(*move_number, 3), side(*to_move)),
            Message::BackAccept { code } => format!("K{code}"),
        }
    }

    /// Reads a message; the error says which field is wrong.
    pub fn decode(text: &str) -> Result<Message, String> {
        if !text.is_ascii() {
            return Err(format!("{text:?}: not ASCII"));
        }
        // NUL ends a message: one inside is not text of the protocol.
        if text.contains('\0') {
            return Err(format!("{text:?}: a NUL inside"));
        }
        if text.len() > MAX_LEN {
            return Err(format!(
                "a message of {} characters (at most {MAX_LEN})",
                text.len()
            ));
        }
        let field = |from: usize, len: usize, what: &str| -> Result<&str, String> {
            text.get(from..from + len)
                .ok_or_else(|| format!("{text:?}: too short for its {what}"))
        };
        let num = |from: usize, len: usize, what: &str| -> Result<u32, String> {
            let f = field(from, len, what)?;
            if !f.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!("{text:?}: {what} {f:?} is not a number"));
            }
            Ok(f.parse().unwrap_or(0))
        };
        let color = |at: usize, what: &str| -> Result<Color, String> {
            let f = field(at, 1, what)?;
            crate::notation::DXP
                .color_of(f.chars().next().unwrap_or(' '))
                .ok_or_else(|| format!("{text:?}: {what} {f:?} is not W or Z"))
        };
        let exact = |len: usize, m: Message| -> Result<Message, String> {
            if text.len() == len {
                Ok(m)
            } else {
                Err(format!(
                    "{text:?}: {} characters where {len} belong",
                    text.len()
                ))
            }
        };
        match text.as_bytes().first() {
            Some(b'R') => {
                let version = num(1, 2, "version")?;
                if version != 1 {
                    return Err(format!("{text:?}: version {version:02} (rafle speaks 01)"));
                }
                // Padded on the right: a name's own leading spaces stay.
                let name = field(3, 32, "name")?.trim_end_matches(' ').to_string();
                let follower = color(35, "follower colour")?;
                let minutes = num(36, 3, "game time")?;
                let moves = num(39, 3, "move count")?;
                let m = |position| Message::GameRequest {
                    name: name.clone(),
                    follower,
                    minutes,
                    moves,
                    position,
                };
                match field(42, 1, "position flag")? {
                    "A" => exact(43, m(None)),
                    "B" => {
                        let to_move = color(43, "side to move")?;
                        let board = text[44..].to_string();
                        if board.is_empty() {
                            return Err(format!("{text:?}: the board is missing"));
                        }
                        Ok(m(Some((to_move, board))))
                    }
                    f => Err(format!("{text:?}: position flag {f:?} is not A or B")),
                }
            }
            Some(b'A') => {
                let name = field(1, 32, "name")?.trim_end_matches(' ').to_string();
                let code = field(33, 1, "acceptance code")?
                    .chars()
                    .next()
                    .unwrap_or('9');
                exact(34, Message::GameAccept { name, code })
            }
            Some(b'M') => {
                let seconds = num(1, 4, "time")?;
                let from = num(5, 2, "from square")? as usize;
                let to = num(7, 2, "to square")? as usize;
                let n = num(9, 2, "capture count")? as usize;
                let captured = (0..n)
                    .map(|i| num(11 + 2 * i, 2, "captured square").map(|c| c as usize))
                    .collect::<Result<Vec<_>, _>>()?;
                exact(
                    11 + 2 * n,
                    Message::Move {
                        seconds,
                        from,
                        to,
                        captured,
                    },
                )
            }
            Some(b'E') => {
                let f = field(1, 2, "reason and stop code")?;
                let mut c = f.chars();
                let (reason, stop) = (c.next().unwrap_or('0'), c.next().unwrap_or('0'));
                if !('0'..='3').contains(&reason) || !('0'..='1').contains(&stop) {
                    return Err(format!(
                        "{text:?}: end reason {reason:?} / stop code {stop:?}"
                    ));
                }
                exact(3, Message::GameEnd { reason, stop })
            }
            Some(b'C') => Ok(Message::Chat(text[1..].to_string())),
            Some(b'B') => {
                let move_number = num(1, 3, "move number")?;
                let to_move = color(4, "side to move")?;
                exact(
                    5,
                    Message::BackRequest {
                        move_number,
                        to_move,
                    },
                )
            }
            Some(b'K') => {
                let code = field(1, 1, "acceptance code")?
                    .chars()
                    .next()
                    .unwrap_or('1');
                exact(2, Message::BackAccept { code })
            }
            _ => Err(format!("{text:?}: no DXP message starts so")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_encode_and_decode() {
        let board = format!("{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20));
        let cases = [
            (
                Message::GameRequest {
                    name: "Tornado voor Windows 4.0".into(),
                    follower: Color::White,
                    minutes: 60,
                    moves: 65,
                    position: None,
                },
                "R01Tornado voor Windows 4.0        W060065A".to_string(),
            ),
            (
                Message::GameRequest {
                    name: "rafle".into(),
                    follower: Color::Black,
                    minutes: 5,
                    moves: 0,
                    position: Some((Color::White, board.clone())),
                },
                format!("R01rafle{}Z005000BW{board}", " ".repeat(27)),
            ),
            (
                Message::GameAccept {
                    name: "Scan 3.1".into(),
                    code: '0',
                },
                format!("AScan 3.1{}0", " ".repeat(24)),
            ),
            (
                Message::Move {
                    seconds: 12,
                    from: 5,
                    to: 25,
                    captured: vec![22, 12, 23, 20],
                },
                "M001205250422122320".to_string(),
            ),
            (
                Message::Move {
                    seconds: 0,
                    from: 32,
                    to: 28,
                    captured: vec![],
                },
                "M0000322800".to_string(),
            ),
            (
                Message::GameEnd {
                    reason: '3',
                    stop: '1',
                },
                "E31".to_string(),
            ),
            (Message::Chat("good luck".into()), "Cgood luck".to_string()),
            (
                Message::BackRequest {
                    move_number: 5,
                    to_move: Color::Black,
                },
                "B005Z".to_string(),
            ),
            (Message::BackAccept { code: '0' }, "K0".to_string()),
        ];
        for (m, text) in cases {
            assert_eq!(m.encode(), text);
            assert_eq!(Message::decode(&text), Ok(m), "{text}");
        }
        // 8x8 (rafle's extension): a 32-square board.
        let small = format!("R01rafle{}W001000BW{}", " ".repeat(27), "e".repeat(32));
        assert!(matches!(
            Message::decode(&small),
            Ok(Message::GameRequest { position: Some((Color::White, b)), .. }) if b.len() == 32
        ));
    }

    #[test]
    fn malformed_messages_are_errors() {
        for (bad, needle) in [
            ("", "no DXP message"),
            ("X123", "no DXP message"),
            ("M00", "too short"),
            ("M0000ab2800", "not a number"),
            ("M00003228000101", "characters where"),
            ("M00003228021", "too short"),
            ("E4", "too short"),
            ("E41", "end reason"),
            ("R02name", "version 02"),
            ("B005Q", "not W or Z"),
            ("K", "too short"),
        ] {
            let e = Message::decode(bad).unwrap_err();
            assert!(e.contains(needle), "{bad:?}: {e}");
        }
        assert!(Message::decode(&"C".repeat(200)).is_err());
        // Found by fuzzing (crates/rafle-props/fuzz/corpus/dxp_message): a NUL in a name, a
        // name's leading spaces; each decoded text encodes back as it was.
        assert!(Message::decode(&format!("R01x\0{}W001000A", " ".repeat(30))).is_err());
        // and the other blanks at its end (only the padding goes).
        for name in ["  Scan  ", "Scan\r ", "Scan\t"] {
            let text = format!("A{name}{}0", " ".repeat(32 - name.len()));
            assert_eq!(Message::decode(&text).unwrap().encode(), text);
        }
    }
}
