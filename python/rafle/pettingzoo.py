"""PettingZoo adapter: an AEC environment for one game of a variant.

    from rafle.pettingzoo import env
    e = env(variant="thai")
    e.reset(seed=0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else policy(obs["observation"], obs["action_mask"])
        e.step(action)

Agents: ``"player_0"`` plays White, ``"player_1"`` Black (in thai, english and
checkers Black moves first). A multi-capture is a chain of actions by the same
agent, so ``agent_selection`` may stay on one agent for several steps.
Observations are dicts: ``"observation"`` float32 (C, N, N) in that agent's
frame (rafle's planes, see ``rafle.VecEnv``) and ``"action_mask"`` int8 (A,),
all zeros for the agent that is not to act. At the end the winner gets +1 and
the loser -1 (0 each for a draw or truncation).

Needs ``pettingzoo`` and ``gymnasium`` (imported with this module).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from rafle._rafle import Game, VecEnv

AGENTS = ("player_0", "player_1")  # index = colour: 0 white, 1 black


def _other_frame(obs: np.ndarray) -> np.ndarray:
    """The same state seen by the other player: board turned half a turn,
    own and opponent planes (0-1 and 2-3) swapped."""
    flipped = obs[:, ::-1, ::-1]
    order = [2, 3, 0, 1] + list(range(4, obs.shape[0]))
    return np.ascontiguousarray(flipped[order])


def _fen_of(obs: np.ndarray, colour: int) -> str:
    """FEN of the board an observation shows (planes 0-3), seen by ``colour``
    (0 white, 1 black), who is to move in it."""
    n = obs.shape[1]
    squares = n * n // 2
    pieces: dict[str, list[str]] = {"W": [], "B": []}
    for plane, (mine, king) in enumerate([(True, False), (True, True), (False, False), (False, True)]):
        for row, col in zip(*np.nonzero(obs[plane])):
            s = int(row) * (n // 2) + int(col) // 2 + 1
            square = squares + 1 - s if colour == 1 else s
            side = "W" if (colour == 0) == mine else "B"
            pieces[side].append(("K" if king else "") + str(square))
    return f"{'WB'[colour]}:W{','.join(pieces['W'])}:B{','.join(pieces['B'])}"


class RafleAECEnv(AECEnv):
    """One game of ``variant`` as a two-agent AEC environment."""

    metadata: dict[str, Any] = {
        "name": "rafle_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str = "thai",
        *,
        max_plies: int | None = None,
        illegal: str = "error",
        fen: str | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.variant = variant
        self.render_mode = render_mode
        self._env = VecEnv(variant, 1, 0, max_plies=max_plies, illegal=illegal, fen=fen)
        c, n, _ = self._env.observation_shape
        na = self._env.num_actions
        self.possible_agents = list(AGENTS)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape=(c, n, n), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(na,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(na) for a in self.possible_agents}
        self._no_mask = np.zeros(na, dtype=np.int8)
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _load_state(self, obs: np.ndarray) -> None:
        """Current observation and mask, owned by the player to act."""
        self._obs = obs
        self._owner = AGENTS[int(self._env.to_play()[0])]
        self._mask = self._env.legal_mask()[0].astype(np.int8)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._load_state(self._env.reset(seed)[0])
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._owner
        self._skip_agent_selection = None

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if agent == self._owner:
            return {"observation": self._obs, "action_mask": self._mask}
        return {"observation": _other_frame(self._obs), "action_mask": self._no_mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        obs, reward, terminated, truncated, info = self._env.step(
            np.array([action], dtype=np.int64)
        )
        if terminated[0] or truncated[0]:
            opponent = AGENTS[1 - AGENTS.index(agent)]
            self._obs = info["final_obs"][0]
            # The final state is seen by the player to move in it: the opponent
            # after a full move, the actor itself after an illegal action.
            self._owner = agent if info["reason"][0] == "illegal action" else opponent
            self._mask = self._no_mask
            r = float(reward[0])
            self.rewards[agent], self.rewards[opponent] = r, -r
            self.terminations = dict.fromkeys(self.agents, bool(terminated[0]))
            self.truncations = dict.fromkeys(self.agents, bool(truncated[0]))
            for a in self.agents:
                self.infos[a] = {"winner": int(info["winner"][0]), "reason": info["reason"][0]}
        else:
            self._load_state(obs[0])
            self.agent_selection = self._owner
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        """The board as text (during a capture chain: the board before it)."""
        if self.render_mode is None:
            return None
        if self._obs[5].any():  # a chain is pending: the env knows the board before it
            fen = self._env.fen(0)
        else:  # read from the observation, which after the game's end is the final one
            fen = _fen_of(self._obs, AGENTS.index(self._owner))
        return repr(Game(self.variant, fen=fen))

    def close(self) -> None:
        pass


def raw_env(variant: str = "thai", **kwargs: Any) -> RafleAECEnv:
    """The AEC environment without PettingZoo's order-enforcing wrapper."""
    return RafleAECEnv(variant, **kwargs)


def env(variant: str = "thai", **kwargs: Any) -> AECEnv:
    """The AEC environment for ``variant`` (keyword arguments of :class:`RafleAECEnv`)."""
    return wrappers.OrderEnforcingWrapper(raw_env(variant, **kwargs))
