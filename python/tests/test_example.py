"""The examples run end to end on a tiny budget."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import rafle
from conftest import BINARY, TINY

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_ppo_example_tiny_budget() -> None:
    pytest.importorskip("torch")
    run = subprocess.run(
        [
            sys.executable, str(EXAMPLES / "train_ppo.py"), "--variant", "thai",
            "--iterations", "2", "--num-envs", "16", "--steps", "16",
            "--minibatch", "64", "--eval-games", "8", "--hidden", "32",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert re.search(r"^it +2 ", run.stdout, re.M), run.stdout
    for opponent in ("random", "greedy", "alphabeta:2"):
        m = re.search(rf"final score vs {opponent} over 8 games: ([0-9.]+)", run.stdout)
        assert m and 0.0 <= float(m.group(1)) <= 1.0, run.stdout


def test_alphazero_example_two_tiny_iterations(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("safetensors")
    out = tmp_path / "run"
    cfg = tmp_path / "tiny.toml"
    # The tiny trainer config, with a final evaluation of 4 games (a
    # placement on the ladder) and a teacher start whose positions keep a
    # buffer of their own (half of each batch), given as rafle train would
    # take it (an overlay and --set).
    cfg.write_text(f'base = "{TINY}"\n[eval]\nfinal_games = 4\n'
                   '[bootstrap]\ngames = 2\nplayer = "alphabeta:1"\nmix = 0.5\nmix_until = 0.0\n')
    run = subprocess.run(
        [sys.executable, str(EXAMPLES / "alphazero.py"), "--config", str(cfg), "--out", str(out),
         "--iterations", "2", "--set", "eval.every=1", "--set", "eval.games=2", "--quiet"],
        capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert re.search(r"^iter +2 \|", run.stdout, re.M), run.stdout
    assert "final evaluation (4 games placing it on the ladder)" in run.stdout, run.stdout
    # The placement line of rafle train: the periodic one after iteration 1, then the final one.
    lines = re.findall(r"^  ladder elo (-?\d+) \[(-?\d+), (-?\d+)\] \(placed by (\d+) games against ",
                       run.stdout, re.M)
    assert [int(x[3]) for x in lines] == [2, 4], run.stdout
    assert all(int(lo) <= int(e) <= int(hi) for e, lo, hi, _ in lines), run.stdout
    assert (out / "metrics.csv").read_text().count("loss/policy") == 2
    assert "eval/ladder_elo" in (out / "metrics.csv").read_text()
    assert re.findall(r",train/teacher_share,([\d.]+)", (out / "metrics.csv").read_text()) == ["0.5", "0.5"]
    assert (out / "teacher.safetensors").is_file()
    # The checkpoint plays in Rust and in Python.
    if BINARY.is_file():
        r = subprocess.run([str(BINARY), "eval", "--variant", "thai", "--model",
                            str(out / "latest.safetensors"), "--vs", "random", "--games", "2", "--quiet"],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    g = rafle.Game("thai")
    assert rafle.Player(f"model:{out / 'latest.safetensors'}:4", "thai").choose(g) in g.legal_moves()


@pytest.mark.parametrize("design", ["patterns", "net"])
def test_learned_eval_example_fits_and_plays(design: str, tmp_path: Path) -> None:
    pytest.importorskip("torch")
    out = tmp_path / "eval.safetensors"
    run = subprocess.run(
        [sys.executable, str(EXAMPLES / "learned_eval.py"), "--variant", "thai", "--design", design,
         "--games", "6", "--depth", "2", "--epochs", "2", "--match-games", "4", "--out", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stderr
    losses = [float(x) for x in re.findall(r"^epoch \d+: loss ([0-9.]+)", run.stdout, re.M)]
    assert len(losses) == 2 and all(0 < x < 1 for x in losses), run.stdout
    m = re.search(r"score vs alphabeta:2 over 4 games: ([0-9.]+)", run.stdout)
    assert m and 0.0 <= float(m.group(1)) <= 1.0, run.stdout
    # The file it wrote is an evaluation the arena plays.
    g = rafle.Game("thai")
    assert rafle.Player(f"alphabeta:d=2,eval={out}", "thai").choose(g) in g.legal_moves()
