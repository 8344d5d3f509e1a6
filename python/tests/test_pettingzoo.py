"""rafle.pettingzoo against PettingZoo's own test suite (API, parallel API, seed,
max_cycles, render, performance benchmark), for every variant, and its semantics."""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import (  # noqa: E402
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    performance_benchmark,
    render_test,
    seed_test,
)

import rafle  # noqa: E402
import rafle.pettingzoo  # noqa: E402
from rafle.pettingzoo import env as make_env  # noqa: E402
from rafle.pettingzoo import parallel_env  # noqa: E402

from endgames import FINAL_MOVE, mover_reward  # noqa: E402

variants = pytest.mark.parametrize("variant", rafle.VARIANTS)
# Dict observations (observation + action_mask) are what PettingZoo asks for
# masked envs, yet api_test warns about them for any env not on its own list.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably"),
]


@variants
def test_api(variant: str) -> None:
    api_test(make_env(variant=variant), num_cycles=300)


@variants
def test_parallel_api(variant: str) -> None:
    parallel_api_test(parallel_env(variant), num_cycles=300)


@variants
def test_seed(variant: str) -> None:
    seed_test(lambda: make_env(variant=variant), num_cycles=100)
    parallel_seed_test(lambda: parallel_env(variant), num_cycles=100)


class _Module:
    """What max_cycles_test takes: a module with env and parallel_env."""

    def __init__(self, variant: str) -> None:
        self.env = lambda **kw: make_env(variant, **kw)
        self.parallel_env = lambda **kw: parallel_env(variant, **kw)


def _alternates(variant: str, max_cycles: int) -> bool:
    """Do the agents of the seeded AEC game alternate, one step each, for
    ``max_cycles`` cycles (no multi-capture in between)?"""
    e = make_env(variant, max_cycles=max_cycles)
    e.reset()
    order = []
    for agent in e.agent_iter():
        _, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        e.step(e.action_space(agent).sample())
        order.append(agent)
    return all(a != b for a, b in zip(order, order[1:]))


@variants
def test_max_cycles(variant: str) -> None:
    # PettingZoo's check counts the steps of each agent and expects them
    # equal, which holds when the agents alternate; a multi-capture (one agent
    # stepping twice) in the seeded game's first cycles breaks it, and
    # test_max_cycles_counts_the_steps_of_each_agent checks rafle's count then.
    if not _alternates(variant, 4):
        pytest.skip("the seeded game has a multi-capture in its first four cycles")
    max_cycles_test(_Module(variant))


@variants
def test_max_cycles_counts_the_steps_of_each_agent(variant: str) -> None:
    e = make_env(variant, max_cycles=5)
    e.reset()
    steps = 0
    for agent in e.agent_iter():
        _, _, terminated, truncated, info = e.last()
        if terminated or truncated:
            assert truncated and info["winner"] == info["reason"] == -1
            e.step(None)
            continue
        e.step(e.action_space(agent).sample())
        steps += 1
    assert steps == 2 * 5  # a cycle is one step of each agent
    p = parallel_env(variant, max_cycles=5)
    p.reset()
    for n in range(1, 10):  # noqa: B007 (n, the cycles played, is read after the loop)
        *_, truncations, _ = p.step({a: p.action_space(a).sample() for a in p.agents})
        if any(truncations.values()):
            break
    assert n == 5 and p.agents == []
    with pytest.raises(ValueError, match="max_cycles"):
        make_env(variant, max_cycles=0)


@variants
def test_render(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: make_env(variant, render_mode=render_mode))
    assert "to move" in capsys.readouterr().out  # human mode printed the board
    p = parallel_env(variant, render_mode="rgb_array")  # render_test takes AEC envs only
    p.reset()
    image = p.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3


# PettingZoo's benchmark plays for a fixed five seconds, so every variant
# costs 80 s: the default run plays the first one, RAFLE_LONG_PETTINGZOO=1
# all of them (the other tests here cover every variant).
benchmarked = rafle.VARIANTS if os.environ.get("RAFLE_LONG_PETTINGZOO") else rafle.VARIANTS[:1]


@pytest.mark.parametrize("variant", benchmarked)
def test_performance_benchmark(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    performance_benchmark(make_env(variant))  # five seconds of play
    assert "turns per second" in capsys.readouterr().out


@variants
def test_infos_have_the_same_keys_at_every_step(variant: str) -> None:
    e = make_env(variant, max_plies=30)
    e.reset(seed=1)
    keys = {"winner", "reason", "episode_length"}
    for agent in e.agent_iter():
        _, _, terminated, truncated, info = e.last()
        assert info.keys() == keys and all(isinstance(v, int) for v in info.values())
        e.step(None if terminated or truncated else e.action_space(agent).sample())
    assert info["reason"] >= 0 and info["episode_length"] > 0  # how the game ended


@variants
def test_parallel_view_plays_the_agent_to_act(variant: str) -> None:
    p = parallel_env(variant, max_plies=40)
    obs, infos = p.reset(seed=2)
    passing = np.zeros(p.action_space("player_0").n, dtype=np.int8)
    passing[rafle.pettingzoo.PASS] = 1
    while p.agents:
        movers = [a for a in p.agents if not (obs[a]["action_mask"] == passing).all()]
        assert len(movers) == 1  # the other agent may only pass
        mover = movers[0]
        other = next(a for a in p.agents if a != mover)
        assert obs[mover]["action_mask"][rafle.pettingzoo.PASS] == 0  # never a legal move
        legal = int(np.flatnonzero(obs[mover]["action_mask"])[0])
        # The other agent's action, even an illegal one, is not used.
        obs, rewards, terminations, truncations, infos = p.step({mover: legal, other: 17})
        assert set(obs) == set(rewards) == set(infos) == {mover, other}
    assert sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])


@variants
def test_full_game_rewards(variant: str) -> None:
    e = make_env(variant=variant, max_plies=200)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        assert obs["observation"].shape == rafle.VecEnv(variant).observation_shape
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(legal)))
        steps += 1
    assert steps > 0 and e.agents == []
    assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])


@variants
def test_other_agent_sees_the_turned_board(variant: str) -> None:
    e = make_env(variant=variant)
    e.reset()
    mover = e.agent_selection
    other = next(a for a in e.possible_agents if a != mover)
    mine, theirs = e.observe(mover), e.observe(other)
    assert mine["action_mask"].any() and not theirs["action_mask"].any()
    # Own men of one are the opponent men of the other, turned half a turn.
    assert (mine["observation"][0] == theirs["observation"][2][::-1, ::-1]).all()


def test_render_ansi() -> None:
    e = make_env(variant="thai", render_mode="ansi")
    e.reset()
    assert rafle.Game("thai").fen() in e.render()


@variants
def test_render_shows_the_board_during_and_after_the_game(variant: str) -> None:
    fen, move = FINAL_MOVE[variant]
    e = make_env(variant=variant, fen=fen, render_mode="ansi")
    e.reset()
    assert rafle.Game(variant, fen=fen).fen() in e.render()
    g = rafle.Game(variant, fen=fen)
    g.play(move)
    while not e.terminations[e.agent_selection]:
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert g.fen() in e.render()  # the final board, not the next game's start
    mover = "player_0" if fen[0] == "W" else "player_1"
    assert e.agent_selection == mover and e.rewards[mover] == mover_reward(variant)
    assert sorted(e.rewards.values()) == [-1.0, 1.0]


@variants
def test_render_during_random_play(variant: str) -> None:
    e = make_env(variant=variant, render_mode="ansi", max_plies=60)
    e.reset()
    rng = np.random.default_rng(1)
    for _agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        assert "to move" in e.render() or "game over" in e.render()
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_supersuit_ships_it_to_worker_processes() -> None:
    ss = pytest.importorskip("supersuit")
    # The vec env is pickled into two worker processes.
    venv = ss.concat_vec_envs_v1(
        ss.pettingzoo_env_to_vec_env_v1(parallel_env("thai", max_plies=20)),
        2,
        num_cpus=2,
        base_class="gymnasium",
    )
    obs, _ = venv.reset(seed=0)
    ended = 0
    try:
        for _ in range(60):
            mask = obs["action_mask"]  # (2 games x 2 agents, A): one legal row per game
            actions = np.argmax(mask, axis=1)
            obs, rewards, terminated, truncated, _ = venv.step(actions)
            ended += int((terminated | truncated).sum())
    finally:
        venv.close()
    assert rewards.shape == (4,) and ended > 0


@pytest.mark.filterwarnings("ignore:PettingZoo in TorchRL is tested")
@pytest.mark.parametrize("parallel", [False, True])
def test_torchrl_wraps_both_views(parallel: bool) -> None:
    pytest.importorskip("torchrl")
    from torchrl.envs import PettingZooWrapper

    view = parallel_env("thai") if parallel else make_env("thai")
    env = PettingZooWrapper(view, use_mask=True, categorical_actions=True, done_on_any=False)
    rollout = env.rollout(40)  # TorchRL's own masked random actions
    group = "player" if parallel else "player_0"
    info = rollout[group, "info"]
    assert set(info.keys()) == {"winner", "reason", "episode_length"}  # kept, not dropped
    assert rollout.batch_size[0] > 0
