"""The training half of ``rafle train`` in PyTorch, for trainers written in
Python (python/examples/alphazero.py, ``python -m rafle.distributed``): the
same losses, targets, optimiser, learning-rate schedule, replay window and
run files as the Rust trainer (crates/rafle-zero/src/train.rs, optim.rs,
checkpoint.rs; the replay file, metrics and self-play figures are
rafle-train's own, through the bindings), so the two cannot drift apart
(python/tests/test_learner.py compares the losses with Rust's).

::

    batch = replay.sample(cfg["train"]["batch_size"], rng)   # from SelfPlay.play arrays
    out = learner.step(batch, progress)                       # losses, lr
    learner.save(run_dir, iteration=..., games=..., positions=..., elapsed_s=...)

Losses: policy cross-entropy against the search's policy target over the
legal actions (illegal logits set to -1e9) + ``value_loss_weight`` x W/D/L
cross-entropy against the value target (the game result, mixed with the
search value by ``train.value_target_search``: ``SelfPlay`` makes it).
Optimiser: AdamW (decoupled weight decay) or SGD with momentum (L2 decay);
decay applies to tensors of rank >= 2 only. Schedule: linear warm-up over
``warmup_steps``, then constant or cosine from ``lr`` to ``lr *
lr_final_frac`` as ``progress`` goes from 0 to 1.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Tuple, Union

import numpy as np
import torch
from safetensors.torch import load_file, save_file

from rafle import _rafle, atomic
from rafle.model import RafleNet, save_weights

__all__ = [
    "ILLEGAL_LOGIT",
    "Learner",
    "Metrics",
    "Replay",
    "clamped_elo",
    "evaluate_opponents",
    "bootstrap",
    "conv_dtype",
    "fresh_net",
    "inference_dtype",
    "load_learner",
    "iteration_logs",
    "load_replay",
    "load_replay_arrays",
    "load_teacher",
    "losses",
    "save_replay",
    "steps_per_iteration",
    "teacher_mix",
    "teacher_share",
    "to_device",
    "train_iteration",
    "train_steps",
]

PathLike = Union[str, Path]

#: Logit of illegal actions (finite, so 0 x logit stays 0 in the loss).
ILLEGAL_LOGIT = -1e9
#: The arrays a training batch needs (from ``SelfPlay.play``).
BATCH_KEYS = ("obs", "mask", "policy", "value")
#: Run files, as checkpoint.rs and rafle-train's metrics.rs and replay.rs name them.
WEIGHTS, META, OPTIMIZER, METRICS = "latest.safetensors", "latest.json", "optimizer.safetensors", "metrics.csv"
REPLAY = "replay.safetensors"
#: The teacher's own buffer (``[bootstrap] mix`` > 0), as rafle-train's bootstrap.rs names it.
TEACHER = "teacher.safetensors"


def losses(net: torch.nn.Module, batch: Mapping[str, torch.Tensor], value_weight: float):
    """(policy, value, total) losses of ``net`` (in its current mode) on ``batch``."""
    logits, wdl = net(batch["obs"])
    logp = torch.log_softmax(logits.masked_fill(~batch["mask"], ILLEGAL_LOGIT), dim=-1)
    policy = -(batch["policy"] * logp).sum(dim=1).mean()
    value = -(batch["value"] * torch.log_softmax(wdl, dim=-1)).sum(dim=1).mean()
    return policy, value, policy + value * value_weight


def target_entropy(target: torch.Tensor) -> float:
    """Mean over the batch of the targets' own entropy -sum(t ln t) ([B, K]):
    the least cross-entropy any network reaches on them."""
    return float(-(target * target.clamp_min(1e-12).log()).sum(dim=1).mean())


def _dtype_of(choice: str, device: Union[str, torch.device]) -> Optional[torch.dtype]:
    """bf16 for ``bf16``, and for ``auto`` on CUDA and on CPUs with AMX or
    AVX-512 BF16 (as in ``rafle train``); else f32 (None)."""
    if choice == "auto":
        from rafle._rafle import cpu_has_fast_bf16

        return torch.bfloat16 if torch.device(device).type == "cuda" or cpu_has_fast_bf16() else None
    return torch.bfloat16 if choice == "bf16" else None


def inference_dtype(cfg: Mapping[str, Any], device: Union[str, torch.device]) -> Optional[torch.dtype]:
    """The number type a config's ``run.inference_dtype`` gives self-play on
    ``device`` (``auto``: bf16 where it is fast)."""
    return _dtype_of(cfg["run"]["inference_dtype"], device)


def conv_dtype(cfg: Mapping[str, Any], device: Union[str, torch.device] = "cpu") -> Optional[torch.dtype]:
    """The arithmetic a config's ``train.conv_dtype`` gives the training
    step's convolutions on ``device``: bf16, or f32 (None; also for configs
    written before the field); ``auto`` is bf16 where it is fast."""
    return _dtype_of(cfg["train"].get("conv_dtype", "f32"), device)


def evaluate_opponents(
    net: torch.nn.Module,
    cfg: Mapping[str, Any],
    games: int,
    iteration: int,
    say: Callable[[str], None] = print,
    progress: bool = False,
    start: Optional[float] = None,
) -> Dict[str, float]:
    """The evaluation of ``rafle train``: the network's search
    (``eval.simulations`` per step, the config's dtype), seeded by
    ``run.seed + iteration``. With ``eval.mode = "ladder"`` (the default) a
    placement on the variant's ladder with ``games`` games, the first ones
    against the rung nearest ``start`` (the last placement's Elo); with
    ``"opponents"``, ``games`` games against each ``eval.opponents``
    baseline. One line per opponent (rung) through ``say``, then the line
    of the ladder Elo (what ``rafle train`` prints under its tables). Returns
    the metrics ``eval/score_vs_<opponent>``, ``eval/games_vs_<opponent>``,
    ``eval/elo`` (against the first), ``time/eval_s`` and, where the
    variant has a ladder (for ``opponents``: where an opponent is one of its
    rungs), ``eval/ladder_elo``, ``eval/ladder_lo`` and ``eval/ladder_hi``
    (``rafle plot`` draws them on the ladder's scale)."""
    import rafle
    from rafle.agents import network_agent

    run = cfg["run"]
    dtype = inference_dtype(cfg, next(net.parameters()).device)
    agent = network_agent(net, cfg, dtype=dtype, name=f"model@{iteration}")
    seed = run["seed"] + iteration
    t0 = time.time()
    scores: Dict[str, float] = {}

    def row(opponent: str, wins: int, draws: int, losses: int) -> None:
        n = wins + draws + losses
        score = (wins + 0.5 * draws) / max(n, 1)
        say(f"  vs {opponent:<14} {n:>4} games  +{wins} ={draws} -{losses}  score {100 * score:5.1f}%")
        scores[f"eval/score_vs_{opponent}"] = score
        scores[f"eval/games_vs_{opponent}"] = float(n)
        scores.setdefault("eval/elo", clamped_elo(score, n))

    if cfg["eval"].get("mode", "ladder") == "ladder":
        placed = rafle.ladder(agent, run["variant"], games, seed=seed, progress=progress, start=start)
        for rung in placed.rungs:
            row(rung["spec"], rung["wins"], rung["draws"], rung["losses"])
        lo, hi = placed.interval
        scores.update({"eval/ladder_elo": placed.elo, "eval/ladder_lo": lo, "eval/ladder_hi": hi})
        say(f"  {placed.summary}")
    else:
        played: List[Tuple[str, int, int, int, Optional[Tuple[int, int, int, int, int]]]] = []
        for opponent in cfg["eval"]["opponents"]:
            r = rafle.evaluate(agent, opponent, variant=run["variant"], games=games, seed=seed, progress=progress)
            row(opponent, r.wins, r.draws, r.losses)
            p = r.pentanomial
            played.append((opponent, r.wins, r.draws, r.losses, (p[0], p[1], p[2], p[3], p[4])))
        implied = _rafle.ladder_implied(run["variant"], played)
        if implied is not None:
            elo, lo, hi, line = implied
            scores.update({"eval/ladder_elo": elo, "eval/ladder_lo": lo, "eval/ladder_hi": hi})
            say(f"  {line}")
    scores["time/eval_s"] = time.time() - t0
    scores.update(value_metrics(net, run["variant"], say))
    return scores


def value_metrics(net: torch.nn.Module, variant: str, say: Callable[[str], None] = print) -> Dict[str, float]:
    """The value head on the variant's held-out set (``rafle heldout``):
    ``eval/value_corr``, ``eval/value_ce`` and the material and base-rate
    figures beside them, as ``rafle train`` logs them (one line through
    ``say``); empty where no set is shipped."""
    obs = _rafle.heldout_observations(variant)
    if obs is None:
        return {}
    was_training = net.training
    net.eval()
    device = next(net.parameters()).device
    parts = []
    with torch.no_grad():
        for start in range(0, len(obs), 512):
            _, wdl = net(torch.from_numpy(obs[start : start + 512]).to(device))
            parts.append(torch.softmax(wdl.float(), dim=-1).cpu())
    net.train(was_training)
    out = _rafle.heldout_metrics(variant, torch.cat(parts).numpy().astype(np.float32))
    if out is None:
        return {}
    metrics, line = out
    say(f"  {line}")
    return dict(metrics)


def eval_kind(cfg: Mapping[str, Any]) -> str:
    """How an evaluation's games are spent (the final table's heading, as
    ``rafle train`` prints it)."""
    return "placing it on the ladder" if cfg["eval"].get("mode", "ladder") == "ladder" else "per opponent"


def clamped_elo(score: float, games: int) -> float:
    """Elo difference of a score, 0 and 1 pulled in by half a game (the
    `eval/elo` metric of train.rs)."""
    n = max(games, 1)
    s = min(max(score, 0.5 / n), 1 - 0.5 / n)
    return -400 * math.log10(1 / s - 1)


def steps_per_iteration(cfg: Mapping[str, Any]) -> int:
    """positions_per_iteration * sample_reuse / batch_size, rounded up (at least 1)."""
    t = cfg["train"]
    return max(1, math.ceil(cfg["selfplay"]["positions_per_iteration"] * t["sample_reuse"] / t["batch_size"]))


class Replay:
    """The newest ``window`` positions (oldest dropped first), sampled
    uniformly with replacement. ``total_added`` counts every position added."""

    def __init__(self, window: int) -> None:
        if window < 1:
            raise ValueError(f"window must be at least 1, got {window}")
        self.window = window
        self.arrays: Dict[str, np.ndarray] = {}
        self.size = 0
        self.next = 0
        self.total_added = 0

    def __len__(self) -> int:
        return self.size

    def add(self, batch: Mapping[str, np.ndarray]) -> None:
        """Adds the positions of ``SelfPlay.play``'s arrays (and any extra
        per-position arrays, e.g. ``version``)."""
        n = len(batch["obs"])
        if not self.arrays:
            self.arrays = {k: np.zeros((self.window, *v.shape[1:]), v.dtype) for k, v in batch.items()}
        for start in range(0, n, self.window):
            part = {k: v[start : start + self.window] for k, v in batch.items()}
            m = len(part["obs"])
            idx = (self.next + np.arange(m)) % self.window
            for k, a in self.arrays.items():
                a[idx] = part[k]
            self.next = int((self.next + m) % self.window)
            self.size = min(self.window, self.size + m)
        self.total_added += n

    def window_arrays(self) -> Dict[str, np.ndarray]:
        """The positions of the window, oldest first."""
        order = (self.next + np.arange(self.size)) % self.window if self.size == self.window else np.arange(self.size)
        return {k: a[order] for k, a in self.arrays.items()}

    def sample(self, n: int, rng: np.random.Generator, device: Union[str, torch.device, None] = None):
        """``n`` positions: numpy arrays, or (with ``device``) the training
        arrays as torch tensors there and any extras as numpy."""
        idx = rng.integers(0, self.size, n)
        out = {k: a[idx] for k, a in self.arrays.items()}
        return out if device is None else to_device(out, device)


class Learner:
    """The network being trained, its optimiser and the step count."""

    def __init__(self, net: RafleNet, cfg: Mapping[str, Any], device: Union[str, torch.device] = "cpu") -> None:
        self.net = net.to(device)
        self.net.set_conv_dtype(conv_dtype(cfg, device))
        self.cfg = cfg
        self.train_cfg = cfg["train"]
        self.device = torch.device(device)
        self.step_count = 0
        #: The teacher's positions in a buffer of their own (``[bootstrap]
        #: mix`` > 0, after ``bootstrap``): a share of every batch (``teacher_mix``).
        self.teacher: Optional[Replay] = None
        t = self.train_cfg
        decay = [p for p in net.parameters() if p.dim() >= 2]
        other = [p for p in net.parameters() if p.dim() < 2]
        groups = [
            {"params": decay, "weight_decay": t["weight_decay"]},
            {"params": other, "weight_decay": 0.0},
        ]
        if t["optimizer"] == "sgd":
            self.opt: torch.optim.Optimizer = torch.optim.SGD(groups, lr=t["lr"], momentum=t["momentum"])
        else:
            self.opt = torch.optim.AdamW(groups, lr=t["lr"], betas=(0.9, 0.999), eps=1e-8)

    def lr_at(self, progress: float) -> float:
        """The learning rate of the next step at ``progress`` in [0, 1] of the run."""
        t = self.train_cfg
        if self.step_count < t["warmup_steps"]:
            return t["lr"] * (self.step_count + 1) / t["warmup_steps"]
        if t["lr_schedule"] == "cosine":
            x = min(max(progress, 0.0), 1.0)
            lo = t["lr"] * t["lr_final_frac"]
            return lo + 0.5 * (t["lr"] - lo) * (1.0 + math.cos(math.pi * x))
        return float(t["lr"])

    def step(self, batch: Mapping[str, torch.Tensor], progress: float) -> Dict[str, float]:
        """One optimisation step; returns its losses and learning rate."""
        lr = self.lr_at(progress)
        for g in self.opt.param_groups:
            g["lr"] = lr
        self.net.train()
        w = self.train_cfg["value_loss_weight"]
        policy, value, total = losses(self.net, batch, w)
        self.opt.zero_grad()
        total.backward()
        self.opt.step()
        self.step_count += 1
        # The value loss is reported with the targets' own entropy taken off
        # (as rafle train does): 0 is a head that matches its targets.
        h = target_entropy(batch["value"])
        return {"loss/policy": policy.item(), "loss/value": value.item() - h, "loss/total": total.item() - w * h,
                "train/lr": lr}

    def _named(self) -> Iterator[tuple[str, torch.nn.Parameter]]:
        return ((n, p) for n, p in self.net.named_parameters())

    def save(self, run_dir: PathLike, **meta: Any) -> None:
        """Writes the checkpoint as the Rust trainer does: weights, optimiser
        moments (``m.<var>``, ``v.<var>``), then the metadata (variant, shape,
        step, config and ``meta``: iteration, games, positions, elapsed_s),
        each through a temporary file so that a kill leaves the last one whole."""
        run_dir = Path(run_dir)
        run_dir.mkdir(parents=True, exist_ok=True)
        save_weights(self.net, run_dir / WEIGHTS)
        moments: Dict[str, torch.Tensor] = {}
        for name, p in self._named():
            state = self.opt.state.get(p, {})
            m = state.get("exp_avg", state.get("momentum_buffer"))
            v = state.get("exp_avg_sq")
            moments[f"m.{name}"] = (torch.zeros_like(p) if m is None else m).detach().cpu().contiguous()
            moments[f"v.{name}"] = (torch.zeros_like(p) if v is None else v).detach().cpu().contiguous()
        atomic.replace(run_dir / OPTIMIZER, lambda tmp: save_file(moments, str(tmp)))
        full = {
            "variant": self.net.variant,
            "shape": self.net.shape,
            "step": self.step_count,
            "iteration": 0,
            "games": 0,
            "positions": 0,
            "elapsed_s": 0.0,
            **meta,
            "config": self.cfg,
        }
        atomic.write_text(run_dir / META, json.dumps(full, indent=2))

    def load_optimizer(self, path: PathLike, steps: int) -> None:
        """Reads moments written by ``save`` (or by ``rafle train``)."""
        state = load_file(str(path))
        for name, p in self._named():
            m, v = state[f"m.{name}"].to(p.device), state[f"v.{name}"].to(p.device)
            if isinstance(self.opt, torch.optim.AdamW):
                self.opt.state[p] = {"step": torch.tensor(float(steps)), "exp_avg": m, "exp_avg_sq": v}
            else:
                self.opt.state[p] = {"momentum_buffer": m}
        self.step_count = steps


#: ``RUN_DIR/metrics.csv``, written by rafle-train's writer (the names and
#: format of ``rafle train``): ``Metrics(run_dir, fresh=False)``,
#: ``.log(iteration, step, elapsed_s, {name: value})``, ``.close()``.
Metrics = _rafle.MetricsFile


def schedule_progress(learner: "Learner", total_steps: int, elapsed: float, limit: float) -> float:
    """How far the learning-rate schedule is, as ``rafle train`` computes it
    (``train.schedule_by``): the learner's steps of ``total_steps`` and,
    for ``"clock"``, the ``elapsed`` seconds of ``limit`` (0: none)."""
    by = learner.train_cfg.get("schedule_by", "clock")
    return _rafle.schedule_progress(by, learner.step_count, total_steps, elapsed, limit)


def last_ladder_elo(run_dir: PathLike) -> Optional[float]:
    """The last ``eval/ladder_elo`` of ``RUN_DIR/metrics.csv`` (None without
    one): where a resumed run's next placement starts, as in ``rafle train``."""
    import csv

    path = Path(run_dir) / METRICS
    if not path.is_file():
        return None
    last = None
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row.get("name") == "eval/ladder_elo":
                last = float(row["value"])
    return last


def train_steps(learner: "Learner", batches: Iterable[Mapping[str, Any]], progress: Callable[[], float]) -> Dict[str, float]:
    """One optimisation step per batch (``progress()`` before each); the mean
    losses and the last learning rate, as metric names (empty: no batch)."""
    sums: Dict[str, float] = {}
    last: Dict[str, float] = {}
    n = 0
    for batch in batches:
        last = learner.step(batch, progress())
        for k, v in last.items():
            sums[k] = sums.get(k, 0.0) + v
        n += 1
    if not n:
        return {}
    logs = {k: v / n for k, v in sums.items()}
    logs["train/lr"] = last["train/lr"]
    return logs


def bootstrap(
    learner: "Learner",
    cfg: Mapping[str, Any],
    add: Callable[[Mapping[str, np.ndarray]], None],
    rng: np.random.Generator,
    say: Callable[[str], None] = print,
    run_dir: Optional[PathLike] = None,
) -> Dict[str, float]:
    """The ``[bootstrap]`` teacher start of ``rafle train``, for the Python
    learners: the teacher's games (``_rafle.teach``, seeded as ``rafle
    train`` seeds them) go through ``add`` into the replay window, and
    ``epochs`` passes of training at the schedule's start draw their
    batches (with ``rng``) from all the teacher's positions, not only the
    newest ``replay_window`` of them; one line through ``say``. With
    ``mix`` > 0 the positions go into ``learner.teacher`` instead (and,
    given ``run_dir``, its file ``teacher.safetensors``, for a resume):
    ``teacher_mix`` draws its share of each batch from them. Returns the
    ``bootstrap/*`` metrics (empty when the config plays no teacher games)."""
    b = cfg.get("bootstrap", {})
    if not b.get("games", 0):
        return {}
    arrays, t = _rafle.teach(cfg)
    own = Replay(max(int(t["positions"]), 1))
    own.add(arrays)
    size = cfg["train"]["batch_size"]
    batches = (own.sample(size, rng, learner.device) for _ in range(int(t["steps"])))
    logs = train_steps(learner, batches, lambda: 0.0)
    if b.get("mix", 0.0) > 0:
        learner.teacher = own
        if run_dir is not None and len(own):
            _rafle.save_replay(Path(run_dir) / TEACHER, own.window_arrays(), own.total_added)
    else:
        add(arrays)
    wins, draws, losses = t["results"]
    say(f"bootstrap | {t['games']} games of {b['player']} (first mover W {wins} D {draws} L {losses}, "
        f"{t['plies'] / max(t['games'], 1):.0f} plies) in {t['seconds']:.0f}s | {t['positions']} positions, "
        f"{t['steps']} steps, policy {logs.get('loss/policy', 0.0):.3f} value {logs.get('loss/value', 0.0):.3f}")
    return {
        "bootstrap/games": float(t["games"]),
        "bootstrap/positions": float(t["positions"]),
        "bootstrap/seconds": float(t["seconds"]),
        "bootstrap/loss_policy": logs.get("loss/policy", 0.0),
        "bootstrap/loss_value": logs.get("loss/value", 0.0),
    }


def to_device(batch: Mapping[str, np.ndarray], device: Union[str, torch.device]) -> Dict[str, Any]:
    """A numpy batch as ``Replay.sample`` gives it with ``device``: the
    training arrays as torch tensors there, any extras as numpy."""
    return {k: torch.from_numpy(np.ascontiguousarray(a)).to(device) if k in BATCH_KEYS else a
            for k, a in batch.items()}


def teacher_mix(
    learner: "Learner", batch: Mapping[str, np.ndarray], progress: float, rng: np.random.Generator
) -> Dict[str, np.ndarray]:
    """``batch`` (numpy arrays drawn from the replay window) with its first
    rows replaced by positions of ``learner.teacher``: as many as ``rafle
    train`` draws from its teacher buffer at ``progress`` of the schedule
    (``_rafle.teacher_count``: ``[bootstrap] mix``, falling to 0 at
    ``mix_until``). The batch as it is without a teacher buffer; arrays the
    teacher's positions lack (e.g. ``version``) are kept whole."""
    teacher = learner.teacher
    if teacher is None or not len(teacher):
        return dict(batch)
    b = learner.cfg["bootstrap"]
    n = len(batch["obs"])
    k = _rafle.teacher_count(n, b["mix"], b["mix_until"], progress)
    if not k:
        return dict(batch)
    t = teacher.sample(k, rng)
    return {key: np.concatenate([t[key], a[k:]]) if key in t else a for key, a in batch.items()}


def teacher_share(learner: "Learner", progress: float) -> Optional[float]:
    """The metric ``train/teacher_share`` at ``progress`` (None without a
    teacher buffer): the teacher's positions in a batch, as a share."""
    if learner.teacher is None:
        return None
    b = learner.cfg["bootstrap"]
    size = learner.train_cfg["batch_size"]
    return _rafle.teacher_count(size, b["mix"], b["mix_until"], progress) / size


def load_teacher(run_dir: PathLike, cfg: Mapping[str, Any]) -> Optional["Replay"]:
    """The teacher's buffer of a run folder (``teacher.safetensors``, written
    by ``rafle train`` or ``bootstrap``), None where the config mixes in no
    teacher or the folder has none."""
    path = Path(run_dir) / TEACHER
    if cfg.get("bootstrap", {}).get("mix", 0.0) <= 0 or not path.is_file():
        return None
    arrays, total = _rafle.load_replay(path, cfg["run"]["variant"], 1 << 40, cfg["train"]["value_target_search"])
    teacher = Replay(max(len(arrays["obs"]), 1))
    if len(arrays["obs"]):
        teacher.add(arrays)
    teacher.total_added = total
    return teacher


def iteration_logs(counters: Mapping[str, float], selfplay_s: float, train_s: float, seconds: float) -> Dict[str, float]:
    """The ``time/*`` and ``selfplay/*`` metrics of an iteration from summed
    ``SelfPlay.stats`` counters (rafle-train computes them for both trainers)."""
    return dict(_rafle.iteration_metrics(dict(counters), selfplay_s, train_s, seconds))


def train_iteration(
    learner: "Learner",
    batches: Iterable[Mapping[str, Any]],
    progress: Callable[[], float],
    counters: Mapping[str, float],
    selfplay_s: float,
    overlapped: bool = False,
) -> Dict[str, float]:
    """The training half of one iteration and its metrics, shared by
    python/examples/alphazero.py and ``python -m rafle.distributed``: a step
    per batch (``train_steps``), then the ``time/*`` and ``selfplay/*``
    metrics of the iteration's self-play ``counters``. Rates are over the
    self-play seconds, or over the whole iteration when self-play ran
    alongside the training (``overlapped``, Ray actors)."""
    t0 = time.time()
    logs = train_steps(learner, batches, progress)
    train_s = time.time() - t0
    seconds = selfplay_s + train_s if overlapped else selfplay_s
    logs.update(iteration_logs(counters, selfplay_s, train_s, seconds))
    return logs


def save_replay(run_dir: PathLike, replay: "Replay") -> None:
    """Writes the window as ``RUN_DIR/replay.safetensors``, the file ``rafle
    train`` reads (through a temporary file: a kill leaves the last one whole)."""
    if not len(replay):
        return
    # The binding writes through a temporary file itself.
    _rafle.save_replay(Path(run_dir) / REPLAY, replay.window_arrays(), replay.total_added)


def load_replay_arrays(run_dir: PathLike, cfg: Mapping[str, Any]) -> tuple[Dict[str, np.ndarray], int]:
    """The positions of a run folder's replay file (written by ``rafle
    train`` or ``save_replay``; the newest ``train.replay_window``), as
    ``SelfPlay.play`` arrays, and the count of positions ever added."""
    t = cfg["train"]
    return _rafle.load_replay(Path(run_dir) / REPLAY, cfg["run"]["variant"], t["replay_window"],
                              t["value_target_search"])


def load_replay(run_dir: PathLike, cfg: Mapping[str, Any]) -> "Replay":
    """The replay window of a run folder, in a window of ``train.replay_window``."""
    arrays, total = load_replay_arrays(run_dir, cfg)
    replay = Replay(cfg["train"]["replay_window"])
    if len(arrays["obs"]):
        replay.add(arrays)
    replay.total_added = total
    return replay


def load_learner(run_dir: PathLike, device: Union[str, torch.device] = "cpu") -> tuple[Learner, Dict[str, Any]]:
    """The learner of a run folder written by ``Learner.save`` (or ``rafle
    train``): network, optimiser state and step; also returns the metadata."""
    from rafle.model import load

    run_dir = Path(run_dir)
    net = load(run_dir / WEIGHTS, device)
    meta = net.meta
    learner = Learner(net, meta["config"], device)
    opt_path = run_dir / OPTIMIZER
    if opt_path.is_file():
        learner.load_optimizer(opt_path, int(meta["step"]))
    else:
        learner.step_count = int(meta["step"])
    return learner, meta


def fresh_net(cfg: Mapping[str, Any]) -> RafleNet:
    """The network of a config's ``[net]`` table for its variant."""
    import rafle

    variant = cfg["run"]["variant"]
    env = rafle.VecEnv(variant, num_envs=1)
    planes, board, _ = env.observation_shape
    n = cfg["net"]
    return RafleNet(planes, board, env.num_actions, n["blocks"], n["channels"], n["policy_channels"],
                    n["value_hidden"], variant=variant)
