"""rafle.Player, rafle.NetworkAgent and rafle.evaluate: baselines by spec,
Python networks and policies batched across games, errors and Ctrl-C."""

from __future__ import annotations

import math
import os
import signal
import threading
import time
from pathlib import Path
from typing import Callable

import numpy as np
import pytest

import rafle
from board_codec import BOARD, num_actions

NUM_ACTIONS = {v: num_actions(n, layout) for v, (n, layout) in BOARD.items()}


def zeros(actions: int) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """An evaluator with no opinion: logits 0, value 0."""

    def evaluate(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros((len(obs), actions), np.float32), np.zeros(len(obs), np.float32)

    return evaluate


@pytest.mark.parametrize("variant", rafle.VARIANTS)
def test_alphabeta_beats_random_and_the_seed_fixes_the_games(variant: str) -> None:
    games = 6 if BOARD[variant][0] == 10 else 10
    r = rafle.evaluate("alphabeta:3", "random", variant=variant, games=games, seed=3, progress=False)
    assert r.games == games and r.wins + r.draws + r.losses == games
    assert r.score > 0.85, r
    assert r.a == "alphabeta:3" and r.b == "random"
    assert r.pdn.count("[Event ") == games
    again = rafle.evaluate("alphabeta:3", "random", variant=variant, games=games, seed=3, progress=False)
    assert (again.wins, again.draws, again.losses) == (r.wins, r.draws, r.losses)
    assert again.pdn == r.pdn
    other = rafle.evaluate("alphabeta:3", "random", variant=variant, games=games, seed=4, progress=False)
    assert other.pdn != r.pdn


def test_match_result_fields_and_pdn_file(tmp_path: Path) -> None:
    path = tmp_path / "games.pdn"
    r = rafle.evaluate("greedy", "random", variant="checkers", games=8, seed=1, pdn=path, progress=False)
    assert path.read_text() == r.pdn
    assert r.score == pytest.approx((r.wins + r.draws / 2) / r.games)
    lo, hi = r.elo_ci
    assert lo <= r.elo <= hi
    assert sum(r.pentanomial) == 4
    assert r.a_stats["moves"] > 0 and "avg_batch" not in r.a_stats
    assert "greedy" in str(r) and "rafle.MatchResult" in repr(r)
    with pytest.raises(ValueError, match="sprt"):
        rafle.evaluate("greedy", "random", variant="checkers", games=8, sprt=(5, 0), progress=False)
    s = rafle.evaluate("alphabeta:2", "random", variant="checkers", games=400, sprt=(0, 100), progress=False)
    assert s.sprt is not None and s.sprt[0] == "H1" and s.games < 400


def test_a_python_policy_is_called_once_per_round_with_every_game() -> None:
    sizes: list[int] = []
    rng = np.random.default_rng(0)

    def random_policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        assert obs.dtype == np.float32 and mask.dtype == np.bool_
        assert obs.shape[0] == mask.shape[0] and mask.shape[1] == 896
        sizes.append(len(obs))
        return np.array([rng.choice(np.flatnonzero(m)) for m in mask])

    games = 100
    r = rafle.evaluate(random_policy, "random", variant="checkers", games=games, seed=2, progress=False)
    # Batched: about half the games wait for the policy at any round.
    assert max(sizes) >= games // 2 - 10, max(sizes)
    assert len(sizes) < sum(sizes) / 10
    assert r.a_stats["calls"] == len(sizes) and r.a_stats["evals"] == sum(sizes)
    # Two random players: 0.5 within 4 standard deviations of the binomial.
    sd = math.sqrt(0.25 / games)
    assert abs(r.score - 0.5) < 4 * sd, r


def test_network_agent_batches_its_leaves_and_plays_legal_moves() -> None:
    calls: list[int] = []
    base = zeros(896)

    def counting(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        calls.append(len(obs))
        return base(obs)

    agent = rafle.NetworkAgent(counting, simulations=8, name="zero")
    r = rafle.evaluate(agent, "random", variant="thai", games=16, seed=0, progress=False)
    assert r.a == "zero"
    assert r.a_stats["avg_batch"] > 4, r.a_stats
    assert sum(calls) == r.a_stats["evals"]
    g = rafle.Game("thai")
    assert agent.choose(g) in g.legal_moves()
    greedy_policy = rafle.NetworkAgent(counting, simulations=0)
    assert greedy_policy.choose(g) in g.legal_moves()


def test_wdl_values_and_torch_tensors_are_accepted() -> None:
    torch = pytest.importorskip("torch")

    def wdl(obs: np.ndarray) -> tuple[object, object]:
        k = len(obs)
        return torch.zeros(k, 896, dtype=torch.bfloat16), torch.tensor([[0.5, 0.3, 0.2]] * k)

    r = rafle.evaluate(rafle.NetworkAgent(wdl, simulations=4), "random", variant="thai", games=4, progress=False)
    assert r.games == 4


@pytest.mark.parametrize(
    "spec", ["random", "greedy", "alphabeta:2", "alphabeta:t=20ms", "uct:30", "mcts:30"]
)
def test_every_spec_is_a_player(spec: str) -> None:
    for variant in ("thai", "international"):
        g = rafle.Game(variant)
        p = rafle.Player(spec, variant, seed=1)
        for _ in range(6):
            m = p.choose(g)
            assert m in g.legal_moves(), (spec, m)
            g.play(m)


def test_model_specs_play_a_trained_checkpoint(tiny_run: Callable[[str], Path]) -> None:
    pytest.importorskip("torch")
    run = tiny_run("thai")
    spec = f"model:{run / 'latest.safetensors'}:8"
    p = rafle.Player(spec, "thai")
    g = rafle.Game("thai")
    assert p.choose(g) in g.legal_moves()
    r = rafle.evaluate(spec, "random", variant="thai", games=4, progress=False)
    assert r.a == spec and r.games == 4
    with pytest.raises(ValueError, match="trained for thai"):
        rafle.Player(spec, "checkers")


@pytest.mark.parametrize(
    "spec, variant, needle",
    [
        ("minimax:3", "thai", "minimax:3"),
        ("alphabeta:0", "thai", "depth"),
        ("alphabeta", "thai", "needs options"),
        ("uct:-1", "thai", "simulation count"),
        ("random", "chess", "chess"),
        ("model:", "thai", "checkpoint path"),
        ("model:/no/such/file.safetensors", "thai", "not found"),
    ],
)
def test_bad_specs_and_variants_are_value_errors(spec: str, variant: str, needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        rafle.Player(spec, variant)


def test_bad_arguments_are_value_errors() -> None:
    with pytest.raises(ValueError, match="unknown player"):
        rafle.evaluate("nobody", "random", variant="thai", games=2, progress=False)
    with pytest.raises(ValueError, match="games"):
        rafle.evaluate("random", "random", variant="thai", games=0, progress=False)
    with pytest.raises(ValueError, match="a player is"):
        rafle.evaluate(42, "random", variant="thai", games=2, progress=False)
    with pytest.raises(ValueError, match="gumbel.*puct"):
        rafle.NetworkAgent(zeros(896), algorithm="mcts")
    with pytest.raises(ValueError, match="gumbel_m"):
        rafle.NetworkAgent(zeros(896), gumbel_m=0)
    with pytest.raises(ValueError, match="callable"):
        rafle.NetworkAgent("not a function")
    g = rafle.Game("thai", fen="W:WK29:BK4")
    with pytest.raises(ValueError, match="plays checkers"):
        rafle.Player("random", "checkers").choose(g)


def bad(kind: str) -> Callable[[np.ndarray], object]:
    def evaluate(obs: np.ndarray) -> object:
        k = len(obs)
        logits, value = np.zeros((k, 896), np.float32), np.zeros(k, np.float32)
        if kind == "logit shape":
            return np.zeros((k, 900), np.float32), value
        if kind == "value shape":
            return logits, np.zeros((k, 2), np.float32)
        if kind == "nan":
            value[-1] = np.nan
            return logits, value
        if kind == "nan logits":
            return np.full((k, 896), np.nan, np.float32), value
        if kind == "dtype":
            return np.array([["x"] * 896] * k), value
        if kind == "wdl sum":
            return logits, np.ones((k, 3), np.float32)
        if kind == "range":
            return logits, np.full(k, 3.0, np.float32)
        if kind == "not a pair":
            return logits
        raise KeyError(f"my evaluator broke on {k} leaves")

    return evaluate


@pytest.mark.parametrize(
    "kind, error, needle",
    [
        ("logit shape", ValueError, r"shape \(\d+, 900\), expected \(\d+, 896\)"),
        ("value shape", ValueError, r"value has shape"),
        ("nan", ValueError, "NaN"),
        ("nan logits", ValueError, "legal action"),
        ("dtype", ValueError, "must be numbers"),
        ("wdl sum", ValueError, "summing to 1"),
        ("range", ValueError, r"\[-1, 1\]"),
        ("not a pair", ValueError, r"\(logits, value\)"),
        ("raise", KeyError, "my evaluator broke"),
    ],
)
def test_evaluator_errors_name_the_problem(kind: str, error: type, needle: str) -> None:
    agent = rafle.NetworkAgent(bad(kind), simulations=4)
    with pytest.raises(error, match=needle):
        rafle.evaluate(agent, "random", variant="thai", games=2, progress=False)
    with pytest.raises(error, match=needle):
        agent.choose(rafle.Game("thai"))


def test_an_illegal_policy_action_is_a_value_error() -> None:
    def first_action(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.zeros(len(obs), np.int64)

    with pytest.raises(ValueError, match="not legal"):
        rafle.evaluate(first_action, "random", variant="thai", games=2, progress=False)

    def floats(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.zeros(len(obs), np.float32)

    with pytest.raises(ValueError, match="integers"):
        rafle.evaluate(floats, "random", variant="thai", games=2, progress=False)


def test_ctrl_c_stops_a_long_match() -> None:
    # A shell starts background jobs with SIGINT ignored, and Python then
    # installs no handler: set Python's own, as an interactive session has it.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            rafle.evaluate("alphabeta:5", "alphabeta:5", variant="thai", games=20_000, progress=False)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    # A liveness bound, not a speed figure: the whole match takes minutes.
    assert time.monotonic() - start < 60


def test_the_gil_is_released_while_rust_plays() -> None:
    # Another thread counts only while a match is in flight. Held for the
    # whole call, the GIL would let it run at most once per call (at the
    # edge of the call), however loaded the machine; released, it runs on.
    during = 0
    in_call = threading.Event()
    done = threading.Event()

    def count() -> None:
        nonlocal during
        while not done.is_set():
            if in_call.is_set():
                during += 1
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    calls = 0
    try:
        while during < 10 and calls < 20:
            in_call.set()
            rafle.evaluate("alphabeta:4", "alphabeta:4", variant="checkers", games=20, progress=False)
            in_call.clear()
            calls += 1
    finally:
        done.set()
        t.join()
    assert during > 2 * calls, (during, calls)
