#!/usr/bin/env python3
"""Python-side throughput of rafle.VecEnv next to Rust's ``rafle bench env``,
per variant, and OpenSpiel checkers for scale.

The Python loop, per step of all envs: draw one legal action per env with the
built-in sampler, step, and fetch the observations and the legal mask as
numpy arrays (what a training loop needs), once through the zero-copy path
(``copy=False``: read-only views of the env's own arrays) and once through
the copying default. Steps/s counts env steps (one action in one game). The
Rust figure is ``rafle bench env`` with the same variant, envs and threads,
run just before each Python measurement so that both see the same machine.
When ``pyspiel`` (pip install open_spiel) is importable, the same loop runs
on OpenSpiel's ``checkers`` and the ratio is printed.

    .venv/bin/python tools/bench_env.py [--num-envs 4096] [--threads 2] [--seconds 5]
        [--variants checkers,international] [--rounds 3]

With ``--rounds K`` each variant is measured K times in turn (Rust, Python,
Rust, Python, ...) and the medians are printed, with the range of the
Python/Rust ratios taken round by round.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def bench_rafle(variant: str, num_envs: int, seconds: float, copy: bool) -> float:
    import rafle

    env = rafle.VecEnv(variant, num_envs=num_envs, seed=0)
    env.reset()
    for _ in range(5):  # warm-up
        env.step(env.sample_legal_actions(), copy=copy)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, reward, terminated, truncated, info = env.step(env.sample_legal_actions(), copy=copy)
        mask = env.legal_mask(copy=copy)
        steps += num_envs
    assert obs.shape[0] == mask.shape[0] == num_envs
    return steps / (time.perf_counter() - start)


def bench_cli(cli: Path, variant: str, num_envs: int, threads: int, seconds: float) -> float:
    """steps/s of ``rafle bench env`` (its 4th column), timed for about ``seconds``."""
    steps = max(100, int(seconds * 4e6 / num_envs))  # ~4M env steps/s on 2 threads
    out = subprocess.run(
        [str(cli), "bench", "env", "--variant", variant, "--envs", str(num_envs),
         "--threads", str(threads), "--steps", str(steps)],
        capture_output=True, text=True, check=True,
    ).stdout
    row = next(line for line in out.splitlines() if line.split()[:1] == [variant])
    return float(row.split()[3])


def bench_openspiel(num_envs: int, seconds: float) -> float:
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game("checkers")
    rng = random.Random(0)
    states = [game.new_initial_state() for _ in range(num_envs)]
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, masks = [], []
        for i, s in enumerate(states):
            s.apply_action(rng.choice(s.legal_actions()))
            if s.is_terminal():
                s = states[i] = game.new_initial_state()
            obs.append(s.observation_tensor())
            masks.append(s.legal_actions_mask())
        np.asarray(obs, dtype=np.float32), np.asarray(masks, dtype=bool)
        steps += num_envs
    return steps / (time.perf_counter() - start)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--num-envs", type=int, default=4096)
    p.add_argument("--threads", type=int, default=2, help="rayon threads, for both")
    p.add_argument("--seconds", type=float, default=5.0, help="per measurement")
    p.add_argument("--rafle", type=Path, default=ROOT / "target" / "release" / "rafle",
                   help="the rafle binary (cargo build --release -p rafle-zero)")
    p.add_argument("--variants", default="", help="comma-separated; default: every variant")
    p.add_argument("--rounds", type=int, default=1, help="paired rounds per variant")
    p.add_argument("--openspiel-envs", type=int, default=256,
                   help="OpenSpiel states stepped per round (its cost per step does not depend on it)")
    args = p.parse_args()
    # Before rafle starts its thread pool.
    os.environ["RAYON_NUM_THREADS"] = str(args.threads)
    import rafle

    have_cli = args.rafle.is_file()
    if not have_cli:
        print(f"{args.rafle} not found (cargo build --release -p rafle-zero): Python figures only",
              file=sys.stderr)
    print(f"{args.num_envs} envs, {args.threads} threads, sample + step + obs + mask per step (env steps/s)")
    print(f"{'variant':14s} {'rafle bench env':>16s} {'python zero-copy':>17s} {'ratio':>6s}"
          f" {'python copying':>15s} {'ratio':>6s}")
    rates = {}
    variants = [v for v in args.variants.split(",") if v] or list(rafle.VARIANTS)
    for v in variants:
        rounds = []
        for _ in range(args.rounds):
            rust = bench_cli(args.rafle, v, args.num_envs, args.threads, args.seconds) if have_cli else float("nan")
            views = bench_rafle(v, args.num_envs, args.seconds, copy=False)
            copies = bench_rafle(v, args.num_envs, args.seconds, copy=True)
            rounds.append((rust, views, copies))
        rust, views, copies = (statistics.median(r[k] for r in rounds) for k in range(3))
        rates[v] = views
        spread = ""
        if args.rounds > 1:
            ratios = [r[1] / r[0] for r in rounds]
            spread = f"  (zero-copy ratio by round {min(ratios):.2f}-{max(ratios):.2f})"
        print(f"{v:14s} {rust:16,.0f} {views:17,.0f} {views / rust:6.2f} {copies:15,.0f} {copies / rust:6.2f}{spread}")
    if "checkers" not in rates:
        return
    try:
        import pyspiel  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        print("OpenSpiel not installed (pip install open_spiel): no comparison")
        return
    os_rate = bench_openspiel(args.openspiel_envs, args.seconds)
    print(f"OpenSpiel checkers (pyspiel, {args.openspiel_envs} states, same loop): {os_rate:,.0f} steps/s")
    print(f"ratio rafle checkers (zero-copy) / OpenSpiel checkers: {rates['checkers'] / os_rate:.1f}x")


if __name__ == "__main__":
    main()
