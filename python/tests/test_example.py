"""The training example runs end to end on a tiny budget."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "train_reinforce.py"


def test_train_example_tiny_budget() -> None:
    pytest.importorskip("torch")
    run = subprocess.run(
        [
            sys.executable, str(EXAMPLE), "--variant", "thai",
            "--iterations", "2", "--num-envs", "16", "--steps", "16",
            "--minibatch", "64", "--eval-games", "8", "--hidden", "32",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert re.search(r"^it +2 ", run.stdout, re.M), run.stdout
    m = re.search(r"final score vs random over 8 games: ([0-9.]+)", run.stdout)
    assert m and 0.0 <= float(m.group(1)) <= 1.0, run.stdout
