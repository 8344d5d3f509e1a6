"""rafle.SelfPlay: arrays ready for training, consistent with the rules and
the game results; errors leave it usable."""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np
import pytest

import rafle
from board_codec import BOARD, fen_of_planes, num_actions

ROOT = Path(__file__).resolve().parents[2]


def hashed(actions: int):
    def evaluate(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits = np.empty((len(obs), actions), np.float32)
        value = np.empty(len(obs), np.float32)
        for i, o in enumerate(obs):
            rng = np.random.default_rng(zlib.crc32(o.tobytes()))
            logits[i] = rng.uniform(-1, 1, actions)
            value[i] = rng.uniform(-0.3, 0.3)
        return logits, value

    return evaluate


@pytest.mark.parametrize("variant", rafle.VARIANTS)
def test_arrays_are_training_ready_and_follow_the_rules(variant: str) -> None:
    n, layout = BOARD[variant]
    a = num_actions(n, layout)
    sp = rafle.SelfPlay(variant, hashed(a), num_games=8, simulations=8, max_plies=60, seed=1)
    batch = sp.play(120)
    p = len(batch["obs"])
    assert p >= 120
    assert batch["obs"].shape == (p, 8, n, n) and batch["obs"].dtype == np.float32
    assert batch["mask"].shape == (p, a) and batch["mask"].dtype == np.bool_
    assert batch["policy"].shape == (p, a) and batch["policy"].dtype == np.float32
    assert batch["value"].shape == (p, 3) and batch["value"].dtype == np.float32
    assert batch["search_value"].shape == (p,) and batch["result"].shape == (p,)
    np.testing.assert_allclose(batch["policy"].sum(axis=1), 1.0, atol=1e-4)
    assert (batch["policy"][~batch["mask"]] == 0).all()
    assert (batch["mask"].sum(axis=1) >= 2).all(), "forced steps are not training positions"
    # value_target_search = 0: the value target is the game result.
    onehot = np.eye(3, dtype=np.float32)[batch["result"]]
    assert (batch["value"] == onehot).all()
    assert ((batch["search_value"] >= -1) & (batch["search_value"] <= 1)).all()
    # The mask is the legal steps of the position (checked from the board
    # with the rule engine, for positions outside a capture chain).
    checked = 0
    for obs, mask in zip(batch["obs"], batch["mask"]):
        if obs[4].any() or obs[5].any():
            continue
        env = rafle.VecEnv(variant, num_envs=1, fen=fen_of_planes(n, layout, obs))
        assert (env.legal_mask()[0] == mask).all()
        checked += 1
    assert checked > p // 2
    s = sp.stats
    assert s["positions"] == p and s["games"] == s["white_wins"] + s["black_wins"] + s["draws"]
    assert 1 < s["avg_batch"] <= 8 and 0 < s["nn_share"] < 1
    # A game's next search starts in the subtree of its last one.
    assert s["cache_hits"] > 0 and s["cache_share"] == s["cache_hits"] / (s["cache_hits"] + s["nn_evals"])


def test_results_are_the_games_outcomes_and_the_search_value_mixes_in() -> None:
    sp = rafle.SelfPlay("checkers", hashed(896), num_games=4, simulations=8, seed=2, value_target_search=0.5)
    b = sp.play(100)
    onehot = np.eye(3, dtype=np.float32)[b["result"]]
    q = b["search_value"]
    wdl_q = np.stack([np.maximum(q, 0), 1 - np.abs(q), np.maximum(-q, 0)], axis=1)
    np.testing.assert_allclose(b["value"], 0.5 * onehot + 0.5 * wdl_q, atol=1e-6)
    s = sp.stats
    # Every position of a drawn game is a draw; won games give wins and losses.
    assert (b["result"] == 1).any() == (s["draws"] > 0) or s["games"] == 0


def test_cut_games_learn_their_search_value_or_nothing() -> None:
    # Games cut after 6 plies: search targets the search value alone, none no value at all.
    for target, result in [("search", 3), ("none", 4)]:
        sp = rafle.SelfPlay("checkers", hashed(896), num_games=4, simulations=8, max_plies=6, cut_target=target)
        b = sp.play(30)
        assert (b["result"] == result).all() and sp.stats["truncated"] == sp.stats["games"] > 0
        q = b["search_value"]
        want = np.stack([np.maximum(q, 0), 1 - np.abs(q), np.maximum(-q, 0)], axis=1) if target == "search" else 0.0
        np.testing.assert_allclose(b["value"], np.broadcast_to(want, b["value"].shape), atol=1e-6)
    with pytest.raises(ValueError, match="cut_target"):
        rafle.SelfPlay("checkers", hashed(896), cut_target="win")
    with pytest.raises(ValueError, match="start"):
        rafle.ladder("random", "thai", games=2, start=float("nan"), progress=False)


def test_the_seed_fixes_the_games_and_versions_are_recorded() -> None:
    one = rafle.SelfPlay("thai", hashed(896), num_games=4, simulations=4, seed=7).play(40)
    two = rafle.SelfPlay("thai", hashed(896), num_games=4, simulations=4, seed=7).play(40)
    for k in one:
        assert (one[k] == two[k]).all(), k
    # A search keeps the version it began with: only each game's first
    # search (made with the SelfPlay) predates version 3.
    sp = rafle.SelfPlay("thai", hashed(896), num_games=4, simulations=4, seed=7)
    sp.version = 3
    v = sp.play(40)["version"]
    assert set(v) <= {0, 3} and (v == 0).sum() <= 4
    sp.version = 5
    v = sp.play(40)["version"]
    # Games finished now may hold positions searched before the change.
    assert set(v) <= {0, 3, 5} and (v == 5).any()


def test_config_files_give_the_config_tables() -> None:
    sp = rafle.SelfPlay.from_config(ROOT / "configs" / "thai.toml", hashed(896))
    s = sp.settings
    assert s["simulations"] == 16 and s["fast_simulations"] == 4 and s["parallel_games"] == 384
    assert rafle.SelfPlay("thai", hashed(896), opening_plies=6).settings["opening_plies"] == 6
    cfg = rafle._rafle.load_config(ROOT / "configs" / "thai.toml")
    assert cfg["search"]["simulations"] == 16 and cfg["run"]["variant"] == "thai"
    with pytest.raises(ValueError, match="cannot read config"):
        rafle.SelfPlay.from_config(ROOT / "configs" / "nope.toml", hashed(896))


def test_bad_settings_are_value_errors() -> None:
    for kwargs, needle in [
        (dict(num_games=0), "parallel_games"),
        (dict(simulations=0), "simulations"),
        (dict(fast_simulations=64), "fast_simulations"),
        (dict(algorithm="mcts"), "algorithm.*gumbel.*puct"),
        (dict(dirichlet_frac=2.0), "dirichlet_frac"),
        (dict(value_target_search=1.5), "value_target_search"),
        (dict(max_plies=20, opening_plies=20), "opening_plies"),
    ]:
        with pytest.raises(ValueError, match=needle):
            rafle.SelfPlay("thai", hashed(896), **kwargs)
    with pytest.raises(ValueError, match="chess"):
        rafle.SelfPlay("chess", hashed(896))
    with pytest.raises(ValueError, match="positions"):
        rafle.SelfPlay("thai", hashed(896)).play(0)


def test_an_error_inside_the_evaluator_leaves_self_play_usable() -> None:
    calls = 0
    good = hashed(896)

    def flaky(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        nonlocal calls
        calls += 1
        if calls == 5:
            raise ConnectionError("the GPU server went away")
        if calls == 9:
            return np.zeros((len(obs), 896), np.float32), np.full(len(obs), np.nan, np.float32)
        return good(obs)

    sp = rafle.SelfPlay("thai", flaky, num_games=4, simulations=4)
    with pytest.raises(ConnectionError, match="went away"):
        sp.play(1000)
    with pytest.raises(ValueError, match="NaN"):
        sp.play(1000)
    b = sp.play(30)
    assert len(b["obs"]) >= 30
    np.testing.assert_allclose(b["policy"].sum(axis=1), 1.0, atol=1e-4)


def test_search_tables_pass_through_as_dicts() -> None:
    cfg = rafle._rafle.load_config(ROOT / "configs" / "thai.toml")
    cfg["selfplay"]["parallel_games"] = 3
    sp = rafle.SelfPlay.from_config(cfg, hashed(896))
    assert {k: sp.settings[k] for k in cfg["search"]} == cfg["search"] and sp.num_games == 3
    a = rafle.NetworkAgent(hashed(896), search={"c_puct": 2.5, "algorithm": "puct", "gumbel_m": 8}, gumbel_m=4)
    s = a.search_settings
    assert (s["c_puct"], s["gumbel_m"], a.algorithm, a.simulations, s["simulations"]) == (2.5, 4, "puct", 64, 64)
    assert rafle.NetworkAgent(hashed(896), search={"simulations": 9}).simulations == 9
    with pytest.raises(ValueError, match="unknown field `c_puck`"):
        rafle.NetworkAgent(hashed(896), search={"c_puck": 1.0})
    with pytest.raises(ValueError, match="c_visit"):
        rafle.SelfPlay("thai", hashed(896), c_visit="high")
    cfg["search"]["leaves_per_round"] = 0
    with pytest.raises(ValueError, match="search.leaves_per_round"):
        rafle.SelfPlay.from_config(cfg, hashed(896))


def test_replay_and_metrics_files_reject_bad_input(tmp_path: Path) -> None:
    batch = rafle.SelfPlay("thai", hashed(896), num_games=4, simulations=4, seed=3).play(20)
    path = tmp_path / "replay.safetensors"
    rafle._rafle.save_replay(path, batch, 20)
    arrays, total = rafle._rafle.load_replay(path, "thai", 100)
    assert total == 20 and np.array_equal(arrays["mask"], batch["mask"])
    with pytest.raises(ValueError, match="international"):
        rafle._rafle.load_replay(path, "international", 100)
    with pytest.raises(ValueError, match="window"):
        rafle._rafle.load_replay(path, "thai", 0)
    with pytest.raises(ValueError, match="mask"):
        rafle._rafle.save_replay(path, {k: v for k, v in batch.items() if k != "mask"}, 20)
    (tmp_path / "bad.safetensors").write_bytes(b"not a replay")
    with pytest.raises(ValueError, match="not a rafle replay file"):
        rafle._rafle.load_replay(tmp_path / "bad.safetensors", "thai", 100)
    m = rafle._rafle.MetricsFile(tmp_path, fresh=True)
    m.log(1, 2, 3.0, {"eval/score_vs_alphabeta:d=8,t=1s": 0.5})
    m.close()
    with pytest.raises(ValueError, match="closed"):
        m.log(1, 2, 3.0, {"loss/total": 1.0})
    with pytest.raises(ValueError, match="nn_evals"):
        rafle._rafle.iteration_metrics({"nn_evals": "many"}, 1.0, 1.0, 1.0)
