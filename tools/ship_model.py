"""Ships a trained checkpoint as the model of its variant (``zoo:VARIANT``).

    .venv/bin/python tools/ship_model.py runs/english-long/latest.safetensors

writes ``python/rafle/zoo/VARIANT.safetensors`` (the weights in float16, half
the size; the Rust and Python loaders widen them back to float32) and
``VARIANT.json`` (the checkpoint's metadata, plus a ``zoo`` record saying
where the weights came from: its card). With ``--ladder SIMS=REPORT`` (a
``rafle ladder`` report, any number) and ``--vs REPORT`` (a ``rafle eval``
match report) the card also holds the model's ladder Elos and its score;
``tools/zoo.sh`` trains, measures and ships a model that way.

    .venv/bin/python tools/ship_model.py --card thai --ladder 64=r64.txt --ladder 256=r256.txt --vs vs.txt

measures an already shipped model again: it rewrites only the measured
figures of ``thai.json``'s card (and when and at which commit they were
measured), never the weights (``TRAIN=0 tools/zoo.sh thai``).
docs/how-to/zoo.md's tables say how each shipped model plays and how to
measure it again.
"""

import argparse
import datetime
import json
import re
import sys
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file

from rafle import atomic

ROOT = Path(__file__).resolve().parent.parent
ZOO = ROOT / "python" / "rafle" / "zoo"
sys.path.insert(0, str(ROOT / "tools"))
from results_row import commit, placement  # noqa: E402


def match_score(report: str) -> dict:
    """Player A's row of a `rafle eval` match report: opponent, W, D, L, score."""
    rows = re.findall(r"^(\S+) +(\d+) +(\d+) +(\d+) +([\d.]+)%", report, re.M)
    if len(rows) < 2:
        raise ValueError("not a rafle eval match report (no two player rows)")
    (_, wins, draws, losses, score), (opponent, *_) = rows[0], rows[1]
    return {"opponent": opponent, "wins": int(wins), "draws": int(draws), "losses": int(losses), "score": float(score) / 100}


def strength(ladders: list[str], vs: Path | None) -> dict:
    """The card's measured figures: ladder Elos by simulations, the match score."""
    out: dict = {}
    for item in ladders:
        sims, _, path = item.partition("=")
        if not sims.isdigit() or not path:
            raise ValueError(f"--ladder {item!r}: expected SIMS=REPORT, e.g. 256=runs/x.ladder.txt")
        elo, lo, hi, games = placement(Path(path).read_text())
        out.setdefault("ladder", {})[sims] = {"elo": elo, "lo": lo, "hi": hi, "games": games}
    if vs is not None:
        out["vs"] = match_score(vs.read_text())
    return out


def update_card(card: Path, ladders: list[str], vs: Path | None) -> int:
    """Replaces the measured figures on a shipped model's card."""
    if not ladders and vs is None:
        sys.exit("ship_model: --card needs --ladder or --vs reports to write")
    try:
        meta = json.loads(card.read_text())
        record = meta["zoo"]
        measured = strength(ladders, vs)
    except (ValueError, KeyError, TypeError, OSError) as e:
        sys.exit(f"ship_model: {card}: {e}")
    record.update(measured, measured=datetime.date.today().isoformat(), measured_commit=commit(ROOT))
    atomic.write_text(card, json.dumps(meta, indent=2) + "\n")
    print(f"{card}: {', '.join(sorted(measured))} updated")
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("weights", type=Path, nargs="?", help="RUN_DIR/latest.safetensors of a finished run")
    p.add_argument("--card", metavar="VARIANT", help="update the measured figures of a shipped model's card instead")
    p.add_argument("--config", default=None, help="the config the run was trained from, for the record")
    p.add_argument("--zoo", type=Path, default=ZOO, help="destination folder (default: python/rafle/zoo)")
    p.add_argument("--ladder", action="append", default=[], metavar="SIMS=REPORT",
                   help="a rafle ladder report of the model at SIMS simulations, for the card")
    p.add_argument("--vs", type=Path, default=None, metavar="REPORT",
                   help="a rafle eval report of the model (player A) against a baseline, for the card")
    p.add_argument("--budget", type=float, default=None, help="the training minutes asked for, for the card")
    a = p.parse_args()
    if (a.weights is None) == (a.card is None):
        sys.exit("ship_model: give either the weights to ship or --card VARIANT")
    if a.card is not None:
        return update_card(a.zoo / f"{a.card}.json", a.ladder, a.vs)
    meta_path = a.weights.with_suffix(".json")
    if not a.weights.is_file() or not meta_path.is_file():
        sys.exit(f"ship_model: need {a.weights} and {meta_path}")
    try:
        meta = json.loads(meta_path.read_text())
        variant, elapsed = meta["variant"], float(meta["elapsed_s"])
        state = load_file(str(a.weights))
    except (ValueError, KeyError, TypeError, OSError) as e:
        sys.exit(f"ship_model: {a.weights} is not a rafle checkpoint ({e})")
    try:
        measured = strength(a.ladder, a.vs)
    except (ValueError, OSError) as e:
        sys.exit(f"ship_model: {e}")
    half = {k: (t.half() if t.is_floating_point() else t).contiguous() for k, t in state.items()}
    meta["zoo"] = {
        "source": str(a.weights),
        "config": a.config,
        "weights": "float16",
        "shipped": datetime.date.today().isoformat(),
        "trained_minutes": round(elapsed / 60, 1),
        "budget_minutes": a.budget,
        "commit": commit(ROOT),
        **measured,
    }
    a.zoo.mkdir(parents=True, exist_ok=True)
    out = a.zoo / f"{variant}.safetensors"
    # Weights, then the card that names them, each replaced whole.
    atomic.replace(out, lambda tmp: save_file(half, str(tmp)))
    atomic.write_text(a.zoo / f"{variant}.json", json.dumps(meta, indent=2) + "\n")
    worst = max((state[k].float() - half[k].float()).abs().max().item() for k in state if state[k].is_floating_point())
    print(f"{out}: {out.stat().st_size / 1e6:.2f} MB, largest float16 rounding {worst:.2e}")
    return 0


if __name__ == "__main__":
    torch.set_num_threads(1)
    sys.exit(main())
