#!/usr/bin/env python3
"""Self-play from Python next to Rust's: ``rafle.SelfPlay`` driven by the
PyTorch mirror network (``rafle.model``) against ``rafle bench selfplay``
(the tch network), same config, same fresh-network shape, alternating
rounds so that both see the same machine.

Each round times the self-play of ``--positions`` training positions and
prints network evaluations per second and the average batch; the last line
gives the median of the per-round Python/Rust ratios. ``--dtype bf16`` runs
both in bfloat16 (Python: autocast from rafle's BF16_BATCH leaves, as
``rafle.model.evaluator(net, dtype=torch.bfloat16)``; Rust: its bf16 copy).

    .venv/bin/python tools/bench_selfplay.py [--config configs/thai.toml] [--rounds 3] [--dtype f32|bf16]
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def python_round(sp, positions: int) -> tuple[float, float]:
    before = sp.stats
    sp.play(positions)
    after = sp.stats
    evals = after["nn_evals"] - before["nn_evals"]
    batches = max(after["batches"] - before["batches"], 1)
    return evals / (after["seconds"] - before["seconds"]), evals / batches


def rust_round(config: str, positions: int, dtype: str) -> tuple[float, float]:
    out = subprocess.run(
        [str(ROOT / "target/release/rafle"), "bench", "selfplay", "--config", config, "--positions", str(positions), "--rounds", "1"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    m = re.search(rf"{dtype}:\s+(\d+) evals/s, batch\s+([\d.]+)", out)
    if m is None:
        sys.exit(f"bench_selfplay: unexpected output of rafle bench selfplay:\n{out}")
    return float(m.group(1)), float(m.group(2))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--config", default="configs/thai.toml")
    p.add_argument("--positions", type=int, default=2048)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--dtype", choices=("f32", "bf16"), default="f32")
    a = p.parse_args()
    if not (ROOT / "target/release/rafle").is_file():
        sys.exit("bench_selfplay: build the CLI first (cargo build --release -p rafle-zero)")

    import torch

    import rafle
    from rafle import learner, model

    cfg = rafle._rafle.load_config(a.config)  # checked as `rafle train` checks it
    net = learner.fresh_net(cfg).eval()
    dtype = torch.bfloat16 if a.dtype == "bf16" else None
    sp = rafle.SelfPlay.from_config(a.config, model.evaluator(net, dtype=dtype), seed=1)
    sp.play(a.positions // 2)  # warm-up
    ratios = []
    for r in range(a.rounds):
        rs, rb = rust_round(a.config, a.positions, a.dtype)
        ps, pb = python_round(sp, a.positions)
        ratios.append(ps / rs)
        print(f"round {r} {a.dtype}: Python {ps:7.0f} evals/s (batch {pb:5.1f})   Rust {rs:7.0f} evals/s (batch {rb:5.1f})   ratio {ps / rs:.2f}")
    print(f"median Python/Rust ratio over {a.rounds} rounds: {statistics.median(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
