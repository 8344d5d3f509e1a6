"""Pretrain a rafle network from games in PDN (human or engine games, or
rafle's own): each step of every move becomes a supervised sample, the
played step as policy target and the game's result as value target
(``rafle.pdn_samples``); then the network's policy plays random.

    python python/examples/pretrain_from_pdn.py --pdn games.pdn [--variant thai]
        [--config configs/thai.toml] [--epochs 4] [--out pretrained.safetensors]

Without ``--pdn`` it first plays ``--games`` games of alphabeta:3 against
itself with ``rafle.evaluate`` and learns from those. The checkpoint it
writes is a ``model:`` player for ``rafle eval`` and ``rafle.Player``.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np
import torch

import rafle
from rafle import learner as L
from rafle import model


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pdn", help="a PDN file of games (default: play some with alphabeta:3)")
    p.add_argument("--variant", default="thai", choices=rafle.VARIANTS)
    p.add_argument("--config", help="run config for the network and optimiser (default configs/VARIANT.toml)")
    p.add_argument("--games", type=int, default=200, help="games to play when no --pdn is given")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--eval-games", type=int, default=100)
    p.add_argument("--out", default=None, help="checkpoint to write (default: a temporary file)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)

    if args.pdn is None:
        m = rafle.evaluate("alphabeta:3", "alphabeta:3", variant=args.variant, games=args.games, seed=args.seed,
                           opening_plies=6, progress=False)
        text = m.pdn
    else:
        text = Path(args.pdn).read_text()
    games = [g for g in rafle.read_pdn(text) if g.variant == args.variant]
    data = rafle.pdn_samples(games)
    n = len(data["obs"])
    print(f"{len(games)} {args.variant} games, {n} samples")

    root = Path(__file__).resolve().parents[2]
    cfg = rafle._rafle.load_config(args.config or str(root / "configs" / f"{args.variant}.toml"))
    net = L.fresh_net(cfg)
    learner = L.Learner(net, cfg)
    rng = np.random.default_rng(args.seed)
    steps = max(1, args.epochs * n // args.batch)
    for step in range(steps):
        idx = rng.integers(0, n, size=min(args.batch, n))
        batch = {k: torch.from_numpy(data[k][idx]) for k in L.BATCH_KEYS}
        logs = learner.step(batch, step / steps)
        if step % max(1, steps // 4) == 0 or step == steps - 1:
            print(f"step {step + 1}/{steps}  policy loss {logs['loss/policy']:.3f}  value loss {logs['loss/value']:.3f}")

    out = Path(args.out) if args.out else Path(tempfile.mkdtemp()) / "pretrained.safetensors"
    net.meta = {"config": cfg}
    model.save(net, out)
    agent = rafle.NetworkAgent(model.evaluator(net), 0, name="pretrained policy")
    r = rafle.evaluate(agent, "random", variant=args.variant, games=args.eval_games, seed=args.seed, progress=False)
    print(f"pretrained policy vs random: score {100 * r.score:.1f}% (+{r.wins} ={r.draws} -{r.losses}); saved {out}")


if __name__ == "__main__":
    main()
