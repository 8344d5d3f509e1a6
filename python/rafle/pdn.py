"""PDN games in: read a file of games (from ``rafle eval``, ``rafle.evaluate``
or a game database) into replayed games, and turn games into supervised
training arrays.

    games = rafle.read_pdn("games.pdn")          # or the PDN text itself
    g = games[0]; g.tags, g.moves, g.result, g.winner, g.fen, g.variant
    g.game()                                     # a rafle.Game with every move played
    batch = rafle.pdn_samples(games)             # obs, mask, policy, value, ... as SelfPlay.play

The variant of each game is its ``Variant`` tag, else its ``GameType`` (20
international, 21 standard checkers, and the types of rafle's other
variants), else ``variant=``. A game that cannot be read or replayed (a
malformed tag, an unknown GameType, an illegal move, a truncated end) is
skipped with one warning naming the game and the move; the others are kept.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any, Dict, Optional, Sequence, Union

import numpy as np

from rafle import _rafle
from rafle._rafle import PdnGame

__all__ = ["PdnGame", "read_pdn", "pdn_samples"]


def _is_file(source: str) -> bool:
    """Whether ``source`` names a file (text too long or odd for a name does not)."""
    try:
        return Path(source).is_file()
    except (OSError, ValueError):
        return False


def _text(source: Union[str, "os.PathLike[str]"]) -> str:
    """The PDN text of a path, or ``source`` itself when it is PDN text."""
    if isinstance(source, os.PathLike):
        return Path(source).read_text(encoding="utf-8", errors="replace")
    if not isinstance(source, str):
        raise ValueError(f"read_pdn takes a path or PDN text, got {type(source).__name__}")
    looks_like_path = "\n" not in source and not source.lstrip().startswith("[") and (
        Path(source).suffix.lower() == ".pdn" or os.sep in source or _is_file(source)
    )
    if looks_like_path:
        return Path(source).read_text(encoding="utf-8", errors="replace")
    return source


def read_pdn(source: Union[str, "os.PathLike[str]"], variant: Optional[str] = None) -> list[PdnGame]:
    """The games of a PDN file (a path) or text, replayed (see the module doc)."""
    if variant is not None and variant not in _rafle.VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (known: {', '.join(_rafle.VARIANTS)})")
    games, errors = _rafle.read_pdn(_text(source), variant)
    for e in errors:
        warnings.warn(f"rafle.read_pdn skipped {e}", stacklevel=2)
    return list(games)


def pdn_samples(games: Sequence[PdnGame]) -> Dict[str, np.ndarray]:
    """Supervised arrays from games of one variant, with the keys and shapes
    of ``SelfPlay.play``: one row per step (a quiet move or one jump) of
    every move, ``policy`` 1 on the played step (0 on the other legal
    steps), ``value`` the game's result for the player to act (win/draw/
    loss), ``search_value`` that result as -1/0/1. Games with no result are
    left out."""
    out: Dict[str, Any] = _rafle.pdn_samples(list(games))
    return out
