"""rafle.VecEnv: shapes, dtypes, seeding, errors, table-driven over the variants."""

from __future__ import annotations

import numpy as np
import pytest

import rafle

ACTIONS = {"thai": 896, "international": 1800, "english": 896, "checkers": 896}
# Every integer type that can hold an action id (896 or 1800).
INT_DTYPES = [np.int16, np.int32, np.int64, np.uint16, np.uint32, np.uint64, np.intp]

variants = pytest.mark.parametrize("variant", rafle.VARIANTS)


@variants
def test_shapes_and_dtypes(variant: str) -> None:
    env = rafle.VecEnv(variant, num_envs=5, seed=0)
    n = 10 if variant == "international" else 8
    assert env.num_envs == 5 and env.num_actions == ACTIONS[variant]
    assert env.observation_shape == (8, n, n)
    obs = env.reset()
    assert obs.shape == (5, 8, n, n) and obs.dtype == np.float32
    assert obs.flags.c_contiguous and obs.flags.writeable
    mask = env.legal_mask()
    assert mask.shape == (5, env.num_actions) and mask.dtype == np.bool_
    assert (mask.sum(1) == rafle.Game(variant).perft(1)).all()
    a = env.sample_legal_actions()
    assert a.shape == (5,) and a.dtype == np.int64 and mask[np.arange(5), a].all()
    obs2, reward, terminated, truncated, info = env.step(a)
    assert obs2.shape == obs.shape and obs2.dtype == np.float32
    assert reward.shape == (5,) and reward.dtype == np.float32
    assert terminated.dtype == np.bool_ and truncated.dtype == np.bool_
    assert info["to_play"].shape == (5,)
    assert info["final_obs"].shape == (0, 8, n, n) and len(info["done_envs"]) == 0


@variants
def test_returned_arrays_are_copies(variant: str) -> None:
    env = rafle.VecEnv(variant, num_envs=3, seed=0)
    obs, mask = env.reset(), env.legal_mask()
    keep_obs, keep_mask = obs.copy(), mask.copy()
    env.step(env.sample_legal_actions())
    assert (obs == keep_obs).all() and (mask == keep_mask).all()
    obs[:] = 7.0  # writing to a returned array does not touch the env
    assert env.observe().max() <= 1.0


@variants
def test_seeding_is_deterministic(variant: str) -> None:
    def run(seed: int) -> list[np.ndarray]:
        env = rafle.VecEnv(variant, num_envs=4, seed=seed)
        out = []
        for _ in range(30):
            a = env.sample_legal_actions()
            out.append(a)
            env.step(a)
        return out

    a, b, c = run(1), run(1), run(2)
    assert all((x == y).all() for x, y in zip(a, b))
    assert any((x != y).any() for x, y in zip(a, c))
    env = rafle.VecEnv(variant, num_envs=4, seed=9)
    env.reset(seed=1)
    assert (env.sample_legal_actions() == a[0]).all()


@variants
@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_any_integer_dtype(variant: str, dtype: type) -> None:
    env = rafle.VecEnv(variant, num_envs=3, seed=0)
    a = env.sample_legal_actions()
    env.step(a.astype(dtype))
    assert env.observe().shape[0] == 3


def test_lists_and_non_contiguous_arrays() -> None:
    env = rafle.VecEnv("thai", num_envs=3, seed=0)
    env.step([int(x) for x in env.sample_legal_actions()])
    a = np.repeat(env.sample_legal_actions(), 2)[::2]  # a strided view
    env.step(a)


@variants
def test_bad_actions_raise(variant: str) -> None:
    env = rafle.VecEnv(variant, num_envs=3, seed=0)
    before = env.observe()
    good = env.sample_legal_actions()
    mask = env.legal_mask()
    illegal = good.copy()
    illegal[1] = int(np.flatnonzero(~mask[1])[0])
    cases = {
        "shape": good[:2],
        "shape \\(3,\\), got \\(3, 1\\)": good.reshape(3, 1),
        "integers": good.astype(np.float64),
        "out of range": np.where(np.arange(3) == 1, -1, good),
        "is not legal": illegal,
    }
    for reason, bad in cases.items():
        with pytest.raises(ValueError, match=reason):
            env.step(bad)
    with pytest.raises(ValueError, match="out of range"):
        env.step(np.where(np.arange(3) == 2, env.num_actions, good))
    with pytest.raises(ValueError):
        env.step("hello")
    with pytest.raises(ValueError, match="env 1"):
        env.step(illegal)
    assert (env.observe() == before).all()  # nothing was played
    env.step(good)


def test_bad_constructor_arguments() -> None:
    for kwargs in (
        dict(variant="chess"),
        dict(variant="thai", num_envs=0),
        dict(variant="thai", illegal="ignore"),
        dict(variant="thai", fen="not a fen"),
    ):
        with pytest.raises(ValueError):
            rafle.VecEnv(**kwargs)


@variants
def test_illegal_lose_mode(variant: str) -> None:
    env = rafle.VecEnv(variant, num_envs=2, seed=0, illegal="lose")
    a = env.sample_legal_actions()
    a[0] = int(np.flatnonzero(~env.legal_mask()[0])[0])
    _, reward, terminated, truncated, info = env.step(a)
    assert reward[0] == -1.0 and terminated[0] and not truncated[0]
    assert list(info["done_envs"]) == [0] and info["reason"] == ["illegal action"]
    first = rafle.Game(variant).turn
    assert info["winner"][0] == (0 if first == "black" else 1)  # the other side won
    assert (env.legal_mask()[0].sum()) == rafle.Game(variant).perft(1)  # auto-reset


@variants
def test_truncation_and_auto_reset(variant: str) -> None:
    env = rafle.VecEnv(variant, num_envs=4, seed=3, max_plies=6)
    start = env.reset()
    seen_trunc = False
    for _ in range(60):
        obs, reward, terminated, truncated, info = env.step(env.sample_legal_actions())
        done = np.flatnonzero(terminated | truncated)
        assert (info["done_envs"] == done).all()
        assert info["final_obs"].shape[0] == len(done)
        assert (obs[done] == start[done]).all()  # reset in the same step
        if truncated.any():
            seen_trunc = True
            assert (reward[truncated] == 0).all()
            assert (info["episode_length"][truncated[done]] == 6).all()
            assert all(r == "truncated" for r, t in zip(info["reason"], truncated[done]) if t)
        assert not (terminated & truncated).any()
    assert seen_trunc


@variants
def test_fen_of_env(variant: str) -> None:
    env = rafle.VecEnv(variant, num_envs=2)
    assert env.fen(1) == rafle.Game(variant).fen()
    with pytest.raises(ValueError):
        env.fen(2)
