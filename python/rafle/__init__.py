"""rafle: fast batched draughts environments, baselines, search and
self-play for reinforcement learning.

    import rafle
    rafle.VARIANTS                      # ("thai", "international", "english", "checkers", "russian", ...)
    g = rafle.Game("thai")              # one game, moves in path notation
    g.legal_moves(); g.play("6-9"); g.undo(); g.result(); g.to_svg()
    env = rafle.VecEnv("thai", num_envs=1024, seed=0)   # many games, numpy in and out
    obs = env.reset()                   # (B, C, N, N) float32
    mask = env.legal_mask()             # (B, A) bool
    obs, reward, terminated, truncated, info = env.step(env.sample_legal_actions())

VecEnv (see docs/how-to/rl-view.md for the planes and the action codec):

- An action is one step of a move: a quiet move or one jump; a multi-capture
  is a chain of actions by the same player. ``a = (sq * D + dir) * (N - 1) +
  dist - 1`` in the frame of the player to act, D = 4 diagonal directions,
  8 for frisian whose pieces also capture along rows and columns, 4 rows and
  columns for turkish on all 64 squares (``num_actions``: 896 on 8x8, 1800 on
  10x10, 3600 for frisian, 1792 for turkish, 3168 on canadian's 12x12).
- Observations are float32 ``(B, C, N, N)`` in the frame of the player to act.
- ``reward`` (B,) float32 goes to the player who made the step: +1 win, -1
  loss, 0 otherwise. ``terminated`` = game over by the rules, ``truncated`` =
  cut by ``max_plies``.
- Illegal or malformed actions raise ``ValueError`` naming the env (or, with
  ``illegal="lose"``, lose the game for the player who made them).
- Masks: ``legal_mask()`` is (B, A) bool. The Gymnasium and PettingZoo
  adapters give int8 masks (``info["action_mask"]``, ``obs["action_mask"]``),
  the dtype of ``Discrete.sample(mask=)``; ``mask.view(np.int8)`` turns one
  into the other without a copy. Their ``action_space.sample()`` without a
  mask draws a legal action (``rafle.spaces``).
- Lengths count plies: a ply is one full move by either side, so a
  multi-capture counts once however many actions (jumps) it takes.

Autoreset modes (``VecEnv(..., autoreset=...)``; Gymnasium's names and
meaning, https://farama.org/Vector-Autoreset-Mode):

    ============  =============================================================
    mode          what follows the step that ends env i's game
    ============  =============================================================
    ``SameStep``  (VecEnv's default) that step already returns the next game's
                  first observation; ``info["final_obs"]`` has the last one
    ``NextStep``  (rafle.gym's default, as Gymnasium's) that step returns the
                  final observation (mask all false); the next step resets env
                  i, ignoring its action, with reward 0 and not done
    ``Disabled``  env i stays finished (stepping it is an error) until
                  ``reset(mask=...)`` (Gymnasium: ``options={"reset_mask": m}``)
    ============  =============================================================

``VecEnv.step`` info (K = envs whose game ended in this step):

    ==================  ======================  =================================
    key                 shape / type            meaning
    ==================  ======================  =================================
    ``to_play``         (B,) uint8              who acts next: 0 white, 1 black
    ``done_envs``       (K,) int64              envs whose game ended, ascending
    ``final_obs``       (K, C, N, N) float32    their last observation
    ``winner``          (K,) int8               0 white, 1 black, -1 none (draw,
                                                truncation)
    ``episode_length``  (K,) int64              plies the game lasted
    ``reason``          (K,) int8               how it ended: ``END_REASONS[code]``
                                                ("no legal move", ..., "illegal
                                                move", "max plies")
    ==================  ======================  =================================

The adapters' infos carry the same ``winner``, ``reason`` and
``episode_length``, numbers only (TorchRL and Tianshou turn infos into
tensors), with -1 for winner and reason while the game goes on:

- ``rafle.gym.GameEnv``: ``action_mask`` (A,) int8, ``to_play`` int,
  ``winner``, ``reason``, ``episode_length`` (plies so far) at every step.
- ``rafle.gym.VectorEnv``: ``action_mask`` (B, A) int8, ``to_play`` (B,)
  uint8, and ``winner``, ``reason``, ``episode_length`` (B,) valid where
  ``info["_winner"]`` (the envs whose game ended in this step; Gymnasium's
  ``_key`` convention); in SAME_STEP mode also ``final_obs`` and
  ``final_info`` as Gymnasium's own vector envs give them.
- ``rafle.pettingzoo``: every agent's info, at every step: ``winner``,
  ``reason``, ``episode_length`` (plies so far).

Copies and zero copy: arrays returned are fresh numpy arrays by default (one
memcpy from Rust). With ``copy=False`` (``step``, ``reset``, ``observe``,
``legal_mask``, ``to_play``; ``rafle.gym.VectorEnv(copy=False)``) they are
read-only views of the env's own arrays, which Rust writes in place (the GIL
released): no copy, valid until the next ``step`` or ``reset`` rewrites them.
Copy what you keep (e.g. into a rollout buffer).

Pickling and ``copy.deepcopy`` keep everything: ``VecEnv`` is saved as its
arguments, every env's random stream and the steps of its current game
(replayed on loading, a capture under way included); ``Game`` as its start
and moves.

The Gymnasium and PettingZoo adapters live in ``rafle.gym`` and
``rafle.pettingzoo``; they import their libraries only when imported.

Players, evaluation, search and self-play (rafle's Rust search and arena,
driven by your network; details in ``rafle.agents``)::

    # an evaluator is any callable: obs (K, C, N, N) float32 -> (logits (K, A), value)
    #   value (K,) in [-1, 1] for the player to act, or (K, 3) win/draw/loss
    #   probabilities; numpy arrays or torch tensors (any device); illegal
    #   actions are masked by rafle. rafle.model.evaluator(net) wraps a RafleNet.
    p = rafle.Player("alphabeta:6", variant="thai", seed=0)   # any CLI player spec
    z = rafle.Player("zoo:thai:64", variant="thai")  # the shipped thai model (rafle/zoo/), 64 simulations
    p.choose(game)                                  # a legal move, path notation
    agent = rafle.NetworkAgent(evaluator, simulations=64)      # 0: the policy's best legal action
    r = rafle.evaluate(agent, "alphabeta:4", variant="thai", games=200, seed=0)
    r.wins, r.draws, r.losses, r.score, r.elo, r.elo_ci, r.pentanomial, r.pdn
    lr = rafle.ladder(agent, "thai", games=200)  # its Elo on thai's ladder (random = 0)
    lr.elo, lr.interval, lr.games, lr.rungs, lr.verdict
    out = rafle.search(env, evaluator, simulations=64)   # one search per env of a VecEnv
    out.action (B,) int64; out.policy (B, A) float32; out.value (B,) float32
    sp = rafle.SelfPlay("thai", evaluator, num_games=256, simulations=32, seed=0)
    batch = sp.play(4096)       # obs, mask, policy, value (W/D/L target), search_value, result, version
    sp.stats                    # games, nn_evals, avg_batch, nn_share, evals_per_s, ...
    rafle.serve([agent, "alphabeta:4"], variant="thai", port=8000)   # play and inspect in the browser
    games = rafle.read_pdn("games.pdn")   # PDN games replayed (g.tags, g.moves, g.game()); bad ones warned and skipped
    data = rafle.pdn_samples(games)       # the arrays of sp.play, targets from the played moves and results
    pos = rafle.eval_games("thai", 200, depth=4)          # labelled positions of alpha-beta self-play: fen, score, result, target
    x = rafle.eval_features("thai", pos["fen"], "patterns")  # sparse inputs: indices, values (N, K), phase, num_inputs
    rafle.save_eval("my.safetensors", "thai", "patterns", {"mg": mg, "eg": eg})  # plays as alphabeta:d=6,eval=my.safetensors

Players of ``rafle.evaluate`` are spec strings, ``Player``, ``NetworkAgent``
or policy callables ``(obs, mask) -> actions``; every game advances in
lockstep, so a Python network or policy is called once per round with all
games where it is to act. A wrong shape or dtype from an evaluator, NaN, an
illegal action or an exception inside it is raised as a Python exception
naming the problem (the evaluator's own exception as it was); Ctrl-C stops
a long call. The GIL is released during tree work.
"""

from rafle._rafle import END_REASONS, LADDERS, SMALL_BATCH, VARIANTS, Game, Tablebase, VecEnv
from rafle.agents import (
    LadderResult,
    MatchResult,
    NetworkAgent,
    Player,
    SearchResult,
    SelfPlay,
    evaluate,
    ladder,
    search,
    serve,
)
from rafle.learned import eval_features, eval_games, eval_values, save_eval
from rafle.pdn import PdnGame, pdn_samples, read_pdn

__all__ = [
    "END_REASONS",
    "SMALL_BATCH",
    "VARIANTS",
    "LADDERS",
    "Game",
    "VecEnv",
    "Tablebase",
    "Player",
    "NetworkAgent",
    "evaluate",
    "ladder",
    "search",
    "serve",
    "SelfPlay",
    "MatchResult",
    "LadderResult",
    "SearchResult",
    "PdnGame",
    "read_pdn",
    "pdn_samples",
    "eval_games",
    "eval_features",
    "save_eval",
    "eval_values",
]
__version__ = "0.1.0"
