"""Learned alpha-beta evaluations from Python (docs/how-to/learned-eval.md).

``eval_games`` plays alpha-beta self-play as ``rafle train-eval`` does and
returns its labelled positions; ``eval_features`` turns positions into the
sparse inputs of a design (numpy); ``save_eval`` writes float weights as an
evaluation file that ``alphabeta:d=6,eval=PATH`` plays, in every place a
player spec goes; ``eval_values`` gives what a file's integer evaluation
says of positions. ``alphabeta:d=6,eval=zoo`` plays the variant's shipped
evaluation (``rafle/zoo/eval/VARIANT.safetensors``).
"""

from pathlib import Path

from rafle._rafle import _set_eval_zoo, eval_features, eval_games, eval_values, save_eval

# eval=zoo reads the package's own folder (RAFLE_ZOO, when set, comes first).
_set_eval_zoo(Path(__file__).parent / "zoo")

__all__ = ["eval_features", "eval_games", "eval_values", "save_eval"]
