"""Facts about the repository that its documents state, checked against
the repository itself: the Rust version every crate declares covers what
its dependencies need, the crate dependency table of docs/architecture.md
is what the Cargo.toml files declare, and every script and tool is in its
table."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from functools import lru_cache
from typing import Any

import pytest

from conftest import ROOT


def version(text: str) -> tuple[int, ...]:
    """(major, minor, patch) of "1.88" or "1.88.0"."""
    return (tuple(int(x) for x in text.split(".")[:3]) + (0, 0))[:3]


@lru_cache(maxsize=1)
def metadata() -> dict[str, Any]:
    if shutil.which("cargo") is None:
        pytest.skip("cargo is not installed")
    r = subprocess.run(["cargo", "metadata", "--format-version", "1", "--locked"], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    data: dict[str, Any] = json.loads(r.stdout)
    return data


def members() -> list[dict[str, Any]]:
    ids = set(metadata()["workspace_members"])
    return [p for p in metadata()["packages"] if p["id"] in ids]


def test_every_crate_declares_the_workspace_rust_version_and_it_covers_the_dependencies() -> None:
    declared = re.search(r'^rust-version = "([\d.]+)"', (ROOT / "Cargo.toml").read_text(), re.M)
    assert declared, "the workspace declares no rust-version"
    msrv = version(declared[1])
    for p in members():
        assert p["rust_version"] and version(p["rust_version"]) == msrv, f"{p['name']}: {p['rust_version']}"
    # Every package the lock file resolves, dev-dependencies included (the
    # tests are built with the same compiler).
    resolved = {n["id"] for n in metadata()["resolve"]["nodes"]}
    needs = [(version(p["rust_version"]), p["name"]) for p in metadata()["packages"]
             if p["id"] in resolved and p.get("rust_version")]
    assert max(needs)[0] <= msrv, f"{max(needs)} needs more than {msrv}"
    rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout
    assert version(rustc.split()[1]) >= msrv, rustc


def test_the_crate_dependency_table_is_what_cargo_declares() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text()
    table = text.split("<!-- crate dependencies -->")[1].split("<!-- /crate dependencies -->")[0]
    documented = {}
    for line in table.strip().splitlines()[2:]:
        crate, deps = (cell.strip() for cell in line.strip("|").split("|"))
        documented[crate.strip("`")] = set(re.findall(r"`(rafle-[a-z-]+)`", deps))
    declared = {p["name"]: {d["name"] for d in p["dependencies"] if d["name"].startswith("rafle-") and d["kind"] is None}
                for p in members()}
    assert documented == declared


def test_every_script_and_tool_is_in_its_table() -> None:
    readme = (ROOT / "README.md").read_text()
    architecture = (ROOT / "docs" / "architecture.md").read_text()
    tools = (ROOT / "tools" / "README.md").read_text()
    for f in sorted((ROOT / "scripts").iterdir()):
        assert f"`{f.name}`" in architecture, f"scripts/{f.name} is not in docs/architecture.md"
        assert f"`{f.name}`" in readme, f"scripts/{f.name} is not in the README's table"
    for f in sorted((ROOT / "tools").iterdir()):
        if f.name != "README.md":
            assert f"| `{f.name}` |" in tools, f"tools/{f.name} is not in tools/README.md"
            assert f"`{f.name}`" in readme, f"tools/{f.name} is not in the README's table"
            assert f.name in architecture or re.sub(r"_\w+", "_*", f.name) in architecture, f.name


def features(selection: list[str], edges: str) -> set[tuple[str, str, str]]:
    """Every (side, `crate version`, features) the build of `selection`
    compiles through the dependency kinds `edges`, side "host" for a
    proc-macro and what it depends on (built for the compiler), "target"
    for the rest."""
    r = subprocess.run(["cargo", "tree", *selection, "-f", "{p} [{f}]", "--prefix", "depth", "-e", edges, "--locked"],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = set()
    host_below = None  # the depth of the proc-macro whose subtree this is
    for line in r.stdout.splitlines():
        m = re.match(r"(\d+)(\S+ v\S+)(?: \([^)]*\))* \[(.*?)\]", line)
        if not m:
            continue
        depth = int(m[1])
        if host_below is not None and depth <= host_below:
            host_below = None
        if host_below is None and "(proc-macro)" in line:
            host_below = depth
        out.add(("target" if host_below is None else "host", m[2], m[3]))
    return out


@pytest.mark.parametrize("build", [["-p", "rafle-py"], ["-p", "rafle-zero", "--no-default-features"]])
def test_the_other_builds_share_every_crate_of_the_test_build(build: list[str]) -> None:
    # maturin builds rafle-py alone, the check without libtorch rafle-zero
    # without tch, `cargo test` the default members: a dependency whose
    # features differ between them is built again, and every crate above it
    # (crates/rafle-workspace-hack evens them out).
    metadata()  # cargo is there
    test_build = features([], "normal,dev")
    crates = {(side, crate) for side, crate, _ in test_build}
    apart = sorted(unit for unit in features(build, "normal")
                   if unit[:2] in crates and unit not in test_build and not unit[1].startswith(build[1] + " "))
    assert not apart, f"built with other features by {' '.join(build)}: {apart}"
