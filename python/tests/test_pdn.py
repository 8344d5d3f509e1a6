"""PDN games in: rafle.read_pdn replays the arena's own PDN for every
variant, picks the variant by tag, skips bad games with one warning each
and keeps the rest; pdn_samples turns games into training arrays; the
pretraining example runs."""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import rafle

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "pretrain_from_pdn.py"


@pytest.mark.parametrize("variant", rafle.VARIANTS)
def test_the_arena_pdn_round_trips(variant: str, tmp_path: Path) -> None:
    m = rafle.evaluate("greedy", "random", variant=variant, games=4, max_plies=120, progress=False, seed=3)
    path = tmp_path / "m.pdn"
    path.write_text(m.pdn)
    for source in [path, str(path), m.pdn]:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            games = rafle.read_pdn(source)
        assert len(games) == 4
        for g in games:
            assert g.variant == variant
            assert g.tags["Variant"] == variant and g.result == g.tags["Result"]
            replayed = g.game()
            assert len(g) == len(g.moves) == replayed.ply
            # Replaying the written moves gives the same game.
            fresh = rafle.Game(variant)
            for mv in g.moves:
                fresh.play(mv)
            assert fresh.fen() == replayed.fen()
            assert g.winner in ("white", "black", "draw")


def test_the_game_type_picks_the_variant_and_bad_games_are_skipped_with_a_warning() -> None:
    good = '[GameType "20"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n\n'
    text = (
        good
        + '[GameType "21"]\n\n1. 11-15 23-19 0-2\n\n'  # standard checkers
        + '[GameType "77"]\n\n1. 32-28 *\n\n'  # no such type
        + '[GameType "20"]\n[White "a"]\n[Black "b"]\n\n1. 32-28 19-23 2. 37-32 2-0\n\n'  # 2. must take
        + good
        + '[GameType "20"]\n\n1. 32-28 19-'  # cut off
    )
    with pytest.warns(UserWarning) as record:
        games = rafle.read_pdn(text)
    assert [g.variant for g in games] == ["international", "checkers", "international"]
    messages = [str(w.message) for w in record]
    assert len(messages) == 3, messages
    assert any("GameType 77" in m for m in messages)
    assert any("game 4 (a - b): move 2 (37-32): illegal move" in m for m in messages)
    assert any("game 6: no result token after 2 moves" in m for m in messages)
    assert all(m.startswith("rafle.read_pdn skipped game ") for m in messages)
    # A variant for games without tags.
    plain = "1. 11-15 23-19 1-0\n"
    assert rafle.read_pdn(plain, variant="english")[0].variant == "english"
    with pytest.warns(UserWarning, match="no Variant or GameType tag"):
        assert rafle.read_pdn(plain) == []
    with pytest.raises(ValueError, match="unknown variant"):
        rafle.read_pdn(plain, variant="chess")
    with pytest.raises(FileNotFoundError):
        rafle.read_pdn("no/such/games.pdn")


def test_pdn_samples_target_the_played_steps_and_the_result() -> None:
    m = rafle.evaluate("alphabeta:2", "greedy", variant="russian", games=4, max_plies=80, progress=False)
    games = rafle.read_pdn(m.pdn)
    data = rafle.pdn_samples(games)
    env = rafle.VecEnv("russian", 1)
    p = len(data["obs"])
    assert data["obs"].shape == (p, *env.observation_shape)
    assert data["policy"].shape == data["mask"].shape == (p, env.num_actions)
    # One-hot on a legal action, per row.
    assert np.all(data["policy"].sum(axis=1) == 1.0)
    assert np.all(data["mask"][np.arange(p), data["policy"].argmax(axis=1)])
    assert set(np.unique(data["result"])) <= {0, 1, 2}
    assert np.array_equal(data["value"].argmax(axis=1), data["result"])
    # At least one row per ply of every game.
    assert p >= sum(len(g) for g in games)
    with pytest.raises(ValueError, match="at least one game"):
        rafle.pdn_samples([])
    other = rafle.read_pdn(rafle.evaluate("random", "random", variant="thai", games=2, progress=False).pdn)
    with pytest.raises(ValueError, match="several variants"):
        rafle.pdn_samples(games + other)


def test_the_pretraining_example_runs() -> None:
    pytest.importorskip("torch")
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--games", "10", "--epochs", "1", "--eval-games", "4"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    m = re.search(r"pretrained policy vs random: score ([0-9.]+)% \(\+(\d+) =(\d+) -(\d+)\)", done.stdout)
    assert m, done.stdout
    assert int(m.group(2)) + int(m.group(3)) + int(m.group(4)) == 4
