"""python -m rafle.distributed on a local Ray instance: a tiny run writes the
files of a `rafle train` run, survives a killed self-play actor, resumes
after the driver is killed, and rejects bad [distributed] tables."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Iterator

import numpy as np
import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("torch")

import rafle  # noqa: E402
from conftest import BINARY, TINY  # noqa: E402
from rafle import distributed  # noqa: E402


def tiny_config(tmp_path: Path, extra: str = "[distributed]\nworkers = 2\n") -> Path:
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(TINY.read_text().replace('out_dir = "OUT"', f'out_dir = "{tmp_path / "run"}"') + "\n" + extra)
    return cfg


def metric_names(run: Path) -> set[str]:
    with open(run / "metrics.csv") as f:
        return {row["name"] for row in csv.DictReader(f)}


def rows(run: Path, name: str) -> list[dict[str, str]]:
    with open(run / "metrics.csv") as f:
        return [r for r in csv.DictReader(f) if r["name"] == name]


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(include_dashboard=False, log_to_driver=False, num_cpus=2)
    yield
    ray.shutdown()


def test_a_local_run_writes_a_rafle_train_run(tmp_path: Path, local_ray: None,
                                               tiny_run: Callable[[str], Path]) -> None:
    state = distributed.run(str(tiny_config(tmp_path)), iterations=3, quiet=True)
    run = tmp_path / "run"
    assert state.iteration == 3
    meta = json.loads((run / "latest.json").read_text())
    assert meta["iteration"] == 3 and meta["step"] == 9 and meta["config"]["distributed"]["workers"] == 2
    # The metric names of a `rafle train` run, and the distributed ones.
    rust_names = metric_names(tiny_run("thai"))
    assert rust_names <= metric_names(run), rust_names - metric_names(run)
    for name in ("distributed/workers", "distributed/samples_per_s", "distributed/policy_lag"):
        assert rows(run, name), name
    assert all(float(r["value"]) == 2 for r in rows(run, "distributed/workers"))
    # Rust loads and plays the checkpoint; so does rafle.Player; rafle plot draws the run.
    if BINARY.is_file():
        r = subprocess.run([str(BINARY), "eval", "--variant", "thai", "--model", str(run / "latest.safetensors"),
                            "--vs", "random", "--games", "2", "--quiet"], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        r = subprocess.run([str(BINARY), "plot", str(run)], capture_output=True, text=True)
        assert r.returncode == 0 and (run / "plots" / "loss.png").is_file(), r.stderr
    g = rafle.Game("thai")
    assert rafle.Player(f"model:{run / 'latest.safetensors'}:4", "thai").choose(g) in g.legal_moves()


def test_a_killed_self_play_actor_is_restarted_and_nothing_is_counted_twice(tmp_path: Path,
                                                                            local_ray: None) -> None:
    killed: list[int] = []

    def kill_one(state: distributed.RunState) -> None:
        if state.iteration == 2 and not killed:
            killed.append(state.pids[0])
            os.kill(state.pids[0], signal.SIGKILL)
            # Wait until Ray has restarted it (tiny iterations take milliseconds).
            assert distributed.when_up(ray, state.workers[0].pid.remote, 120) != killed[0]

    state = distributed.run(str(tiny_config(tmp_path)), iterations=5, quiet=True, on_iteration=kill_one)
    run = tmp_path / "run"
    assert killed and state.iteration == 5
    assert state.restarts >= 1 and state.pids[0] != killed[0]
    assert float(rows(run, "distributed/restarts")[-1]["value"]) >= 1
    # Every position received was counted once, in the replay file too.
    arrays, total = rafle._rafle.load_replay(run / "replay.safetensors", "thai", 10**6)
    assert total == sum(state.received.values()) == json.loads((run / "latest.json").read_text())["positions"]
    assert len(arrays["obs"]) == min(total, 1000)


def test_resume_continues_a_killed_run(tmp_path: Path) -> None:
    cfg = tiny_config(tmp_path)
    run = tmp_path / "run"
    cmd = [sys.executable, "-m", "rafle.distributed", "--quiet"]
    p = subprocess.Popen([*cmd, "--config", str(cfg), "--iterations", "200"], start_new_session=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 120
        while time.time() < deadline:
            meta = run / "latest.json"
            if meta.is_file() and json.loads(meta.read_text())["iteration"] >= 2:
                break
            time.sleep(0.2)
        else:
            pytest.fail("no checkpoint within 120 s")
    finally:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
    done = json.loads((run / "latest.json").read_text())["iteration"]
    r = subprocess.run([*cmd, "--resume", str(run), "--iterations", str(done + 2)], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    meta = json.loads((run / "latest.json").read_text())
    assert meta["iteration"] == done + 2
    assert f"iter {done + 1:>3} |" in r.stdout, r.stdout
    iters = sorted({int(x["iteration"]) for x in rows(run, "loss/policy")})
    assert iters[-1] == done + 2 and done + 1 in iters


def test_a_run_resumes_under_the_other_trainer(tmp_path: Path, local_ray: None) -> None:
    """`rafle train` -> `rafle.distributed` -> `rafle train` on one run folder:
    weights, optimiser, replay window and metrics carry over both ways."""
    if not BINARY.is_file():
        pytest.skip(f"{BINARY} not built")
    cfg, run = tiny_config(tmp_path), tmp_path / "run"

    def meta() -> dict:
        return json.loads((run / "latest.json").read_text())

    def replay() -> tuple[dict, int]:
        return rafle._rafle.load_replay(run / "replay.safetensors", "thai", 10**6)

    train = [str(BINARY), "train", "--final-games", "0", "--quiet"]
    r = subprocess.run([*train, "--config", str(cfg), "--iterations", "1"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    rust_steps = meta()["step"]
    rust_obs, rust_total = replay()
    assert rust_steps > 0 and rust_total == len(rust_obs["obs"]) > 0
    state = distributed.run(resume=str(run), iterations=2, final_games=0, quiet=True)
    assert state.iteration == 2 and meta()["iteration"] == 2 and meta()["step"] > rust_steps
    py_obs, py_total = replay()
    assert py_total > rust_total and meta()["positions"] == py_total
    # The window kept Rust's positions first, as Rust wrote them.
    n = len(rust_obs["obs"])
    for k in ("obs", "mask", "policy", "result"):
        assert np.array_equal(py_obs[k][:n], rust_obs[k]), k
    py_steps = meta()["step"]
    r = subprocess.run([*train, "--resume", str(run), "--iterations", "3"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert meta()["iteration"] == 3 and meta()["step"] > py_steps and replay()[1] > py_total
    assert {int(x["iteration"]) for x in rows(run, "loss/policy")} == {1, 2, 3}


@pytest.mark.parametrize(
    "extra, field",
    [
        ("[distributed]\nworkers = 0\n", "distributed.workers"),
        ("[distributed]\nnodes = 3\n", "nodes"),
        ("[distributed]\ncpus_per_worker = 0\n", "distributed.cpus_per_worker"),
        ("[distributed]\nbroadcast_every = 0\n", "distributed.broadcast_every"),
    ],
)
def test_config_errors_are_one_line_naming_the_field(tmp_path: Path, extra: str, field: str) -> None:
    r = subprocess.run([sys.executable, "-m", "rafle.distributed", "--config", str(tiny_config(tmp_path, extra))],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and field in lines[0] and lines[0].startswith("error:"), r.stderr


@pytest.mark.parametrize(
    "assignment, says",
    [("run.nope=1", "unknown field `nope`"), ("distributed.workers=none", "distributed.workers"),
     ("run.seed", "table.field=value")],
)
def test_set_errors_are_one_line(tmp_path: Path, assignment: str, says: str) -> None:
    r = subprocess.run([sys.executable, "-m", "rafle.distributed", "--config", str(tiny_config(tmp_path, "")),
                        "--set", assignment], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and lines[0].startswith("error:"), r.stderr
