"""The shipped models' table, rendered from their cards (python/rafle/zoo/V.json)
and their variants' ladders (crates/rafle-arena/ladder/V.toml):

    python3 tools/zoo_table.py            # print it
    python3 tools/zoo_table.py --write    # rewrite it in README.md and docs/how-to/zoo.md

Those pages hold the table between the markers ``<!-- zoo table -->`` and
``<!-- /zoo table -->``; python/tests/test_zoo.py checks that it is the
cards' table, so a card and the pages never disagree. A goal cell says
whether the model reaches the alpha-beta rung it is measured against
(``alphabeta:3`` at 64 simulations, ``alphabeta:4`` at 256).
"""

import argparse
import json
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ZOO = ROOT / "python" / "rafle" / "zoo"
LADDERS = ROOT / "crates" / "rafle-arena" / "ladder"
PAGES = [ROOT / "README.md", ROOT / "docs" / "how-to" / "zoo.md"]
BEGIN, END = "<!-- zoo table -->", "<!-- /zoo table -->"
# The goal at each simulation count: the rung to reach.
GOALS = {"64": "alphabeta:3", "256": "alphabeta:4"}


def rungs(variant: str) -> dict[str, float]:
    ladder = tomllib.loads((LADDERS / f"{variant}.toml").read_text())
    return {r["spec"]: r["elo"] for r in ladder["rung"]}


def placement(card: dict, sims: str, rung: dict[str, float]) -> str:
    p = card.get("ladder", {}).get(sims)
    if p is None:
        return "not placed"
    goal = GOALS[sims]
    mark = "reaches" if p["elo"] >= rung[goal] else "below"
    return f"{p['elo']} [{p['lo']}, {p['hi']}] ({mark} {goal}, {rung[goal]:.0f})"


def row(variant: str) -> str:
    card = json.loads((ZOO / f"{variant}.json").read_text())["zoo"]
    rung = rungs(variant)
    vs = card.get("vs")
    score = (
        f"{100 * vs['score']:.1f}% (+{vs['wins']} ={vs['draws']} -{vs['losses']})" if vs else "not measured"
    )
    config = (card.get("config") or "").split(" (")[0]
    trained = f"`{config}`, {card['trained_minutes']} min" if config else f"{card['trained_minutes']} min"
    cells = [f"`zoo:{variant}`", trained, placement(card, "64", rung), placement(card, "256", rung), score]
    return "| " + " | ".join(cells) + " |"


def table() -> str:
    variants = sorted(p.stem for p in ZOO.glob("*.safetensors"))
    head = [
        "| model | trained (2 cores) | ladder Elo, 64 simulations | ladder Elo, 256 simulations | against alphabeta:4, 256 simulations |",
        "|---|---|---|---|---|",
    ]
    return "\n".join(head + [row(v) for v in variants]) + "\n"


def span(text: str) -> tuple[int, int]:
    """Where the table lies in a page: after the opening marker's line, up to the closing marker."""
    return text.index(BEGIN) + len(BEGIN) + 1, text.index(END)


def in_page(text: str) -> str:
    start, end = span(text)
    return text[start:end]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--write", action="store_true", help="rewrite the table in README.md and docs/how-to/zoo.md")
    a = p.parse_args()
    t = table()
    if not a.write:
        print(t, end="")
        return 0
    for page in PAGES:
        text = page.read_text()
        if BEGIN not in text or END not in text:
            sys.exit(f"zoo_table: {page} has no {BEGIN} ... {END} markers")
        start, end = span(text)
        page.write_text(text[:start] + t + text[end:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
