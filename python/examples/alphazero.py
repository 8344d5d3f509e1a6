"""Gumbel AlphaZero from Python, in one readable file: rafle's batched
self-play and search driven by a PyTorch network, the training step, periodic
evaluation against baselines, and checkpoints that `rafle eval --model` and
`rafle.Player("model:...")` play.

    python python/examples/alphazero.py                      # thai, CPU, configs/thai.toml (~15 min)
    python python/examples/alphazero.py --config configs/checkers.toml --device cuda
    python python/examples/alphazero.py --config configs/results/thai/net-depth.toml --set run.seed=2

Every setting (network, search, self-play, training, evaluation, time limit)
comes from a `rafle train` config file (its base recipe merged, `--set
table.field=value` applied as `rafle train --set` applies it), so this trains
exactly what `rafle train --config ...` trains, with PyTorch doing the
network's work:

    for each iteration:
        self-play until positions_per_iteration new positions   rafle.SelfPlay (Rust, batched)
        add them to the replay window                           rafle.learner.Replay
        positions * sample_reuse / batch_size training steps    rafle.learner.Learner.step
        metrics.csv; checkpoint every checkpoint_every; evaluate every eval.every
    final checkpoint and evaluation table                       rafle.evaluate (lockstep arena)

The run folder (default: the config's out_dir + "-python") has the files of a
`rafle train` run: `rafle plot DIR` draws its curves.
Needs torch and safetensors (pip install torch safetensors).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import numpy as np
import torch

import rafle
from rafle import learner as L
from rafle import model

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Args:
    config: str = str(ROOT / "configs" / "thai.toml")
    out: Optional[str] = None  # run folder (default: the config's out_dir + "-python")
    device: str = "cpu"
    minutes: Optional[float] = None  # training time limit (default: the config's run.time_limit_min)
    iterations: Optional[int] = None  # default: the config's run.iterations
    final_games: Optional[int] = None  # games per opponent at the end (default: the config's)
    sets: tuple[str, ...] = ()  # --set table.field=value (repeatable): one field of the config changed
    quiet: bool = False  # no progress bars


def evaluate(net: torch.nn.Module, cfg: dict, games: int, iteration: int, progress: bool,
             start: float | None) -> dict[str, float]:
    """The network (its search, eval.simulations per step) placed on the
    variant's ladder from the rung nearest `start` (or, with eval.mode =
    "opponents", against each eval.opponents baseline), as metrics:
    eval/ladder_elo with its interval, eval/score_vs_<opponent>, eval/elo."""
    return L.evaluate_opponents(net, cfg, games, iteration, lambda line: print(line, flush=True), progress,
                                start=start)


def main(args: Args) -> None:
    cfg = rafle._rafle.load_config(args.config, list(args.sets))  # checked exactly as `rafle train` checks it
    run, t = cfg["run"], cfg["train"]
    if args.iterations is not None:
        run["iterations"] = args.iterations
    if args.minutes is not None:
        run["time_limit_min"] = args.minutes
    if args.final_games is not None:
        cfg["eval"]["final_games"] = args.final_games
    run["out_dir"] = out = args.out or run["out_dir"] + "-python"
    run["device"] = "cuda" if args.device.startswith("cuda") else "cpu"
    torch.manual_seed(run["seed"])
    rng = np.random.default_rng(run["seed"])

    net = L.fresh_net(cfg)
    learner = L.Learner(net, cfg, args.device)
    # Self-play runs in the config's run.inference_dtype (auto: bf16 where fast), as rafle train.
    evaluator = model.evaluator(net, dtype=L.inference_dtype(cfg, args.device))
    selfplay = rafle.SelfPlay.from_config(args.config, evaluator, seed=run["seed"])
    replay = L.Replay(t["replay_window"])
    Path(out).mkdir(parents=True, exist_ok=True)
    metrics = L.Metrics(out, fresh=True)
    steps = L.steps_per_iteration(cfg)
    total_steps = run["iterations"] * steps
    limit = run["time_limit_min"] * 60
    print(f"alphazero.py: {run['variant']} | net {cfg['net']['blocks']}x{cfg['net']['channels']} on "
          f"{args.device} | {selfplay.num_games} games in lockstep | {steps} steps per iteration | dir {out}")
    start = time.time()
    # The [bootstrap] teacher start, as rafle train does it before self-play.
    boot = L.bootstrap(learner, cfg, replay.add, rng, run_dir=out)
    if boot:
        metrics.log(0, learner.step_count, time.time() - start, boot)
    games = 0
    iteration = 0
    last_elo: float | None = None  # the last placement's Elo: where the next one starts
    while iteration < run["iterations"] and not (limit > 0 and time.time() - start >= limit):
        iteration += 1
        # 1. Self-play: rafle's search, PyTorch's network, one batch per round.
        t0 = time.time()
        before = selfplay.stats
        batch = selfplay.play(cfg["selfplay"]["positions_per_iteration"], progress=not args.quiet)
        after = selfplay.stats
        sp = {k: after[k] - before[k] for k in after}
        sp_s = time.time() - t0
        replay.add(batch)
        games += sp["games"]
        # 2. Training steps on uniform samples of the replay window, and the
        # iteration's metrics (the names of `rafle train`): the step shared
        # with `python -m rafle.distributed`.
        # With [bootstrap] mix > 0 a share of each batch comes from the teacher's own buffer.
        ready = len(replay) >= t["min_replay"]

        def progress() -> float:
            return L.schedule_progress(learner, total_steps, time.time() - start, limit)

        batches = (L.to_device(L.teacher_mix(learner, replay.sample(t["batch_size"], rng), progress(), rng),
                               args.device) for _ in range(steps if ready else 0))
        logs = L.train_iteration(learner, batches, progress, sp, sp_s)
        share = L.teacher_share(learner, progress())
        if share is not None and "loss/policy" in logs:
            logs["train/teacher_share"] = share
        train_s = logs["time/train_s"]
        # 3. Checkpoint and evaluation.
        elapsed = time.time() - start
        metrics.log(iteration, learner.step_count, elapsed, logs)
        losses = (f"policy {logs['loss/policy']:.3f} value {logs['loss/value']:.3f}" if "loss/policy" in logs
                  else f"filling replay {len(replay)}/{t['min_replay']}")
        print(f"iter {iteration:>3} | {sp['games']} games | {logs['selfplay/nn_evals_per_s']:.0f} evals/s, "
              f"batch {logs['selfplay/avg_batch']:.0f} | {learner.step_count} steps, {losses} | "
              f"{sp_s:.0f}+{train_s:.0f}s, total {elapsed:.0f}s", flush=True)
        meta = dict(iteration=iteration, games=games, positions=replay.total_added, elapsed_s=elapsed)
        if iteration % run["checkpoint_every"] == 0:
            learner.save(out, **meta)
        e = cfg["eval"]
        if e["every"] and iteration % e["every"] == 0 and e["games"] and iteration < run["iterations"]:
            scores = evaluate(net, cfg, e["games"], iteration, not args.quiet, last_elo)
            last_elo = scores.get("eval/ladder_elo", last_elo)
            metrics.log(iteration, learner.step_count, time.time() - start, scores)
    elapsed = time.time() - start
    learner.save(out, iteration=iteration, games=games, positions=replay.total_added, elapsed_s=elapsed)
    print(f"finished: iteration {iteration}, {learner.step_count} training steps, {games} games in "
          f"{elapsed:.0f}s; checkpoint {Path(out) / L.WEIGHTS}")
    if cfg["eval"]["final_games"]:
        print(f"final evaluation ({cfg['eval']['final_games']} games {L.eval_kind(cfg)}):")
        scores = evaluate(net, cfg, cfg["eval"]["final_games"], iteration, not args.quiet, last_elo)
        metrics.log(iteration, learner.step_count, time.time() - start, scores)
    metrics.close()


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name, default in Args().__dict__.items():
        flag = "--" + name.replace("_", "-")
        if name == "sets":
            p.add_argument("--set", dest="sets", action="append", default=[], metavar="KEY=VALUE")
        elif isinstance(default, bool):
            p.add_argument(flag, action="store_true")
        elif name in ("minutes",):
            p.add_argument(flag, type=float, default=default)
        elif name in ("iterations", "final_games"):
            p.add_argument(flag, type=int, default=default)
        else:
            p.add_argument(flag, type=str, default=default)
    main(Args(**vars(p.parse_args())))
