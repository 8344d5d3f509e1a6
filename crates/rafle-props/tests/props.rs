//! The properties of rafle-props on proptest's random inputs: text near
//! each reader's syntax (so that much of it reads) and any bytes (so that
//! none of it panics). Case counts keep the whole file to a few seconds;
//! `PROPTEST_CASES=N` runs N cases of each instead.

use proptest::prelude::*;
use rafle_props as props;

/// `cases`, unless PROPTEST_CASES says otherwise.
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A variant byte, then `text`.
fn with_variant(text: impl Strategy<Value = String>) -> impl Strategy<Value = Vec<u8>> {
    (any::<u8>(), text).prop_map(|(v, t)| {
        let mut d = vec![v];
        d.extend_from_slice(t.as_bytes());
        d
    })
}

/// Pieces of a valid input glued in any order and number.
fn pieces(parts: &'static [&'static str], sep: &'static str) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(parts), 0..24).prop_map(move |v| v.join(sep))
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..300)
}

const FEN: &[&str] = &[
    "W", "B", ":", "W", "B", "K", "1", "2", "5", "9", "10", "18", "31", "32", "50", "-", ",", ".",
    "a1", "h8", "c3", "K12", "1-20", "31-50", "H0", "F0", "\"", " ",
];
const MOVE: &[&str] = &[
    "1", "5", "9", "13", "22", "32", "28", "-", "x", ":", "a3", "b4", " ", "0",
];
const PDN: &[&str] = &[
    "[Event \"x\"]\n",
    "[Variant \"english\"]\n",
    "[GameType \"20\"]\n",
    "[GameType \"21,W,8,8,N2,0\"]\n",
    "[FEN \"W:W21-32:B1-12\"]\n",
    "[Result \"2-0\"]\n",
    "1.",
    "2.",
    "9-14",
    "22-17",
    "11-15",
    "32-28",
    "19-23",
    "17x10",
    "6x15",
    "{comment}",
    "(9-13)",
    "1-0",
    "2-0",
    "*",
    "\n\n",
    "[",
    "\"",
];
const HUB: &[&str] = &[
    "hub",
    "init",
    "pos",
    "level",
    "go",
    "think",
    "ponder",
    "stop",
    "ping",
    "quit",
    "set-param",
    "name=player",
    "name=variant",
    "value=english",
    "value=random",
    "pos=Wbbbbeeww",
    "moves=\"32-28\"",
    "moves=\"\"",
    "time=1",
    "moves=10",
    "move-time=0.01",
    "depth=2",
    "infinite",
    "=",
    "\"",
    "a=\"b c\"",
    "\t",
];
const DXP: &[&str] = &[
    "R01",
    "A",
    "M",
    "E",
    "C",
    "B",
    "K",
    "0",
    "1",
    "2",
    "3",
    "00",
    "32",
    "28",
    "W",
    "Z",
    "rafle",
    "          ",
    "A",
    "B",
    "e",
    "w",
    "z",
    "\u{e9}",
];
const SPEC: &[&str] = &[
    "random",
    "greedy",
    "alphabeta",
    "uct",
    "egtb",
    "model",
    "zoo",
    "hub",
    "dxp",
    ":",
    "=",
    ",",
    "d",
    "t",
    "n",
    "4",
    "0",
    "0.5s",
    "1s",
    "-1",
    "99999999999999999999",
    "english",
    "x",
    "ms",
    "1e9",
    "nan",
    "inf",
    "time",
    "moves",
    "inc",
];

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn fen_near_the_syntax(d in with_variant(pieces(FEN, ""))) { props::fen(&d) }

    #[test]
    fn fen_any_bytes(d in bytes()) { props::fen(&d) }

    #[test]
    fn moves_near_the_syntax(
        v in any::<u8>(),
        plies in prop::collection::vec(any::<u8>(), 0..40),
        text in pieces(MOVE, ""),
    ) {
        let mut d = vec![v, plies.len() as u8];
        d.extend_from_slice(&plies);
        d.extend_from_slice(text.as_bytes());
        props::moves(&d)
    }

    #[test]
    fn hub_lines_near_the_syntax(t in pieces(HUB, " ")) { props::hub_line(t.as_bytes()) }

    #[test]
    fn hub_lines_any_bytes(d in bytes()) { props::hub_line(&d) }

    #[test]
    fn dxp_messages_near_the_syntax(d in with_variant(pieces(DXP, ""))) { props::dxp_message(&d) }

    #[test]
    fn dxp_messages_any_bytes(d in bytes()) { props::dxp_message(&d) }

    #[test]
    fn player_specs_near_the_syntax(d in with_variant(pieces(SPEC, ""))) { props::player_spec(&d) }
}

proptest! {
    #![proptest_config(config(60))]

    #[test]
    fn pdn_near_the_syntax(d in with_variant(pieces(PDN, " "))) { props::pdn(&d) }

    #[test]
    fn hub_engine_sessions(lines in prop::collection::vec(pieces(HUB, " "), 0..12)) {
        let mut input = b"hub\ninit\n".to_vec();
        for l in lines {
            input.extend_from_slice(l.as_bytes());
            input.push(b'\n');
        }
        props::hub_engine(&input)
    }

    #[test]
    fn dxp_follower_sessions(messages in prop::collection::vec(pieces(DXP, ""), 0..6)) {
        props::dxp_follower(messages.join("\0").as_bytes())
    }

    #[test]
    fn run_configs_edited(edits in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(EDITS)), 0..4)) {
        let mut lines: Vec<String> = CONFIG.lines().map(String::from).collect();
        for (at, edit) in edits {
            let i = at.index(lines.len());
            match edit {
                "" => { lines.remove(i); }
                e => {
                    // Keep the key, change the value (or the whole line).
                    let key = lines[i].split('=').next().unwrap_or("").to_string();
                    lines[i] = if lines[i].contains('=') { format!("{key}= {e}") } else { e.to_string() };
                }
            }
        }
        props::run_config(lines.join("\n").as_bytes())
    }

    #[test]
    fn replay_files_damaged(cut in any::<prop::sample::Index>(), flips in prop::collection::vec((any::<prop::sample::Index>(), 0u8..8), 0..3)) {
        let mut d = replay_bytes();
        for (at, bit) in flips {
            let i = at.index(d.len());
            d[i] ^= 1 << bit;
        }
        d.truncate(d.len() - cut.index(d.len() / 8 + 1).min(d.len()));
        props::replay_file(&d)
    }
}

/// A run configuration of the repository's own.
const CONFIG: &str = include_str!("../../../configs/english.toml");
/// Values put in place of a config line's (or the line: "" deletes it).
const EDITS: &[&str] = &[
    "",
    "0",
    "-1",
    "1e300",
    "nan",
    "\"x\"",
    "[",
    "true",
    "[run]",
    "[net]",
    "[[x]]",
    "18446744073709551616",
    "\"gumbel\"",
    "\"puct\"",
    "0.5",
    "inf",
    "\"\"",
    "{}",
];

/// A small replay file.
fn replay_bytes() -> Vec<u8> {
    use rafle_train::replay::Replay;
    use rafle_train::sample::Sample;
    let mut r = Replay::new(8);
    for i in 0..3u8 {
        r.push(Sample {
            obs: vec![i; 5],
            policy: vec![(i as u16, 0.5), (7, 0.5)],
            wdl: i % 3,
            q: 0.25,
            version: 0,
        });
    }
    r.to_bytes().unwrap()
}
