"""Gymnasium adapters, registered as ``rafle/<variant>-v0`` for every variant:

    import gymnasium, rafle.gym
    env = gymnasium.make("rafle/thai-v0")                          # GameEnv: one game
    env = gymnasium.make("rafle/thai-v0", opponent="alphabeta:2")  # you play one side
    envs = gymnasium.make_vec("rafle/thai-v0", num_envs=1024)      # VectorEnv, rafle's own

- :class:`GameEnv`, a ``gymnasium.Env``: one game. Without an opponent the
  env alternates the players, as PettingZoo's classic games do: each step is
  played by the player to act, the observation is in that player's frame and
  the reward goes to the player who made the step, so one policy plays both
  sides. With ``opponent`` (a player spec such as ``"alphabeta:2"`` or an
  engine's ``"hub:/opt/scan/scan hub"``, made into ``rafle.Player(spec,
  variant, seed)``; a ``rafle.Player`` with an engine level; or any object with
  ``.choose(game) -> move``, and ``.seed(seed)`` if it draws at random) you
  play ``player`` (0 White, 1 Black, None: drawn at each reset); the
  opponent's moves are played inside ``reset`` and ``step``, the observation
  is always in your frame and the reward is yours.
- :class:`VectorEnv`, a ``gymnasium.vector.VectorEnv`` over :class:`rafle.VecEnv`
  with the three autoreset modes (``autoreset_mode``, NEXT_STEP by default as
  in Gymnasium); ``copy=False`` returns the env's own read-only arrays.

``action_space.sample()`` draws a legal action of the current state (see
``rafle.spaces``), since Gymnasium's checkers and libraries sample without a
mask. Every action of the action space is accepted, as Gymnasium asks: an
illegal one loses the game for the player who made it (``illegal="lose"``,
the rule of PettingZoo's classic games; ``illegal="error"`` raises
ValueError instead). Info keys, masks and autoreset modes: ``help(rafle)``.

Needs ``gymnasium`` (imported when this module is imported).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

import rafle
from rafle._rafle import VARIANTS
from rafle._rafle import VecEnv as _VecEnv
from rafle.render import RENDER_MODES, check_render_mode, render
from rafle.spaces import LegalActions, LegalBatchActions

__all__ = ["GameEnv", "VectorEnv", "make_opponent"]


def make_opponent(opponent: Any, variant: str, seed: int) -> Any:
    """The opponent of a :class:`GameEnv`: a player spec string becomes
    ``rafle.Player(spec, variant, seed)``; an object with ``.choose(game) ->
    str`` (a legal move in path notation) is used as it is; None stays None."""
    if opponent is None:
        return None
    if isinstance(opponent, str):
        player = getattr(rafle, "Player", None)
        if player is None:
            raise ValueError(f"opponent {opponent!r}: this rafle has no rafle.Player to play specs")
        return player(opponent, variant, seed)
    if not callable(getattr(opponent, "choose", None)):
        raise ValueError(
            f"opponent must be a player spec or have .choose(game) -> move, got {type(opponent).__name__}"
        )
    return opponent


def _observation_space(env: _VecEnv) -> spaces.Box:
    return spaces.Box(0.0, 1.0, shape=env.observation_shape, dtype=np.float32)


class GameEnv(gymnasium.Env):
    """One game of ``variant`` as a Gymnasium environment (see the module doc)."""

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 2}

    def __init__(
        self,
        variant: str = "thai",
        *,
        opponent: Any = None,
        player: Optional[int] = None,
        seed: int = 0,
        max_plies: Optional[int] = None,
        illegal: str = "lose",
        fen: Optional[str] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        check_render_mode(render_mode)
        if player not in (None, 0, 1):
            raise ValueError(f"player must be 0 (White), 1 (Black) or None, got {player!r}")
        if player is not None and opponent is None:
            raise ValueError("player= says which side you play against an opponent: give opponent= too")
        self.variant = variant
        self.render_mode = render_mode
        self._env = _VecEnv(
            variant, 1, seed, max_plies=max_plies, illegal=illegal, fen=fen, autoreset="Disabled"
        )
        self._opponent_spec = opponent if isinstance(opponent, str) else None
        self.opponent = make_opponent(opponent, variant, seed)
        self._fixed_player = player
        # The side the agent plays this episode (None: both, no opponent).
        self.player: Optional[int] = player
        self.observation_space = _observation_space(self._env)
        self.action_space = LegalActions(self._env.num_actions, self._legal_mask, seed=seed)
        self._ending = (-1, -1)

    def _legal_mask(self) -> np.ndarray:
        return self._env.legal_mask(copy=False)[0].view(np.int8)

    def action_masks(self) -> np.ndarray:
        """The legal actions now, (A,) bool: what sb3-contrib's MaskablePPO
        (and ``ActionMasker``-style code) asks an env for."""
        return self._env.legal_mask(copy=True)[0]

    def _to_play(self) -> int:
        return int(self._env.to_play(copy=False)[0])

    def _done(self) -> bool:
        return self._ending != (-1, -1)

    def _play(self, action: Any) -> tuple[float, bool, bool]:
        """One step of the game: (reward to its actor, terminated, truncated)."""
        _, reward, terminated, truncated, info = self._env.step([action])
        if len(info["done_envs"]):
            self._ending = (int(info["winner"][0]), int(info["reason"][0]))
        return float(reward[0]), bool(terminated[0]), bool(truncated[0])

    def _opponent_turns(self) -> tuple[float, bool, bool]:
        """Plays the opponent until the agent is to act or the game is over:
        (reward to the agent, terminated, truncated)."""
        reward, terminated, truncated = 0.0, False, False
        while not self._done() and self._to_play() != self.player:
            move = self.opponent.choose(self._env.game(0))
            for a in self._env.move_actions(0, move):
                r, terminated, truncated = self._play(a)
            reward -= r  # the reward went to the opponent
        return reward, terminated, truncated

    def _observation(self) -> np.ndarray:
        viewer = self._to_play() if self.player is None else self.player
        return self._env.observe_as(0, viewer)

    def _info(self) -> dict[str, Any]:
        winner, reason = self._ending
        return {
            "action_mask": self._legal_mask().copy(),
            "to_play": self._to_play(),
            "winner": winner,
            "reason": reason,
            "episode_length": self._env.ply(0),
        }

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game. ``seed`` reseeds the env, the side drawn for you and
        the opponent: one made from a spec is made again with this seed, an
        object with a ``seed(seed)`` method has it called."""
        super().reset(seed=seed)
        self._env.reset(seed)
        if seed is not None and self._opponent_spec is not None:
            self.opponent = make_opponent(self._opponent_spec, self.variant, seed)
        elif seed is not None and callable(getattr(self.opponent, "seed", None)):
            self.opponent.seed(seed)
        self._ending = (-1, -1)
        if self.opponent is not None:
            self.player = (
                int(self.np_random.integers(2)) if self._fixed_player is None else self._fixed_player
            )
            self._opponent_turns()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Plays ``action`` (one step: a quiet move or one jump), then, with an
        opponent, its moves until you are to act again."""
        reward, terminated, truncated = self._play(action)
        if self.opponent is not None and not self._done():
            reward, terminated, truncated = self._opponent_turns()
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, self._info()

    def render(self) -> Union[str, np.ndarray, None]:
        """The board per ``render_mode`` (during a capture: the board before it)."""
        return render(self._env.game(0), self.render_mode)


class VectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of ``variant`` as a Gymnasium vector environment.

    Each game alternates its players like :class:`GameEnv` without an
    opponent. ``autoreset_mode`` is one of Gymnasium's three (see
    ``help(rafle)``; DISABLED games wait for ``reset(options={"reset_mask":
    mask})``). ``copy=False`` returns the env's own read-only arrays,
    rewritten by the next step: no copy, as in Gymnasium's ``copy`` argument.
    """

    metadata: dict[str, Any] = {
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": RENDER_MODES,
    }

    def __init__(
        self,
        variant: str = "thai",
        num_envs: int = 1,
        seed: int = 0,
        *,
        autoreset_mode: Union[AutoresetMode, str] = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        max_plies: Optional[int] = None,
        illegal: str = "lose",
        fen: Optional[str] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        check_render_mode(render_mode)
        try:
            self.autoreset_mode = AutoresetMode(autoreset_mode)
        except ValueError:
            modes = [m.value for m in AutoresetMode]
            raise ValueError(f"autoreset_mode must be one of {modes}, got {autoreset_mode!r}") from None
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.env = _VecEnv(
            variant,
            num_envs,
            seed,
            max_plies=max_plies,
            illegal=illegal,
            fen=fen,
            autoreset=self.autoreset_mode.value,
        )
        self.num_envs = num_envs
        self.copy = copy
        self.render_mode = render_mode
        self.single_observation_space = _observation_space(self.env)
        self.single_action_space = spaces.Discrete(self.env.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = LegalBatchActions(
            num_envs, self.env.num_actions, self._legal_mask, seed=seed
        )

    def _legal_mask(self) -> np.ndarray:
        return self.env.legal_mask(copy=False)

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game now, (num_envs, A) bool (the form
        of sb3-contrib's masks for a vector env)."""
        return self.env.legal_mask(copy=True)

    def reset(
        self,
        *,
        seed: Union[int, Sequence[int], None] = None,
        options: Optional[dict[str, Any]] = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Resets every game, or those of ``options["reset_mask"]`` ((num_envs,)
        bool); ``seed``, one int or one per env, reseeds the games reset."""
        if isinstance(seed, (int, np.integer)):
            super().reset(seed=int(seed))
        elif seed is not None:
            seed = list(seed)
            if not all(isinstance(s, (int, np.integer)) for s in seed):
                raise ValueError("seed: give one int, or one int per env")
            self._np_random = np.random.default_rng([int(s) for s in seed])
        mask = None if options is None else options.get("reset_mask")
        if mask is not None and not (isinstance(mask, np.ndarray) and mask.dtype == np.bool_ and mask.any()):
            raise ValueError("options['reset_mask'] must be a (num_envs,) bool array with a True")
        obs = self.env.reset(seed, mask=mask, copy=self.copy)
        return obs, self._info()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One step (a quiet move or one jump) in every game, ``actions[i]``
        in game i; what follows a game's end is ``autoreset_mode``."""
        obs, reward, terminated, truncated, raw = self.env.step(actions, copy=self.copy)
        return obs, reward, terminated, truncated, self._info(raw)

    def _info(self, raw: Optional[dict[str, Any]] = None) -> dict[str, Any]:
        """The infos of help(rafle): the mask and player to act, and per env
        how its game ended where it ended in this step (masks ``_key``)."""
        b = self.num_envs
        ended = np.zeros(b, dtype=bool)
        winner = np.full(b, -1, dtype=np.int8)
        reason = np.full(b, -1, dtype=np.int8)
        length = np.zeros(b, dtype=np.int64)
        if raw is not None:
            done = raw["done_envs"]
            ended[done] = True
            winner[done], reason[done], length[done] = raw["winner"], raw["reason"], raw["episode_length"]
        info: dict[str, Any] = {
            "action_mask": self.env.legal_mask(copy=self.copy).view(np.int8),
            "to_play": self.env.to_play(copy=self.copy),
            "winner": winner,
            "reason": reason,
            "episode_length": length,
            "_winner": ended,
            "_reason": ended.copy(),
            "_episode_length": ended.copy(),
        }
        if raw is not None and self.autoreset_mode == AutoresetMode.SAME_STEP and ended.any():
            final_obs = np.full(b, None, dtype=object)
            for j, i in enumerate(raw["done_envs"]):
                final_obs[i] = raw["final_obs"][j]
            info["final_obs"], info["_final_obs"] = final_obs, ended.copy()
            keys = ("winner", "reason", "episode_length")
            info["final_info"] = {k: info[k].copy() for k in keys} | {f"_{k}": ended.copy() for k in keys}
            info["_final_info"] = ended.copy()
        return info

    def sample_legal_actions(self) -> np.ndarray:
        """One uniformly drawn legal action per game, (num_envs,) int64, from
        the env's seeded streams in Rust (faster than ``action_space.sample()``)."""
        return self.env.sample_legal_actions()

    def render(self) -> Optional[tuple[Any, ...]]:
        """Every game drawn per ``render_mode`` (human: printed, returns None)."""
        if self.render_mode is None:
            return None
        frames = tuple(render(self.env.game(i), self.render_mode) for i in range(self.num_envs))
        return None if self.render_mode == "human" else frames


for _variant in VARIANTS:
    _id = f"rafle/{_variant}-v0"
    if _id not in gymnasium.registry:
        gymnasium.register(
            id=_id,
            entry_point="rafle.gym:GameEnv",
            vector_entry_point="rafle.gym:VectorEnv",
            kwargs={"variant": _variant},
        )
