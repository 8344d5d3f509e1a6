#!/usr/bin/env python3
"""Appends one training run's row to a variant's results file
(configs/results/<variant>.tsv), the evidence behind every recipe choice.

    python3 tools/results_row.py --run runs/ab/B-seed1 --ladder runs/ab/B-seed1.ladder.txt \\
        --config configs/thai.toml --lever teacher --arm B --seed 1 --budget 5

The row: date, commit, config file and the first 12 hex digits of the
SHA-256 of the settings it trains with (`rafle config FILE`: its bases
merged, every default written out, so an arm whose recipe changed gets a
new hash; `--config-sha FILE` prints it alone; rows before 2026-12-07
hashed the file's bytes), lever, arm, seed, budget (training minutes), iterations, self-play
games per hour and plies per game (from the run's latest.json and
metrics.csv), the ladder Elo with its 95% interval and games (from the
`rafle ladder` report), a note, the machine it ran on (`--machine`
prints that label alone) and the share of the CPU time the host took
while the run trained (steal_pct: `--cpu-ticks` prints the counters that
`--ticks-before`/`--ticks-after` take; a virtual machine whose host is busy
loses that share of its wall budget). A file whose header lacks a column
gets it, its older rows an empty field there. Only the standard library:
it runs before .venv exists.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

COLUMNS = [
    "date", "commit", "config", "config_sha", "lever", "arm", "seed", "budget_min", "iterations",
    "games_per_hour", "plies_per_game", "ladder_elo", "ladder_lo", "ladder_hi", "ladder_games", "note", "machine",
    "steal_pct",
]

# Above this steal_pct a run's budget differs from a quiet machine's by more
# than the seed-to-seed spread of iterations (about 5%).
STEAL_WARN = 5.0


def machine() -> str:
    """This machine as a row names it: the CPU's name with its family/model
    numbers (cloud CPUs share a name across generations), the cores, and
    whether it has fast bf16 (AMX or AVX-512 BF16, where `"auto"` dtypes
    pick bf16). Wall-clock budgets give different runs on different
    machines, so an A/B compares rows of one machine."""
    try:
        block = Path("/proc/cpuinfo").read_text().split("\n\n")[0]
    except OSError:
        block = ""
    info = dict((k.strip(), v.strip()) for k, _, v in (line.partition(":") for line in block.splitlines()) if v)
    name = " ".join(info.get("model name", "unknown CPU").split())
    flags = set(info.get("flags", "").split())
    bf16 = "bf16" if {"amx_bf16", "avx512_bf16"} & flags else "no fast bf16"
    return f"{name} ({info.get('cpu family', '?')}/{info.get('model', '?')}), {os.cpu_count()} cores, {bf16}"


def cpu_ticks(stat: str | None = None) -> tuple[int, int]:
    """(steal, total) CPU ticks since boot, all CPUs, from /proc/stat's
    `cpu` line (user nice system idle iowait irq softirq steal ...; the
    guest fields that follow are already counted in user and nice)."""
    if stat is None:
        try:
            stat = Path("/proc/stat").read_text()
        except OSError:
            return 0, 0
    for line in stat.splitlines():
        f = line.split()
        if f and f[0] == "cpu":
            ticks = [int(x) for x in f[1:9]]
            return (ticks[7] if len(ticks) > 7 else 0), sum(ticks)
    return 0, 0


def steal_pct(before: str, after: str) -> str:
    """The stolen share of the CPU time between two `--cpu-ticks` readings
    ("steal total"), in percent with one decimal; "" without a reading."""
    try:
        s0, t0 = (int(x) for x in before.split())
        s1, t1 = (int(x) for x in after.split())
    except ValueError:
        raise ValueError(f"CPU ticks are two integers 'steal total', not {before!r} and {after!r}") from None
    if t1 <= t0:
        return ""
    return f"{100 * (s1 - s0) / (t1 - t0):.1f}"


def append(out: Path, row: list[str]) -> None:
    """Appends `row` to the file `out`, writing the header first when the
    file is new and bringing an older header (fewer columns) up to date."""
    out.parent.mkdir(parents=True, exist_ok=True)
    lines = out.read_text().splitlines() if out.exists() else []
    header = "\t".join(COLUMNS)
    if lines and lines[0] != header:
        old = lines[0].split("\t")
        if old != COLUMNS[: len(old)]:
            raise ValueError(f"{out}: its columns {old} are not a start of {COLUMNS}")
        pad = "\t" * (len(COLUMNS) - len(old))
        lines = [header] + [line + pad for line in lines[1:]]
    elif not lines:
        lines = [header]
    lines.append("\t".join(row))
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text("\n".join(lines) + "\n")
    tmp.replace(out)


def commit(root: Path) -> str:
    """The checkout's short commit, "+changes" when crates/ or configs/ differ from it."""
    def git(*args: str) -> str:
        r = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
        return r.stdout.strip() if r.returncode == 0 else ""
    head = git("rev-parse", "--short=12", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", "crates", "configs", "python/rafle")
    return head + ("+changes" if dirty else "")


def config_sha(config: Path, rafle: Path) -> str:
    """The first 12 hex digits of the SHA-256 of `rafle config CONFIG`."""
    try:
        r = subprocess.run([str(rafle), "config", str(config)], capture_output=True, text=True)
    except OSError as e:
        raise ValueError(f"cannot run {rafle} (build it: cargo build --release -p rafle-zero): {e}") from None
    if r.returncode != 0:
        raise ValueError(f"rafle config {config}: {r.stderr.strip()}")
    return hashlib.sha256(r.stdout.encode()).hexdigest()[:12]


def run_figures(run: Path) -> tuple[int, float, float]:
    """Iterations, self-play games per hour and mean plies per game of a run
    (of `rafle train-eval`: generations, and its games)."""
    if (run / "state.json").exists():
        state = json.loads((run / "state.json").read_text())
        games = plies = 0.0
        with open(run / "metrics.csv", newline="") as f:
            rows = [r for r in csv.DictReader(f)]
        by_gen: dict[str, dict[str, float]] = {}
        for r in rows:
            by_gen.setdefault(r["iteration"], {})[r["name"]] = float(r["value"])
        for g in by_gen.values():
            games += g.get("games/games", 0.0)
            plies += g.get("games/games", 0.0) * g.get("games/plies_per_game", 0.0)
        hours = max(float(state["minutes"]), 1e-9) / 60
        return int(state["generations"]), games / hours, plies / max(games, 1.0)
    meta = json.loads((run / "latest.json").read_text())
    hours = max(float(meta["elapsed_s"]), 1e-9) / 3600
    lengths = []
    with open(run / "metrics.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["name"] == "selfplay/game_length":
                lengths.append(float(row["value"]))
    plies = sum(lengths) / len(lengths) if lengths else float("nan")
    return int(meta["iteration"]), int(meta["games"]) / hours, plies


def variant_of(run: Path) -> str:
    """The variant a run trained (latest.json, or a train-eval run's state.json config)."""
    if (run / "state.json").exists():
        m = re.search(r'^variant = "([a-z]+)"', json.loads((run / "state.json").read_text())["config"], re.M)
        if not m:
            raise ValueError(f"{run}/state.json: no variant in its config")
        return m[1]
    return json.loads((run / "latest.json").read_text())["variant"]


def placement(report: str) -> tuple[int, int, int, int]:
    """(elo, lo, hi, games) from a `rafle ladder` report."""
    m = re.search(r"^elo (-?\d+) \[(-?\d+), (-?\d+)\]$", report, re.M)
    g = re.search(r": (\d+) games against \d+ rungs", report)
    if not (m and g):
        raise ValueError("not a rafle ladder report (no 'elo E [lo, hi]' line)")
    return int(m[1]), int(m[2]), int(m[3]), int(g[1])


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    if argv == ["--machine"]:
        print(machine())
        return 0
    if argv == ["--cpu-ticks"]:
        print(*cpu_ticks())
        return 0
    root = Path(__file__).resolve().parents[1]
    rafle = Path(os.environ.get("RAFLE", root / "target" / "release" / "rafle"))
    if len(argv) == 2 and argv[0] == "--config-sha":
        try:
            print(config_sha(Path(argv[1]), rafle))
        except ValueError as e:
            print(f"results_row: {e}", file=sys.stderr)
            return 1
        return 0
    p.add_argument("--run", type=Path, required=True,
                   help="the run folder (latest.json or, of rafle train-eval, state.json; metrics.csv)")
    p.add_argument("--ladder", type=Path, required=True, help="the rafle ladder report of its model")
    p.add_argument("--config", type=Path, required=True, help="the config the run trained (as given, unseeded)")
    p.add_argument("--lever", required=True, help="what the A/B measures, e.g. teacher-start")
    p.add_argument("--arm", required=True, help="A, B, or a name")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--budget", type=float, required=True, help="training minutes")
    p.add_argument("--note", default="")
    p.add_argument("--ticks-before", default="", help="`--cpu-ticks` as the run started training")
    p.add_argument("--ticks-after", default="", help="`--cpu-ticks` as it stopped (both give steal_pct)")
    p.add_argument("--out", type=Path, help="default: configs/results/<variant>.tsv")
    a = p.parse_args(argv)
    try:
        variant = variant_of(a.run)
        iterations, gph, plies = run_figures(a.run)
        elo, lo, hi, games = placement(a.ladder.read_text())
        sha = config_sha(a.config, rafle)
        steal = steal_pct(a.ticks_before, a.ticks_after) if a.ticks_before or a.ticks_after else ""
    except (OSError, ValueError, KeyError) as e:
        print(f"results_row: {e}", file=sys.stderr)
        return 1
    out = a.out or root / "configs" / "results" / f"{variant}.tsv"
    row = [
        datetime.date.today().isoformat(), commit(root), str(a.config), sha, a.lever, a.arm, str(a.seed),
        f"{a.budget:g}", str(iterations), f"{gph:.0f}", f"{plies:.1f}", str(elo), str(lo), str(hi), str(games),
        a.note.replace("\t", " ").replace("\n", " "), machine(), steal,
    ]
    try:
        append(out, row)
    except (OSError, ValueError) as e:
        print(f"results_row: {e}", file=sys.stderr)
        return 1
    print(f"{out}: {' '.join(row[4:15])}" + (f", host steal {steal}%" if steal else ""))
    if steal and float(steal) > STEAL_WARN:
        print(f"warning: the host took {steal}% of the CPU time while this run trained: "
              "its wall budget bought less than a quiet machine's", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
