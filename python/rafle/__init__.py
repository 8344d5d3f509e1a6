"""rafle: fast batched draughts environments, baselines, search and
self-play for reinforcement learning.

    import rafle
    rafle.VARIANTS                      # ("thai", "international", "english", "checkers")
    g = rafle.Game("thai")              # one game, moves in path notation
    g.legal_moves(); g.play("6-9"); g.undo(); g.result(); g.to_svg()
    env = rafle.VecEnv("thai", num_envs=1024, seed=0)   # many games, numpy in and out
    obs = env.reset()                   # (B, C, N, N) float32
    mask = env.legal_mask()             # (B, A) bool
    obs, reward, terminated, truncated, info = env.step(env.sample_legal_actions())

VecEnv (see DESIGN.md "The RL view" for the planes and the action codec):

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

Players, evaluation, search and self-play (rafle's Rust search and arena,
driven by your network; details in ``rafle.agents``)::

    # an evaluator is any callable: obs (K, C, N, N) float32 -> (logits (K, A), value)
    #   value (K,) in [-1, 1] for the player to act, or (K, 3) win/draw/loss
    #   probabilities; numpy arrays or torch tensors (any device); illegal
    #   actions are masked by rafle. rafle.model.evaluator(net) wraps a RafleNet.
    p = rafle.Player("alphabeta:6", variant="thai", seed=0)   # any CLI player spec
    p.choose(game)                                  # a legal move, path notation
    agent = rafle.NetworkAgent(evaluator, simulations=64)      # 0: the policy's best legal action
    r = rafle.evaluate(agent, "alphabeta:4", variant="thai", games=200, seed=0)
    r.wins, r.draws, r.losses, r.score, r.elo, r.elo_ci, r.pentanomial, r.pdn
    out = rafle.search(env, evaluator, simulations=64)   # one search per env of a VecEnv
    out.action (B,) int64; out.policy (B, A) float32; out.value (B,) float32
    sp = rafle.SelfPlay("thai", evaluator, num_games=256, simulations=32, seed=0)
    batch = sp.play(4096)       # obs, mask, policy, value (W/D/L target), search_value, result, version
    sp.stats                    # games, nn_evals, avg_batch, nn_share, evals_per_s, ...

Players of ``rafle.evaluate`` are spec strings, ``Player``, ``NetworkAgent``
or policy callables ``(obs, mask) -> actions``; every game advances in
lockstep, so a Python network or policy is called once per round with all
games where it is to act. A wrong shape or dtype from an evaluator, NaN, an
illegal action or an exception inside it is raised as a Python exception
naming the problem (the evaluator's own exception as it was); Ctrl-C stops
a long call. The GIL is released during tree work.
"""

from rafle._rafle import SMALL_BATCH, VARIANTS, Game, VecEnv
from rafle.agents import MatchResult, NetworkAgent, Player, SearchResult, SelfPlay, evaluate, search

__all__ = [
    "SMALL_BATCH",
    "VARIANTS",
    "Game",
    "VecEnv",
    "Player",
    "NetworkAgent",
    "evaluate",
    "search",
    "SelfPlay",
    "MatchResult",
    "SearchResult",
]
__version__ = "0.1.0"
