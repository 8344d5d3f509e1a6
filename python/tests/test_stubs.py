"""The .pyi stubs match the compiled module (mypy.stubtest compares names,
signatures and kinds against the runtime objects)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import rafle



def test_stubs_match_compiled_module(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    assert (Path(rafle.__file__).parent / "py.typed").exists()
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "rafle._rafle", "--mypy-config-file", ""],
        # Not the package's own folder: installed from a wheel, that is
        # site-packages, whose modules mypy would take for user modules.
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_stubs_name_every_public_runtime_attribute() -> None:
    import rafle._rafle as compiled

    stub = (Path(compiled.__file__).parent / "_rafle.pyi").read_text()
    classes = (
        compiled.Game,
        compiled.VecEnv,
        compiled.SpecPlayer,
        compiled.NetworkAgent,
        compiled.MatchResult,
        compiled.LadderResult,
        compiled.SearchResult,
        compiled.SelfPlay,
    )
    for cls in classes:
        for name in dir(cls):
            if not name.startswith("__"):
                assert f"def {name}(" in stub, f"{cls.__name__}.{name} missing from the stub"
