"""Gymnasium adapter: :class:`VectorEnv`, a ``gymnasium.vector.VectorEnv`` over
:class:`rafle.VecEnv`.

Every sub-environment is one game played by both sides; observations are in
the frame of the player to act, and the reward goes to the player who made the
step (so one policy can play both sides). Episodes reset in the same step
that ends them (``AutoresetMode.SAME_STEP``): the returned observation is
the new episode's first one, and ``info["final_obs"]`` (object array, with
mask ``info["_final_obs"]``) holds the last observation of each finished
episode. ``info["action_mask"]`` is the (num_envs, num_actions) legal mask of
the returned observations; ``info["to_play"]`` says who acts next (0 white,
1 black).

Needs ``gymnasium`` (imported when this module is imported).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.utils import seeding
from gymnasium.vector.utils import batch_space

from rafle._rafle import VecEnv as _VecEnv


class VectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of ``variant`` as a Gymnasium vector environment."""

    metadata: dict[str, Any] = {
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        variant: str = "thai",
        num_envs: int = 1,
        seed: int = 0,
        *,
        max_plies: int | None = None,
        illegal: str = "error",
        fen: str | None = None,
    ) -> None:
        self.env = _VecEnv(
            variant, num_envs, seed, max_plies=max_plies, illegal=illegal, fen=fen
        )
        self.num_envs = num_envs
        self.render_mode = None
        c, n, _ = self.env.observation_shape
        self.single_observation_space = spaces.Box(
            0.0, 1.0, shape=(c, n, n), dtype=np.float32
        )
        self.single_action_space = spaces.Discrete(self.env.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def reset(
        self,
        *,
        seed: int | list[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Resets every game; an int ``seed`` reseeds the built-in sampler."""
        if isinstance(seed, list):
            seed = seed[0]
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        obs = self.env.reset(seed)
        info = {"action_mask": self.env.legal_mask(), "to_play": self.env.to_play()}
        return obs, info

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        obs, reward, terminated, truncated, raw = self.env.step(actions)
        info: dict[str, Any] = {
            "action_mask": self.env.legal_mask(),
            "to_play": raw["to_play"],
        }
        done = raw["done_envs"]
        if len(done):
            has = np.zeros(self.num_envs, dtype=bool)
            has[done] = True
            final_obs = np.full(self.num_envs, None, dtype=object)
            for j, i in enumerate(done):
                final_obs[i] = raw["final_obs"][j]
            winner = np.full(self.num_envs, -1, dtype=np.int8)
            winner[done] = raw["winner"]
            length = np.zeros(self.num_envs, dtype=np.int64)
            length[done] = raw["episode_length"]
            info["final_obs"], info["_final_obs"] = final_obs, has
            info["final_info"] = {
                "winner": winner,
                "_winner": has.copy(),
                "episode_length": length,
                "_episode_length": has.copy(),
            }
            info["_final_info"] = has.copy()
        return obs, reward, terminated, truncated, info

    def sample_legal_actions(self) -> np.ndarray:
        """One uniformly drawn legal action per game, (num_envs,) int64."""
        return self.env.sample_legal_actions()
