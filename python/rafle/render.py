"""The render modes of the Gymnasium and PettingZoo adapters, for one game.

- ``"human"``: prints the board as text and returns None (works headless).
- ``"ansi"``: returns that text (the board, whose turn it is or the result).
- ``"rgb_array"``: returns the SVG board of ``Game.to_svg`` as an (H, W, 3)
  uint8 image, rasterised in Rust (no system library needed; square
  numbers left out, as no font is loaded).
"""

from __future__ import annotations

from typing import Optional, Union

import numpy as np

from rafle._rafle import Game, svg_to_rgb

RENDER_MODES = ["human", "ansi", "rgb_array"]

# Pixels across the board in rgb_array mode.
IMAGE_SIZE = 400


def check_render_mode(mode: Optional[str]) -> None:
    """ValueError unless ``mode`` is None or one of RENDER_MODES."""
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, got {mode!r}")


def render(game: Game, mode: Optional[str]) -> Union[str, np.ndarray, None]:
    """``game`` drawn in render mode ``mode`` (None draws nothing)."""
    if mode == "ansi":
        return repr(game)
    if mode == "human":
        print(repr(game))
    elif mode == "rgb_array":
        return svg_to_rgb(game.to_svg(IMAGE_SIZE, numbers=False))
    return None
