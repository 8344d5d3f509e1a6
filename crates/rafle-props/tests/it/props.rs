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
        let text = edit_lines(CONFIG, &edits, |line, e| match line.split_once('=') {
            Some((key, _)) => format!("{key}= {e}"),
            None => e.to_string(),
        });
        props::run_config(text.as_bytes())
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

proptest! {
    #![proptest_config(config(60))]

    #[test]
    fn checkpoint_meta_edited(edits in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(JSON_EDITS)), 0..4)) {
        let text = edit_lines(META, &edits, |line, e| match line.split_once(':') {
            Some((key, _)) => format!("{key}: {e},"),
            None => e.to_string(),
        });
        props::checkpoint_meta(text.as_bytes())
    }

    #[test]
    fn checkpoint_meta_any_bytes(d in bytes()) { props::checkpoint_meta(&d) }

    #[test]
    fn egtb_files_damaged(
        codes in prop::collection::vec(0u16..600, 1..64),
        first in any::<u8>(),
        sets in prop::collection::vec((0usize..96, any::<u8>()), 0..3),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut d = egtb_bytes(&codes, first);
        for (at, b) in sets {
            d[1 + at] = b;
        }
        let len = d.len();
        d.truncate(len - cut.index(len / 8 + 1));
        props::egtb_file(&d)
    }

    #[test]
    fn egtb_files_any_bytes(d in bytes()) { props::egtb_file(&d) }
}

/// `text` with each edit applied at its line: "" removes the line, anything
/// else replaces it as `change(line, edit)` says (keeping the key, in the
/// callers).
fn edit_lines(
    text: &str,
    edits: &[(prop::sample::Index, &str)],
    change: impl Fn(&str, &str) -> String,
) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    for (at, edit) in edits {
        let i = at.index(lines.len());
        match *edit {
            "" => {
                lines.remove(i);
            }
            e => lines[i] = change(&lines[i], e),
        }
    }
    lines.join("\n")
}

/// The first byte of an egtb_file input that names `v` (and asks for the
/// checksum to be made right when `seal`).
fn egtb_first(v: rafle_core::Variant, seal: bool) -> u8 {
    let i = rafle_core::Variant::ALL
        .iter()
        .position(|&w| w == v)
        .unwrap();
    (i as u8) << 1 | !seal as u8
}

/// An egtb_file input: a table of a variant's smallest king slice with
/// `codes` repeated over its indices; the lowest bit of `first` as the
/// property reads it, its variant one of the first few.
fn egtb_bytes(codes: &[u16], first: u8) -> Vec<u8> {
    use rafle_egtb::{file, index::Indexer, Material};
    let v = rafle_core::Variant::ALL[(first >> 1) as usize % 4];
    let m: Material = "0m1k-0m1k".parse().unwrap();
    let size = Indexer::new(v).slice(m).unwrap().size as usize;
    let all: Vec<u16> = codes.iter().copied().cycle().take(size).collect();
    let mut d = vec![egtb_first(v, first & 1 == 0)];
    d.extend(file::encode(v, m, &all).1);
    d
}

#[test]
fn a_table_written_reads_back_and_damage_is_refused() {
    // Without this, the properties above could pass by refusing every file.
    let d = egtb_bytes(&[0, 2, 5, 300], 0);
    props::egtb_file(&d);
    let v = rafle_core::Variant::ALL[0];
    let m = "0m1k-0m1k".parse().unwrap();
    let name = std::path::Path::new("t.egtb");
    let table = rafle_egtb::file::decode(name, d[1..].to_vec(), v, m).unwrap();
    let codes = table.codes();
    assert_eq!(&codes[..5], &[0, 2, 5, 300, 0]);
    assert_eq!(d.len(), 1 + 96 + 2 * codes.len()); // 300 takes two bytes
    let mut bad = d[1..].to_vec();
    bad[100] ^= 1;
    assert!(rafle_egtb::file::decode(name, bad, v, m)
        .unwrap_err()
        .contains("checksum"));
    let meta = rafle_train::checkpoint::Metadata::parse(META, "m").unwrap();
    assert_eq!(meta.variant, "english");
    props::checkpoint_meta(META.as_bytes());
}

/// Checkpoint metadata of the repository's own (a shipped model's).
const META: &str = include_str!("../../../../python/rafle/zoo/english.json");
/// JSON values put in place of a metadata line's (or the line: "" deletes it).
const JSON_EDITS: &[&str] = &[
    "",
    "0",
    "-1",
    "1e300",
    "1e400",
    "null",
    "\"x\"",
    "[",
    "{",
    "}",
    "true",
    "18446744073709551616",
    "4294967296",
    "\"thai\"",
    "\"international\"",
    "0.5",
    "\"\"",
    "{}",
    "[]",
];

/// A run configuration of the repository's own.
const CONFIG: &str = include_str!("../../../../configs/english.toml");
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
