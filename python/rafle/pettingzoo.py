"""PettingZoo adapters for one game of a variant: ``env`` (AEC) and ``parallel_env``.

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
all zeros for the agent that is not to act (in ``env()``). At the end the
winner gets +1 and the loser -1 (0 each for a draw or truncation). An
illegal action loses the game (``illegal="lose"``, as in PettingZoo's
classic games; ``"error"`` raises ValueError), and
``action_space(agent).sample()`` draws from the agent's mask: a legal
action for the agent to act. Infos: see ``help(rafle)`` (a cut by
``max_cycles`` leaves winner and reason at -1).

The parallel view of a turn-based game (``parallel_env``): each parallel
step is one step of the game. Both agents stay live until the game ends and
get an observation, a reward and an info at every step; the agent to act
moves, the other passes: its action is not used, and its mask allows
``PASS`` (action 0, which is never a legal move: it steps off the board)
so that masked samplers always have a choice. A multi-capture takes several
parallel steps.

``max_cycles`` counts the steps of each agent, as PettingZoo defines a cycle
(every agent steps once): in ``env()`` the game is truncated after
``2 * max_cycles`` steps (each agent's own turns, every jump of a
multi-capture counted), in ``parallel_env()``, where every agent takes part in
every step, after ``max_cycles`` steps. ``max_plies`` instead cuts the game
after that many full moves (rafle's own truncation).

``seed`` (default 0) seeds the game and the agents' action spaces, so that
runs are repeatable by default; ``reset(seed=...)`` reseeds both.

Needs ``pettingzoo`` and ``gymnasium`` (imported with this module).
"""

from __future__ import annotations

from functools import partial
from typing import Any, Optional, Union

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from rafle._rafle import VecEnv
from rafle.render import RENDER_MODES, check_render_mode, render
from rafle.spaces import LegalActions

__all__ = ["AGENTS", "PASS", "RafleAECEnv", "RafleParallelEnv", "env", "parallel_env", "raw_env"]

AGENTS = ("player_0", "player_1")  # index = colour: 0 white, 1 black
PASS = 0  # the parallel view's action of the agent not to act

METADATA: dict[str, Any] = {
    "name": "rafle_v0",
    "render_modes": RENDER_MODES,
    "render_fps": 2,
    # env() is not for PettingZoo's aec_to_parallel (an agent can act several
    # times in a row); parallel_env() is the parallel view.
    "is_parallelizable": False,
}


class _Match:
    """The game both views play: one game of a VecEnv that waits for a reset
    at its end, its steps counted against ``max_steps``, and how it ended."""

    def __init__(
        self,
        variant: str,
        seed: int,
        max_steps: Optional[int],
        max_plies: Optional[int],
        illegal: str,
        fen: Optional[str],
        passing: bool,
    ) -> None:
        self.env = VecEnv(
            variant, 1, seed, max_plies=max_plies, illegal=illegal, fen=fen, autoreset="Disabled"
        )
        self.max_steps = max_steps
        self.steps = 0
        self.ending = (-1, -1)  # (winner, reason) once over
        c, n, _ = self.env.observation_shape
        na = self.env.num_actions
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, shape=(c, n, n), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(na,), dtype=np.int8),
                }
            )
            for a in AGENTS
        }
        self.action_spaces = {
            a: LegalActions(na, partial(self.legal_mask, a), seed=seed + i)
            for i, a in enumerate(AGENTS)
        }
        # The mask of the agent not to act: nothing (AEC), or PASS (parallel).
        self._idle_mask = np.zeros(na, dtype=np.int8)
        self._idle_mask[PASS] = passing

    def reset(self, seed: Optional[int]) -> None:
        self.env.reset(seed)
        if seed is not None:
            for i, space in enumerate(self.action_spaces.values()):
                space.seed(seed + i)
        self.steps = 0
        self.ending = (-1, -1)

    def to_act(self) -> str:
        """The agent to act (after the end: the one to move in the final state)."""
        return AGENTS[int(self.env.to_play(copy=False)[0])]

    def legal_mask(self, agent: str) -> np.ndarray:
        """The agent's int8 mask (a view: copy what you keep)."""
        if agent != self.to_act():
            return self._idle_mask
        return self.env.legal_mask(copy=False)[0].view(np.int8)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return {
            "observation": self.env.observe_as(0, AGENTS.index(agent)),
            "action_mask": self.legal_mask(agent).copy(),
        }

    def step(self, action: Any) -> tuple[float, bool, bool]:
        """Plays the agent to act's step: (its reward, terminated, truncated)."""
        _, reward, terminated, truncated, info = self.env.step([action])
        self.steps += 1
        if len(info["done_envs"]):
            self.ending = (int(info["winner"][0]), int(info["reason"][0]))
        cut = self.max_steps is not None and self.steps >= self.max_steps
        return float(reward[0]), bool(terminated[0]), bool(truncated[0]) or (cut and not terminated[0])

    def info(self) -> dict[str, int]:
        winner, reason = self.ending
        return {"winner": winner, "reason": reason, "episode_length": self.env.ply(0)}

    def render(self, mode: Optional[str]) -> Union[str, np.ndarray, None]:
        return render(self.env.game(0), mode)


class _OneGame:
    """What both views share: their arguments (see the module doc), the
    match, the spaces and rendering."""

    metadata: dict[str, Any] = METADATA
    # Game steps in one cycle (one step of each agent).
    _steps_per_cycle: int
    # Whether the agent not to act takes part in every step (with PASS).
    _passing: bool

    def __init__(
        self,
        variant: str = "thai",
        *,
        max_cycles: Optional[int] = None,
        max_plies: Optional[int] = None,
        illegal: str = "lose",
        fen: Optional[str] = None,
        seed: int = 0,
        render_mode: Optional[str] = None,
    ) -> None:
        check_render_mode(render_mode)
        if max_cycles is not None and max_cycles < 1:
            raise ValueError(f"max_cycles must be at least 1, got {max_cycles}")
        self.variant = variant
        self.render_mode = render_mode
        steps = None if max_cycles is None else self._steps_per_cycle * max_cycles
        self._match = _Match(variant, seed, steps, max_plies, illegal, fen, self._passing)
        self.possible_agents = list(AGENTS)
        self.agents = self.possible_agents[:]
        self.observation_spaces = self._match.observation_spaces
        self.action_spaces = self._match.action_spaces

    def observation_space(self, agent: str) -> spaces.Space:
        """A dict of the (C, N, N) planes and the int8 action mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(num_actions)``; ``sample()`` draws from the agent's mask."""
        return self.action_spaces[agent]

    def render(self) -> Union[str, np.ndarray, None]:
        """The board per ``render_mode`` (during a capture: the board before it)."""
        return self._match.render(self.render_mode)

    def close(self) -> None:
        pass


class RafleAECEnv(_OneGame, AECEnv):
    """One game of ``variant`` as a two-agent AEC environment (see the module doc)."""

    _steps_per_cycle = len(AGENTS)
    _passing = False

    def __init__(self, variant: str = "thai", **kwargs: Any) -> None:
        super().__init__(variant, **kwargs)
        self.reset()

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        """A new game; ``seed`` reseeds the game and the action spaces."""
        self._match.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: self._match.info() for a in self.agents}
        self.agent_selection = self._match.to_act()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The state in ``agent``'s frame, with its mask (zeros when not to act)."""
        return self._match.observe(agent)

    def step(self, action: Any) -> None:
        """Plays the selected agent's step (None once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        reward, terminated, truncated = self._match.step(action)
        if terminated or truncated:
            opponent = AGENTS[1 - AGENTS.index(agent)]
            self.rewards[agent], self.rewards[opponent] = reward, -reward
            self.terminations = dict.fromkeys(self.agents, terminated)
            self.truncations = dict.fromkeys(self.agents, truncated)
        else:
            self.agent_selection = self._match.to_act()
        self.infos = {a: self._match.info() for a in self.agents}
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()


class RafleParallelEnv(_OneGame, ParallelEnv):
    """One game of ``variant`` in PettingZoo's parallel API: the agent to act
    moves, the other passes (see the module doc)."""

    _steps_per_cycle = 1
    _passing = True

    def reset(
        self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game: observations and infos of both agents."""
        self._match.reset(seed)
        self.agents = self.possible_agents[:]
        return self._observations(), {a: self._match.info() for a in self.agents}

    def _observations(self) -> dict[str, Any]:
        return {a: self._match.observe(a) for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        """Plays the action of the agent to act; the other's is not used."""
        mover = self._match.to_act()
        if mover not in actions:
            raise ValueError(f"actions has none for {mover}, the agent to act")
        reward, terminated, truncated = self._match.step(actions[mover])
        other = AGENTS[1 - AGENTS.index(mover)]
        ended = terminated or truncated
        rewards = {mover: reward, other: -reward} if ended else dict.fromkeys(self.agents, 0.0)
        observations = self._observations()
        infos = {a: self._match.info() for a in self.agents}
        terminations = dict.fromkeys(self.agents, terminated)
        truncations = dict.fromkeys(self.agents, truncated)
        if ended:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos


def raw_env(variant: str = "thai", **kwargs: Any) -> RafleAECEnv:
    """The AEC environment without PettingZoo's order-enforcing wrapper
    (keyword arguments: ``max_cycles``, ``max_plies``, ``illegal``, ``fen``,
    ``seed``, ``render_mode``; see the module doc)."""
    return RafleAECEnv(variant, **kwargs)


def env(variant: str = "thai", **kwargs: Any) -> AECEnv:
    """The AEC environment for ``variant`` (keyword arguments of :func:`raw_env`)."""
    return wrappers.OrderEnforcingWrapper(raw_env(variant, **kwargs))


def parallel_env(variant: str = "thai", **kwargs: Any) -> RafleParallelEnv:
    """The parallel view of one game of ``variant`` (keyword arguments of
    :func:`raw_env`)."""
    return RafleParallelEnv(variant, **kwargs)
