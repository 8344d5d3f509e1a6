//! Round trips on random games (FEN, move notation, undo) and bad input:
//! malformed FENs and moves give error values, and random strings fed to
//! every parser never panic.

use crate::common;

use common::scale;
use rafle_core::rng::Rng;
use rafle_core::{parse_fen, to_fen, Counters, Error, Game, Move, Variant};

use Variant::{Checkers as C, English as E, International as I, Thai as T};

/// A random game of `v` from its start, at most `max_plies` plies.
fn random_game(v: Variant, rng: &mut Rng, max_plies: usize) -> Game {
    let mut g = Game::new(v);
    while !g.is_over() && g.ply() < max_plies {
        let moves = g.legal_moves();
        let m = moves[rng.below(moves.len())];
        g.play(&m).unwrap();
    }
    g
}

/// What the short form `from x to` of capture `m` must give.
fn check_short_form(g: &Game, m: &Move) {
    let geo = g.geometry();
    let (f, t) = (m.from_square(&geo), m.to_square(&geo));
    let short = format!("{f}x{t}");
    let same_ends: Vec<&Move> = g
        .legal_moves()
        .iter()
        .filter(|o| o.from == m.from && o.to() == m.to() && o.is_capture())
        .collect();
    let got = g.parse_move(&short);
    if let Some(single) = same_ends.iter().find(|o| o.landings().len() == 1) {
        // A one-jump capture written in full takes precedence.
        assert_eq!(got, Ok(**single), "{short} in {}", g.fen());
    } else if same_ends.len() == 1 {
        assert_eq!(got, Ok(*m), "{short} in {}", g.fen());
    } else {
        assert_eq!(got, Err(Error::AmbiguousMove(short.clone())), "{}", g.fen());
    }
}

#[test]
fn round_trips_on_random_games() {
    let mut rng = Rng::new(2024);
    for v in Variant::ALL {
        let geo = v.geometry();
        for _ in 0..40 {
            let mut g = Game::new(v);
            let mut trail: Vec<(String, Counters, Option<rafle_core::Outcome>)> = Vec::new();
            while !g.is_over() && g.ply() < 300 {
                // FEN print/parse.
                let fen = g.fen();
                let pos = parse_fen(v, &fen).unwrap();
                assert_eq!(&pos, g.position(), "{v} {fen}");
                assert_eq!(pos.zobrist(), g.position().zobrist());
                assert_eq!(to_fen(v, &pos), fen);
                // Move print/parse, full path and short form.
                for m in g.legal_moves() {
                    let s = g.move_string(m);
                    let back = g.parse_move(&s).unwrap();
                    assert_eq!(back, *m, "{v} {fen} {s}");
                    assert_eq!(back.landings(), m.landings(), "{v} {fen} {s}");
                    if m.landings().len() >= 2 {
                        check_short_form(&g, m);
                    }
                    // Upper case and blanks are accepted too.
                    assert_eq!(g.parse_move(&format!(" {} ", s.replace('x', "X"))), Ok(*m));
                    assert_eq!(m.path_squares(&geo).len(), m.landings().len() + 1);
                }
                trail.push((fen, g.counters(), g.outcome()));
                let m = g.legal_moves()[rng.below(g.legal_moves().len())];
                g.play_str(&g.move_string(&m)).unwrap();
            }
            // Undo restores every FEN, counter and result, back to the start.
            while let Some((fen, counters, outcome)) = trail.pop() {
                g.undo().unwrap();
                assert_eq!(
                    (g.fen(), g.counters(), g.outcome()),
                    (fen, counters, outcome)
                );
            }
            assert_eq!(g.ply(), 0);
            assert_eq!(g.undo(), Err(Error::NothingToUndo));
            assert_eq!(g.fen(), Game::new(v).fen());
        }
    }
}

#[test]
fn short_form_of_captures() {
    // Two two-piece captures from 26 to 10 (over 22, 14 or over 23, 15).
    for v in [T, E, C] {
        let g = Game::from_fen(v, "W:W26:B14,15,22,23").unwrap();
        assert_eq!(g.legal_moves().len(), 2, "{v}");
        assert_eq!(
            g.parse_move("26x10"),
            Err(Error::AmbiguousMove("26x10".into()))
        );
        let a = g.parse_move("26x17x10").unwrap();
        let b = g.parse_move("26x19x10").unwrap();
        assert_ne!(a, b);
        let mut g2 = g.clone();
        assert_eq!(
            g2.play_str("26x10"),
            Err(Error::AmbiguousMove("26x10".into()))
        );
        assert_eq!(g2.ply(), 0);
    }
    // Unambiguous short forms (the rule book's FMJD table, section 4, writes
    // them so).
    let g = Game::from_fen(I, "W:WK1:B7,9,17,19,20,30,31,33,43,44").unwrap();
    assert_eq!(g.parse_move("1x15").unwrap().num_captured(), 10);
    let g = Game::from_fen(I, "W:W48:B24,K31,34,K42,43").unwrap();
    assert_eq!(
        g.move_string(&g.parse_move("48x19").unwrap()),
        "48x39x30x19"
    );
    // Another path of a deduplicated move names it too.
    let g = Game::from_fen(I, "W:W28:B12,13,22,23").unwrap();
    assert_eq!(g.parse_move("28x19x8x17x28"), g.parse_move("28x17x8x19x28"));
    assert!(g.parse_move("28x28").is_ok());
    // A path that is not a legal way to play it is refused.
    for bad in ["28x17x19x8x28", "28x8x28", "28x19x28"] {
        assert_eq!(
            g.parse_move(bad),
            Err(Error::IllegalMove(bad.into())),
            "{bad}"
        );
    }
    // A flying king's landing choices before a second capture along one
    // diagonal (46 over 37, land on 32, 28 or 23, then over 19): every legal
    // intermediate landing names the listed move, an impossible one does not.
    let g = Game::from_fen(I, "W:WK46:B37,19").unwrap();
    let listed: Vec<String> = g.legal_moves().iter().map(|m| g.move_string(m)).collect();
    assert_eq!(listed, ["46x32x14", "46x32x10", "46x32x5"]);
    for to in [14, 10, 5] {
        let m = g.parse_move(&format!("46x32x{to}")).unwrap();
        for land in [28, 23] {
            assert_eq!(g.parse_move(&format!("46x{land}x{to}")), Ok(m));
        }
        for bad in [41, 19] {
            let p = format!("46x{bad}x{to}");
            assert_eq!(g.parse_move(&p), Err(Error::IllegalMove(p.clone())));
        }
    }
}

#[test]
fn bad_moves_give_errors() {
    let g = Game::new(I);
    for (text, kind) in [
        ("", "syntax"),
        ("32", "syntax"),
        ("31-26-21", "syntax"),
        ("31x-26", "syntax"),
        ("0-5", "syntax"),
        ("31-51", "syntax"),
        ("a1-b2", "illegal"),
        ("a1-a2", "syntax"),
        ("k1-j2", "syntax"),
        ("a11-b10", "syntax"),
        ("1a-2b", "syntax"),
        ("31--26", "syntax"),
        ("9999999999999999999999-1", "syntax"),
        ("31-25", "illegal"),
        ("31x26", "illegal"),
        ("26-21", "illegal"),
        ("36-31", "illegal"),
    ] {
        let r = g.parse_move(text);
        match (kind, &r) {
            ("syntax", Err(Error::MoveSyntax(_))) | ("illegal", Err(Error::IllegalMove(_))) => {}
            _ => panic!("{text:?}: expected a {kind} error, got {r:?}"),
        }
        assert!(!r.unwrap_err().to_string().contains('\n'));
    }
    // A move value that is not legal here, and a finished game.
    let mut g2 = Game::new(I);
    let bogus = g2.legal_moves()[0];
    g2.play(&bogus).unwrap();
    assert!(matches!(g2.play(&bogus), Err(Error::IllegalMove(_))));
    let mut over = Game::from_fen(I, "W:W:B1").unwrap();
    assert_eq!(over.play_str("1-6"), Err(Error::GameOver));
    assert_eq!(over.play(&bogus), Err(Error::GameOver));
    // A capture path that does not exist.
    let g = Game::from_fen(I, "W:W28:B12,13,22,23").unwrap();
    assert!(matches!(
        g.parse_move("28x19x8"),
        Err(Error::IllegalMove(_))
    ));
    assert!(matches!(
        g.parse_move("28x19x30x28"),
        Err(Error::IllegalMove(_))
    ));
}

#[test]
fn algebraic_squares_are_read_everywhere_and_printed_where_the_variant_writes_them() {
    use rafle_core::Notation;
    for v in Variant::ALL {
        let g = v.geometry();
        let mut game = Game::new(v);
        // A FEN in algebraic names reads as the numeric one, in every variant.
        let names: Vec<String> = (1..=g.squares)
            .map(|s| {
                let (r, c) = g.row_col(s);
                format!("{}{}", (b'a' + c as u8) as char, g.n - r)
            })
            .collect();
        let pos = *game.position();
        let alg = |bb: rafle_core::Bitboard| -> String {
            g.squares_of(bb)
                .into_iter()
                .map(|s| names[s - 1].clone())
                .collect::<Vec<_>>()
                .join(",")
        };
        let side = if pos.side == rafle_core::Color::White {
            "W"
        } else {
            "B"
        };
        let fen = format!("{side}:W{}:B{}", alg(pos.white), alg(pos.black));
        assert_eq!(parse_fen(v, &fen), Ok(pos), "{v} {fen}");
        // Every legal move reads back from both forms of its squares.
        for m in game.legal_moves().to_vec() {
            let path = m.path_squares(&g);
            let sep = if m.is_capture() { "x" } else { "-" };
            let numeric: Vec<String> = path.iter().map(|s| s.to_string()).collect();
            let named: Vec<String> = path.iter().map(|s| names[s - 1].clone()).collect();
            assert_eq!(game.parse_move(&numeric.join(sep)), Ok(m), "{v}");
            assert_eq!(game.parse_move(&named.join(sep)), Ok(m), "{v}");
            let printed = game.move_string(&m);
            let want = match v.rules().notation {
                Notation::Numeric => numeric.join(sep),
                Notation::Algebraic => named.join(if m.is_capture() { ":" } else { "-" }),
            };
            assert_eq!(printed, want, "{v}");
        }
        // The FEN prints in the variant's notation and reads back.
        let printed = game.fen();
        assert_eq!(
            printed.contains("a") || printed.contains("b"),
            v.rules().notation == Notation::Algebraic && pos.occupied() != 0,
            "{v} {printed}"
        );
        assert_eq!(parse_fen(v, &printed), Ok(pos));
        let m = game.legal_moves()[0];
        game.play(&m).unwrap();
    }
    // Russian: the opening move c3-d4 is 22-18.
    let mut g = Game::new(Variant::Russian);
    assert_eq!(
        g.play_str("c3-d4").map(|m| g.move_string(&m)),
        Ok("c3-d4".into())
    );
    assert_eq!(
        g.play_str("f6-e5").map(|m| g.move_string(&m)),
        Ok("f6-e5".into())
    );
    assert_eq!(
        g.play_str("d4:f6").map(|m| g.move_string(&m)),
        Ok("d4:f6".into())
    );
}

#[test]
fn malformed_fens_give_errors() {
    const F: Variant = Variant::Frisian;
    for (v, fen, what) in [
        (T, "", "empty"),
        (T, "   ", "blank"),
        (T, "\"\"", "empty quoted"),
        (T, "X:W1:B2", "unknown colour to move"),
        (T, "W:Q21:B2", "unknown colour of a section"),
        (I, "R:W31:B2", "unknown colour to move"),
        (T, "W:W33:B2", "square out of range"),
        (T, "W:W0:B2", "square zero"),
        (I, "W:W51:B1", "square out of range"),
        (T, "W:Wi1:B2", "algebraic square off the board"),
        (T, "W:Wa9:B2", "algebraic square off the board"),
        (T, "W:Wa2:B2", "algebraic light square"),
        (
            Variant::Italian,
            "W:Wa1:B2",
            "algebraic light square of a mirrored board",
        ),
        (I, "W:W40:B1-55", "range out of range"),
        (E, "W:W20:B20", "two pieces on one square"),
        (E, "W:W20,K20:B1", "two pieces on one square"),
        (I, "W:W31-35:B2,33", "two pieces on one square (range)"),
        (T, "W:W3:B9", "white man on its crowning row"),
        (E, "W:W20:B30", "black man on its crowning row"),
        (I, "W:W5:B9", "white man on its crowning row"),
        (I, "W:W20:B46", "black man on its crowning row"),
        (C, "hello", "garbage"),
        (C, "W:Wx:B1", "garbage square"),
        (C, "W:W1a:B2", "garbage square"),
        // Frisian's king-move runs (rule book F6).
        (
            I,
            "W:W45,K21:B20:RW21/3",
            "a run in a variant without the limit",
        ),
        (F, "W:W45,K21:B20:RW21", "a run without its count"),
        (F, "W:W45,K21:B20:RW21/4", "a run beyond the limit"),
        (F, "W:W45,K21:B20:RW21/0", "an empty run"),
        (F, "W:W45,K21:B20:RW22/1", "a run where no king stands"),
        (
            F,
            "W:W45,K21:B20:RB21/1",
            "a run of the other colour's king",
        ),
        (F, "W:W45,K21:B20:R/1", "a run without colour or square"),
        (F, "W:W45,K21:B20:R\u{e9}21/1", "a run of an unknown colour"),
        (F, "W:W45,K21:B20:RWx/1", "a run on a garbage square"),
        (C, "W:W-3:B2", "half range"),
        (C, "W:W20-:B2", "half range"),
        (C, "W:W9-5:B1", "empty range"),
        (C, "W:WK:B1", "king without square"),
        (C, "W:W20:B1:W21", "two white sections"),
        (C, "W:W20:B1:", "empty section"),
        (C, "W:W99999999999999999999:B1", "huge number"),
        (C, "W:W+5:B1", "sign"),
        (C, "W:W5.0:B1", "decimal"),
        (I, "W:W31-50:B1-20,K21-30:B", "two black sections"),
        (I, "W\u{e9}:W31:B1", "non-ascii"),
        (I, ":W31:B1", "missing side"),
        (I, "W:WK46:B1-31", "more than 30 pieces of one colour"),
        (
            Variant::Canadian,
            "W:WK72:B1-31",
            "more than 30 pieces of one colour",
        ),
    ] {
        let r = parse_fen(v, fen);
        match &r {
            Err(Error::Fen(msg)) => assert!(!msg.contains('\n'), "{msg}"),
            other => panic!("{v} {fen:?} ({what}): expected a FEN error, got {other:?}"),
        }
        assert!(Game::from_fen(v, fen).is_err());
    }
}

#[test]
fn lenient_but_valid_fens() {
    // Kings may stand on any row; ranges, blanks, quotes and a final dot are fine.
    for (v, fen, canonical) in [
        (T, "W:WK1:BK32", "W:WK1:BK32"),
        (
            T,
            "B:W25-32:B1-8",
            "B:W25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8",
        ),
        (E, " \"W:W21 , 22:B1,K3-4.\" ", "W:W21,22:B1,K3,K4"),
        (C, "b:bk5:w21", "B:W21:BK5"),
        (I, "W:W:B", "W:W:B"),
        (I, "W", "W:W:B"),
        (I, "W:W31-50:BK1-20", "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:BK1,K2,K3,K4,K5,K6,K7,K8,K9,K10,K11,K12,K13,K14,K15,K16,K17,K18,K19,K20"),
    ] {
        let p = parse_fen(v, fen).unwrap_or_else(|e| panic!("{v} {fen:?}: {e}"));
        assert_eq!(to_fen(v, &p), canonical, "{v} {fen:?}");
    }
}

#[test]
fn variant_names() {
    for v in Variant::ALL {
        assert_eq!(v.name().parse::<Variant>(), Ok(v));
        assert_eq!(v.to_string().to_uppercase().parse::<Variant>(), Ok(v));
    }
    for bad in [
        "",
        " ",
        "chess",
        "thaii",
        "inter national",
        "\u{0}",
        "english\n2",
    ] {
        assert_eq!(
            bad.parse::<Variant>(),
            Err(Error::UnknownVariant(bad.to_string()))
        );
    }
}

#[test]
fn aliases_and_the_list_in_the_error() {
    for alias in ["intl", "10x10", " INTL "] {
        assert_eq!(alias.parse::<Variant>(), Ok(Variant::International));
    }
    let msg = "chess".parse::<Variant>().unwrap_err().to_string();
    for v in Variant::ALL {
        assert!(msg.contains(v.name()), "{msg}");
    }
    assert!(
        msg.starts_with("unknown variant \"chess\" (expected one of: thai, international,"),
        "{msg}"
    );
    // Every alias names its variant, and no name or alias is taken twice.
    let mut seen = std::collections::BTreeSet::new();
    for v in Variant::ALL {
        for name in std::iter::once(v.name()).chain(v.aliases().iter().copied()) {
            assert_eq!(name.parse::<Variant>(), Ok(v), "{name}");
            assert!(seen.insert(name), "{name} taken twice");
        }
    }
}

#[test]
fn pdn_game_types_and_result_tokens() {
    // The PDN game type table (pdn.fmjd.org/gametype.html; PDN 3.0): 20
    // international (results 2-0, 0-2, 1-1), the others 1-0, 0-1, 1/2-1/2.
    // Killer, antidraughts and breakthrough have no type of their own: 20,
    // told apart by the `Variant` tag, as english and checkers are in 21.
    use rafle_core::Color::{Black, White};
    const INTL: [&str; 3] = ["2-0", "0-2", "1-1"];
    const DEFAULT: [&str; 3] = ["1-0", "0-1", "1/2-1/2"];
    let table = [
        (Variant::Thai, 31, DEFAULT),
        (Variant::International, 20, INTL),
        (Variant::English, 21, DEFAULT),
        (Variant::Checkers, 21, DEFAULT),
        (Variant::Russian, 25, DEFAULT),
        (Variant::Brazilian, 26, DEFAULT),
        (Variant::Pool, 23, DEFAULT),
        (Variant::Italian, 22, DEFAULT),
        (Variant::Spanish, 24, DEFAULT),
        (Variant::Czech, 29, DEFAULT),
        (Variant::Killer, 20, INTL),
        (Variant::Antidraughts, 20, INTL),
        (Variant::Breakthrough, 20, INTL),
        (Variant::Frisian, 40, INTL),
        (Variant::Turkish, 30, DEFAULT),
        (Variant::Canadian, 27, INTL),
    ];
    assert_eq!(
        table.map(|(v, _, _)| v),
        Variant::ALL,
        "one row per variant"
    );
    for (v, game_type, tokens) in table {
        assert_eq!(v.pdn_game_type(), game_type, "{v}");
        let got = [Some(White), Some(Black), None].map(|w| v.pdn_result(w));
        assert_eq!(got, tokens, "{v}");
    }
}

const ALPHABET: &[u8] = b"WBKwbk:,-xX0123456789 \".0123456789";

/// A random string: arbitrary bytes, or bytes from the notation alphabet.
fn random_string(rng: &mut Rng) -> String {
    let n = rng.below(40);
    let bytes: Vec<u8> = if rng.below(2) == 0 {
        (0..n).map(|_| rng.next_u64() as u8).collect()
    } else {
        (0..n)
            .map(|_| ALPHABET[rng.below(ALPHABET.len())])
            .collect()
    };
    String::from_utf8_lossy(&bytes).into_owned()
}

/// `s` with one to three random edits (delete, insert, replace, duplicate).
fn mutate(s: &str, rng: &mut Rng) -> String {
    let mut b: Vec<u8> = s.bytes().collect();
    for _ in 0..1 + rng.below(3) {
        let pick = |rng: &mut Rng| {
            if rng.below(4) == 0 {
                rng.next_u64() as u8
            } else {
                ALPHABET[rng.below(ALPHABET.len())]
            }
        };
        let i = rng.below(b.len() + 1);
        match rng.below(4) {
            0 if i < b.len() => {
                b.remove(i);
            }
            1 => b.insert(i, pick(rng)),
            2 if i < b.len() => b[i] = pick(rng),
            _ => {
                let j = i + rng.below(b.len() - i + 1);
                let part = b[i..j].to_vec();
                b.splice(i..i, part);
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// Everything a parsed FEN must satisfy, and the engine must survive it.
fn check_parsed(v: Variant, text: &str) {
    let Ok(pos) = parse_fen(v, text) else { return };
    let g = v.geometry();
    assert_eq!(pos.white & pos.black, 0, "{text:?}");
    assert_eq!(pos.occupied() & !g.valid, 0, "{text:?}");
    assert_eq!(pos.kings & !pos.occupied(), 0, "{text:?}");
    assert_eq!(pos.white & !pos.kings & g.top_row, 0, "{text:?}");
    assert_eq!(pos.black & !pos.kings & g.bottom_row, 0, "{text:?}");
    assert_eq!(parse_fen(v, &to_fen(v, &pos)), Ok(pos), "{text:?}");
    let game = Game::from_position(v, pos);
    for m in game.legal_moves() {
        assert_eq!(game.parse_move(&game.move_string(m)), Ok(*m));
    }
}

#[test]
fn parsers_never_panic_on_random_strings() {
    let mut rng = Rng::new(99);
    // Valid FENs and moves from random games, to mutate.
    let mut games: Vec<Game> = Vec::new();
    for v in Variant::ALL {
        for _ in 0..10 {
            let plies = rng.below(80);
            games.push(random_game(v, &mut rng, plies));
        }
    }
    for i in 0..20_000 * scale() {
        let g = &games[i % games.len()];
        let text = match rng.below(3) {
            0 => random_string(&mut rng),
            1 => mutate(&g.fen(), &mut rng),
            _ => {
                let legal = g.legal_moves();
                if legal.is_empty() {
                    random_string(&mut rng)
                } else {
                    let s = g.move_string(&legal[rng.below(legal.len())]);
                    mutate(&s, &mut rng)
                }
            }
        };
        for v in Variant::ALL {
            check_parsed(v, &text);
        }
        let _ = text.parse::<Variant>();
        // Moves: an Ok is always a legal move, and play_str agrees.
        if let Ok(m) = g.parse_move(&text) {
            assert!(g.legal_moves().contains(&m), "{text:?}");
        }
        let mut g2 = g.clone();
        match g2.play_str(&text) {
            Ok(_) => assert_eq!(g2.ply(), g.ply() + 1),
            Err(_) => assert_eq!(g2.fen(), g.fen()),
        }
    }
}

#[test]
fn crowded_positions_never_panic() {
    // Random FENs with many pieces (more than a game can have): the move
    // generator, FEN and notation must hold up.
    let mut rng = Rng::new(5);
    for v in Variant::ALL {
        let g = v.geometry();
        for _ in 0..3_000 * scale() {
            let mut w = Vec::new();
            let mut b = Vec::new();
            for s in 1..=g.squares {
                let r = rng.below(100);
                // Men never stand on their own crowning row.
                let king = rng.below(4) == 0;
                let tag = |crown_row: bool| if king || crown_row { "K" } else { "" };
                if r < 30 {
                    w.push(format!("{}{s}", tag(s <= g.h)));
                } else if r < 70 {
                    b.push(format!("{}{s}", tag(s > g.squares - g.h)));
                }
            }
            let side = if rng.below(2) == 0 { "W" } else { "B" };
            let fen = format!("{side}:W{}:B{}", w.join(","), b.join(","));
            check_parsed(v, &fen);
        }
    }
}
