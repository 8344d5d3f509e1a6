"""Learned alpha-beta evaluations from Python: the features Python sees are
the ones Rust's integer evaluation uses, files written from Python play,
and bad weights or specs are ValueErrors."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import rafle


def positions(variant: str, seed: int, n: int = 40) -> list[str]:
    """FENs of random games' positions, kings and both sides to move included."""
    rng = np.random.default_rng(seed)
    out: list[str] = []
    while len(out) < n:
        g = rafle.Game(variant)
        while not g.is_over() and len(out) < n:
            out.append(g.fen())
            moves = g.legal_moves()
            g.play(moves[rng.integers(len(moves))])
    return out


def random_weights(design: str, num_inputs: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    def r(*shape: int, scale: float) -> np.ndarray:
        return (rng.uniform(-scale, scale, size=shape)).astype(np.float32)
    if design == "patterns":
        return {"mg": r(num_inputs, scale=0.5), "eg": r(num_inputs, scale=0.5)}
    h, h2 = 8, 4
    return {"w1": r(num_inputs, h, scale=0.3), "b1": r(h, scale=0.5), "w2": r(2 * h, h2, scale=1.0),
            "b2": r(h2, scale=0.5), "w3": r(h2, scale=1.5), "b3": r(1, scale=0.5)}


def float_model(design: str, w: dict[str, np.ndarray], x: dict) -> np.ndarray:
    """The design's float model over eval_features' arrays (the docstring's formulas)."""
    if design == "patterns":
        idx, val, phase = x["indices"], x["values"], x["phase"]
        mg = (w["mg"][idx] * val).sum(1)
        eg = (w["eg"][idx] * val).sum(1)
        return np.asarray(phase * mg + (1 - phase) * eg)
    w1 = np.vstack([w["w1"], np.zeros((1, w["w1"].shape[1]), np.float32)])  # the padding row
    us = np.clip(w1[x["indices"]].sum(1) + w["b1"], 0, 1)
    them = np.clip(w1[x["them"]].sum(1) + w["b1"], 0, 1)
    z = np.clip(np.hstack([us, them]) @ w["w2"] + w["b2"], 0, 1)
    return np.asarray(z @ w["w3"] + w["b3"][0])


@pytest.mark.parametrize("variant", rafle.VARIANTS)
@pytest.mark.parametrize("design", ["patterns", "net"])
def test_python_features_are_those_of_the_integer_evaluation(variant: str, design: str, tmp_path: Path) -> None:
    fens = positions(variant, seed=1)
    x = rafle.eval_features(variant, fens, design, hidden=8, hidden2=4)
    assert x["indices"].shape == x["values"].shape and x["indices"].shape[0] == len(fens)
    assert x["indices"].dtype == np.int64 and x["values"].dtype == np.float32
    assert ((0 <= x["indices"]) & (x["indices"] <= x["num_inputs"])).all()
    w = random_weights(design, x["num_inputs"], np.random.default_rng(3))
    path = tmp_path / "e.safetensors"
    rafle.save_eval(path, variant, design, w, metadata={"by": "test"})
    want = 100 * float_model(design, w, x)
    got = rafle.eval_values(str(path), variant, fens).astype(np.float64)
    # Integer rounding only: window weights in thousandths (patterns), 1024ths and 256ths (net).
    tol = 3 + 0.01 * np.abs(want)
    assert (np.abs(got - want) <= tol).all(), (variant, design, got[:5], want[:5])
    # Games and FEN strings give the same features.
    g = rafle.Game(variant, fens[7])
    again = rafle.eval_features(variant, [g], design, hidden=8, hidden2=4)
    assert (again["indices"][0] == x["indices"][7]).all()


def test_a_file_written_in_python_plays_and_names_its_variant(tmp_path: Path) -> None:
    x = rafle.eval_features("thai", positions("thai", 2, 2), "patterns")
    w = random_weights("patterns", x["num_inputs"], np.random.default_rng(0))
    path = tmp_path / "thai.safetensors"
    rafle.save_eval(path, "thai", "patterns", w)
    g = rafle.Game("thai")
    p = rafle.Player(f"alphabeta:d=2,eval={path}", "thai", seed=0)
    assert p.choose(g) in g.legal_moves()
    m = rafle.evaluate(f"alphabeta:d=1,eval={path}", "random", variant="thai", games=2, progress=False)
    assert m.wins + m.draws + m.losses == 2
    with pytest.raises(ValueError, match="is for thai"):
        rafle.Player(f"alphabeta:d=2,eval={path}", "russian")


def test_bad_weights_and_arguments_are_value_errors(tmp_path: Path) -> None:
    n = rafle.eval_features("thai", [rafle.Game("thai")], "patterns")["num_inputs"]
    good = {"mg": np.zeros(n, np.float32), "eg": np.zeros(n, np.float32)}
    out = tmp_path / "x.safetensors"
    cases = [
        (lambda: rafle.save_eval(out, "thai", "patterns", {"mg": good["mg"]}), "no tensor \"eg\""),
        (lambda: rafle.save_eval(out, "thai", "patterns", {**good, "mg": np.zeros(3, np.float32)}), "need mg and eg"),
        (lambda: rafle.save_eval(out, "thai", "patterns", {**good, "eg": np.full(n, np.nan, np.float32)}), "outside"),
        (lambda: rafle.save_eval(out, "thai", "tree", good), "design must be"),
        (lambda: rafle.save_eval(out, "chess", "patterns", good), "chess"),
        (lambda: rafle.save_eval(out, "thai", "patterns", {**good, "mg": np.zeros(n, np.float64)}), "float32"),
        (lambda: rafle.eval_features("thai", ["not a fen"], "patterns"), "positions\\[0\\]"),
        (lambda: rafle.eval_features("thai", [rafle.Game("russian")], "patterns"), "russian game"),
        (lambda: rafle.eval_games("thai", 1, depth=0), "depth"),
        (lambda: rafle.eval_values(str(tmp_path / "none.safetensors"), "thai", []), "none.safetensors"),
        (lambda: rafle.Player("alphabeta:eval=zoo", "thai"), "needs a depth or a time"),
    ]
    for call, needle in cases:
        with pytest.raises(ValueError, match=needle):
            call()
    assert not out.exists()


def test_self_play_positions_are_labelled() -> None:
    d = rafle.eval_games("thai", 4, depth=2, seed=5, result_weight=0.5)
    n = len(d["fen"])
    assert n > 0 and d["score"].shape == (n,) and d["result"].shape == (n,) and d["target"].shape == (n,)
    assert all(math.isnan(r) or r in (0.0, 0.5, 1.0) for r in d["result"])
    assert ((0 <= d["target"]) & (d["target"] <= 1)).all()
    # The target blends the result with sigmoid(score / 100).
    s = 1 / (1 + np.exp(-d["score"] / 100))
    known = ~np.isnan(d["result"])
    assert np.allclose(d["target"][known], 0.5 * d["result"][known] + 0.5 * s[known], atol=1e-5)
    # The same seed plays the same games.
    assert rafle.eval_games("thai", 4, depth=2, seed=5)["fen"] == d["fen"]
