"""python/rafle/model.py mirrors the Rust network: a tiny `rafle train` run
writes a checkpoint and a probe file (observations + Rust outputs); the
PyTorch model loaded from the checkpoint must give the same outputs."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Callable

import pytest

torch = pytest.importorskip("torch")
safetensors_torch = pytest.importorskip("safetensors.torch")

from conftest import BINARY  # noqa: E402
from rafle import model as M  # noqa: E402


@pytest.mark.parametrize("variant", ["thai", "international"])
def test_python_model_matches_rust(tiny_run: Callable[[str], Path], variant: str) -> None:
    run = tiny_run(variant)
    net = M.load(run / "latest.safetensors")
    probe = safetensors_torch.load_file(str(run / "latest.probe.safetensors"))
    assert probe["obs"].shape[1:] == (8, net.shape["board"], net.shape["board"])
    with torch.no_grad():
        policy, wdl = net(probe["obs"])
    assert policy.shape == probe["policy_logits"].shape
    torch.testing.assert_close(policy, probe["policy_logits"], rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(wdl, probe["wdl_logits"], rtol=1e-4, atol=1e-4)
    # The probe is not trivial: positions differ and the net is trained.
    assert not torch.allclose(policy[0], policy[1])
    value = M.RafleNet.scalar_value(wdl)
    assert ((value >= -1) & (value <= 1)).all()


def test_save_round_trip_is_read_by_rust(tmp_path: Path, tiny_run: Callable[[str], Path]) -> None:
    run = tiny_run("thai")
    meta = json.loads((run / "latest.json").read_text())
    net = M.load(run / "latest.safetensors")
    assert net.meta == meta, "load keeps the metadata save writes back"
    with torch.no_grad():
        for p in net.parameters():
            p.mul_(0.5)
    copy = tmp_path / "copy"
    copy.mkdir()
    M.save(net, copy / "latest.safetensors")
    assert json.loads((copy / "latest.json").read_text()) == meta
    again = M.load(copy / "latest.safetensors")
    x = safetensors_torch.load_file(str(run / "latest.probe.safetensors"))["obs"]
    with torch.no_grad():
        torch.testing.assert_close(again(x)[0], net(x)[0])
    # Rust loads the Python-written weights and plays with them.
    shutil.copy(run / "latest.probe.safetensors", copy)
    r = subprocess.run(
        [str(BINARY), "eval", "--variant", "thai", "--model", str(copy / "latest.safetensors"),
         "--vs", "random", "--games", "2", "--quiet"],
        capture_output=True, text=True,
    )
    assert r.returncode == 0, r.stderr


def test_bad_files_are_value_errors(tmp_path: Path, tiny_run: Callable[[str], Path]) -> None:
    bad = tmp_path / "x.safetensors"
    bad.write_bytes(b"\x05\x00\x00\x00\x00\x00\x00\x00nope!")
    shutil.copy(tiny_run("thai") / "latest.json", tmp_path / "x.json")
    with pytest.raises(ValueError, match="not a safetensors file"):
        M.load(bad)
    with pytest.raises(ValueError, match="not found"):
        M.load(tmp_path / "missing.safetensors")
