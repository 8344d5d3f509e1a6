"""Engines from Python: rafle.Player, rafle.evaluate and the gym opponent
take hub: and dxp: specs; rafle's own `rafle hub` stands in for an engine,
and crates/rafle-zero/tests/fake_hub.py for one that misbehaves."""

from __future__ import annotations

import pickle
import sys

import numpy as np
import pytest

import rafle
import rafle.gym  # noqa: F401  (registers the environments)
from conftest import BINARY, ROOT

FAKE = ROOT / "crates" / "rafle-zero" / "tests" / "fake_hub.py"


@pytest.fixture(scope="module")
def rafle_hub() -> str:
    """The command line of rafle as a Hub engine (the spec's tail)."""
    if not BINARY.is_file():
        pytest.skip(f"{BINARY} not built (cargo build --release -p rafle-zero)")
    return f"{BINARY} hub"


@pytest.mark.parametrize("variant", ["international", "russian"])
def test_a_hub_player_moves_as_the_same_player_in_process(rafle_hub: str, variant: str) -> None:
    engine = rafle.Player(f"hub:{rafle_hub} --player alphabeta:3 --seed 5 --variant {variant}", variant)
    local = rafle.Player("alphabeta:3", variant, seed=5)
    g = rafle.Game(variant)
    rng = np.random.default_rng(0)
    for ply in range(30):
        if g.is_over():
            break
        if ply % 2 == 0:
            move = engine.choose(g)
            assert move == local.choose(g), f"ply {ply}"
        else:
            legal = g.legal_moves()
            move = legal[int(rng.integers(len(legal)))]
        g.play(move)


def test_a_misbehaving_engine_loses_its_games_and_the_match_stops(rafle_hub: str) -> None:
    crash = f"hub:{sys.executable} {FAKE} crash 2 -- {rafle_hub} --player random"
    m = rafle.evaluate("random", crash, variant="international", games=4, progress=False)
    assert (m.wins, m.draws, m.losses) == (4, 0, 0)
    assert m.pdn.count('[Termination "engine failure"]') == 4
    assert "crashing on purpose" in m.pdn
    every = f"hub:{sys.executable} {FAKE} crash 0 -- {rafle_hub} --player random"
    with pytest.raises(RuntimeError, match="2 forfeits in a row"):
        rafle.evaluate("random", every, variant="international", games=10, progress=False, max_forfeits=2)
    silent = rafle.Player(
        f"hub:{sys.executable} {FAKE} silent 0 -- {rafle_hub} --player random",
        "international",
        level="move-time=0.05",
    )
    with pytest.raises(RuntimeError, match="time forfeit: no move within 1.1 s"):
        silent.choose(rafle.Game("international"))


def test_engine_options_are_checked(rafle_hub: str) -> None:
    for kwargs, match in [
        ({"level": "depth=3"}, "engine players"),
        ({"params": {"book": False}}, "engine players"),
    ]:
        with pytest.raises(ValueError, match=match):
            rafle.Player("alphabeta:2", "international", **kwargs)
    for spec, kwargs, match in [
        (f"hub:{rafle_hub}", {"level": "depth=x"}, "not a number"),
        (f"hub:{rafle_hub}", {"level": "fast"}, "key=value"),
        (f"hub:{rafle_hub}", {"timeout": -1.0}, "timeout"),
        (f"hub:{rafle_hub}", {"concurrency": 0}, "concurrency"),
        (f"hub:{rafle_hub}", {"params": {"book": False}}, 'no parameter "book"'),
        ("hub:", {}, "command line"),
        ("dxp:localhost:notaport", {}, "port"),
        ("dxp:127.0.0.1:1", {}, "cannot connect"),
        ("hub:/no/such/engine", {}, "cannot start"),
    ]:
        with pytest.raises(ValueError, match=match):
            rafle.Player(spec, "international", **kwargs)


def test_an_engine_player_pickles_with_its_options(rafle_hub: str) -> None:
    p = rafle.Player(f"hub:{rafle_hub}", "international", level="depth=2", params={"seed": 4}, concurrency=2)
    q = pickle.loads(pickle.dumps(p))
    assert (q.spec, q.level, q.params, q.concurrency) == (p.spec, "depth=2", {"seed": 4}, 2)
    g = rafle.Game("international")
    assert q.choose(g) == p.choose(g)


def test_an_engine_is_a_gym_opponent(rafle_hub: str) -> None:
    import gymnasium

    env = gymnasium.make("rafle/international-v0", opponent=f"hub:{rafle_hub} --player greedy", player=1)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(400):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    assert terminated or truncated
    env.close()
