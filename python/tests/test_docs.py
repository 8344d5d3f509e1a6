"""Every example of the README and of the book (docs/) runs, and the book
builds with warnings as errors.

Fenced blocks marked ``python`` run in one interpreter per page, in page
order (a block may use what an earlier block of its page defined); blocks
marked ``sh``, ``bash`` or ``console`` (the lines after ``$ ``) run with
bash, ``set -euo pipefail``, ``target/release/rafle`` and this Python
first on the PATH. A page's blocks run in a scratch folder that links every
top-level entry of the repository, so `configs/`, `target/release/rafle`
and `scripts/`, `tools/` are where the docs say, and what the examples write
(games.pdn, runs/, egtb/) lands in the scratch folder. Other languages
(``text``, ``toml``, ``yaml``) are shown, not run.

An HTML comment on the line before a block changes how it runs (docs/about.md):

    <!-- doctest: skip (why: a reason is required) -->
    <!-- doctest: replace "--games 200" => "--games 2" ; "A" => "B" -->
    <!-- doctest: env RAFLE_ZOO=/tmp/zoo -->
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINARY = ROOT / "target" / "release" / "rafle"
RUN = {"python", "sh", "bash", "console"}
SHOWN = {"text", "toml", "yaml", "rust", "json", ""}
# Seconds one page's examples may take before the test fails.
PAGE_TIMEOUT = 120
# Top-level entries a page's scratch folder does not link: what examples write.
NOT_LINKED = {".git", "runs", "egtb", "site", "games.pdn"}


def pages() -> list[Path]:
    book = sorted(p for p in (ROOT / "docs").rglob("*.md") if not p.is_symlink())
    return [ROOT / "README.md", *book]


@dataclass
class Block:
    page: Path
    line: int
    lang: str
    code: str
    skip: str | None = None
    replace: list[tuple[str, str]] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)

    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    def script(self) -> str:
        code = self.code
        for old, new in self.replace:
            assert old in code, f"{self.where()}: replace: {old!r} is not in the block"
            code = code.replace(old, new)
        if self.lang == "console":
            code = "\n".join(line[2:] for line in code.splitlines() if line.startswith("$ "))
        return code


DIRECTIVE = re.compile(r"^<!--\s*doctest:\s*(.*?)\s*-->$")
PAIR = re.compile(r'^"(.*?)"\s*=>\s*"(.*?)"$')


def parse(page: Path) -> list[Block]:
    """The fenced blocks of a markdown file with the directive before each."""
    blocks: list[Block] = []
    lines = page.read_text().splitlines()
    pending: tuple[int, str] | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = DIRECTIVE.match(line.strip())
        if m:
            assert pending is None, f"{page.name}:{i + 1}: two directives in a row"
            pending = (i + 1, m.group(1))
        elif line.startswith("```"):
            lang = line[3:].strip()
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), None)
            assert end is not None, f"{page.name}:{i + 1}: unclosed code block"
            block = Block(page, i + 1, lang, "\n".join(lines[i + 1 : end]) + "\n")
            if pending is not None:
                apply(block, *pending)
                pending = None
            blocks.append(block)
            i = end
        elif line.strip() and pending is not None:
            raise AssertionError(f"{page.name}:{pending[0]}: a doctest directive must come right before a code block")
        i += 1
    assert pending is None, f"{page.name}:{pending[0]}: a doctest directive with no block after it"
    return blocks


def apply(block: Block, line: int, text: str) -> None:
    where = f"{block.page.name}:{line}"
    verb, _, rest = text.partition(" ")
    rest = rest.strip()
    if verb == "skip":
        reason = rest.strip("() ")
        assert reason, f"{where}: a skip needs its reason: <!-- doctest: skip (why) -->"
        block.skip = reason
    elif verb == "replace":
        for part in rest.split(" ; "):
            m = PAIR.match(part.strip())
            assert m, f'{where}: replace wants "old" => "new" pairs separated by " ; ", not {part!r}'
            block.replace.append((m.group(1), m.group(2)))
    elif verb == "env":
        for item in shlex.split(rest):
            key, eq, value = item.partition("=")
            assert eq and key, f"{where}: env wants KEY=VALUE, not {item!r}"
            block.env[key] = value
    else:
        raise AssertionError(f"{where}: unknown doctest directive {verb!r} (skip, replace, env)")


ALL = {page: parse(page) for page in pages()}


def test_blocks_are_well_formed() -> None:
    """Every block has a known language; Python blocks compile, skipped or not."""
    n_run = 0
    for blocks in ALL.values():
        for b in blocks:
            assert b.lang in RUN | SHOWN, f"{b.where()}: unknown block language {b.lang!r} ({sorted(RUN | SHOWN)})"
            if b.lang == "python":
                compile(b.script(), b.where(), "exec")
            n_run += b.lang in RUN and b.skip is None
    assert n_run >= 20, "the docs lost their examples"


def test_skips_are_few() -> None:
    skipped = [b.where() for blocks in ALL.values() for b in blocks if b.skip]
    assert len(skipped) <= 20, f"too many skipped examples: {skipped}"


# The driver runs one page's blocks in order in a fresh interpreter: Python
# blocks in one namespace, shell blocks through bash.
DRIVER = r"""
import json, os, subprocess, sys, traceback
blocks = json.load(sys.stdin)
ns = {"__name__": "__main__"}
for b in blocks:
    print(f"== {b['where']} ({b['lang']})", flush=True)
    env = dict(os.environ, **b["env"])
    if b["lang"] == "python":
        saved = dict(os.environ)
        os.environ.update(b["env"])
        try:
            exec(compile(b["code"], b["where"], "exec"), ns)
        except BaseException:
            traceback.print_exc()
            print(f"FAILED: {b['where']}", flush=True)
            sys.exit(1)
        finally:
            os.environ.clear(); os.environ.update(saved)
    else:
        r = subprocess.run(["bash", "-c", "set -euo pipefail\n" + b["code"]], env=env)
        if r.returncode != 0:
            print(f"FAILED: {b['where']}: exit {r.returncode}", flush=True)
            sys.exit(1)
"""


def scratch(tmp: Path) -> Path:
    for entry in ROOT.iterdir():
        if entry.name not in NOT_LINKED:
            (tmp / entry.name).symlink_to(entry)
    return tmp


RUNNABLE = [page for page, blocks in ALL.items() if any(b.lang in RUN and not b.skip for b in blocks)]


@pytest.mark.parametrize("page", RUNNABLE, ids=[str(p.relative_to(ROOT)) for p in RUNNABLE])
def test_examples_run(page: Path, tmp_path: Path) -> None:
    if not BINARY.is_file():
        pytest.skip(f"{BINARY} not built (cargo build --release -p rafle-zero)")
    todo = [
        {"where": b.where(), "lang": b.lang, "code": b.script(), "env": b.env}
        for b in ALL[page]
        if b.lang in RUN and not b.skip
    ]
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(BINARY.parent), str(Path(sys.executable).parent), env.get("PATH", "")])
    env["MPLBACKEND"] = "Agg"
    started = time.monotonic()
    r = subprocess.run(
        [sys.executable, "-c", DRIVER],
        input=json.dumps(todo),
        cwd=scratch(tmp_path),
        env=env,
        capture_output=True,
        text=True,
        timeout=PAGE_TIMEOUT,
    )
    out = (r.stdout + r.stderr)[-6000:]
    assert r.returncode == 0, f"an example of {page.name} failed:\n{out}"
    print(f"{page.relative_to(ROOT)}: {len(todo)} blocks in {time.monotonic() - started:.1f} s")


def test_book_builds_strict(tmp_path: Path) -> None:
    """`mkdocs build --strict`: a broken link, a missing page or an API
    reference that does not resolve is an error (scripts/setup.sh installs
    MkDocs)."""
    site = tmp_path / "site"
    r = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, f"mkdocs build --strict failed:\n{(r.stdout + r.stderr)[-4000:]}"
    assert (site / "reference" / "python" / "index.html").is_file()
