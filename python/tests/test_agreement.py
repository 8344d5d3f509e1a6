"""VecEnv agrees with rafle.Game on random games: the env's step chains,
rebuilt into full moves with an independent decoder (board_codec), are legal
moves of the Game; boards, masks, turns, results and rewards match."""

from __future__ import annotations

import numpy as np
import pytest

import rafle
from board_codec import BOARD, decode_action, encode_step, move_path, piece_planes

COLOURS = ("white", "black")


def max_plies(n: int, layout: str = "plain") -> int:
    """Short enough that some random games get truncated, long enough that
    others end (sooner where pieces capture along rows and columns too)."""
    if n == 8:
        return 50
    if n == 12:
        return 150
    return 60 if layout.endswith("-orthogonal") else 100


def first_steps(variant: str, g: rafle.Game) -> set[int]:
    """First steps of every path of every legal move (the env walks them all)."""
    (n, layout), black = BOARD[variant], g.turn == "black"
    return {encode_step(n, black, *move_path(m, n, layout)[:2], layout) for m in g.legal_paths()}


@pytest.mark.parametrize("variant", rafle.VARIANTS)
def test_vec_env_agrees_with_game(variant: str) -> None:
    num_envs, (n, layout) = 6, BOARD[variant]
    env = rafle.VecEnv(variant, num_envs=num_envs, seed=7, max_plies=max_plies(n, layout))
    obs = env.reset()
    games = [rafle.Game(variant) for _ in range(num_envs)]
    chains: list[list[int]] = [[] for _ in range(num_envs)]  # squares of the move so far
    to_play = env.to_play()
    finished = {"terminated": 0, "truncated": 0, "multi": 0}  # coverage counts
    for _ in range(500):
        mask = env.legal_mask()
        for i, g in enumerate(games):
            assert COLOURS[to_play[i]] == g.turn
            assert env.fen(i) == g.fen()  # board before any pending chain
            legal = set(np.flatnonzero(mask[i]))
            if not chains[i]:
                assert legal == first_steps(variant, g)
                assert (obs[i, :4] == piece_planes(n, g.fen(), layout)).all()
                assert not obs[i, 4:6].any()
            else:
                jumps = len(chains[i]) - 1
                assert obs[i, 4].sum() == jumps and obs[i, 5].sum() == 1
                paths = [move_path(m, n, layout) for m in g.legal_paths()]
                nxt = {
                    encode_step(n, g.turn == "black", p[jumps], p[jumps + 1], layout)
                    for p in paths
                    if p[: jumps + 1] == chains[i] and len(p) > jumps + 1
                }
                assert legal == nxt
        actions = env.sample_legal_actions()
        obs, reward, terminated, truncated, info = env.step(actions)
        new_to_play = info["to_play"]
        done = list(info["done_envs"])
        for i, g in enumerate(games):
            mover = g.turn
            frm, to = decode_action(n, mover == "black", int(actions[i]), layout)
            if not chains[i]:
                chains[i] = [frm]
            assert chains[i][-1] == frm
            chains[i].append(to)
            if i not in done and COLOURS[new_to_play[i]] == mover:
                assert reward[i] == 0
                continue  # the chain goes on
            g.play(("x" if is_capture(g) else "-").join(map(str, chains[i])))
            finished["multi"] += len(chains[i]) > 2
            chains[i] = []
            if i in done:
                j = done.index(i)
                assert (info["final_obs"][j, :4] == piece_planes(n, g.fen(), layout)).all()
                if terminated[i]:
                    finished["terminated"] += 1
                    assert g.is_over()
                    winner = info["winner"][j]
                    assert g.result() == ("draw" if winner < 0 else COLOURS[winner])
                    assert rafle.END_REASONS[info["reason"][j]] == g.result_reason()
                    expect = 0.0 if winner < 0 else (1.0 if COLOURS[winner] == mover else -1.0)
                    assert reward[i] == expect
                else:
                    finished["truncated"] += 1
                    assert truncated[i] and not g.is_over() and g.ply == max_plies(n, layout)
                    assert reward[i] == 0
                assert info["episode_length"][j] == g.ply
                games[i] = rafle.Game(variant)
            else:
                assert not g.is_over() and reward[i] == 0
        to_play = new_to_play
    assert finished["terminated"] > 0 and finished["truncated"] > 0


def is_capture(g: rafle.Game) -> bool:
    """Whether the move to play is a capture (capturing is compulsory, so the
    legal moves are all captures or all quiet)."""
    return any(sep in g.legal_moves()[0] for sep in "x:")
