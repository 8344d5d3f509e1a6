//! Perft from start and reference positions against published numbers.
//! Shallow depths run by default; set RAFLE_DEEP_PERFT=1 for the full tables.

use rafle_core::{perft::perft_variant, Game, Position, Variant};

/// (variant, FEN or None for the start position, leaf counts for depth 1.., source)
const TABLES: &[(Variant, Option<&str>, &[u64], &str)] = &[
    (
        Variant::Checkers,
        None,
        &[
            7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128,
        ],
        "Aart Bik, OEIS A133046",
    ),
    (
        Variant::International,
        None,
        &[
            9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423, 258895763,
        ],
        "international draughts perft, duplicates removed (dctl)",
    ),
    (
        Variant::Thai,
        None,
        &[7, 49, 392, 3136, 26592, 218695, 1820189, 14533014],
        "Thai draughts perft published with dctl",
    ),
    (
        Variant::English,
        None,
        &[7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860875],
        "independent implementation of RULES.md; equals Italian draughts perft",
    ),
    (
        Variant::International,
        Some("B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"),
        &[14, 55, 1168, 5432, 87195, 629010, 9041010],
        "laatste.info 'Random178', kept in dctl",
    ),
    (
        Variant::International,
        Some("W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"),
        &[6, 12, 30, 73, 215, 590, 1944, 6269, 22369, 88050],
        "laatste.info 'Woldouby', kept in dctl",
    ),
];

/// Leaf budget of the default run; deeper entries need RAFLE_DEEP_PERFT=1.
const DEFAULT_MAX_LEAVES: u64 = 2_000_000;

#[test]
fn perft_matches_published_numbers() {
    let deep = std::env::var("RAFLE_DEEP_PERFT").is_ok_and(|v| v == "1");
    for (variant, fen, counts, source) in TABLES {
        let pos = match fen {
            Some(f) => rafle_core::parse_fen(*variant, f).unwrap(),
            None => Position::start(*variant),
        };
        for (i, &expect) in counts.iter().enumerate() {
            if !deep && expect > DEFAULT_MAX_LEAVES {
                break;
            }
            let depth = i as u32 + 1;
            let got = perft_variant(*variant, &pos, depth);
            assert_eq!(got, expect, "{variant} {fen:?} depth {depth} ({source})");
        }
    }
}

#[test]
fn game_perft_uses_the_same_engine() {
    let g = Game::new(Variant::Checkers);
    assert_eq!(g.perft(3), 302);
}
