"""Fit an alpha-beta evaluation in PyTorch from positions rafle generates,
then play it: the Python path of ``rafle train-eval``.

    python python/examples/learned_eval.py [--variant thai] [--design patterns|net]
        [--games 400] [--depth 4] [--epochs 4] [--out my-eval.safetensors] [--match-games 100]

``rafle.eval_games`` plays alpha-beta self-play and labels every searched
quiet position (the result blended with the search score);
``rafle.eval_features`` gives each position's sparse inputs; the model
below is the design's float model (the one rafle turns into integers);
``rafle.save_eval`` writes it, and ``alphabeta:d=D,eval=PATH`` plays it
against the hand-written evaluation at the same depth. Bring your own
model: any weights of the same form load the same way.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np
import torch

import rafle


class Patterns(torch.nn.Module):
    """v = sum(values * (phase * mg[indices] + (1 - phase) * eg[indices]))."""

    def __init__(self, num_inputs: int) -> None:
        super().__init__()
        self.mg = torch.nn.Parameter(torch.zeros(num_inputs))
        self.eg = torch.nn.Parameter(torch.zeros(num_inputs))

    def forward(self, x: dict[str, torch.Tensor]) -> torch.Tensor:
        idx, val, phase = x["indices"], x["values"], x["phase"]
        mg = (self.mg[idx] * val).sum(-1)
        eg = (self.eg[idx] * val).sum(-1)
        return phase * mg + (1 - phase) * eg

    def weights(self) -> dict[str, np.ndarray]:
        return {"mg": self.mg.detach().numpy(), "eg": self.eg.detach().numpy()}


class Net(torch.nn.Module):
    """Piece-square inputs of both frames, clipped-ReLU layers H and H2."""

    def __init__(self, num_inputs: int, hidden: int, hidden2: int) -> None:
        super().__init__()
        self.n = num_inputs
        # One more row: the padding index, kept at zero.
        self.w1 = torch.nn.Parameter(torch.randn(num_inputs + 1, hidden) * 0.1)
        self.b1 = torch.nn.Parameter(torch.full((hidden,), 0.5))
        self.l2 = torch.nn.Linear(2 * hidden, hidden2)
        self.l3 = torch.nn.Linear(hidden2, 1)

    def forward(self, x: dict[str, torch.Tensor]) -> torch.Tensor:
        w1 = torch.cat([self.w1[: self.n], torch.zeros_like(self.w1[:1])])
        us = (w1[x["indices"]].sum(1) + self.b1).clamp(0, 1)
        them = (w1[x["them"]].sum(1) + self.b1).clamp(0, 1)
        z = self.l2(torch.cat([us, them], 1)).clamp(0, 1)
        return self.l3(z).squeeze(-1)

    def weights(self) -> dict[str, np.ndarray]:
        return {
            "w1": self.w1[: self.n].detach().numpy(),
            "b1": self.b1.detach().numpy(),
            "w2": self.l2.weight.detach().T.contiguous().numpy(),
            "b2": self.l2.bias.detach().numpy(),
            "w3": self.l3.weight.detach()[0].numpy(),
            "b3": self.l3.bias.detach().numpy(),
        }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="thai", choices=rafle.VARIANTS)
    p.add_argument("--design", default="patterns", choices=["patterns", "net"])
    p.add_argument("--games", type=int, default=400, help="self-play games to learn from")
    p.add_argument("--depth", type=int, default=4, help="alpha-beta depth of the games and the match")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--batch", type=int, default=512)
    p.add_argument("--lr", type=float, default=0.02)
    p.add_argument("--out", default=None, help="evaluation file to write (default: a temporary file)")
    p.add_argument("--match-games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)

    data = rafle.eval_games(args.variant, args.games, depth=args.depth, seed=args.seed)
    x = rafle.eval_features(args.variant, data["fen"], args.design)
    n = len(data["fen"])
    print(f"{args.games} games, {n} labelled positions, {x['num_inputs']} inputs")
    tensors = {k: torch.from_numpy(v) for k, v in x.items() if isinstance(v, np.ndarray)}
    target = torch.from_numpy(data["target"])
    model: Patterns | Net = Patterns(x["num_inputs"]) if args.design == "patterns" else Net(x["num_inputs"], 32, 16)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    gen = torch.Generator().manual_seed(args.seed)
    for epoch in range(args.epochs):
        total = 0.0
        for idx in torch.randperm(n, generator=gen).split(args.batch):
            loss = loss_fn(model({k: t[idx] for k, t in tensors.items()}), target[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        print(f"epoch {epoch + 1}: loss {total / max(n, 1):.4f}")

    out = args.out or str(Path(tempfile.mkdtemp()) / "eval.safetensors")
    rafle.save_eval(out, args.variant, args.design, model.weights(), metadata={"source": "learned_eval.py"})
    m = rafle.evaluate(f"alphabeta:d={args.depth},eval={out}", f"alphabeta:{args.depth}", variant=args.variant,
                       games=args.match_games, seed=args.seed, progress=False)
    print(f"evaluation {out}")
    print(f"score vs alphabeta:{args.depth} over {args.match_games} games: {m.score:.3f} "
          f"(+{m.wins} ={m.draws} -{m.losses})")


if __name__ == "__main__":
    main()
