"""Hostile input from Python: any text, number, array or spec given to
``Game``, ``VecEnv`` (construction and ``step`` with any action: out of
range, wrong dtype, wrong shape), ``read_pdn`` and ``Player`` gives a value
or a ``ValueError`` (a ``TypeError`` or ``OverflowError`` where Python's own
conversion refuses the type or size), never a ``PanicException`` (which no
``except Exception`` catches) or a hang. Hypothesis draws the inputs; the
Rust side's properties are in crates/rafle-props."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rafle

# Python's own refusals of a type or a size, besides rafle's ValueError.
REFUSED = (ValueError, TypeError, OverflowError)
CHECK = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

variants = st.sampled_from(rafle.VARIANTS)
# Text near the syntax of FENs and moves, and any text.
fen_text = st.one_of(
    st.text(alphabet="WBK:,-.0123456789abcdefghx \"", max_size=60),
    st.text(max_size=40),
)
move_text = st.one_of(
    st.text(alphabet="0123456789-x:abcdefgh ", max_size=12),
    st.text(max_size=12),
)


@CHECK
@given(variants, fen_text, move_text)
def test_game_reads_any_fen_and_move(variant: str, fen: str, move: str) -> None:
    try:
        g = rafle.Game(variant, fen=fen)
    except ValueError:
        return
    # A FEN that reads prints to one that reads to the same game.
    assert rafle.Game(variant, fen=g.fen()).fen() == g.fen()
    legal = g.legal_moves()
    try:
        g.play(move)
    except ValueError:
        return
    assert g.history()[-1] in legal


@CHECK
@given(st.text(max_size=20), st.one_of(st.none(), st.integers(), st.floats(), st.binary(max_size=8)))
def test_game_refuses_unknown_variants_and_types(variant: str, fen: object) -> None:
    with pytest.raises(REFUSED):
        rafle.Game(variant if variant not in rafle.VARIANTS else variant + "?", fen=fen)  # type: ignore[arg-type]


@CHECK
@given(
    variants,
    st.integers(min_value=-3, max_value=64),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.one_of(st.none(), st.integers(min_value=-3, max_value=10**6)),
    st.sampled_from(["error", "lose", "raise", "", "LOSE"]),
    st.sampled_from(["SameStep", "NextStep", "Disabled", "sameStep", "x"]),
    st.one_of(st.none(), fen_text),
)
def test_vec_env_construction(variant, num_envs, seed, max_plies, illegal, autoreset, fen) -> None:
    try:
        env = rafle.VecEnv(
            variant, num_envs=num_envs, seed=seed, max_plies=max_plies, illegal=illegal, fen=fen, autoreset=autoreset
        )
    except REFUSED:
        return
    obs = env.reset()
    assert obs.shape == (num_envs, *env.observation_shape)


def actions_for(n: int, a: int):
    """Actions of every kind: legal-looking, out of range, negative, floats,
    bools, objects, wrong shapes and lengths, scalars."""
    ints = st.integers(min_value=-(2**63), max_value=2**63 - 1)
    return st.one_of(
        st.lists(st.integers(min_value=-2, max_value=a + 2), min_size=n, max_size=n).map(np.array),
        st.lists(ints, min_size=0, max_size=n + 2).map(lambda v: np.array(v, dtype=np.int64)),
        st.lists(st.floats(allow_nan=True), min_size=n, max_size=n).map(np.array),
        st.lists(st.booleans(), min_size=n, max_size=n).map(np.array),
        st.lists(st.integers(0, 255), min_size=n, max_size=n).map(lambda v: np.array(v, dtype=np.uint8)),
        st.lists(st.integers(0, a), min_size=n, max_size=n).map(lambda v: np.array(v).reshape(n, 1)),
        st.lists(st.text(max_size=3), min_size=n, max_size=n).map(lambda v: np.array(v, dtype=object)),
        st.lists(st.integers(0, a), min_size=n, max_size=n),
        st.integers(),
        st.none(),
        st.text(max_size=5),
    )


@settings(max_examples=200, deadline=None)
@given(variants, st.data())
def test_vec_env_steps_with_any_action(variant: str, data: st.DataObject) -> None:
    env = rafle.VecEnv(variant, num_envs=3, seed=0)
    env.reset()
    for _ in range(3):
        actions = data.draw(actions_for(3, env.num_actions))
        try:
            obs, reward, terminated, truncated, info = env.step(actions)
        except REFUSED:
            # A refused step changes nothing: a legal one still plays.
            pass
        else:
            assert obs.shape[0] == reward.shape[0] == 3
    env.step(env.sample_legal_actions())


pdn_piece = st.sampled_from(
    [
        '[Event "x"]\n', '[Variant "english"]\n', '[GameType "20"]\n', '[GameType "99"]\n',
        '[FEN "W:W21-32:B1-12"]\n', '[FEN "nonsense"]\n', '[Result "2-0"]\n', "1.", "2.", "9-14", "22-17",
        "11-15", "32-28", "17x10", "{c}", "(9-13)", "1-0", "2-0", "*", "\n\n", "[", '"', "\x00", "\ud7ff",
    ]
)


@CHECK
@given(st.lists(pdn_piece, max_size=30).map(" ".join), st.one_of(st.none(), variants, st.just("nope")))
def test_read_pdn_of_any_text(text: str, variant) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            games = rafle.read_pdn("\n" + text, variant)
        except ValueError:
            assert variant == "nope"
            return
    for g in games:
        assert g.game().ply == len(g.moves)


@CHECK
@given(st.text(max_size=300))
def test_read_pdn_of_any_single_line(text: str) -> None:
    # A line may name a file: a missing one is Python's FileNotFoundError.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            rafle.read_pdn(text)
        except (ValueError, FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
            pass


spec_piece = st.sampled_from(
    ["random", "greedy", "alphabeta", "uct", "mcts", "egtb", ":", "=", ",", "d", "t", "n", "4", "0", "0.5s",
     "-1", "99999999999999999999", "x", "ms", "nan", "inf", " "]
)


@CHECK
@given(st.one_of(st.lists(spec_piece, max_size=8).map("".join), st.text(max_size=20)), variants, st.integers(0, 2**64 - 1))
def test_player_specs(spec: str, variant: str, seed: int) -> None:
    # Engines (hub:, dxp:) would start programs or connect, models load
    # files: those specs have tests of their own.
    if any(k in spec.lower() for k in ("hub", "dxp", "model", "zoo")):
        return
    try:
        p = rafle.Player(spec, variant, seed)
    except ValueError:
        return
    # (A spec may ask for a day's search: only instant ones are asked to move.)
    if spec.strip() in ("random", "greedy"):
        assert p.choose(rafle.Game(variant)) in rafle.Game(variant).legal_moves()


def test_more_envs_than_memory_holds_is_a_value_error() -> None:
    # Found next to these tests: it aborted the interpreter in the allocator.
    with pytest.raises(ValueError, match="num_envs"):
        rafle.VecEnv("english", num_envs=10**12)
