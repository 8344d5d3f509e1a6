"""rafle.gym.VectorEnv against Gymnasium's vector API."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.vector import AutoresetMode  # noqa: E402
from gymnasium.wrappers.vector import RecordEpisodeStatistics  # noqa: E402

import rafle  # noqa: E402
from rafle.gym import VectorEnv  # noqa: E402


@pytest.mark.parametrize("variant", rafle.VARIANTS)
def test_spaces_and_step(variant: str) -> None:
    env = VectorEnv(variant, num_envs=4, seed=0, max_plies=20)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    raw = rafle.VecEnv(variant)
    assert env.single_observation_space.shape == raw.observation_shape
    assert env.single_observation_space.dtype == np.float32
    assert env.single_action_space == gymnasium.spaces.Discrete(raw.num_actions)
    assert env.observation_space.shape == (4, *raw.observation_shape)
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    assert info["action_mask"].shape == (4, raw.num_actions)
    finals = 0
    for _ in range(60):
        actions = env.sample_legal_actions()
        assert info["action_mask"][np.arange(4), actions].all()
        assert env.action_space.contains(actions)
        obs, reward, terminated, truncated, info = env.step(actions)
        assert env.observation_space.contains(obs)
        done = terminated | truncated
        if done.any():
            finals += 1
            assert (info["_final_obs"] == done).all()
            for i in np.flatnonzero(done):
                assert env.single_observation_space.contains(info["final_obs"][i])
            assert all(info["final_obs"][i] is None for i in np.flatnonzero(~done))
        else:
            assert "final_obs" not in info
    assert finals > 0
    env.close()


def test_works_with_gymnasium_wrappers() -> None:
    env = RecordEpisodeStatistics(VectorEnv("checkers", num_envs=8, seed=0, max_plies=30))
    env.reset(seed=0)
    episodes = 0
    for _ in range(100):
        _, _, _, _, info = env.step(env.unwrapped.sample_legal_actions())
        if "episode" in info:
            episodes += int(info["_episode"].sum())
            assert (info["episode"]["l"][info["_episode"]] > 0).all()
    assert episodes > 0


def test_same_seed_same_trajectory() -> None:
    def run() -> np.ndarray:
        env = VectorEnv("thai", num_envs=3, seed=5)
        env.reset(seed=2)
        out = []
        for _ in range(20):
            obs, *_ = env.step(env.sample_legal_actions())
            out.append(obs)
        return np.stack(out)

    assert (run() == run()).all()
