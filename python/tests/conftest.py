"""Shared fixtures: tiny trained checkpoints (one `rafle train` iteration of
crates/rafle-zero/tests/data/tiny.toml per variant, made once per session)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Callable

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINARY = ROOT / "target" / "release" / "rafle"
TINY = ROOT / "crates" / "rafle-zero" / "tests" / "data" / "tiny.toml"


def train_tiny(out: Path, variant: str, iterations: int = 1) -> Path:
    """A tiny `rafle train` run of `variant` in `out`; returns the run folder."""
    if not BINARY.is_file():
        pytest.skip(f"{BINARY} not built (cargo build --release -p rafle-zero)")
    cfg = out.parent / f"{out.name}.toml"
    text = TINY.read_text().replace('variant = "thai"', f'variant = "{variant}"')
    assert f'variant = "{variant}"' in text and 'out_dir = "OUT"' in text
    cfg.write_text(text.replace('out_dir = "OUT"', f'out_dir = "{out}"'))
    cmd = [str(BINARY), "train", "--config", str(cfg), "--iterations", str(iterations), "--quiet"]
    subprocess.run(cmd, check=True, capture_output=True)
    return out


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """tiny_run(variant) -> the folder of a tiny trained run of that variant."""
    made: dict[str, Path] = {}

    def get(variant: str) -> Path:
        if variant not in made:
            made[variant] = train_tiny(tmp_path_factory.mktemp(f"tiny-{variant}") / "run", variant)
        return made[variant]

    return get
