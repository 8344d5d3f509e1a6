"""The TorchRL and Tianshou examples run end to end for a few hundred steps."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run(example: str, *flags: str) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / example), *flags],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_torchrl_example() -> None:
    pytest.importorskip("torchrl")
    out = run("torchrl_policy_gradient.py", "--num-envs", "4", "--steps", "100", "--iterations", "2")
    lines = re.findall(r"^it +(\d+) +steps +(\d+) +games ended +(\d+) +loss +\S+$", out, re.M)
    assert [(it, steps) for it, steps, _ in lines] == [("1", "400"), ("2", "400")], out


def test_tianshou_example() -> None:
    pytest.importorskip("tianshou")
    out = run("tianshou_dqn.py", "--steps", "300", "--test-games", "2")
    m = re.search(r"trained (\d+) steps \((\d+) updates\); .* over (\d+) test games: ([-+0-9.]+)", out)
    assert m, out
    assert int(m.group(1)) >= 300 and int(m.group(2)) > 0 and m.group(3) == "2"
    assert -1.0 <= float(m.group(4)) <= 1.0
