"""A negative count or size is a ValueError naming the argument, in every
Python entry point (pyo3 alone would raise OverflowError naming nothing)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import rafle
import rafle.gym
import rafle.pettingzoo


def _evaluator(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.zeros(mask.shape, np.float32), np.zeros(len(obs), np.float32)


CASES: list[tuple[str, Callable[[], Any]]] = [
    ("num_envs", lambda: rafle.VecEnv("thai", -1)),
    ("max_plies", lambda: rafle.VecEnv("thai", 1, max_plies=-5)),
    ("games", lambda: rafle.evaluate("random", "random", variant="thai", games=-2)),
    ("opening_plies", lambda: rafle.evaluate("random", "random", variant="thai", opening_plies=-1)),
    ("max_plies", lambda: rafle.evaluate("random", "random", variant="thai", max_plies=-1)),
    ("threads", lambda: rafle.evaluate("random", "random", variant="thai", threads=-1)),
    ("max_forfeits", lambda: rafle.evaluate("random", "random", variant="thai", max_forfeits=-1)),
    ("simulations", lambda: rafle.NetworkAgent(_evaluator, -3)),
    ("simulations", lambda: rafle.NetworkAgent(_evaluator, search={"simulations": -3})),
    ("simulations", lambda: rafle.search(rafle.VecEnv("thai", 1), _evaluator, -1)),
    ("num_games", lambda: rafle.SelfPlay("thai", _evaluator, num_games=-1)),
    ("simulations", lambda: rafle.SelfPlay("thai", _evaluator, simulations=-1)),
    ("max_plies", lambda: rafle.SelfPlay("thai", _evaluator, max_plies=-1)),
    ("opening_plies", lambda: rafle.SelfPlay("thai", _evaluator, opening_plies=-1)),
    ("positions", lambda: rafle.SelfPlay("thai", _evaluator, num_games=2).play(-10)),
    ("concurrency", lambda: rafle.Player("hub:/bin/true", "thai", concurrency=-1)),
    ("max_plies", lambda: rafle.gym.GameEnv("thai", max_plies=-1)),
    ("max_plies", lambda: rafle.gym.VectorEnv("thai", 2, max_plies=-1)),
    ("num_envs", lambda: rafle.gym.VectorEnv("thai", -2)),
    ("max_plies", lambda: rafle.pettingzoo.env("thai", max_plies=-1)),
]


@pytest.mark.parametrize("name,call", CASES, ids=[f"{i}-{n}" for i, (n, _) in enumerate(CASES)])
def test_a_negative_count_is_a_value_error_naming_it(name: str, call: Callable[[], Any]) -> None:
    with pytest.raises(ValueError, match=f"{name} must not be negative"):
        call()


def test_python_side_counts(tmp_path: Any) -> None:
    from rafle import learner

    with pytest.raises(ValueError, match="window must be at least 1"):
        learner.Replay(-1)
    with pytest.raises(ValueError, match="window must not be negative"):
        rafle._rafle.load_replay(tmp_path / "replay.safetensors", "thai", -1)
    pytest.importorskip("ray")
    from rafle import distributed

    for key in ["iterations", "minutes", "final_games"]:
        with pytest.raises(ValueError, match=f"{key} must not be negative"):
            distributed.run(**{key: -1})
