#!/usr/bin/env python3
"""Ships a `rafle train-eval` run's evaluation as its variant's `eval=zoo`,
and renders the table of shipped evaluations.

    python3 tools/ship_eval.py runs/eval-zoo-thai/run --config configs/eval/thai.toml \\
        --vs-depth vs-depth.txt --vs-time vs-time.txt --ladder ladder.txt
    python3 tools/ship_eval.py --card thai --vs-depth ... --ladder ...   # measured again
    python3 tools/ship_eval.py --table [--write]

The first form copies RUN/eval.safetensors to
python/rafle/zoo/eval/VARIANT.safetensors (the file as trained: it is
small) and writes VARIANT.json, its card: design, budget, generations,
positions, config and commit (from the file's metadata), and the measured
figures from the reports (`rafle eval` against alphabeta at equal depth and
at equal time per move, `rafle ladder`). `--card` rewrites only the
measured figures. `--table` prints the evaluations table that README.md and
docs/how-to/learned-eval.md hold between `<!-- eval table -->` and
`<!-- /eval table -->` (`--write` rewrites it there);
python/tests/test_zoo.py checks that the pages hold the cards' table.
Only the standard library: tools/eval_zoo.sh runs it.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import shutil
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EVALS = ROOT / "python" / "rafle" / "zoo" / "eval"
PAGES = [ROOT / "README.md", ROOT / "docs" / "how-to" / "learned-eval.md"]
BEGIN, END = "<!-- eval table -->", "<!-- /eval table -->"
sys.path.insert(0, str(ROOT / "tools"))
from results_row import commit, placement  # noqa: E402


def write_text(path: Path, text: str) -> None:
    """Replaces `path` whole (a temporary file renamed over it)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)


def metadata(path: Path) -> dict[str, str]:
    """The string metadata of a safetensors file's header."""
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
    meta = header.get("__metadata__", {})
    if meta.get("format") != "rafle-eval":
        raise ValueError(f"{path} is not a rafle evaluation file")
    return meta


def match(report: str) -> dict:
    """Player A's result in a `rafle eval` report, with the pair-based Elo and its interval."""
    rows = re.findall(r"^(\S+) +(\d+) +(\d+) +(\d+) +([\d.]+)%", report, re.M)
    elo = re.search(r"pair-based Elo ([-+]?[\d.]+|[-+]?inf) \[([-+]?[\d.]+|[-+]?inf), ([-+]?[\d.]+|[-+]?inf)\]", report)
    if len(rows) < 2 or not elo:
        raise ValueError("not a rafle eval match report (two player rows and a pair-based Elo)")
    (a, wins, draws, losses, score), (b, *_) = rows[0], rows[1]
    return {"a": a, "b": b, "wins": int(wins), "draws": int(draws), "losses": int(losses),
            "score": round(float(score) / 100, 4), "elo": float(elo[1]), "lo": float(elo[2]), "hi": float(elo[3])}


def measured(a: argparse.Namespace) -> dict:
    out: dict = {}
    if a.vs_depth:
        out["vs_depth"] = match(a.vs_depth.read_text())
    if a.vs_time:
        out["vs_time"] = match(a.vs_time.read_text())
    if a.ladder:
        elo, lo, hi, games = placement(a.ladder.read_text())
        out["ladder"] = {"elo": elo, "lo": lo, "hi": hi, "games": games}
    return out


def cell(m: dict | None) -> str:
    if not m:
        return "not measured"
    return f"{100 * m['score']:.1f}% (+{m['wins']} ={m['draws']} -{m['losses']}), Elo {m['elo']:+.0f} [{m['lo']:+.0f}, {m['hi']:+.0f}]"


def row(variant: str) -> str:
    card = json.loads((EVALS / f"{variant}.json").read_text())
    ladder = card.get("ladder")
    place = f"{ladder['elo']} [{ladder['lo']}, {ladder['hi']}]" if ladder else "not placed"
    depth = card.get("vs_depth", {}).get("b", "alphabeta")
    cells = [f"`{variant}`", card["design"], f"{card['trained_minutes']} min, {card['generations']} generations",
             f"{cell(card.get('vs_depth'))} against `{depth}`", cell(card.get("vs_time")), place]
    return "| " + " | ".join(cells) + " |"


def table() -> str:
    variants = sorted(p.stem for p in EVALS.glob("*.safetensors"))
    head = [
        "| variant | design | trained (2 cores) | at equal depth | at equal time a move | ladder Elo |",
        "|---|---|---|---|---|---|",
    ]
    return "\n".join(head + [row(v) for v in variants]) + "\n"


def write_table() -> None:
    t = table()
    for page in PAGES:
        text = page.read_text()
        start, end = text.index(BEGIN) + len(BEGIN) + 1, text.index(END)
        write_text(page, text[:start] + t + text[end:])


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("run", type=Path, nargs="?", help="a finished rafle train-eval run folder")
    p.add_argument("--card", metavar="VARIANT", help="rewrite the measured figures of a shipped card instead")
    p.add_argument("--config", help="the config the run was trained from, for the card")
    p.add_argument("--vs-depth", type=Path, help="rafle eval report against alphabeta at equal depth")
    p.add_argument("--vs-time", type=Path, help="rafle eval report at equal time a move")
    p.add_argument("--ladder", type=Path, help="rafle ladder report")
    p.add_argument("--table", action="store_true", help="print the table of shipped evaluations")
    p.add_argument("--write", action="store_true", help="with --table: rewrite it in README.md and the how-to page")
    a = p.parse_args()
    try:
        if a.table:
            if a.write:
                write_table()
            else:
                print(table(), end="")
            return 0
        if a.card:
            path = EVALS / f"{a.card}.json"
            card = json.loads(path.read_text())
            card.update(measured(a), measured=datetime.date.today().isoformat(), measured_commit=commit(ROOT))
            write_text(path, json.dumps(card, indent=2) + "\n")
            return 0
        if a.run is None:
            sys.exit("ship_eval: give a run folder, --card VARIANT or --table")
        src = a.run / "eval.safetensors"
        meta = metadata(src)
        variant = meta["variant"]
        card = {
            "variant": variant,
            "design": meta["design"],
            "source": str(a.run),
            "config": a.config,
            "shipped": datetime.date.today().isoformat(),
            "trained_minutes": float(meta.get("minutes", "nan")),
            "generations": int(meta.get("generation", 0)),
            "positions": int(meta.get("positions", 0)),
            "commit": meta.get("commit", "unknown"),
            **measured(a),
        }
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"ship_eval: {e}")
    EVALS.mkdir(parents=True, exist_ok=True)
    # The file, then the card that names it, each replaced whole.
    tmp = EVALS / f"{variant}.safetensors.tmp"
    shutil.copyfile(src, tmp)
    tmp.replace(EVALS / f"{variant}.safetensors")
    write_text(EVALS / f"{variant}.json", json.dumps(card, indent=2) + "\n")
    print(f"{EVALS / variant}.safetensors: {card['design']}, {card['trained_minutes']} min")
    return 0


if __name__ == "__main__":
    sys.exit(main())
