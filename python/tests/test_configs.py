"""Config files built on a recipe (crates/rafle-train/src/overlay.rs) and
`--set`, from Python: the experiment arms of configs/results/V/ are overlays
that train exactly the settings their old whole files did, and
``load_config(path, set=[...])`` reads them as ``rafle train`` does."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import rafle
from conftest import BINARY, ROOT

# The commit before the arms became overlays: configs/thai-<old>.toml there
# is the whole file each overlay replaced.
BEFORE = "c2ee0f7"
ARMS = {
    "bf16-train": "bf16", "net-depth": "depth6", "egtb": "egtb", "eval-cadence": "eval0",
    "gumbel-m4": "gumbel-m4", "net-width": "net48", "open16": "open16", "reuse2": "reuse2",
    "sims32": "sims32", "teacher-depth": "teacher-d4", "teacher-score": "teacher-score",
    "teacher-share": "teacher-share", "teacher-soft": "teacher-soft", "teacher-start": "teacher",
    "vsearch1": "vsearch1", "window20k": "window20k",
}
# Arms born as overlays (after BEFORE): no old file to compare with.
BORN_OVERLAYS = ["cut-none", "cut-search", "schedule-steps", "teacher-learned", "teacher-mix"]
# Where an old file drifted from the recipe it said it changed: (field, the
# old file's value, the overlay's). thai-teacher.toml lacked conv_dtype, so
# it trained f32 convolutions where the recipe says "auto".
DRIFTS = {"teacher-start": [("train.conv_dtype", "f32", "auto")]}


def old_file(path: str) -> str:
    """`path` as it was at BEFORE (git), or a skip where the history is absent."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    r = subprocess.run(["git", "-C", str(ROOT), "show", f"{BEFORE}:{path}"], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"the repository's history before {BEFORE} is absent (a shallow clone?): {r.stderr.strip()}")
    return r.stdout


def field(cfg: dict[str, Any], name: str) -> Any:
    table, key = name.split(".")
    return cfg[table][key]


def test_every_arm_is_an_overlay_in_its_levers_name() -> None:
    """Each arm is a short overlay on its recipe: the AlphaZero recipe
    (configs/thai.toml), or rafle train-eval's (configs/eval/thai.toml, the
    eval-* arms)."""
    files = sorted((ROOT / "configs" / "results" / "thai").glob("*.toml"))
    learned = [p for p in files if 'base = "../../eval/thai.toml"' in p.read_text()]
    assert [p.stem for p in learned] == ["eval-net", "eval-patterns"]
    trainer = [p for p in files if p not in learned]
    assert [p.stem for p in trainer] == sorted([*ARMS, *BORN_OVERLAYS])
    for path in files:
        text = path.read_text()
        assert path in learned or 'base = "../../thai.toml"' in text, path.stem
        assert len([line for line in text.splitlines() if "=" in line and not line.startswith("#")]) <= 6, path.stem


@pytest.mark.parametrize("lever", sorted(ARMS))
def test_an_overlay_trains_what_its_old_file_did(lever: str, tmp_path: Path) -> None:
    # The overlay on the recipe of its day, against the whole file it replaced.
    (tmp_path / "configs" / "results" / "thai").mkdir(parents=True)
    (tmp_path / "configs" / "thai.toml").write_text(old_file("configs/thai.toml"))
    overlay = tmp_path / "configs" / "results" / "thai" / f"{lever}.toml"
    shutil.copy(ROOT / "configs" / "results" / "thai" / f"{lever}.toml", overlay)
    old = tmp_path / "old.toml"
    old.write_text(old_file(f"configs/thai-{ARMS[lever]}.toml"))
    new_cfg, old_cfg = rafle._rafle.load_config(str(overlay)), rafle._rafle.load_config(str(old))
    for name, was, now in DRIFTS.get(lever, []):
        assert (field(old_cfg, name), field(new_cfg, name)) == (was, now), name
        table, key = name.split(".")
        new_cfg[table][key] = was
    assert new_cfg == old_cfg


def test_a_change_to_the_recipe_reaches_its_arms() -> None:
    recipe = rafle._rafle.load_config(str(ROOT / "configs" / "thai.toml"))
    arm = rafle._rafle.load_config(str(ROOT / "configs" / "results" / "thai" / "net-depth.toml"))
    assert arm["net"]["blocks"] == 6 and recipe["net"]["blocks"] == 4
    arm["net"]["blocks"], arm["run"]["out_dir"] = 4, recipe["run"]["out_dir"]
    assert arm == recipe


def test_set_changes_fields_and_names_what_is_wrong() -> None:
    thai = str(ROOT / "configs" / "thai.toml")
    cfg = rafle._rafle.load_config(thai, ["run.seed=7", "net.blocks=6", "bootstrap.player=alphabeta:4",
                                          'eval.opponents=["random"]'])
    assert cfg["run"]["seed"] == 7 and cfg["net"]["blocks"] == 6
    assert cfg["bootstrap"]["player"] == "alphabeta:4" and cfg["eval"]["opponents"] == ["random"]
    # A dict config takes the same settings.
    assert rafle._rafle.load_config(rafle._rafle.load_config(thai), ["run.seed=7", "net.blocks=6",
                                    "bootstrap.player=alphabeta:4", 'eval.opponents=["random"]']) == cfg
    for bad, says in [("run.sed=1", "unknown field `sed`"), ("net.blocks=many", "net.blocks"),
                      ("train.lr=-1", "train.lr must be > 0"), ("run.seed", "table.field=value"),
                      ("base=x.toml", "base"), ("run.seed.x=1", "run.seed is not a table")]:
        with pytest.raises(ValueError, match=r"(?s)^[^\n]*$") as e:
            rafle._rafle.load_config(thai, [bad])
        assert says in str(e.value), (bad, str(e.value))


def test_bases_resolve_from_their_own_folder_and_loops_are_refused(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "arm.toml").write_text(f'base = "{ROOT / "configs" / "thai.toml"}"\n[net]\nblocks = 5\n')
    (tmp_path / "b.toml").write_text('base = "a/arm.toml"\n[run]\nseed = 3\n')
    cfg = rafle._rafle.load_config(str(tmp_path / "b.toml"))
    assert (cfg["net"]["blocks"], cfg["run"]["seed"], cfg["run"]["variant"]) == (5, 3, "thai")
    (tmp_path / "x.toml").write_text('base = "y.toml"\n')
    (tmp_path / "y.toml").write_text('base = "x.toml"\n')
    with pytest.raises(ValueError, match="loop"):
        rafle._rafle.load_config(str(tmp_path / "x.toml"))
    (tmp_path / "c.toml").write_text('base = "missing.toml"\n')
    with pytest.raises(ValueError, match="missing.toml"):
        rafle._rafle.load_config(str(tmp_path / "c.toml"))


def test_the_cli_takes_set_and_prints_the_settings() -> None:
    if not BINARY.is_file():
        pytest.skip(f"{BINARY} not built (cargo build --release -p rafle-zero)")
    arm = ROOT / "configs" / "results" / "thai" / "net-depth.toml"
    r = subprocess.run([str(BINARY), "config", str(arm), "--set", "run.seed=9"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "blocks = 6\n" in r.stdout and "seed = 9\n" in r.stdout and "base" not in r.stdout
    r = subprocess.run([str(BINARY), "train", "--config", str(arm), "--set", "net.blocks=x"],
                       capture_output=True, text=True)
    assert r.returncode != 0 and r.stderr.count("\n") == 1 and "net.blocks" in r.stderr, r.stderr
    r = subprocess.run([str(BINARY), "train", "--config", str(arm), "--set", "run.nope=1"],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "unknown field `nope`" in r.stderr, r.stderr
