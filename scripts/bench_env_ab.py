#!/usr/bin/env python3
"""Paired env benchmark of two builds: runs the `vec_env` bench binary of
build A, then of build B, then A again, ... (``--rounds`` pairs), and prints
per variant and thread count the median steps/s of each, and the median and
range of the B/A ratios taken pair by pair (so a drift of the machine's speed
hits both sides of a pair alike).

Build a bench binary with ``cargo bench -p rafle-env --no-run`` (it prints
the executable's path); for an older commit, check it out in a worktree
(``git worktree add --detach /tmp/ref COMMIT``) and build there.

    python3 scripts/bench_env_ab.py A_BINARY B_BINARY [--rounds 3] [--steps 300]
        [--envs 4096] [--threads 1,2] [--variants thai,international]

Run it on a quiet machine: nothing else building, training or testing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys


def run(binary: str, args: argparse.Namespace) -> dict[tuple[str, int], float]:
    """steps/s per (variant, threads) from one run of a bench binary."""
    env = dict(os.environ, RAFLE_BENCH_STEPS=str(args.steps),
               RAFLE_BENCH_ENVS=str(args.envs), RAFLE_BENCH_THREADS=args.threads)
    out: dict[tuple[str, int], float] = {}
    for variant in args.variants.split(","):
        if variant:
            env["RAFLE_BENCH_VARIANT"] = variant
        text = subprocess.run([binary], env=env, capture_output=True, text=True,
                              check=True).stdout
        for line in text.splitlines()[1:]:
            f = line.split()
            if len(f) >= 4:
                out[(f[0], int(f[1]))] = float(f[3])
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--envs", type=int, default=4096)
    p.add_argument("--threads", default="1,2")
    p.add_argument("--variants", default="", help="comma-separated; default: every variant")
    args = p.parse_args()
    runs: list[tuple[dict, dict]] = []
    for r in range(args.rounds):
        a = run(args.a, args)
        b = run(args.b, args)
        runs.append((a, b))
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    keys = [k for k in runs[0][0] if all(k in a and k in b for a, b in runs)]
    print(f"{'variant':<14} {'threads':>7} {'A steps/s':>11} {'B steps/s':>11} "
          f"{'B/A median':>10} {'B/A range':>13}")
    for k in keys:
        a = [x[k] for x, _ in runs]
        b = [y[k] for _, y in runs]
        ratios = [y / x for x, y in zip(a, b)]
        print(f"{k[0]:<14} {k[1]:>7} {statistics.median(a):>11.3e} {statistics.median(b):>11.3e} "
              f"{statistics.median(ratios):>10.3f} {min(ratios):>6.3f}-{max(ratios):.3f}")


if __name__ == "__main__":
    main()
