"""Stable-Baselines3 with rafle: sb3-contrib's MaskablePPO against a fixed
opponent, then measured with ``rafle.evaluate`` against random and
alphabeta:2.

No wrapper is needed: ``rafle.gym.GameEnv.action_masks()`` is the method
MaskablePPO looks for, so the agent only ever samples legal actions. The
env pickles, so ``SubprocVecEnv`` runs it in worker processes; give
``make_vec_env`` the class (as here) or the id ``"rafle.gym:rafle/thai-v0"``
(which imports ``rafle.gym`` in the worker, where SB3's forkserver workers
have not registered ``rafle/...`` ids). A short run, to show the wiring;
strength needs far longer training.

    python python/examples/sb3_maskable_ppo.py [--variant thai] [--opponent random]
        [--steps 20000] [--num-envs 4] [--subproc] [--games 100]
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

import rafle
import rafle.gym


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="thai", choices=rafle.VARIANTS)
    p.add_argument("--opponent", default="random", help="the player spec trained against")
    p.add_argument("--steps", type=int, default=20_000, help="env steps of training")
    p.add_argument("--num-envs", type=int, default=4)
    p.add_argument("--subproc", action="store_true", help="run the envs in worker processes")
    p.add_argument("--games", type=int, default=100, help="evaluation games per opponent")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()

    envs = make_vec_env(
        rafle.gym.GameEnv,
        n_envs=args.num_envs,
        seed=args.seed,
        env_kwargs={"variant": args.variant, "opponent": args.opponent},
        vec_env_cls=SubprocVecEnv if args.subproc else DummyVecEnv,
    )
    n_steps = max(16, min(256, args.steps // args.num_envs))
    model = MaskablePPO(
        "MlpPolicy", envs, n_steps=n_steps, batch_size=min(64, n_steps * args.num_envs), seed=args.seed, verbose=0
    )
    model.learn(total_timesteps=args.steps)
    envs.close()

    def policy(obs: np.ndarray, mask: np.ndarray) -> Any:
        """rafle.evaluate's policy side: a batch of observations and legal masks in."""
        actions, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return actions

    print(f"MaskablePPO, {args.variant}, trained {model.num_timesteps} steps against {args.opponent}")
    for opponent in ["random", "alphabeta:2"]:
        m = rafle.evaluate(
            policy, opponent, variant=args.variant, games=args.games, seed=args.seed, progress=False
        )
        print(
            f"vs {opponent}: score {100 * m.score:.1f}% (+{m.wins} ={m.draws} -{m.losses}), "
            f"Elo {m.elo:+.0f} [{m.elo_ci[0]:+.0f}, {m.elo_ci[1]:+.0f}]"
        )


if __name__ == "__main__":
    main()
