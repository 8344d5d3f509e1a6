"""Ships a trained checkpoint as the model of its variant (``zoo:VARIANT``).

    .venv/bin/python scripts/ship_model.py runs/english-long/latest.safetensors

writes ``python/rafle/zoo/VARIANT.safetensors`` (the weights in float16, half
the size; the Rust and Python loaders widen them back to float32) and
``VARIANT.json`` (the checkpoint's metadata, plus a ``zoo`` record saying
where the weights came from). docs/how-to/zoo.md's strength table says how each
shipped model plays and how to measure it again.
"""

import argparse
import datetime
import json
import sys
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file

from rafle import atomic

ZOO = Path(__file__).resolve().parent.parent / "python" / "rafle" / "zoo"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("weights", type=Path, help="RUN_DIR/latest.safetensors of a finished run")
    p.add_argument("--config", default=None, help="the config the run was trained from, for the record")
    p.add_argument("--zoo", type=Path, default=ZOO, help="destination folder (default: python/rafle/zoo)")
    a = p.parse_args()
    meta_path = a.weights.with_suffix(".json")
    if not a.weights.is_file() or not meta_path.is_file():
        sys.exit(f"ship_model: need {a.weights} and {meta_path}")
    try:
        meta = json.loads(meta_path.read_text())
        variant, elapsed = meta["variant"], float(meta["elapsed_s"])
        state = load_file(str(a.weights))
    except (ValueError, KeyError, TypeError, OSError) as e:
        sys.exit(f"ship_model: {a.weights} is not a rafle checkpoint ({e})")
    half = {k: (t.half() if t.is_floating_point() else t).contiguous() for k, t in state.items()}
    meta["zoo"] = {
        "source": str(a.weights),
        "config": a.config,
        "weights": "float16",
        "shipped": datetime.date.today().isoformat(),
        "trained_minutes": round(elapsed / 60, 1),
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
