"""rafle.Game, table-driven over the variants."""

from __future__ import annotations

import copy
import pickle
import random
import sys
from pathlib import Path

import numpy as np
import pytest

import rafle
from board_codec import BOARD, encode_step
from endgames import FINAL_MOVE, NO_MOVE_WINS, winner_of

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# The perft tables of the rule engine's tests (each with its source).
PERFT_DATA = Path(__file__).resolve().parents[2] / "crates/rafle-core/tests/data/perft.toml"
TABLES = tomllib.loads(PERFT_DATA.read_text())["table"]
# Start positions, first four depths.
PERFT = {t["variant"]: t["counts"][:4] for t in TABLES if t["name"] == "start"}
# Who moves first: the side to move of each start table.
FIRST = {t["variant"]: "white" if t["fen"][0] == "W" else "black" for t in TABLES if t["name"] == "start"}
BAD_FENS = ["", "X:W1:B2", "W:W1,1:B2", "W:W99:B2", "W:Wfoo:B2", "hello"]
MALFORMED_MOVES = ["", "abc", "12", "12-", "-12", "12--16", "0-5", "12-999", "12-16x20"]

variants = pytest.mark.parametrize("variant", rafle.VARIANTS)


def test_variants_listed() -> None:
    # Each per-variant table of the tests has exactly the package's variants.
    assert set(FIRST) == set(BOARD) == set(FINAL_MOVE) == set(rafle.VARIANTS)


@variants
def test_start_position(variant: str) -> None:
    g = rafle.Game(variant)
    assert g.variant == variant
    assert g.turn == FIRST[variant]
    assert g.ply == 0 and not g.is_over()
    assert g.result() is None and g.result_reason() is None
    moves = g.legal_moves()
    assert len(moves) == PERFT[variant][0] == len(set(moves))
    assert all("-" in m for m in moves)
    assert rafle.Game(variant, fen=g.fen()).fen() == g.fen()


@variants
def test_perft(variant: str) -> None:
    g = rafle.Game(variant)
    assert [g.perft(d) for d in range(1, 5)] == PERFT[variant]


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t['variant']} {t['name']}")
def test_perft_from_table_positions(table: dict) -> None:
    g = rafle.Game(table["variant"], fen=table["fen"])
    counts = [n for n in table["counts"] if n <= 10_000]
    assert [g.perft(d) for d in range(1, len(counts) + 1)] == counts


@variants
def test_play_undo(variant: str) -> None:
    g = rafle.Game(variant)
    start = g.fen()
    first = g.legal_moves()[0]
    g.play(first)
    assert g.turn != FIRST[variant] and g.ply == 1 and g.history() == [first]
    assert g.fen() != start
    assert g.undo() == first
    assert g.fen() == start and g.history() == []
    with pytest.raises(ValueError, match="undo"):
        g.undo()


@variants
def test_fen_and_capture(variant: str) -> None:
    fen, move = FINAL_MOVE[variant]
    g = rafle.Game(variant, fen=fen)
    assert len(g.legal_moves()) == 1
    g.play(move)
    assert g.history() == [rafle.Game(variant, fen=fen).legal_moves()[0]]
    assert g.is_over()
    assert g.result() == ("white", "black")[winner_of(fen, variant)]
    assert g.result_reason() == "no legal move"


def test_a_move_of_several_paths_is_one_move_and_every_path_steps() -> None:
    # International: the man on 33 takes 28, 18, 19 and 29 round a loop,
    # either way round, and stands on 33 again: one move, two paths.
    fen = "W:W33:B18,19,28,29"
    g = rafle.Game("international", fen=fen)
    assert len(g.legal_moves()) == 1
    assert sorted(g.legal_paths()) == ["33x22x13x24x33", "33x24x13x22x33"]
    after = set()
    for path in g.legal_paths():
        h = rafle.Game("international", fen=fen)
        h.play(path)
        assert h.is_over() and h.result() == "white"
        after.add(h.fen())
    assert len(after) == 1
    # The env opens the first step of both paths and plays either to the end.
    for path in g.legal_paths():
        env = rafle.VecEnv("international", fen=fen)
        assert env.legal_mask()[0].sum() == 2
        squares = [int(s) for s in path.split("x")]
        for frm, to in zip(squares, squares[1:]):
            _, reward, terminated, _, _ = env.step(np.array([encode_step(10, False, frm, to)]))
        assert terminated[0] and reward[0] == 1.0


def test_a_drawn_position_has_no_legal_moves() -> None:
    # Thai, one king each: drawn at once; perft still counts the move rules.
    g = rafle.Game("thai", fen="W:WK29:BK4")
    assert g.is_over() and g.result() == "draw" and g.result_reason() == "one king each"
    assert g.legal_moves() == []
    assert g.perft(1) == 6


@variants
@pytest.mark.parametrize("fen", BAD_FENS)
def test_bad_fen_raises(variant: str, fen: str) -> None:
    with pytest.raises(ValueError):
        rafle.Game(variant, fen=fen)


def test_unknown_variant() -> None:
    with pytest.raises(ValueError, match="unknown variant"):
        rafle.Game("chess")


@variants
@pytest.mark.parametrize("move", MALFORMED_MOVES)
def test_malformed_move_raises(variant: str, move: str) -> None:
    g = rafle.Game(variant)
    with pytest.raises(ValueError):
        g.play(move)
    assert g.ply == 0


@variants
def test_illegal_move_raises(variant: str) -> None:
    g = rafle.Game(variant)
    with pytest.raises(ValueError, match="illegal"):
        g.play("1-5")  # a back-rank man cannot move onto its own piece
    assert g.ply == 0


def random_game(variant: str, seed: int, max_plies: int = 400) -> rafle.Game:
    rng = random.Random(seed)
    g = rafle.Game(variant)
    while not g.is_over() and g.ply < max_plies:
        g.play(rng.choice(g.legal_moves()))
    return g


@variants
def test_random_games_end_with_a_result(variant: str) -> None:
    ended = 0
    for seed in range(6):
        g = random_game(variant, seed)
        if not g.is_over():
            continue
        ended += 1
        assert g.result() in ("white", "black", "draw")
        assert g.result_reason()
        if g.result_reason() == "no legal move":
            # The side to move lost, or won where having no move wins.
            assert (g.result() == g.turn) == (variant in NO_MOVE_WINS)
        assert g.legal_moves() == []
        with pytest.raises(ValueError, match="over"):
            g.play("1-5")
    assert ended > 0


@variants
def test_pickle_and_copy_keep_history(variant: str) -> None:
    g = random_game(variant, seed=1, max_plies=30)
    for h in (pickle.loads(pickle.dumps(g)), g.copy(), copy.copy(g), copy.deepcopy(g)):
        assert h.fen() == g.fen() and h.history() == g.history() and h.ply == g.ply
        h.undo()
        assert h.ply == g.ply - 1 and g.ply == 30  # independent of g
    again = pickle.loads(pickle.dumps(random_game(variant, seed=2)))
    assert again.is_over() == random_game(variant, seed=2).is_over()


@variants
def test_pickle_keeps_start_fen(variant: str) -> None:
    fen, move = FINAL_MOVE[variant]
    g = rafle.Game(variant, fen=fen)
    g.play(move)
    h = pickle.loads(pickle.dumps(g, protocol=0))
    assert h.fen() == g.fen() and h.result() == g.result()
    h.undo()
    assert h.fen() == rafle.Game(variant, fen=fen).fen()


@variants
def test_text_repr(variant: str) -> None:
    g = rafle.Game(variant)
    text = repr(g)
    assert g.fen() in text and variant in text
    n = BOARD[variant][0]
    assert len(text.splitlines()) >= n


@variants
def test_svg(variant: str) -> None:
    import xml.etree.ElementTree as ET

    g = rafle.Game(variant)
    g.play(g.legal_moves()[0])
    svg = g.to_svg(320)
    assert g._repr_svg_().startswith("<svg")
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg") and root.get("width") == "320"
    pieces = sum(len(side.split(",")) for side in g.fen().split(":")[1:])
    circles = [e for e in root.iter() if e.tag.endswith("circle")]
    assert len(circles) == pieces  # one circle per piece
    with pytest.raises(ValueError):
        g.to_svg(1)
