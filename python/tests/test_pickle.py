"""Pickling and copying keep everything (state, random streams, history), mid-game
and inside a multi-capture, for VecEnv, Game and every adapter."""

from __future__ import annotations

import copy
import pickle
from typing import Any, Callable

import numpy as np
import pytest

import rafle
from endgames import FINAL_MOVE
from players import FirstMove

COPIES: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda x: pickle.loads(pickle.dumps(x)),
    "deepcopy": copy.deepcopy,
    "copy": copy.copy,
}
copies = pytest.mark.parametrize("how", COPIES)
# copy.copy of a Python object is shallow: only the compiled classes copy whole.
deep_copies = pytest.mark.parametrize("how", ["pickle", "deepcopy"])
variants = pytest.mark.parametrize("variant", rafle.VARIANTS)
MODES = ("NextStep", "SameStep", "Disabled")


def capture_under_way(obs: np.ndarray) -> bool:
    """Plane 5 marks the piece that must go on capturing."""
    return bool(obs[..., 5, :, :].any())


def play_until_a_capture_is_under_way(env: rafle.VecEnv) -> None:
    for _ in range(3000):
        if capture_under_way(env.observe()):
            return
        done = ~env.legal_mask().any(axis=1)
        if done.any():  # Disabled: finished games wait for a reset
            env.reset(mask=done)
        env.step(env.sample_legal_actions())
    raise AssertionError("no capture chain")


def run(env: rafle.VecEnv, steps: int) -> list[np.ndarray]:
    out = []
    for _ in range(steps):
        done = ~env.legal_mask().any(axis=1) & (env.autoreset == "Disabled")
        if done.any():
            env.reset(mask=done)
        obs, reward, terminated, truncated, info = env.step(env.sample_legal_actions())
        out += [obs, reward, terminated, truncated, info["done_envs"], info["reason"]]
    return out


@variants
@pytest.mark.parametrize("mode", MODES)
@copies
def test_vec_env_mid_capture(variant: str, mode: str, how: str) -> None:
    env = rafle.VecEnv(variant, num_envs=8, seed=1, max_plies=50, illegal="lose", autoreset=mode)
    play_until_a_capture_is_under_way(env)
    twin = COPIES[how](env)
    assert (twin.variant, twin.num_envs, twin.autoreset) == (variant, 8, mode)
    assert (twin.max_plies, twin.illegal, twin.start_fen) == (50, "lose", None)
    for f in ("observe", "legal_mask", "to_play"):
        assert (getattr(twin, f)() == getattr(env, f)()).all(), f
    for i in range(8):
        assert twin.game(i).history() == env.game(i).history() and twin.ply(i) == env.ply(i)
    for x, y in zip(run(env, 60), run(twin, 60)):  # the random streams went along
        assert (np.asarray(x) == np.asarray(y)).all()
    assert twin.observe(copy=False) is not env.observe(copy=False)


@copies
def test_vec_env_waiting_to_reset(how: str) -> None:
    fen, move = FINAL_MOVE["thai"]
    env = rafle.VecEnv("thai", num_envs=1, fen=fen, autoreset="NextStep")
    env.step(env.move_actions(0, move))
    twin = COPIES[how](env)
    assert not twin.legal_mask().any()
    a, b = env.step([-1]), twin.step([-1])  # both reset now
    assert (a[0] == b[0]).all() and twin.legal_mask().any()


def test_a_damaged_pickle_is_refused() -> None:
    env = rafle.VecEnv("thai", num_envs=2)
    cls, args, state = env.__reduce__()
    fresh = cls(*args)
    with pytest.raises(ValueError, match="cannot restore the env"):
        fresh.__setstate__((*state[:4], b"rafleVE1 not a snapshot"))
    with pytest.raises(ValueError, match="autoreset"):
        fresh.__setstate__((*state[:3], "Sometimes", state[4]))


@variants
@copies
def test_game_of_an_env_mid_capture(variant: str, how: str) -> None:
    env = rafle.VecEnv(variant, num_envs=4, seed=5)
    play_until_a_capture_is_under_way(env)
    for i in range(4):
        g = env.game(i)
        h = COPIES[how](g)
        assert h.history() == g.history() and h.fen() == g.fen() and h.legal_moves() == g.legal_moves()
        if h.legal_moves():
            h.play(h.legal_moves()[0])
            assert h.history() != g.history()  # independent


def adapters() -> dict[str, Callable[[str], Any]]:
    gym = pytest.importorskip("gymnasium")

    return {
        "GameEnv": lambda v: gym.make(f"rafle/{v}-v0"),
        "GameEnv+opponent": lambda v: gym.make(f"rafle/{v}-v0", opponent=FirstMove(), player=0),
        "VectorEnv": lambda v: gym.make_vec(f"rafle/{v}-v0", num_envs=3),
    }


@variants
@pytest.mark.parametrize("name", ["GameEnv", "GameEnv+opponent", "VectorEnv"])
@deep_copies
def test_gymnasium_adapters_mid_game(variant: str, name: str, how: str) -> None:
    env = adapters()[name](variant)
    env.action_space.seed(3)
    obs, _ = env.reset(seed=2)
    for _ in range(300):  # into a multi-capture
        if capture_under_way(obs):
            break
        obs, _, terminated, truncated, _ = env.step(env.action_space.sample())
        if name != "VectorEnv" and (terminated or truncated):
            obs, _ = env.reset()
    assert capture_under_way(obs)
    twin = COPIES[how](env)
    for _ in range(40):
        a, b = env.action_space.sample(), twin.action_space.sample()
        assert np.array_equal(a, b)  # the space's random stream went along
        x, y = env.step(a), twin.step(b)
        for u, w in zip(x[:4], y[:4]):
            assert np.array_equal(u, w)
        assert x[4].keys() == y[4].keys()
        if name == "VectorEnv":
            continue  # a Disabled-free vector env never needs a reset
        if x[2] or x[3]:
            assert np.array_equal(env.reset(seed=1)[0], twin.reset(seed=1)[0])


@variants
@deep_copies
def test_pettingzoo_aec_env_mid_capture(variant: str, how: str) -> None:
    pz = pytest.importorskip("rafle.pettingzoo")
    e = pz.env(variant, seed=4)
    e.reset(seed=4)
    for _ in range(400):
        if capture_under_way(e.last()[0]["observation"]):
            break
        e.step(e.action_space(e.agent_selection).sample())
    assert capture_under_way(e.last()[0]["observation"])
    twin = COPIES[how](e)
    for _ in range(80):
        if not e.agents:
            break
        agent = e.agent_selection
        x, y = e.last(), twin.last()
        assert agent == twin.agent_selection and np.array_equal(x[0]["observation"], y[0]["observation"])
        assert x[1:] == y[1:]
        if x[2] or x[3]:
            e.step(None)
            twin.step(None)
            continue
        a, b = e.action_space(agent).sample(), twin.action_space(agent).sample()
        assert a == b
        e.step(a)
        twin.step(b)


@variants
@deep_copies
def test_pettingzoo_parallel_env_mid_capture(variant: str, how: str) -> None:
    pz = pytest.importorskip("rafle.pettingzoo")
    e = pz.parallel_env(variant, seed=4)
    obs, _ = e.reset(seed=4)
    for _ in range(400):
        if any(capture_under_way(o["observation"]) for o in obs.values()):
            break
        obs, *_ = e.step({a: e.action_space(a).sample() for a in e.agents})
    assert any(capture_under_way(o["observation"]) for o in obs.values())
    twin = COPIES[how](e)
    for _ in range(80):
        if not e.agents:
            break
        x = {a: e.action_space(a).sample() for a in e.agents}
        y = {a: twin.action_space(a).sample() for a in twin.agents}
        assert x == y
        out, out_twin = e.step(x), twin.step(y)
        for a in out[0]:
            assert np.array_equal(out[0][a]["observation"], out_twin[0][a]["observation"])
        assert out[1:] == out_twin[1:]
