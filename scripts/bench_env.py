#!/usr/bin/env python3
"""Python-side throughput of rafle.VecEnv, and of OpenSpiel checkers for scale.

The loop, per step of all envs: draw one legal action per env with the
built-in sampler, step, and fetch the observations and the legal mask as
numpy arrays (what a training loop needs). Steps/s counts env steps (one
action in one game). When ``pyspiel`` (pip install open_spiel) is importable,
the same loop runs on OpenSpiel's ``checkers`` (random legal action,
``observation_tensor()`` and ``legal_actions_mask()`` per state, new game
when one ends) and the ratio is printed.

    .venv/bin/python scripts/bench_env.py [--num-envs 4096] [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

import rafle


def bench_rafle(variant: str, num_envs: int, seconds: float) -> float:
    env = rafle.VecEnv(variant, num_envs=num_envs, seed=0)
    env.reset()
    for _ in range(5):  # warm-up
        env.step(env.sample_legal_actions())
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, reward, terminated, truncated, info = env.step(env.sample_legal_actions())
        mask = env.legal_mask()
        steps += num_envs
    assert obs.shape[0] == mask.shape[0] == num_envs
    return steps / (time.perf_counter() - start)


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
    p.add_argument("--seconds", type=float, default=5.0, help="per measurement")
    p.add_argument("--openspiel-envs", type=int, default=256,
                   help="OpenSpiel states stepped per round (its cost per step does not depend on it)")
    args = p.parse_args()

    print(f"rafle.VecEnv, {args.num_envs} envs, sample + step + obs + mask per step")
    rates = {}
    for v in rafle.VARIANTS:
        rates[v] = bench_rafle(v, args.num_envs, args.seconds)
        print(f"  {v:14s} {rates[v]:12,.0f} steps/s")
    try:
        import pyspiel  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        print("OpenSpiel not installed (pip install open_spiel): no comparison")
        return
    os_rate = bench_openspiel(args.openspiel_envs, args.seconds)
    print(f"OpenSpiel checkers (pyspiel, {args.openspiel_envs} states, same loop): {os_rate:,.0f} steps/s")
    print(f"ratio rafle checkers / OpenSpiel checkers: {rates['checkers'] / os_rate:.1f}x")


if __name__ == "__main__":
    main()
