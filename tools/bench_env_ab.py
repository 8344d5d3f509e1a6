#!/usr/bin/env python3
"""Paired env benchmark of two builds: for each variant and thread count,
runs the `vec_env` bench binary of build A, then of build B, then A again,
... (``--rounds`` pairs), and prints the median steps/s of each and the
median and range of the B/A ratios taken pair by pair (so a drift of the
machine's speed hits both sides of a pair alike), with a distribution-free
95% interval of that median (the sign test's order statistics; it needs
about 8 rounds or more to be narrower than the range).

Build a bench binary with ``cargo bench -p rafle-env --no-run`` (it prints
the executable's path); for an older commit, check it out in a worktree
(``git worktree add --detach /tmp/ref COMMIT``) and build there.

    python3 tools/bench_env_ab.py A_BINARY B_BINARY [--rounds 3] [--steps 300]
        [--envs 4096] [--threads 1,2] [--variants thai,international]

Run it on a quiet machine: nothing else building, training or testing.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess

# The variants that both builds know (a build older than 12x12 lacks canadian).
VARIANTS = ["thai", "international", "english", "checkers", "russian", "brazilian", "pool",
            "italian", "spanish", "czech", "killer", "antidraughts", "breakthrough", "frisian",
            "turkish"]


def run(binary: str, variant: str, threads: int, args: argparse.Namespace) -> float:
    """steps/s of one variant at one thread count, from one run of a bench binary."""
    env = dict(os.environ, RAFLE_BENCH_STEPS=str(args.steps), RAFLE_BENCH_ENVS=str(args.envs),
               RAFLE_BENCH_THREADS=str(threads), RAFLE_BENCH_VARIANT=variant)
    text = subprocess.run([binary], env=env, capture_output=True, text=True, check=True).stdout
    rows = [line.split() for line in text.splitlines()[1:]]
    return next(float(f[3]) for f in rows if f[:2] == [variant, str(threads)])


def median_interval(xs: list[float], level: float = 0.95) -> tuple[float, float]:
    """Distribution-free interval of the median (order statistics of the
    binomial sign test): covers the true median with at least `level`."""
    xs, n = sorted(xs), len(xs)
    k = 0  # the largest k with P(Binomial(n, 1/2) < k+1) <= (1 - level) / 2
    while sum(math.comb(n, i) for i in range(k + 1)) / 2**n <= (1 - level) / 2:
        k += 1
    return (xs[k - 1], xs[n - k]) if k > 0 else (xs[0], xs[-1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--envs", type=int, default=4096)
    p.add_argument("--threads", default="1,2")
    p.add_argument("--variants", default="", help="comma-separated; default: the 15 before 12x12")
    args = p.parse_args()
    variants = [v for v in args.variants.split(",") if v] or VARIANTS
    print(f"{'variant':<14} {'threads':>7} {'A steps/s':>11} {'B steps/s':>11} "
          f"{'B/A median':>10} {'95% interval':>13} {'B/A range':>13}", flush=True)
    for v in variants:
        for threads in (int(t) for t in args.threads.split(",")):
            a, b = [], []
            for _ in range(args.rounds):
                a.append(run(args.a, v, threads, args))
                b.append(run(args.b, v, threads, args))
            ratios = [y / x for x, y in zip(a, b)]
            lo, hi = median_interval(ratios)
            print(f"{v:<14} {threads:>7} {statistics.median(a):>11.3e} {statistics.median(b):>11.3e} "
                  f"{statistics.median(ratios):>10.3f} {lo:>6.3f}-{hi:.3f} {min(ratios):>6.3f}-{max(ratios):.3f}",
                  flush=True)

if __name__ == "__main__":
    main()
