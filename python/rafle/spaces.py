"""Gymnasium action spaces whose ``sample()`` draws a legal action.

Libraries and test suites call ``action_space.sample()`` without a mask (TorchRL's
dummy rollout, Gymnasium's ``check_env``, PettingZoo's ``max_cycles_test``); in
draughts most actions are illegal, so these spaces take the mask of the current
state themselves. Given an explicit ``mask`` they behave as Gymnasium's own.
Masks are int8, the dtype ``Discrete.sample(mask=)`` takes.

Needs ``gymnasium`` (imported with this module).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
from gymnasium import spaces


class LegalActions(spaces.Discrete):
    """``Discrete(n)``; ``sample()`` without a mask draws uniformly among the
    actions ``legal()`` marks (an int8 (n,) mask; 0 when it marks none, as
    Gymnasium does)."""

    def __init__(self, n: int, legal: Callable[[], np.ndarray], seed: int | None = None) -> None:
        super().__init__(n, seed=seed)
        self._legal = legal

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        """A legal action of the current state; with ``mask`` or
        ``probability``, Gymnasium's own sample."""
        if mask is None and probability is None:
            mask = self._legal()
        return super().sample(mask=mask, probability=probability)


class LegalBatchActions(spaces.MultiDiscrete):
    """``MultiDiscrete([n] * num_envs)``; ``sample()`` without a mask draws one
    legal action per env from ``legal()``, a (num_envs, n) bool mask (0 for an
    env with none: a finished env, whose action is not used)."""

    def __init__(
        self, num_envs: int, n: int, legal: Callable[[], np.ndarray], seed: int | None = None
    ) -> None:
        super().__init__(np.full(num_envs, n, dtype=np.int64), seed=seed)
        self._legal = legal

    def sample(self, mask: Any = None, probability: Any = None) -> np.ndarray:
        """One legal action per env; with ``mask`` or ``probability``,
        Gymnasium's own sample."""
        if mask is not None or probability is not None:
            return super().sample(mask=mask, probability=probability)
        return sample_legal(self.np_random, self._legal())


def sample_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """One uniformly drawn legal action per row of a (B, A) mask, (B,) int64
    (0 for a row without one)."""
    mask = np.asarray(mask, dtype=bool)
    counts = mask.sum(axis=1)
    k = np.floor(rng.random(len(mask)) * counts).astype(np.int64)
    # The k-th legal action of each row: the first column where the running
    # count of legal actions passes k.
    return np.argmax(np.cumsum(mask, axis=1) > k[:, None], axis=1).astype(np.int64)
