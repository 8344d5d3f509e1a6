"""The shipped models (rafle/zoo/, ``zoo:VARIANT``) load in Python and play:
their policy alone (0 simulations) beats ``random``, which a fresh network of
the same shape does not, so an untrained file cannot pass for a model."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("safetensors")

import rafle  # noqa: E402
import rafle.agents  # noqa: E402
from rafle import model as M  # noqa: E402
from conftest import ROOT  # noqa: E402
from rafle.agents import ZOO, shipped_models  # noqa: E402

GAMES = 20


def score_vs_random(a: object, variant: str) -> float:
    return rafle.evaluate(a, "random", variant=variant, games=GAMES, seed=3, progress=False).score


@pytest.mark.parametrize("variant", shipped_models())
def test_every_shipped_model_beats_random_with_its_policy(variant: str) -> None:
    path = ZOO / f"{variant}.safetensors"
    assert variant in rafle.VARIANTS, f"{path.name} is not named after a variant"
    meta = json.loads(path.with_suffix(".json").read_text())
    assert meta["variant"] == variant and meta["zoo"]["weights"] == "float16"

    net = M.load(path)
    assert all(p.dtype == torch.float32 for p in net.parameters())
    assert score_vs_random(rafle.NetworkAgent(M.evaluator(net), 0), variant) >= 0.9
    # The spec resolves to the same file.
    assert score_vs_random(rafle.Player(f"zoo:{variant}:0", variant), variant) >= 0.9

    torch.manual_seed(1)
    fresh = M.RafleNet.from_shape(meta["shape"]).eval()
    assert score_vs_random(rafle.NetworkAgent(M.evaluator(fresh), 0), variant) < 0.9


def test_a_zoo_model_of_another_variant_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="thai"):
        rafle.Player("zoo:thai", "international")


def test_a_variant_without_a_shipped_model_is_a_value_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A zoo folder holding only the thai model, so the case stays testable
    once every variant ships one."""
    for suffix in (".safetensors", ".json"):
        shutil.copy(ZOO / f"thai{suffix}", tmp_path / f"thai{suffix}")
    monkeypatch.setattr(rafle.agents, "ZOO", tmp_path)
    missing = next(v for v in rafle.VARIANTS if v != "thai")
    with pytest.raises(ValueError, match=f"no model is shipped for {missing} \\(shipped: thai\\)"):
        rafle.Player(f"zoo:{missing}", missing)


SHIP = ROOT / "tools" / "ship_model.py"


@pytest.mark.parametrize("content", [None, "not json"])
def test_ship_model_rejects_what_is_not_a_checkpoint(tmp_path: Path, content: str | None) -> None:
    """A missing checkpoint or one whose metadata does not parse is a one-line
    error and a non-zero exit, and nothing is written to the zoo folder."""
    weights = tmp_path / "latest.safetensors"
    if content is not None:
        weights.write_bytes(b"\0" * 16)
        weights.with_suffix(".json").write_text(content)
    out = tmp_path / "zoo"
    r = subprocess.run(
        [sys.executable, str(SHIP), str(weights), "--zoo", str(out)], capture_output=True, text=True
    )
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ship_model:"), r.stderr
    assert not out.exists()


def test_the_pages_models_table_is_the_cards() -> None:
    """The models table of README.md and docs/how-to/zoo.md is
    tools/zoo_table.py's rendering of the shipped cards: rerun it with
    --write after shipping or measuring."""
    spec = importlib.util.spec_from_file_location("zoo_table", SHIP.parent / "zoo_table.py")
    zoo_table = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(zoo_table)
    for page in zoo_table.PAGES:
        assert zoo_table.in_page(page.read_text()) == zoo_table.table(), f"{page.name}: run tools/zoo_table.py --write"


@pytest.mark.parametrize("args", [["--card", "thai"], ["--card", "thai", "--vs", "missing.txt"], []])
def test_ship_model_card_update_rejects_bad_input(tmp_path: Path, args: list[str]) -> None:
    """--card without reports, with a report that is missing, or with neither
    weights nor --card: a one-line error, a non-zero exit, the card untouched."""
    shutil.copy(ZOO / "thai.json", tmp_path / "thai.json")
    before = (tmp_path / "thai.json").read_text()
    r = subprocess.run(
        [sys.executable, str(SHIP), *args, "--zoo", str(tmp_path)], capture_output=True, text=True, cwd=tmp_path
    )
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ship_model:"), r.stderr
    assert (tmp_path / "thai.json").read_text() == before


def test_the_pages_evaluations_table_is_the_cards() -> None:
    """README.md and docs/how-to/learned-eval.md hold tools/ship_eval.py's
    table of the shipped evaluations' cards: rerun it with `--table --write`
    after shipping."""
    spec = importlib.util.spec_from_file_location("ship_eval", SHIP.parent / "ship_eval.py")
    ship_eval = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ship_eval)
    for page in ship_eval.PAGES:
        text = page.read_text()
        start, end = text.index(ship_eval.BEGIN) + len(ship_eval.BEGIN) + 1, text.index(ship_eval.END)
        assert text[start:end] == ship_eval.table(), f"{page.name}: run tools/ship_eval.py --table --write"


@pytest.mark.parametrize("variant", [p.stem for p in (ZOO / "eval").glob("*.safetensors")] or ["none"])
def test_every_shipped_evaluation_plays_its_variant(variant: str) -> None:
    if variant == "none":
        pytest.skip("no evaluation shipped yet")
    g = rafle.Game(variant)
    assert rafle.Player("alphabeta:d=2,eval=zoo", variant).choose(g) in g.legal_moves()
