"""rafle: fast batched draughts environments for reinforcement learning.

    import rafle
    rafle.VARIANTS                      # ("thai", "international", "english", "checkers")
    g = rafle.Game("thai")              # one game, moves in path notation
    g.legal_moves(); g.play("6-9"); g.undo(); g.result(); g.to_svg()
    env = rafle.VecEnv("thai", num_envs=1024, seed=0)   # many games, numpy in and out
    obs = env.reset()                   # (B, C, N, N) float32
    mask = env.legal_mask()             # (B, A) bool
    obs, reward, terminated, truncated, info = env.step(env.sample_legal_actions())

VecEnv (see the README's "Architecture" section, "The RL view", for the
planes and the action codec):

- An action is one step of a move: a quiet move or one jump; a multi-capture
  is a chain of actions by the same player. ``a = (sq * 4 + dir) * (N - 1) +
  dist - 1`` in the frame of the player to act (``num_actions``: 896 on 8x8,
  1800 on 10x10).
- Observations are float32 ``(B, C, N, N)`` in the frame of the player to act.
- ``reward`` (B,) float32 goes to the player who made the step: +1 win, -1
  loss, 0 otherwise. ``terminated`` = game over by the rules, ``truncated`` =
  cut by ``max_plies``.
- Finished games reset in the same step: ``obs`` and ``legal_mask()`` already
  show the new game. ``info`` tells how the finished ones ended:

  ==================  ==========================  ===============================
  key                 shape / type                meaning
  ==================  ==========================  ===============================
  ``to_play``         (B,) uint8                  who acts next: 0 white, 1 black
  ``done_envs``       (K,) int64                  envs whose game ended, ascending
  ``final_obs``       (K, C, N, N) float32        their last observation
  ``winner``          (K,) int8                   0 white, 1 black, -1 none
  ``episode_length``  (K,) int64                  full moves played
  ``reason``          list of K str               e.g. "no legal move", "truncated"
  ==================  ==========================  ===============================

- Illegal or malformed actions raise ``ValueError`` naming the env (or, with
  ``illegal="lose"``, lose the game for the player who made them).
- Arrays returned are fresh numpy arrays (one memcpy from Rust); the GIL is
  released while Rust steps.

The Gymnasium and PettingZoo adapters live in ``rafle.gym`` and
``rafle.pettingzoo``; they import their libraries only when imported.
"""

from rafle._rafle import VARIANTS, Game, VecEnv

__all__ = ["VARIANTS", "Game", "VecEnv"]
__version__ = "0.1.0"
