"""rafle.Tablebase and the tables in evaluate and SelfPlay, in every variant.

The tables are built once per session with ``rafle egtb build --pieces 3``
(small on every board); what a probe says is checked against the moves'
values and the positions they lead to, and against ``rafle egtb probe``."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path
from typing import Callable

import numpy as np
import pytest

import rafle
from board_codec import BOARD, fen_of_planes
from conftest import BINARY
from endgames import FINAL_MOVE, winner_of

OTHER = {"win": "loss", "loss": "win", "draw": "draw"}


@pytest.fixture(scope="session")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """tables(variant) -> a folder of that variant's tables up to 3 pieces."""
    made: dict[str, Path] = {}

    def get(variant: str) -> Path:
        if variant not in made:
            if not BINARY.is_file():
                pytest.skip(f"{BINARY} not built (cargo build --release -p rafle-zero)")
            d = tmp_path_factory.mktemp(f"egtb-{variant}")
            cmd = [str(BINARY), "egtb", "build", "--variant", variant, "--pieces", "3", "--dir", str(d), "--quiet"]
            subprocess.run(cmd, check=True, capture_output=True)
            made[variant] = d
        return made[variant]

    return get


def kings(fen: str) -> str:
    """The FEN with its first white piece made a king."""
    return fen.replace(":W", ":WK", 1)


def after(game: rafle.Game, move: str) -> str:
    """The FEN after a move (moves are written numerically or algebraically)."""
    child = game.copy()
    child.play(move)
    return child.fen()


def check_position(tb: rafle.Tablebase, game: rafle.Game) -> tuple[str, int]:
    """The probe agrees with the moves' values, the best moves and the
    positions the moves lead to; returns the probe."""
    kind, plies = tb.probe(game)
    values = tb.move_values(game)
    assert sorted(m for m, _, _ in values) == sorted(game.legal_moves())
    assert values and (values[0][1], values[0][2]) == (kind, plies)
    assert tb.best_moves(game) == [m for m, k, p in values if (k, p) == (kind, plies)]
    for move, k, p in values:
        child = game.copy()
        child.play(move)
        if child.is_over():
            assert p == 1 and k != "draw"
        else:
            assert tb.covers(child)
            assert tb.probe(child) == (OTHER[k], max(p - 1, 0))
    return kind, plies


@pytest.mark.parametrize("variant", rafle.VARIANTS)
def test_probe_agrees_with_the_moves_in_every_variant(variant: str, tables: Callable[[str], Path]) -> None:
    tb = rafle.Tablebase(variant, tables(variant))
    assert (tb.variant, tb.max_pieces, Path(tb.dir)) == (variant, 3, tables(variant))
    fen, final = FINAL_MOVE[variant]
    game = rafle.Game(variant, fen)
    assert tb.covers(game)
    mover_wins = winner_of(fen, variant) == (0 if fen.startswith("W") else 1)
    assert check_position(tb, game) == ("win" if mover_wins else "loss", 1)
    assert after(game, final) in {after(game, m) for m in tb.best_moves(game)}
    # A walk through king endings, every position checked on the way.
    rng = random.Random(variant)
    game = rafle.Game(variant, kings(fen))
    for _ in range(12):
        if game.is_over():
            break
        check_position(tb, game)
        game.play(rng.choice(game.legal_moves()))


def test_python_and_the_command_line_agree(tables: Callable[[str], Path]) -> None:
    for variant in rafle.VARIANTS[:2]:
        fen = kings(FINAL_MOVE[variant][0])
        game = rafle.Game(variant, fen)
        tb = rafle.Tablebase(variant, tables(variant))
        cmd = [str(BINARY), "egtb", "probe", "--variant", variant, "--fen", fen, "--dir", str(tables(variant))]
        lines = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.splitlines()
        kind, plies = tb.probe(game)
        assert lines[0] == (kind if kind == "draw" else f"{kind} {plies}")
        moves = [f"{m} {k}" if k == "draw" else f"{m} {k} {p}" for m, k, p in tb.move_values(game)]
        assert lines[1:] == moves


def test_bad_tables_and_positions_are_value_errors(tmp_path: Path, tables: Callable[[str], Path]) -> None:
    first, second = rafle.VARIANTS[:2]
    with pytest.raises(ValueError, match=str(tmp_path / "none")):
        rafle.Tablebase(first, tmp_path / "none")
    with pytest.raises(ValueError):
        rafle.Tablebase(second, tables(first))  # another variant's tables
    with pytest.raises(ValueError, match="variant"):
        rafle.Tablebase("nonsense", tables(first))
    tb = rafle.Tablebase(first, tables(first))
    start = rafle.Game(first)
    assert not tb.covers(start)
    for call in (tb.probe, tb.best_moves, tb.move_values):
        with pytest.raises(ValueError):
            call(start)  # outside the tables
        with pytest.raises(ValueError, match=second):
            call(rafle.Game(second, FINAL_MOVE[second][0]))
    with pytest.raises(ValueError):
        rafle.evaluate("random", "random", variant=second, games=2, egtb=tb, progress=False)
    with pytest.raises(ValueError):
        rafle.SelfPlay(second, uniform(second), num_games=2, simulations=2, egtb=tables(first))


def test_the_arena_adjudicates_by_the_tables(tables: Callable[[str], Path]) -> None:
    variant = rafle.VARIANTS[0]
    tb = rafle.Tablebase(variant, tables(variant))
    kw = dict(variant=variant, games=8, seed=5, progress=False)
    judged = rafle.evaluate("random", "random", egtb=tb, adjudicate=True, **kw)
    games = rafle.read_pdn(judged.pdn, variant)
    ended = [g for g in games if g.tags["Termination"] == "tablebase"]
    assert ended and f"tablebase {len(ended)}" in judged.table
    for g in ended:
        # The first position the tables cover, with the result they give.
        game = g.game()
        assert tb.covers(game) and not game.is_over()
        kind, _ = tb.probe(game)
        mover = game.turn
        expected = {"draw": "draw", "win": mover, "loss": {"white": "black", "black": "white"}[mover]}[kind]
        assert (g.winner or "draw") == expected
        game.undo()
        assert not tb.covers(game)
    played = rafle.evaluate("egtb", "random", egtb=tables(variant), **kw)
    assert "tablebase" not in played.table and played.wins > played.losses


def uniform(variant: str) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """A network that knows nothing: equal logits, value 0."""
    actions = rafle.VecEnv(variant, 1).num_actions
    return lambda obs: (np.zeros((len(obs), actions), np.float32), np.zeros(len(obs), np.float32))


def test_self_play_ends_at_the_tables_or_takes_their_values(tables: Callable[[str], Path]) -> None:
    variant = rafle.VARIANTS[0]
    tb = rafle.Tablebase(variant, tables(variant))
    kw = dict(num_games=8, simulations=4, seed=3)
    ended = rafle.SelfPlay(variant, uniform(variant), egtb=tb, **kw)
    ended.play(1000)
    assert ended.stats["table_ends"] > 0
    on = rafle.SelfPlay(variant, uniform(variant), egtb=tables(variant), egtb_play_on=True, **kw)
    data = on.play(1000)
    assert on.stats["table_ends"] == 0
    # Positions inside the tables carry the tables' value as their target.
    n, layout = BOARD[variant]
    inside = [i for i, o in enumerate(data["obs"]) if o[:4].sum() <= 3]
    assert inside
    for i in inside:
        kind, _ = tb.probe(rafle.Game(variant, fen_of_planes(n, layout, data["obs"][i])))
        assert data["result"][i] == ["win", "draw", "loss"].index(kind)
