"""Small opponents with the rafle.Player interface (``.choose(game) -> move``)."""

from __future__ import annotations

import random

import rafle


class FirstMove:
    """Always the first legal move."""

    def choose(self, game: rafle.Game) -> str:
        return game.legal_moves()[0]


class RandomMove:
    """A uniformly drawn legal move, from its own seeded stream."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.calls = 0

    def seed(self, seed: int) -> None:
        self.rng.seed(seed)

    def choose(self, game: rafle.Game) -> str:
        self.calls += 1
        return self.rng.choice(game.legal_moves())
