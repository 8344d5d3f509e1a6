"""Stable-Baselines3: MaskablePPO finds rafle's masks with no wrapper, SB3's
own env checker passes, the env runs in SubprocVecEnv workers, and the
example trains and evaluates on a tiny budget."""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import rafle
import rafle.gym

sb3_contrib = pytest.importorskip("sb3_contrib")
from sb3_contrib.common.maskable.utils import get_action_masks  # noqa: E402
from stable_baselines3.common.env_checker import check_env  # noqa: E402
from stable_baselines3.common.env_util import make_vec_env  # noqa: E402
from stable_baselines3.common.vec_env import SubprocVecEnv  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "sb3_maskable_ppo.py"


@pytest.mark.parametrize("variant", rafle.VARIANTS)
def test_action_masks_are_the_legal_actions(variant: str) -> None:
    env = gymnasium.make(f"rafle/{variant}-v0", opponent="random")
    obs, info = env.reset(seed=1)
    for _ in range(30):
        mask = env.unwrapped.action_masks()
        assert mask.dtype == np.bool_ and mask.shape == (env.action_space.n,)
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        obs, _, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
        if terminated or truncated:
            obs, info = env.reset()
    vec = rafle.gym.VectorEnv(variant, 3, seed=2)
    _, info = vec.reset()
    masks = vec.action_masks()
    assert masks.shape == (3, vec.single_action_space.n) and masks.dtype == np.bool_
    assert np.array_equal(masks, info["action_mask"].astype(bool))


def test_sb3_check_env_passes() -> None:
    with warnings.catch_warnings():
        # SB3 reads a (C, N, N) float Box as an image and says so; MlpPolicy flattens it.
        warnings.simplefilter("ignore", UserWarning)
        check_env(rafle.gym.GameEnv("thai", opponent="random"))
        check_env(rafle.gym.GameEnv("international"))


def test_maskable_ppo_plays_only_legal_actions_with_no_wrapper() -> None:
    env = gymnasium.make("rafle/checkers-v0", opponent="random")
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, seed=0)
    model.learn(total_timesteps=128)
    obs, info = env.reset(seed=5)
    for _ in range(100):
        mask = get_action_masks(model.get_env())[0]
        assert np.array_equal(mask, env.unwrapped.action_masks())
        action, _ = model.predict(obs, action_masks=mask, deterministic=False)
        assert mask[int(action)], "MaskablePPO chose an illegal action"
        obs, _, terminated, truncated, info = env.step(int(action))
        if terminated or truncated:
            assert info["reason"] != rafle.END_REASONS.index("illegal move")
            obs, info = env.reset()


@pytest.mark.parametrize("env_id", [rafle.gym.GameEnv, "rafle.gym:rafle/thai-v0"])
def test_the_env_runs_in_subprocess_workers(env_id: object) -> None:
    kwargs = {"opponent": "greedy", "variant": "thai"} if env_id is rafle.gym.GameEnv else {"opponent": "greedy"}
    vec = make_vec_env(env_id, n_envs=2, seed=3, env_kwargs=kwargs, vec_env_cls=SubprocVecEnv)
    try:
        obs = vec.reset()
        assert obs.shape[0] == 2
        for _ in range(20):
            masks = np.stack(vec.env_method("action_masks"))
            rng = np.random.default_rng(0)
            actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
            obs, rewards, dones, infos = vec.step(actions)
            assert all(i.get("reason", -1) != rafle.END_REASONS.index("illegal move") for i in infos)
    finally:
        vec.close()


def test_the_example_trains_and_evaluates() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--steps", "256", "--num-envs", "2", "--games", "4", "--subproc"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    scores = re.findall(r"^vs (\S+): score ([0-9.]+)% \(\+(\d+) =(\d+) -(\d+)\)", done.stdout, re.M)
    assert [s[0] for s in scores] == ["random", "alphabeta:2"], done.stdout
    for _, score, wins, draws, losses in scores:
        assert int(wins) + int(draws) + int(losses) == 4
        assert float(score) == pytest.approx(100 * (int(wins) + int(draws) / 2) / 4)
