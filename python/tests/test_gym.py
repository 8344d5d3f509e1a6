"""rafle.gym against Gymnasium: check_env, registration, the three autoreset
modes on a hand-played game, masks, opponents, render modes and wrappers."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402
from gymnasium.wrappers.vector import (  # noqa: E402
    FlattenObservation,
    NormalizeObservation,
    RecordEpisodeStatistics,
)

import rafle  # noqa: E402
from rafle.gym import GameEnv, VectorEnv  # noqa: E402
from rafle.spaces import sample_legal  # noqa: E402

from endgames import FINAL_MOVE, mover_reward, winner_of  # noqa: E402
from players import FirstMove, RandomMove  # noqa: E402

variants = pytest.mark.parametrize("variant", rafle.VARIANTS)
modes = pytest.mark.parametrize("mode", list(AutoresetMode))
INFO_KEYS = {"action_mask", "to_play", "winner", "reason", "episode_length"}


def checked(env: gymnasium.Env) -> None:
    """check_env with every warning of the checker an error."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


@variants
def test_check_env(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    env = gymnasium.make(f"rafle/{variant}-v0")
    assert isinstance(env.unwrapped, GameEnv) and env.unwrapped.variant == variant
    checked(env)  # render modes included: human prints
    assert "to move" in capsys.readouterr().out


@variants
def test_check_env_against_an_opponent(variant: str) -> None:
    checked(gymnasium.make(f"rafle/{variant}-v0", opponent=RandomMove(1)))


@pytest.mark.skipif(not hasattr(rafle, "Player"), reason="rafle.Player comes with the players issue")
def test_a_spec_string_opponent() -> None:
    env = gymnasium.make("rafle/thai-v0", opponent="alphabeta:2", player=1)
    checked(env)
    obs, info = env.reset(seed=0)
    assert info["to_play"] == 1 and env.unwrapped.player == 1


@variants
def test_make_vec_gives_the_fast_vector_env(variant: str) -> None:
    envs = gymnasium.make_vec(f"rafle/{variant}-v0", num_envs=5)
    assert isinstance(envs, VectorEnv) and envs.num_envs == 5 and envs.env.variant == variant
    assert envs.autoreset_mode == AutoresetMode.NEXT_STEP == envs.metadata["autoreset_mode"]
    same = gymnasium.make_vec(f"rafle/{variant}-v0", num_envs=2, autoreset_mode=AutoresetMode.SAME_STEP)
    assert same.autoreset_mode == AutoresetMode.SAME_STEP and same.env.autoreset == "SameStep"


@variants
@modes
def test_vector_spaces_masks_and_sampling(variant: str, mode: AutoresetMode) -> None:
    env = VectorEnv(variant, num_envs=4, seed=0, max_plies=20, autoreset_mode=mode)
    assert env.autoreset_mode == mode == env.metadata["autoreset_mode"]
    raw = rafle.VecEnv(variant)
    assert env.single_observation_space.shape == raw.observation_shape
    assert env.single_action_space == gymnasium.spaces.Discrete(raw.num_actions)
    assert env.observation_space.shape == (4, *raw.observation_shape)
    env.action_space.seed(0)
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs) and INFO_KEYS <= info.keys()
    ended = 0
    for _ in range(80):
        mask = info["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (4, raw.num_actions)
        live = mask.any(axis=1)
        actions = env.action_space.sample()  # masked by the env itself
        assert env.action_space.contains(actions) and mask[np.arange(4), actions][live].all()
        one = env.single_action_space.sample(mask=mask[0]) if live[0] else None
        assert one is None or mask[0, one] == 1  # Gymnasium's own masked sample takes it
        if mode == AutoresetMode.DISABLED and not live.all():
            obs, info = env.reset(options={"reset_mask": ~live})
            continue
        obs, reward, terminated, truncated, info = env.step(actions)
        assert env.observation_space.contains(obs) and reward.dtype == np.float32
        done = terminated | truncated
        assert (info["_winner"] == done).all() and (info["_episode_length"] == done).all()
        assert (info["episode_length"][done] > 0).all() and (info["reason"][~done] == -1).all()
        assert ("final_obs" in info) == (mode == AutoresetMode.SAME_STEP and done.any())
        if "final_obs" in info:
            for i in np.flatnonzero(done):
                assert env.single_observation_space.contains(info["final_obs"][i])
            assert (info["final_info"]["winner"] == info["winner"]).all()
        ended += done.sum()
    assert ended > 0
    env.close()


@variants
@modes
def test_vector_autoreset_on_a_hand_played_game(variant: str, mode: AutoresetMode) -> None:
    fen, move = FINAL_MOVE[variant]
    env = VectorEnv(variant, num_envs=2, fen=fen, autoreset_mode=mode)
    start, _ = env.reset()
    steps = env.env.move_actions(0, move)
    for a in steps:
        obs, reward, terminated, truncated, info = env.step([a, a])
    assert terminated.all() and (reward == mover_reward(variant)).all() and info["_winner"].all()
    assert (info["winner"] == winner_of(fen, variant)).all()
    assert [rafle.END_REASONS[r] for r in info["reason"]] == ["no legal move"] * 2
    if mode == AutoresetMode.SAME_STEP:
        assert (obs == start).all() and info["_final_obs"].all()
        assert all(f[0:2].sum() == 0 for f in info["final_obs"])
        assert info["action_mask"].any(axis=1).all()
    else:
        assert obs[:, 0:2].sum() == 0 and not info["action_mask"].any()
    if mode == AutoresetMode.NEXT_STEP:
        obs, reward, terminated, truncated, info = env.step([0, 0])  # not used: both reset
        assert (obs == start).all() and (reward == 0).all() and not (terminated | truncated).any()
        assert not info["_winner"].any() and info["action_mask"].any(axis=1).all()
    if mode == AutoresetMode.DISABLED:
        obs, info = env.reset(options={"reset_mask": np.array([True, False])})
        assert (obs[0] == start[0]).all() and obs[1, 0:2].sum() == 0
        with pytest.raises(ValueError, match="env 1: the episode is over"):
            env.step([steps[0]] * 2)
        with pytest.raises(ValueError, match="reset_mask"):
            env.reset(options={"reset_mask": np.array([False, False])})


def test_gymnasium_observation_wrappers_accept_it() -> None:
    # NormalizeObservation takes NEXT_STEP envs only; both refused SAME_STEP ones.
    for env in (
        FlattenObservation(NormalizeObservation(VectorEnv("checkers", num_envs=4))),
        FlattenObservation(VectorEnv("checkers", num_envs=4, autoreset_mode=AutoresetMode.DISABLED)),
    ):
        obs, _ = env.reset(seed=0)
        assert obs.shape == (4, 8 * 8 * 8)
        for _ in range(20):
            obs, *_ = env.step(env.action_space.sample())
        assert np.isfinite(obs).all()
    with pytest.raises(ValueError, match="NEXT_STEP"):
        NormalizeObservation(VectorEnv("checkers", autoreset_mode=AutoresetMode.SAME_STEP))


def test_episode_statistics_wrapper() -> None:
    env = RecordEpisodeStatistics(VectorEnv("checkers", num_envs=8, seed=0, max_plies=30))
    env.reset(seed=0)
    episodes = 0
    for _ in range(120):
        _, _, _, _, info = env.step(env.unwrapped.sample_legal_actions())
        if "episode" in info:
            episodes += int(info["_episode"].sum())
            assert (info["episode"]["l"][info["_episode"]] > 0).all()
    assert episodes > 0


@variants
def test_vector_copy_false_gives_the_same_trajectory_without_copies(variant: str) -> None:
    copying = VectorEnv(variant, num_envs=3, seed=2)
    viewing = VectorEnv(variant, num_envs=3, seed=2, copy=False)
    a, b = copying.reset(seed=3)[0], viewing.reset(seed=3)[0]
    for _ in range(40):
        assert (a == b).all()
        x = copying.step(copying.sample_legal_actions())
        y = viewing.step(viewing.sample_legal_actions())
        for u, w in zip(x[:4], y[:4]):
            assert (u == w).all()
        assert (x[4]["action_mask"] == y[4]["action_mask"]).all()
        a, b = x[0], y[0]
    assert not b.flags.writeable and np.shares_memory(b, viewing.env.observe(copy=False))


def test_same_seed_same_trajectory() -> None:
    def run() -> np.ndarray:
        env = VectorEnv("thai", num_envs=3, seed=5)
        env.reset(seed=2)
        env.action_space.seed(2)
        return np.stack([env.step(env.action_space.sample())[0] for _ in range(20)])

    assert (run() == run()).all()


def test_every_seed_of_a_list_is_used() -> None:
    def run(seeds: list[int]) -> np.ndarray:
        env = VectorEnv("thai", num_envs=2)
        env.reset(seed=seeds)
        return np.stack([env.step(env.sample_legal_actions())[0] for _ in range(20)])

    a, b = run([1, 2]), run([1, 3])
    assert (a[:, 0] == b[:, 0]).all() and (a[:, 1] != b[:, 1]).any()
    with pytest.raises(ValueError, match="one int per env"):
        VectorEnv("thai", num_envs=2).reset(seed=[1, None])


@variants
def test_game_env_alternates_the_players(variant: str) -> None:
    env = GameEnv(variant, seed=3)
    obs, info = env.reset(seed=3)
    steps, passes = 0, 0
    while True:
        assert info.keys() == INFO_KEYS and info["winner"] == info["reason"] == -1
        mover = info["to_play"]
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
        steps += 1
        passes += info["to_play"] != mover
        if terminated or truncated:
            break
        assert reward == 0
    # Every full move passed the turn (a multi-capture's jumps did not).
    assert info.keys() == INFO_KEYS and info["episode_length"] == passes <= steps
    # The last step's reward goes to its player: +1 when it won.
    assert reward == (1.0 if info["winner"] == mover else 0.0 if info["winner"] == -1 else -1.0)
    assert 0 <= info["reason"] < len(rafle.END_REASONS)


@variants
def test_game_env_against_an_opponent(variant: str) -> None:
    opponent = RandomMove(7)
    env = GameEnv(variant, opponent=opponent, seed=1)
    sides = set()
    for seed in range(6):
        obs, info = env.reset(seed=seed)
        sides.add(env.player)
        total = 0.0
        while True:
            assert info["to_play"] == env.player  # the opponent moved already
            obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
            total += reward
            if terminated or truncated:
                break
            assert info["to_play"] == env.player
        mine = info["winner"] == env.player
        assert total == (1.0 if mine else 0.0 if info["winner"] == -1 else -1.0)
    assert sides == {0, 1} and opponent.calls > 0
    fixed = GameEnv(variant, opponent=FirstMove(), player=1)
    fixed.reset()
    assert fixed.player == 1 and fixed.unwrapped.player == 1


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="give opponent= too"):
        GameEnv("thai", player=0)
    with pytest.raises(ValueError, match="player must be"):
        GameEnv("thai", opponent=FirstMove(), player=2)
    with pytest.raises(ValueError, match="opponent must be"):
        GameEnv("thai", opponent=object())
    with pytest.raises(ValueError, match="render_mode"):
        GameEnv("thai", render_mode="video")
    with pytest.raises(ValueError, match="autoreset_mode must be one of"):
        VectorEnv("thai", autoreset_mode="sometimes")
    if not hasattr(rafle, "Player"):
        with pytest.raises(ValueError, match="rafle.Player"):
            GameEnv("thai", opponent="alphabeta:2")


@variants
def test_render_modes(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    fen = rafle.Game(variant).fen()
    assert fen in GameEnv(variant, render_mode="ansi").render()
    image = GameEnv(variant, render_mode="rgb_array").render()
    assert image.dtype == np.uint8 and image.shape[2] == 3 and image.shape[0] == image.shape[1] >= 100
    assert len(np.unique(image.reshape(-1, 3), axis=0)) >= 4  # two squares and two piece colours
    human = GameEnv(variant, render_mode="human")
    capsys.readouterr()
    assert human.render() is None and fen in capsys.readouterr().out
    assert GameEnv(variant).render() is None
    frames = VectorEnv(variant, num_envs=2, render_mode="ansi").render()
    assert len(frames) == 2 and all(fen in f for f in frames)


def test_sample_legal_draws_every_legal_action_and_nothing_else() -> None:
    mask = np.zeros((3, 10), dtype=bool)
    mask[0, [1, 4, 9]] = True
    mask[1, 7] = True
    rng = np.random.default_rng(0)
    draws = np.stack([sample_legal(rng, mask) for _ in range(600)])
    assert set(draws[:, 0]) == {1, 4, 9} and set(draws[:, 1]) == {7} and set(draws[:, 2]) == {0}
