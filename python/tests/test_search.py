"""rafle.search: one search per env of a VecEnv, the same as the Rust
search (`rafle search`) for the same network and seed."""

from __future__ import annotations

import json
import subprocess
import zlib
from pathlib import Path
from typing import Callable

import numpy as np
import pytest

import rafle
from conftest import BINARY


def hashed(actions: int, seed: int = 0) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """Like an untrained network: a fixed pseudo-random function of the observation."""

    def evaluate(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        out_l, out_v = [], []
        for o in obs:
            rng = np.random.default_rng(zlib.crc32(o.tobytes()) + seed)
            out_l.append(rng.uniform(-1, 1, actions).astype(np.float32))
            out_v.append(np.float32(rng.uniform(-0.3, 0.3)))
        return np.stack(out_l), np.array(out_v, np.float32)

    return evaluate


@pytest.mark.parametrize("algorithm", ["gumbel", "puct"])
def test_policies_cover_the_legal_actions_and_the_env_is_unchanged(algorithm: str) -> None:
    env = rafle.VecEnv("thai", num_envs=6, seed=1)
    env.reset()
    for _ in range(5):
        env.step(env.sample_legal_actions())
    before = (env.observe().copy(), env.legal_mask().copy(), [env.fen(i) for i in range(6)])
    out = rafle.search(env, hashed(896), simulations=24, algorithm=algorithm, seed=3)
    mask = env.legal_mask()
    assert out.action.shape == (6,) and out.action.dtype == np.int64
    assert out.policy.shape == (6, 896) and out.policy.dtype == np.float32
    assert out.value.shape == (6,) and out.value.dtype == np.float32
    np.testing.assert_allclose(out.policy.sum(axis=1), 1.0, atol=1e-5)
    assert (out.policy[~mask] == 0).all()
    assert mask[np.arange(6), out.action].all()
    assert ((out.value >= -1) & (out.value <= 1)).all()
    assert out.evals >= 6 and out.calls <= 24 + 1
    after = (env.observe(), env.legal_mask(), [env.fen(i) for i in range(6)])
    assert (before[0] == after[0]).all() and (before[1] == after[1]).all() and before[2] == after[2]
    again = rafle.search(env, hashed(896), simulations=24, algorithm=algorithm, seed=3)
    assert (again.action == out.action).all() and (again.policy == out.policy).all()


# One move wins at once (the king's double capture takes both white men) and
# no other wins within three plies (the same position as the Rust test).
WIN_AT_ONCE = "B:W23,22:BK19,20,18"


def test_the_search_finds_a_move_that_wins_at_once() -> None:
    env = rafle.VecEnv("thai", num_envs=2, fen=WIN_AT_ONCE)
    g = rafle.Game("thai", fen=WIN_AT_ONCE)
    wins = []
    for m in g.legal_moves():
        h = rafle.Game("thai", fen=WIN_AT_ONCE)
        h.play(m)
        if h.result() == "black":
            wins.append(m)
    assert wins == ["19x26x17"] and len(g.legal_moves()) == 3
    for algorithm in ("gumbel", "puct"):
        out = rafle.search(env, hashed(896, 5), simulations=32, algorithm=algorithm)
        # The double capture is two steps: play the chain the search chose.
        first = rafle.VecEnv("thai", num_envs=2, fen=WIN_AT_ONCE)
        _, _, done, _, _ = first.step(out.action)
        assert not done.any()
        again = rafle.search(first, hashed(896, 5), simulations=32, algorithm=algorithm)
        _, _, done, _, info = first.step(again.action)
        assert done.all() and list(info["winner"]) == [1, 1], algorithm  # Black wins both


def test_batches_hold_every_env_and_more_leaves_per_round() -> None:
    sizes: list[int] = []
    base = hashed(896)

    def counting(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        sizes.append(len(obs))
        return base(obs)

    env = rafle.VecEnv("thai", num_envs=8, seed=0)
    rafle.search(env, counting, simulations=16)
    assert sizes[0] == 8 and max(sizes) == 8
    sizes.clear()
    rafle.search(env, counting, simulations=16, leaves_per_round=4)
    assert max(sizes) > 8


def test_bad_evaluators_raise_and_errors_name_the_argument() -> None:
    env = rafle.VecEnv("thai", num_envs=2)

    def broken(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        raise RuntimeError("no GPU here")

    with pytest.raises(RuntimeError, match="no GPU here"):
        rafle.search(env, broken, simulations=4)
    with pytest.raises(ValueError, match="shape"):
        rafle.search(env, lambda o: (np.zeros((len(o), 10)), np.zeros(len(o))), simulations=4)
    with pytest.raises(ValueError, match="c_scale"):
        rafle.search(env, hashed(896), c_scale=0)
    with pytest.raises(ValueError, match="gumbel.*puct"):
        rafle.search(env, hashed(896), algorithm="alphazero")


@pytest.mark.parametrize("algorithm", ["gumbel", "puct"])
def test_python_search_equals_the_rust_search(tiny_run: Callable[[str], Path], algorithm: str) -> None:
    pytest.importorskip("torch")
    from rafle import model

    run = tiny_run("thai")
    net = model.load(run / "latest.safetensors")
    settings = {k: net.meta["config"]["search"][k] for k in ("gumbel_m", "c_visit", "c_scale", "c_puct")}
    for fen in (None, "W:W21,22,23,24,25,26,27,28:B5,6,7,8,9,10,11,12", "B:W29:B21,22,K4"):
        args = ["--model", str(run / "latest.safetensors"), "--simulations", "24",
                "--algorithm", algorithm, "--seed", "9", "--json"]
        if fen:
            args += ["--fen", fen]
        r = subprocess.run([str(BINARY), "search", *args], capture_output=True, text=True, check=True)
        want = json.loads(r.stdout)
        env = rafle.VecEnv("thai", num_envs=1, fen=fen)
        out = rafle.search(env, model.evaluator(net), 24, algorithm, seed=9, **settings)
        assert out.action[0] == want["action"], fen
        policy = {int(a): p for a, p in want["policy"].items()}
        assert set(np.flatnonzero(env.legal_mask()[0])) == set(policy)
        for a, p in policy.items():
            assert out.policy[0, a] == pytest.approx(p, abs=1e-4), (fen, a)
            assert out.visits[0, a] == want["visits"][str(a)]
        assert out.value[0] == pytest.approx(want["value"], abs=1e-4)
