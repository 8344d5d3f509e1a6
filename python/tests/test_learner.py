"""rafle.learner is the Rust trainer in PyTorch: the same losses on the same
batch and weights (the probe file of a `rafle train` checkpoint holds a
batch and Rust's losses on it), the same schedule, replay and run files."""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path
from typing import Any, Callable, Dict

import numpy as np
import pytest

torch = pytest.importorskip("torch")
safetensors_torch = pytest.importorskip("safetensors.torch")

import rafle  # noqa: E402
from conftest import BINARY, TINY  # noqa: E402
from rafle import learner as L  # noqa: E402
from rafle import model  # noqa: E402


@pytest.mark.parametrize("variant", ["thai", "international"])
def test_losses_equal_the_rust_trainers(tiny_run: Callable[[str], Path], variant: str) -> None:
    run = tiny_run(variant)
    net = model.load(run / "latest.safetensors")
    probe = safetensors_torch.load_file(str(run / "latest.probe.safetensors"))
    batch = {"obs": probe["obs"], "mask": probe["mask"], "policy": probe["policy_target"],
             "value": probe["value_target"]}
    assert batch["mask"].dtype == torch.bool and batch["mask"].any(dim=1).all()
    with torch.no_grad():
        net.eval()
        got = torch.stack(L.losses(net, batch, 1.0))
        torch.testing.assert_close(got, probe["losses_eval"], rtol=1e-4, atol=1e-5)
        net.train()
        got = torch.stack(L.losses(net, batch, 1.0))
        torch.testing.assert_close(got, probe["losses_train"], rtol=1e-4, atol=1e-5)
    # The value weight scales the value term only.
    p, v, t = L.losses(net, batch, 0.25)
    assert t.item() == pytest.approx(p.item() + 0.25 * v.item(), rel=1e-5)
    # A step reports the value loss less the targets' own entropy (as rafle
    # train does): what the head has left to learn.
    assert L.target_entropy(torch.tensor([[0.0, 1.0, 0.0]])) == 0.0
    assert L.target_entropy(torch.full((2, 3), 1 / 3)) == pytest.approx(math.log(3), rel=1e-6)
    h = L.target_entropy(batch["value"])
    assert h > 0.0
    logs = L.Learner(net, dict(net.meta["config"])).step(batch, 0.0)
    assert logs["loss/value"] == pytest.approx(probe["losses_train"][1].item() - h, rel=1e-4, abs=1e-5)


def test_bf16_convolutions_change_the_training_step_only(tiny_run: Callable[[str], Path]) -> None:
    run = tiny_run("thai")
    net = model.load(run / "latest.safetensors")
    probe = safetensors_torch.load_file(str(run / "latest.probe.safetensors"))
    batch = {"obs": probe["obs"], "mask": probe["mask"], "policy": probe["policy_target"],
             "value": probe["value_target"]}
    cfg = dict(net.meta["config"])
    assert L.conv_dtype(cfg) is None
    fast = torch.bfloat16 if rafle._rafle.cpu_has_fast_bf16() else None
    assert L.conv_dtype({"train": {"conv_dtype": "auto"}}) == fast
    assert L.conv_dtype({"train": {"conv_dtype": "auto"}}, "cuda") == torch.bfloat16
    cfg["train"] = {**cfg["train"], "conv_dtype": "bf16"}
    learner = L.Learner(net, cfg)
    with torch.no_grad():
        net.eval()  # evaluation (and so inference) keeps f32
        torch.testing.assert_close(torch.stack(L.losses(net, batch, 1.0)), probe["losses_eval"],
                                   rtol=1e-4, atol=1e-5)
        net.train()
        got = torch.stack(L.losses(net, batch, 1.0))
    want = probe["losses_train"]
    assert not torch.equal(got, want)
    torch.testing.assert_close(got, want, rtol=0.05, atol=0.0)
    before = net.stem.conv.weight.detach().clone()
    learner.step({k: torch.as_tensor(v) for k, v in batch.items()}, 0.0)
    assert net.stem.conv.weight.dtype == torch.float32
    assert not torch.equal(before, net.stem.conv.weight.detach())


def test_evaluations_place_on_the_ladder_or_play_the_opponents(tiny_run: Callable[[str], Path]) -> None:
    run = tiny_run("thai")
    net = model.load(run / "latest.safetensors")
    cfg = dict(net.meta["config"])
    lines: list[str] = []
    cfg["eval"] = {**cfg["eval"], "mode": "ladder", "simulations": 0}
    placed = L.evaluate_opponents(net, cfg, 2, 1, lines.append, start=1200.0)
    assert placed["eval/ladder_lo"] <= placed["eval/ladder_elo"] <= placed["eval/ladder_hi"]
    assert placed["time/eval_s"] > 0
    # Started at the rung nearest 1200: alphabeta:2 on the thai ladder.
    played = [k for k in placed if k.startswith("eval/games_vs_")]
    assert played == ["eval/games_vs_alphabeta:2"] and placed[played[0]] == 2.0
    assert any("placed by 2 games against" in line for line in lines), lines
    assert "eval/value_corr" in placed and lines[-1].startswith("  value head on ")
    cfg["eval"] = {**cfg["eval"], "mode": "opponents", "opponents": ["greedy", "alphabeta:1"]}
    lines.clear()
    scores = L.evaluate_opponents(net, cfg, 2, 1, lines.append)
    assert scores["eval/games_vs_greedy"] == 2.0 and scores["eval/games_vs_alphabeta:1"] == 2.0
    # greedy is no rung of the thai ladder: the Elo comes from alphabeta:1's games.
    assert "eval/ladder_elo" in scores and any("from the games against alphabeta:1;" in line for line in lines)


def test_value_metrics_on_a_held_out_set(tiny_run: Callable[[str], Path], tmp_path: Path) -> None:
    run = tiny_run("thai")
    net = model.load(run / "latest.safetensors")
    subprocess.run([str(BINARY), "heldout", "--variant", "thai", "--games", "4", "--depth", "2",
                    "--positions", "30", "--out", str(tmp_path / "heldout"), "--quiet"], check=True)
    zoo = Path(rafle.__file__).parent / "zoo"
    rafle._rafle._set_eval_zoo(str(tmp_path))
    try:
        assert L.value_metrics(net, "russian") == {}  # no set in this zoo
        lines: list[str] = []
        got = L.value_metrics(net, "thai", lines.append)
        obs = rafle._rafle.heldout_observations("thai")
        assert obs is not None and obs.shape[0] == 30 and obs.shape[1:] == rafle.VecEnv("thai").observation_shape
        with pytest.raises(ValueError, match=r"\[N, 3\]"):
            rafle._rafle.heldout_metrics("thai", np.zeros((30, 2), np.float32))
    finally:
        rafle._rafle._set_eval_zoo(str(zoo))
    assert set(got) == {"eval/value_corr", "eval/value_ce", "eval/value_corr_material", "eval/value_ce_constant"}
    assert -1.0 <= got["eval/value_corr"] <= 1.0 and got["eval/value_ce"] > 0.0
    assert lines[-1].startswith("  value head on 30 held-out positions: correlation")


def test_schedule_warmup_then_cosine() -> None:
    cfg = rafle._rafle.load_config(Path(__file__).resolve().parents[2] / "configs" / "thai.toml")
    t = cfg["train"]
    learner = L.Learner(L.fresh_net(cfg), cfg)
    assert learner.lr_at(0.0) == pytest.approx(t["lr"] / t["warmup_steps"])
    learner.step_count = t["warmup_steps"]
    assert learner.lr_at(0.0) == pytest.approx(t["lr"])
    assert learner.lr_at(0.5) == pytest.approx(t["lr"] * (1 + t["lr_final_frac"]) / 2)
    assert learner.lr_at(1.0) == pytest.approx(t["lr"] * t["lr_final_frac"])
    # The schedule's progress, as rafle train computes it: steps alone, or
    # the larger of steps and time (train.schedule_by).
    learner.step_count = 20
    for by, want in [("steps", 0.2), ("clock", 0.8)]:
        learner.train_cfg = {**t, "schedule_by": by}
        assert L.schedule_progress(learner, 100, 80.0, 100.0) == pytest.approx(want)
    with pytest.raises(ValueError, match="schedule_by"):
        rafle._rafle.schedule_progress("wall", 1, 2, 0.0, 0.0)
    assert L.steps_per_iteration(cfg) == 32  # 2048 positions x 4 reuse / 256


def test_replay_keeps_the_newest_window() -> None:
    r = L.Replay(5)
    for start in (0, 3, 6):
        obs = np.arange(start, start + 3, dtype=np.float32)[:, None]
        r.add({"obs": obs, "mask": obs > -1, "policy": obs, "value": obs})
    assert len(r) == 5 and r.total_added == 9
    assert sorted(r.arrays["obs"][:, 0]) == [4, 5, 6, 7, 8]
    b = r.sample(100, np.random.default_rng(0))
    assert set(b["obs"][:, 0].tolist()) == {4.0, 5.0, 6.0, 7.0, 8.0}


def test_a_python_checkpoint_resumes_in_rust(tmp_path: Path, tiny_run: Callable[[str], Path]) -> None:
    src = tiny_run("thai")
    learner, meta = L.load_learner(src)
    assert learner.step_count == meta["step"] > 0
    out = tmp_path / "py"
    learner.save(out, iteration=meta["iteration"], games=meta["games"], positions=meta["positions"],
                 elapsed_s=meta["elapsed_s"])
    again = json.loads((out / "latest.json").read_text())
    assert again["step"] == meta["step"] and again["config"] == meta["config"]
    # Rust continues the Python-written run: weights and optimiser moments load.
    r = subprocess.run([str(BINARY), "train", "--resume", str(out), "--iterations", str(meta["iteration"] + 1),
                        "--quiet"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert json.loads((out / "latest.json").read_text())["iteration"] == meta["iteration"] + 1


def test_the_model_evaluator_runs_in_f32_and_bf16() -> None:
    cfg = rafle._rafle.load_config(Path(__file__).resolve().parents[2] / "configs" / "thai.toml")
    net = L.fresh_net(cfg)
    obs = rafle.VecEnv("thai", num_envs=40, seed=3).reset()
    for dtype in (None, torch.bfloat16):
        logits, wdl = model.evaluator(net, dtype=dtype)(obs)
        assert logits.shape == (40, 896) and wdl.shape == (40, 3)
        torch.testing.assert_close(wdl.sum(dim=1), torch.ones(40), atol=1e-3, rtol=0)
    # bf16 is close to f32 (the same network).
    f32 = model.evaluator(net)(obs)[0]
    bf16 = model.evaluator(net, dtype=torch.bfloat16)(obs)[0].float()
    assert (f32 - bf16).abs().max() < 0.1


def test_the_teacher_start_is_rafle_trains(tmp_path: Path) -> None:
    """[bootstrap] in the Python learners: the same teacher games as `rafle
    train` (same seed, same positions), their steps trained from the start."""
    text = TINY.read_text() + '\n[bootstrap]\ngames = 6\nplayer = "alphabeta:1"\nepochs = 1.5\n'
    cfg_path = tmp_path / "boot.toml"
    cfg_path.write_text(text)
    cfg = rafle._rafle.load_config(cfg_path)
    arrays, t = rafle._rafle.teach(cfg)
    n = len(arrays["obs"])
    assert t["games"] == 6 and t["positions"] == n > 0 and sum(t["results"]) == 6
    assert t["steps"] == -(-n * 3 // (2 * cfg["train"]["batch_size"]))
    assert arrays["policy"].shape == arrays["mask"].shape and np.allclose(arrays["policy"].sum(1), 1)
    again, _ = rafle._rafle.teach(cfg)
    assert all(np.array_equal(arrays[k], again[k]) for k in arrays)
    learner = L.Learner(L.fresh_net(cfg), cfg)
    replay = L.Replay(cfg["train"]["replay_window"])
    rng = np.random.default_rng(0)
    said: list[str] = []
    logs = L.bootstrap(learner, cfg, replay.add, rng, said.append)
    assert len(replay) == n and learner.step_count == t["steps"]
    assert logs["bootstrap/positions"] == n and said[0].startswith("bootstrap | 6 games of alphabeta:1")
    if BINARY.is_file():  # rafle train plays the same teacher games
        out = tmp_path / "rust"
        r = subprocess.run([str(BINARY), "train", "--config", str(cfg_path), "--out", str(out), "--iterations", "1",
                            "--quiet"], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        rows = [line.split(",") for line in (out / "metrics.csv").read_text().splitlines()]
        boot = [r for r in rows if r[3] == "bootstrap/positions"]
        assert boot and boot[0][:2] == ["0", str(t["steps"])] and float(boot[0][4]) == n, rows
    with pytest.raises(ValueError, match="plays no games"):
        rafle._rafle.teach(TINY)


def test_a_teacher_mixed_in_keeps_its_own_buffer(tmp_path: Path) -> None:
    """[bootstrap] mix > 0: the teacher's positions stay out of the replay
    window, in ``learner.teacher`` and its file (``rafle train``'s), and
    ``teacher_mix`` replaces rafle train's share of each batch with them,
    falling to none at ``mix_until``."""
    cfg_path = tmp_path / "mix.toml"
    cfg_path.write_text(TINY.read_text() + '\n[bootstrap]\ngames = 4\nplayer = "alphabeta:1"\nmix = 0.5\n'
                        "mix_until = 0.5\n")
    cfg = rafle._rafle.load_config(cfg_path)
    learner = L.Learner(L.fresh_net(cfg), cfg)
    replay = L.Replay(cfg["train"]["replay_window"])
    rng = np.random.default_rng(0)
    logs = L.bootstrap(learner, cfg, replay.add, rng, lambda _: None, run_dir=tmp_path)
    n = int(logs["bootstrap/positions"])
    assert len(replay) == 0 and learner.teacher is not None and len(learner.teacher) == n > 0
    again = L.load_teacher(tmp_path, cfg)
    assert again is not None and len(again) == n
    teacher_obs = {bytes(o) for o in learner.teacher.window_arrays()["obs"]}
    batch = {k: np.zeros_like(a[:16]) for k, a in learner.teacher.window_arrays().items()}
    batch["extra"] = np.arange(16)
    for progress, share in [(0.0, 0.5), (0.25, 0.25), (0.5, 0.0), (1.0, 0.0)]:
        mixed = L.teacher_mix(learner, batch, progress, rng)
        k = rafle._rafle.teacher_count(16, 0.5, 0.5, progress)
        assert k == round(16 * share) and L.teacher_share(learner, progress) == share
        assert all(bytes(o) in teacher_obs for o in mixed["obs"][:k]) and not mixed["obs"][k:].any()
        assert np.array_equal(mixed["extra"], batch["extra"])
    with pytest.raises(ValueError, match="bootstrap.mix"):
        rafle._rafle.teacher_count(16, 1.5, 0.5, 0.0)
    learner.teacher = None
    assert L.teacher_mix(learner, batch, 0.0, rng)["obs"] is batch["obs"] and L.teacher_share(learner, 0.0) is None


def test_the_teacher_steps_draw_from_all_its_positions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """More teacher positions than the replay window holds: the window keeps
    the newest, and the teacher's steps still draw from the older ones."""
    window = 32
    text = TINY.read_text().replace("replay_window = 1000", f"replay_window = {window}")
    cfg_path = tmp_path / "boot.toml"
    cfg_path.write_text(text + '\n[bootstrap]\ngames = 6\nplayer = "alphabeta:1"\nepochs = 4.0\n')
    cfg = rafle._rafle.load_config(cfg_path)
    arrays, t = rafle._rafle.teach(cfg)
    assert t["positions"] > 2 * window
    kept = {bytes(o) for o in arrays["obs"][-window:]}
    drawn: list[np.ndarray] = []
    original = L.train_steps

    def recording(learner: L.Learner, batches: Any, progress: Any) -> Dict[str, float]:
        def seen() -> Any:
            for b in batches:
                drawn.extend(np.asarray(b["obs"]))
                yield b
        return original(learner, seen(), progress)

    monkeypatch.setattr(L, "train_steps", recording)
    replay = L.Replay(window)
    L.bootstrap(L.Learner(L.fresh_net(cfg), cfg), cfg, replay.add, np.random.default_rng(0), lambda _: None)
    assert len(replay) == window and len(drawn) == t["steps"] * cfg["train"]["batch_size"]
    assert any(bytes(o) not in kept for o in drawn)
