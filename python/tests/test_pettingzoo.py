"""rafle.pettingzoo against PettingZoo's official API and seed tests."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

import rafle  # noqa: E402
from rafle.pettingzoo import env as make_env  # noqa: E402

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
def test_seed(variant: str) -> None:
    seed_test(lambda: make_env(variant=variant), num_cycles=100)


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


# A position and a move that ends the game, per variant.
FINAL_MOVE = {
    "thai": ("W:W18:B14", "18x9"),
    "international": ("W:W28:B23", "28x19"),
    "english": ("B:W18:B14", "14x23"),
    "checkers": ("B:W18,27:B14", "14x23x32"),
}


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
    assert e.agent_selection == mover and e.rewards[mover] == 1.0
    assert sorted(e.rewards.values()) == [-1.0, 1.0]


@variants
def test_render_during_random_play(variant: str) -> None:
    e = make_env(variant=variant, render_mode="ansi", max_plies=60)
    e.reset()
    rng = np.random.default_rng(1)
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        assert "to move" in e.render() or "game over" in e.render()
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
