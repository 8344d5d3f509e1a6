"""rafle.VecEnv: shapes, dtypes, seeding, errors, table-driven over the variants."""

from __future__ import annotations

import numpy as np
import pytest

import rafle
from board_codec import BOARD, num_actions
from endgames import FINAL_MOVE, mover_reward, winner_of

ACTIONS = {v: num_actions(n, layout) for v, (n, layout) in BOARD.items()}
# Every integer type that can hold an action id (896 or 1800).
INT_DTYPES = [np.int16, np.int32, np.int64, np.uint16, np.uint32, np.uint64, np.intp]

variants = pytest.mark.parametrize("variant", rafle.VARIANTS)


@variants
def test_shapes_and_dtypes(variant: str) -> None:
    env = rafle.VecEnv(variant, num_envs=5, seed=0)
    n = BOARD[variant][0]
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
    assert list(info["done_envs"]) == [0]
    assert [rafle.END_REASONS[r] for r in info["reason"]] == ["illegal move"]
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
            names = [rafle.END_REASONS[r] for r in info["reason"]]
            assert all(r == "max plies" for r, t in zip(names, truncated[done]) if t)
        assert not (terminated & truncated).any()
    assert seen_trunc


@variants
def test_fen_of_env(variant: str) -> None:
    env = rafle.VecEnv(variant, num_envs=2)
    assert env.fen(1) == rafle.Game(variant).fen()
    with pytest.raises(ValueError):
        env.fen(2)


MODES = ("NextStep", "SameStep", "Disabled")


@variants
@pytest.mark.parametrize("mode", MODES)
def test_autoreset_modes_on_a_hand_played_game(variant: str, mode: str) -> None:
    fen, move = FINAL_MOVE[variant]
    env = rafle.VecEnv(variant, num_envs=2, fen=fen, autoreset=mode)
    assert env.autoreset == mode
    start, start_mask = env.observe(), env.legal_mask()
    steps = env.move_actions(0, move)
    for a in steps[:-1]:  # the jumps before the last: the same player goes on
        _, reward, terminated, _, _ = env.step([a, a])
        assert not terminated.any() and (reward == 0).all()
    obs, reward, terminated, truncated, info = env.step([steps[-1]] * 2)
    winner = winner_of(fen, variant)
    assert terminated.all() and not truncated.any() and (reward == mover_reward(variant)).all()
    assert list(info["done_envs"]) == [0, 1] and (info["winner"] == winner).all()
    assert [rafle.END_REASONS[r] for r in info["reason"]] == ["no legal move"] * 2
    final = info["final_obs"]
    # Seen by the side to move in the final state: no own piece, one of the mover's.
    assert final[:, 0:2].sum() == 0 and (final[:, 2:4].sum(axis=(1, 2, 3)) == 1).all()
    if mode == "SameStep":
        assert (obs == start).all() and (env.legal_mask() == start_mask).all()
    else:
        assert (obs == final).all() and not env.legal_mask().any()
        assert (env.to_play() == (1 if fen[0] == "W" else 0)).all()
    if mode == "NextStep":
        obs, reward, terminated, truncated, info = env.step([-1, 12345])  # not used
        assert (obs == start).all() and (reward == 0).all() and not (terminated | truncated).any()
        assert len(info["done_envs"]) == 0
    if mode == "Disabled":
        with pytest.raises(ValueError, match="env 0: the episode is over"):
            env.step([steps[0]] * 2)
        obs = env.reset(mask=np.array([False, True]))
        assert (obs[0] == final[0]).all() and (obs[1] == start[1]).all()
        with pytest.raises(ValueError, match="env 0"):
            env.step([steps[0]] * 2)
        env.reset(mask=[True, False])
    assert (env.observe() == start).all() and (env.legal_mask() == start_mask).all()
    assert env.step([steps[0]] * 2)[0].shape == start.shape  # playable again


@variants
def test_views_give_the_trajectories_of_copies(variant: str) -> None:
    copying = rafle.VecEnv(variant, num_envs=6, seed=4, max_plies=30)
    viewing = rafle.VecEnv(variant, num_envs=6, seed=4, max_plies=30)
    view = viewing.reset(copy=False)
    assert not view.flags.writeable
    with pytest.raises(ValueError):
        view[0, 0, 0, 0] = 2.0
    assert (copying.reset() == view).all()
    ended = 0
    for _ in range(60):
        a = copying.step(copying.sample_legal_actions())
        b = viewing.step(viewing.sample_legal_actions(), copy=False)
        for x, y in zip(a[:4], b[:4]):
            assert (x == y).all() and not y.flags.writeable
        assert a[4].keys() == b[4].keys()
        for k in a[4]:
            assert (np.asarray(a[4][k]) == np.asarray(b[4][k])).all(), k
        assert (copying.legal_mask() == viewing.legal_mask(copy=False)).all()
        assert (copying.to_play() == viewing.to_play(copy=False)).all()
        ended += len(a[4]["done_envs"])
    assert ended > 0
    # One array, rewritten in place: the view of the first reset shows the last step.
    assert b[0] is view and (view == copying.observe()).all()


@variants
def test_every_seed_of_a_list_is_used(variant: str) -> None:
    def actions(seed: object) -> np.ndarray:
        env = rafle.VecEnv(variant, num_envs=3)
        env.reset(seed=seed)
        out = []
        for _ in range(25):
            a = env.sample_legal_actions()
            env.step(a)
            out.append(a)
        return np.stack(out)

    a, b = actions([1, 2, 3]), actions([1, 2, 9])
    assert (a[:, :2] == b[:, :2]).all() and (a[:, 2] != b[:, 2]).any()
    assert (actions(5) == actions([5, 5, 5])).all()
    env = rafle.VecEnv(variant, num_envs=3)
    for bad, reason in (([1, 2], "seed must have shape \\(3,\\)"), (-1, "non-negative"), ("x", "seed")):
        with pytest.raises(ValueError, match=reason):
            env.reset(seed=bad)
    with pytest.raises(ValueError, match="mask must have shape"):
        env.reset(mask=[True])


@variants
def test_the_other_player_sees_the_board_turned(variant: str) -> None:
    env = rafle.VecEnv(variant, num_envs=1, seed=2)
    for _ in range(7):
        env.step(env.sample_legal_actions())
    mover = int(env.to_play()[0])
    mine, theirs = env.observe_as(0, mover), env.observe_as(0, 1 - mover)
    assert (mine == env.observe()[0]).all()
    turned = mine[:, ::-1, ::-1]
    assert (theirs == turned[[2, 3, 0, 1, 4, 5, 6, 7]]).all()
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        env.observe_as(0, 2)
    with pytest.raises(ValueError, match="out of range"):
        env.observe_as(1, 0)


@variants
def test_moves_become_actions_and_the_episode_a_game(variant: str) -> None:
    env = rafle.VecEnv(variant, num_envs=1, autoreset="Disabled", max_plies=40)
    shadow = rafle.Game(variant)
    rng = np.random.default_rng(0)
    while not shadow.is_over() and shadow.ply < 40:
        move = str(rng.choice(shadow.legal_moves()))
        for a in env.move_actions(0, move):
            env.step([a])
        shadow.play(move)
        game = env.game(0)
        assert game.history() == shadow.history() and env.ply(0) == shadow.ply
        assert game.fen() == shadow.fen() == env.fen(0)
    assert shadow.ply > 0
    env = rafle.VecEnv(variant, num_envs=1)
    with pytest.raises(ValueError, match="illegal move"):
        env.move_actions(0, "1-2")
    with pytest.raises(ValueError, match="out of range"):
        env.game(1)


def test_moves_are_refused_inside_a_capture() -> None:
    fen, move = FINAL_MOVE["checkers"]
    env = rafle.VecEnv("checkers", num_envs=1, fen=fen)
    first, second = env.move_actions(0, move)
    env.step([first])
    with pytest.raises(ValueError, match="capture is under way"):
        env.move_actions(0, "23x32")
    assert env.game(0).ply == 0 and env.ply(0) == 0  # the capture is not over
    env.step([second])


def test_unknown_autoreset_mode_names_the_choices() -> None:
    with pytest.raises(ValueError, match="expected one of: NextStep, SameStep, Disabled"):
        rafle.VecEnv("thai", autoreset="next_step")
