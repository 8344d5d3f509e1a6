"""Self-play and training beyond one machine, on Ray.

    python -m rafle.distributed --config configs/thai.toml              # a local Ray instance
    python -m rafle.distributed --config configs/thai.toml --address auto   # a running cluster
    python -m rafle.distributed --resume runs/thai-ray                  # continue a killed run
    python -m rafle.distributed --config configs/thai.toml --set run.seed=2 --set net.blocks=6

It trains what ``rafle train`` trains, from the same TOML config, with the
work spread out::

    self-play actors (x distributed.workers)     rafle.SelfPlay + the PyTorch mirror network,
      each on its own CPUs or GPU                 distributed.games_per_worker games in lockstep
            |  positions (numpy, via the object store)
    replay actor                                  the newest train.replay_window positions
            |  training batches
    learner (this process)                        rafle.learner: the losses, optimiser and
                                                  schedule of rafle train; checkpoints, metrics,
                                                  periodic rafle.evaluate
            |  new weights every distributed.broadcast_every iterations (object store)
    back to the self-play actors

Self-play scales with the actors (one machine's cores, or a cluster's); the
learner is one process, so the training steps do not. The ``[distributed]``
table of the config (workers, games_per_worker, cpus_per_worker,
gpus_per_worker, broadcast_every) is checked with the rest of the config
(crates/rafle-train/src/config.rs); ``rafle train`` ignores it.

The run folder holds the files of a ``rafle train`` run: ``latest.safetensors``
and ``latest.json`` (read by ``rafle eval --model`` and
``rafle.Player("model:...")``), ``optimizer.safetensors``, ``metrics.csv``
with the same metric names plus ``distributed/workers``,
``distributed/samples_per_s``, ``distributed/policy_lag`` (learner steps
between the weights a sample was searched with and the weights trained on
it) and ``distributed/restarts``; ``rafle plot DIR`` draws it;
``replay.safetensors`` keeps the replay window for ``--resume``. All of them
are the files ``rafle train`` writes and reads, so either trainer resumes
the other's run.

Faults: a self-play actor that dies is restarted by Ray and given the
current weights; its unfinished games are lost, nothing is counted twice.
Ctrl-C stops the actors and writes a checkpoint. Ray is imported only here
(``pip install 'rafle[ray]'``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

import numpy as np

__all__ = ["run", "main", "RunState", "when_up"]



def games_of(cfg: Dict[str, Any], i: int) -> int:
    """Games of actor ``i``: games_per_worker, or selfplay.parallel_games shared out."""
    d = cfg["distributed"]
    if d["games_per_worker"] > 0:
        return d["games_per_worker"]
    total, n = cfg["selfplay"]["parallel_games"], d["workers"]
    return max(1, total // n + (i < total % n))


class SelfPlayWorker:
    """A self-play actor: its own games and network copy (a Ray actor)."""

    def __init__(self, cfg: Dict[str, Any], index: int) -> None:
        import torch

        from rafle import learner, model

        d = cfg["distributed"]
        torch.set_num_threads(max(1, int(d["cpus_per_worker"])))
        self.device = "cuda" if d["gpus_per_worker"] > 0 and torch.cuda.is_available() else "cpu"
        self.cfg, self.index = cfg, index
        self.net = learner.fresh_net(cfg).to(self.device).eval()
        self.evaluator = model.evaluator(self.net, self.device, learner.inference_dtype(cfg, self.device))
        self.selfplay: Any = None

    def start(self, seed: int, state: Dict[str, Any], version: int) -> int:
        """(Re)starts the games with ``seed`` and the learner's weights; returns the pid."""
        import rafle

        cfg = {**self.cfg, "selfplay": {**self.cfg["selfplay"], "parallel_games": games_of(self.cfg, self.index)}}
        self.selfplay = rafle.SelfPlay.from_config(cfg, self.evaluator, seed=seed)
        self.set_weights(state, version)
        return os.getpid()

    def pid(self) -> int:
        return os.getpid()

    def set_weights(self, state: Dict[str, Any], version: int) -> None:
        self.net.load_state_dict(state)
        self.net.eval()
        self.selfplay.version = version

    def play(self, positions: int) -> tuple[Dict[str, np.ndarray], Dict[str, float], int]:
        """At least ``positions`` new positions (tagged with this actor's
        index in ``worker``), the counters of this call, the actor index."""
        before = self.selfplay.stats
        batch = self.selfplay.play(positions)
        batch["worker"] = np.full(len(batch["obs"]), self.index, np.int16)
        after = self.selfplay.stats
        return batch, {k: after[k] - before[k] for k in after}, self.index


class ReplayActor:
    """The replay window (a Ray actor): positions in, training batches out."""

    def __init__(self, window: int, resumed: Optional[tuple[Dict[str, np.ndarray], int]] = None) -> None:
        from rafle.learner import Replay

        self.replay = Replay(window)
        if resumed is not None:
            arrays, total = resumed
            if len(arrays["obs"]):
                self.replay.add(arrays)  # copied into the window's own arrays
            self.replay.total_added = total

    def add(self, batch: Dict[str, np.ndarray]) -> int:
        self.replay.add(batch)
        return len(self.replay)

    def size(self) -> tuple[int, int]:
        return len(self.replay), self.replay.total_added

    def sample(self, count: int, size: int, seed: int) -> List[Dict[str, np.ndarray]]:
        rng = np.random.default_rng(seed)
        return [self.replay.sample(size, rng) for _ in range(count)]

    def save(self, run_dir: str) -> None:
        """Writes the window as the run's replay file (rafle-train's format)."""
        from rafle.learner import save_replay

        save_replay(run_dir, self.replay)


@dataclass
class RunState:
    """What a run knows about itself, passed to ``on_iteration`` hooks."""

    iteration: int = 0
    games: int = 0
    restarts: int = 0
    workers: List[Any] = field(default_factory=list)
    pids: Dict[int, int] = field(default_factory=dict)
    #: Positions received from each actor (each counted once, when received).
    received: Dict[int, int] = field(default_factory=dict)


def _bar(total: int, done: int, quiet: bool) -> Any:
    """The iterations bar (tqdm, on stderr; none when quiet)."""
    from tqdm import tqdm

    return tqdm(total=total, initial=done, desc="iterations", unit="it", file=sys.stderr, disable=quiet,
                dynamic_ncols=True, leave=False)


def _say(bar: Any, line: str) -> None:
    """A line on stdout above the bar."""
    bar.write(line, file=sys.stdout)
    sys.stdout.flush()


def when_up(ray: Any, call: Callable[[], Any], timeout: float = 600.0) -> Any:
    """The result of ``call()`` (an actor method call), retried while Ray
    restarts the actor (ActorUnavailableError)."""
    deadline = time.time() + timeout
    while True:
        try:
            return ray.get(call())
        except ray.exceptions.ActorUnavailableError:
            if time.time() > deadline:
                raise
            time.sleep(0.5)


def _weights(net: Any) -> Dict[str, Any]:
    return {k: v.detach().cpu() for k, v in net.state_dict().items()}


def _seed(cfg: Dict[str, Any], index: int, incarnation: int) -> int:
    return (cfg["run"]["seed"] * 1_000_003 + index * 7919 + incarnation * 104_729) % 2**63


def run(
    config: Optional[str] = None,
    *,
    address: Optional[str] = None,
    resume: Optional[str] = None,
    out: Optional[str] = None,
    iterations: Optional[int] = None,
    minutes: Optional[float] = None,
    final_games: Optional[int] = None,
    sets: Sequence[str] = (),
    quiet: bool = False,
    on_iteration: Optional[Callable[[RunState], None]] = None,
) -> RunState:
    """Trains as the module docs say; returns the final state."""
    for name, value in [("iterations", iterations), ("minutes", minutes), ("final_games", final_games)]:
        if value is not None and value < 0:
            raise ValueError(f"{name} must not be negative, got {value}")
    import torch

    import rafle
    from rafle import learner as L

    try:
        import ray
    except ImportError:
        raise ImportError("python -m rafle.distributed needs Ray: pip install 'rafle[ray]'") from None

    if (config is None) == (resume is None):
        raise ValueError("give exactly one of --config FILE or --resume RUN_DIR")
    if resume is not None:
        if out is not None:
            raise ValueError("--out cannot be combined with --resume (the run stays in its folder)")
        if sets:
            raise ValueError("--set cannot be combined with --resume (the run keeps its config)")
        learner, meta = L.load_learner(resume)
        cfg = meta["config"]
        run_dir = Path(resume)
    else:
        # Bases merged and `sets` applied, checked as `rafle train` checks it.
        assert config is not None  # exactly one of config and resume
        cfg = rafle._rafle.load_config(config, list(sets))
        meta = {}
        if out is not None:
            cfg["run"]["out_dir"] = out
        run_dir = Path(cfg["run"]["out_dir"])
        torch.manual_seed(cfg["run"]["seed"])
        learner = L.Learner(L.fresh_net(cfg), cfg)
    if iterations is not None:
        if iterations < 1:
            raise ValueError("iterations must be >= 1")
        cfg["run"]["iterations"] = iterations
    if minutes is not None:
        if minutes < 0:
            raise ValueError("minutes must be >= 0")
        cfg["run"]["time_limit_min"] = minutes
    if final_games is not None:
        cfg["eval"]["final_games"] = final_games
    run_cfg, t, d, e = cfg["run"], cfg["train"], cfg["distributed"], cfg["eval"]
    net = learner.net
    run_dir.mkdir(parents=True, exist_ok=True)
    metrics = L.Metrics(run_dir, fresh=resume is None)
    state = RunState(iteration=int(meta.get("iteration", 0)), games=int(meta.get("games", 0)))
    elapsed_before = float(meta.get("elapsed_s", 0.0))

    started = not ray.is_initialized()
    if started:
        if address is None:
            ray.init(include_dashboard=False, log_to_driver=False, num_cpus=os.cpu_count())
        else:
            ray.init(address=address, log_to_driver=False)
    resumed = None
    if resume is not None and (run_dir / L.REPLAY).is_file():
        resumed = L.load_replay_arrays(run_dir, cfg)
    if resume is not None:
        learner.teacher = L.load_teacher(run_dir, cfg)
    # Actor handles: their methods are called through `.remote`, which the
    # classes' own types do not show.
    replay: Any = ray.remote(ReplayActor).options(num_cpus=0).remote(t["replay_window"], resumed)
    if resume is None:
        # The [bootstrap] teacher start, before the actors get their weights.
        taught = time.time()
        boot = L.bootstrap(learner, cfg, lambda arrays: ray.get(replay.add.remote(arrays)),
                           np.random.default_rng(run_cfg["seed"]),
                           lambda line: print(line, flush=True) if not quiet else None, run_dir=run_dir)
        elapsed_before += time.time() - taught  # the teacher's time is part of the budget, as in rafle train
        if boot:
            metrics.log(0, learner.step_count, elapsed_before, boot)
    # Draws the teacher's share of each batch (teacher_mix).
    mix_rng = np.random.default_rng((run_cfg["seed"], state.iteration))
    worker_cls = ray.remote(SelfPlayWorker)
    workers: List[Any] = [
        worker_cls.options(num_cpus=d["cpus_per_worker"], num_gpus=d["gpus_per_worker"], max_restarts=-1,
                           max_task_retries=0).remote(cfg, i)
        for i in range(d["workers"])
    ]
    state.workers = workers
    incarnation = [0] * len(workers)
    weights = ray.put(_weights(net))
    version = learner.step_count
    for i, w in enumerate(workers):
        state.pids[i] = ray.get(w.start.remote(_seed(cfg, i, 0), weights, version))
    chunk = -(-cfg["selfplay"]["positions_per_iteration"] // len(workers))
    pending = {w.play.remote(chunk): i for i, w in enumerate(workers)}

    steps = L.steps_per_iteration(cfg)
    total_steps = run_cfg["iterations"] * steps
    limit = run_cfg["time_limit_min"] * 60
    start = time.time()
    bar = _bar(run_cfg["iterations"], state.iteration, quiet)
    _say(bar, f"rafle.distributed: {run_cfg['variant']} | net {cfg['net']['blocks']}x{cfg['net']['channels']} | "
              f"{len(workers)} self-play actors x {games_of(cfg, 0)} games | dir {run_dir}")

    def elapsed() -> float:
        return elapsed_before + time.time() - start

    def restart(i: int) -> None:
        """Actor i died: Ray restarts it; start its games again with the current weights."""
        incarnation[i] += 1
        state.restarts += 1
        _say(bar, f"self-play actor {i} died and was restarted (restart {state.restarts})")
        state.pids[i] = when_up(ray, lambda: workers[i].start.remote(_seed(cfg, i, incarnation[i]), weights, version))

    def collect(wanted: int) -> Dict[str, float]:
        """Waits for ``wanted`` new positions; returns the summed counters."""
        got: Dict[str, float] = {}
        n = 0
        while n < wanted:
            ready, _ = ray.wait(list(pending), num_returns=1)
            ref = ready[0]
            i = pending.pop(ref)
            try:
                batch, stats, _ = ray.get(ref)
            except (ray.exceptions.RayActorError, ray.exceptions.RayTaskError):
                restart(i)
            else:
                replay.add.remote(batch)
                n += len(batch["obs"])
                state.received[i] = state.received.get(i, 0) + len(batch["obs"])
                for k, v in stats.items():
                    got[k] = got.get(k, 0.0) + v
            pending[workers[i].play.remote(chunk)] = i
        got["positions"] = n
        return got

    last_elo = [L.last_ladder_elo(run_dir)]  # where the next placement starts

    def evaluate(games: int) -> Dict[str, float]:
        scores = L.evaluate_opponents(net, cfg, games, state.iteration, lambda line: _say(bar, line),
                                      start=last_elo[0])
        last_elo[0] = scores.get("eval/ladder_elo", last_elo[0])
        return scores

    def checkpoint() -> None:
        size, total = ray.get(replay.size.remote())
        learner.save(run_dir, iteration=state.iteration, games=state.games, positions=total, elapsed_s=elapsed())
        ray.get(replay.save.remote(str(run_dir)))

    saved_at = state.iteration
    try:
        while state.iteration < run_cfg["iterations"]:
            if limit > 0 and elapsed() >= limit:
                _say(bar, f"time limit of {run_cfg['time_limit_min']} min reached")
                break
            it_start = time.time()
            sp = collect(cfg["selfplay"]["positions_per_iteration"])
            sp_s = time.time() - it_start
            state.games += int(sp.get("games", 0))
            size, _ = ray.get(replay.size.remote())
            batches = []
            if size >= t["min_replay"]:
                seed = (run_cfg["seed"] * 31 + state.iteration) % 2**63
                batches = ray.get(replay.sample.remote(steps, t["batch_size"], seed))
            lags: List[float] = []

            def progress() -> float:
                return L.schedule_progress(learner, total_steps, elapsed(), limit)

            def tensors(batches: List[Dict[str, Any]], lags: List[float]) -> Iterator[Dict[str, Any]]:
                for b in batches:
                    lags.append(float(np.mean(learner.step_count - b["version"])))
                    # With [bootstrap] mix > 0 a share comes from the teacher's own buffer.
                    b = L.teacher_mix(learner, b, progress(), mix_rng)
                    # Arrays from the object store are read-only: torch copies them.
                    yield {k: torch.tensor(b[k]) for k in L.BATCH_KEYS}

            logs = L.train_iteration(learner, tensors(batches, lags), progress, sp, sp_s, overlapped=True)
            share = L.teacher_share(learner, progress())
            if share is not None and "loss/policy" in logs:
                logs["train/teacher_share"] = share
            train_s = logs["time/train_s"]
            if lags:
                logs["distributed/policy_lag"] = sum(lags) / len(lags)
            state.iteration += 1
            if state.iteration % d["broadcast_every"] == 0:
                weights = ray.put(_weights(net))
                version = learner.step_count
                for w in workers:
                    w.set_weights.remote(weights, version)
            it_s = time.time() - it_start
            logs.update({
                "distributed/workers": len(workers),
                "distributed/samples_per_s": sp["positions"] / it_s,
                "distributed/restarts": state.restarts,
            })
            metrics.log(state.iteration, learner.step_count, elapsed(), logs)
            losses = (f"policy {logs['loss/policy']:.3f} value {logs['loss/value']:.3f}" if "loss/policy" in logs
                      else f"filling replay {size}/{t['min_replay']}")
            _say(bar, f"iter {state.iteration:>3} | {int(sp.get('games', 0))} games | "
                      f"{logs['distributed/samples_per_s']:.0f} samples/s, "
                      f"{logs['selfplay/nn_evals_per_s']:.0f} evals/s, "
                      f"batch {logs['selfplay/avg_batch']:.0f} | {learner.step_count} steps, {losses} | "
                      f"lag {logs.get('distributed/policy_lag', 0):.1f} | "
                      f"{sp_s:.0f}+{train_s:.0f}s, total {elapsed():.0f}s")
            bar.update(1)
            if state.iteration % run_cfg["checkpoint_every"] == 0:
                checkpoint()
                saved_at = state.iteration
            if e["every"] and state.iteration % e["every"] == 0 and e["games"] and state.iteration < run_cfg["iterations"]:
                metrics.log(state.iteration, learner.step_count, elapsed(), evaluate(e["games"]))
            if on_iteration is not None:
                on_iteration(state)
    except KeyboardInterrupt:
        bar.close()
        print("interrupted: writing a checkpoint and stopping the actors", file=sys.stderr, flush=True)
        checkpoint()
        _stop(ray, workers, replay, started)
        metrics.close()
        raise
    bar.close()
    if saved_at != state.iteration or not (run_dir / L.META).exists():
        checkpoint()
    _stop(ray, workers, replay, started)
    print(f"finished: iteration {state.iteration}, {learner.step_count} training steps, {state.games} games, "
          f"{state.restarts} actor restarts; checkpoint {run_dir / L.WEIGHTS}", flush=True)
    if e["final_games"]:
        print(f"final evaluation ({e['final_games']} games {L.eval_kind(cfg)}):", flush=True)
        metrics.log(state.iteration, learner.step_count, elapsed(), evaluate(e["final_games"]))
    metrics.close()
    return state


def _stop(ray: Any, workers: List[Any], replay: Any, shutdown: bool) -> None:
    """Stops the actors, and the Ray instance if this run started it."""
    for a in [*workers, replay]:
        ray.kill(a, no_restart=True)
    if shutdown:
        ray.shutdown()


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python -m rafle.distributed", description=__doc__.split("\n\n")[0])
    p.add_argument("--config", help="run configuration (TOML, as for rafle train)")
    p.add_argument("--resume", help="continue the run in this folder from its last checkpoint")
    p.add_argument("--address", help="an existing Ray cluster: auto or HOST:PORT (default: start a local one)")
    p.add_argument("--out", help="override run.out_dir")
    p.add_argument("--iterations", type=int, help="override run.iterations")
    p.add_argument("--minutes", type=float, help="override run.time_limit_min")
    p.add_argument("--final-games", type=int, help="override eval.final_games")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="KEY=VALUE",
                   help="change one field of the config, as rafle train --set does (repeatable)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    a = p.parse_args(argv)
    try:
        run(a.config, address=a.address, resume=a.resume, out=a.out, iterations=a.iterations, minutes=a.minutes,
            final_games=a.final_games, sets=a.sets, quiet=a.quiet)
    except (ValueError, ImportError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
