"""The rafle policy/value network in PyTorch, identical to the Rust one
(crates/rafle-zero/src/net.rs), so a model trained by ``rafle train`` can be
loaded, analysed, fine-tuned or played in Python, and saved back for Rust.

::

    obs [B, C, N, N] (rafle observation planes, mover's frame)
      stem   conv3x3(C -> ch) - BN - ReLU
      blocks x `blocks`: conv3x3 - BN - ReLU - conv3x3 - BN, + skip, ReLU
      policy conv1x1(ch -> pc) - BN - ReLU - flatten - linear(pc*N*N -> A)    logits [B, A]
      value  conv1x1(ch -> 2)  - BN - ReLU - flatten - linear(2*N*N -> h)
             - ReLU - linear(h -> 3)                                         WDL logits [B, 3]

WDL is (win, draw, loss) for the player to act; the scalar value is
P(win) - P(loss). Logits are raw: mask illegal actions before a softmax.

A checkpoint is ``X.safetensors`` (weights, names as below) with ``X.json``
(metadata: ``shape`` gives the constructor arguments, ``config`` the run's
configuration). ``load`` keeps the metadata on the network (``net.meta``)
and ``save`` writes it back. Torch and the ``safetensors`` package are
needed here (``pip install torch safetensors``); the rest of the ``rafle``
package does not need them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Dict, Optional, Tuple, Union

import numpy as np
import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, save_file
from torch import nn

from rafle import atomic
from rafle._rafle import BF16_BATCH, SMALL_BATCH

__all__ = ["RafleNet", "load", "save", "save_weights", "evaluator"]

PathLike = Union[str, Path]

VALUE_CHANNELS = 2

#: The constructor arguments, in the order of the metadata's ``shape``.
SHAPE_KEYS = ("planes", "board", "actions", "blocks", "channels", "policy_channels", "value_hidden")


class ConvBn(nn.Module):
    def __init__(self, cin: int, cout: int, k: int) -> None:
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, padding=k // 2, bias=False)
        self.bn = nn.BatchNorm2d(cout, eps=1e-5, momentum=0.1)
        #: The convolution's arithmetic where not the weights' own (``RafleNet.set_conv_dtype``).
        self.conv_dtype: Optional[torch.dtype] = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dt, w = self.conv_dtype, self.conv.weight
        if dt is None or dt == w.dtype or not self.training:
            return self.bn(self.conv(x))
        y = nn.functional.conv2d(x.to(dt), w.to(dt), padding=self.conv.padding)
        return self.bn(y.to(x.dtype))


class Block(nn.Module):
    def __init__(self, ch: int) -> None:
        super().__init__()
        self.a = ConvBn(ch, ch, 3)
        self.b = ConvBn(ch, ch, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.b(torch.relu(self.a(x))) + x)


class RafleNet(nn.Module):
    """The network; arguments are the ``shape`` of the checkpoint metadata."""

    def __init__(
        self,
        planes: int,
        board: int,
        actions: int,
        blocks: int,
        channels: int,
        policy_channels: int,
        value_hidden: int,
        variant: str = "",
    ) -> None:
        super().__init__()
        self.variant = variant
        self.shape: Dict[str, Any] = dict(
            variant=variant,
            planes=planes,
            board=board,
            actions=actions,
            blocks=blocks,
            channels=channels,
            policy_channels=policy_channels,
            value_hidden=value_hidden,
        )
        #: The checkpoint metadata (config, step, ...) when loaded; ``save`` writes it back.
        self.meta: Dict[str, Any] = {}
        n2 = board * board
        self.stem = ConvBn(planes, channels, 3)
        self.blocks = nn.ModuleList([Block(channels) for _ in range(blocks)])
        self.policy = ConvBn(channels, policy_channels, 1)
        self.policy_fc = nn.Linear(policy_channels * n2, actions)
        self.value = ConvBn(channels, VALUE_CHANNELS, 1)
        self.value_fc1 = nn.Linear(VALUE_CHANNELS * n2, value_hidden)
        self.value_fc2 = nn.Linear(value_hidden, 3)

    def set_conv_dtype(self, dtype: Optional[torch.dtype]) -> None:
        """Runs the convolutions in training mode in ``dtype`` (None: the
        weights' own), the rest in the weights' type, as ``Net::set_conv_kind``
        in Rust: bf16 convolutions over f32 weights make a mixed-precision
        training step (a config's ``train.conv_dtype``). Eval mode, and so
        inference, keeps the weights' type."""
        for m in self.modules():
            if isinstance(m, ConvBn):
                m.conv_dtype = dtype

    @classmethod
    def from_shape(cls, shape: Dict[str, Any]) -> "RafleNet":
        """The network of a metadata ``shape`` dict."""
        missing = [k for k in SHAPE_KEYS if k not in shape]
        if missing:
            raise ValueError(f"network shape lacks {missing}")
        return cls(**{k: int(shape[k]) for k in SHAPE_KEYS}, variant=str(shape.get("variant", "")))

    def forward(self, obs: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        """(policy logits [B, A], WDL logits [B, 3]) for obs [B, C, N, N]."""
        x = torch.relu(self.stem(obs))
        for b in self.blocks:
            x = b(x)
        p = self.policy_fc(torch.flatten(torch.relu(self.policy(x)), 1))
        v = torch.flatten(torch.relu(self.value(x)), 1)
        v = self.value_fc2(torch.relu(self.value_fc1(v)))
        return p, v

    @staticmethod
    def scalar_value(wdl_logits: torch.Tensor) -> torch.Tensor:
        """P(win) - P(loss) from WDL logits."""
        p = torch.softmax(wdl_logits, dim=-1)
        return p[..., 0] - p[..., 2]


def load(path: PathLike, device: Union[str, torch.device] = "cpu") -> RafleNet:
    """Loads ``X.safetensors`` written by ``rafle train`` (with ``X.json``
    next to it), in eval mode; the metadata is kept as ``net.meta``."""
    path = Path(path)
    meta_path = path.with_suffix(".json")
    if not path.is_file():
        raise ValueError(f"model file {path} not found")
    if not meta_path.is_file():
        raise ValueError(f"checkpoint metadata {meta_path} not found")
    try:
        meta = json.loads(meta_path.read_text())
        model = RafleNet.from_shape(meta["shape"])
    except (ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{meta_path} is not rafle checkpoint metadata ({e})") from None
    try:
        state = load_file(str(path))
    except (SafetensorError, OSError) as e:
        raise ValueError(f"{path}: not a safetensors file ({e})") from None
    own = model.state_dict()
    missing = [k for k in own if k not in state and not k.endswith("num_batches_tracked")]
    unexpected = [k for k in state if k not in own]
    if missing or unexpected:
        raise ValueError(f"{path}: weights do not fit the network (missing {missing}, unexpected {unexpected})")
    model.load_state_dict(state, strict=False)
    model.meta = meta
    return model.to(device).eval()


def save(model: RafleNet, path: PathLike, meta: Optional[Dict[str, Any]] = None) -> None:
    """Writes weights (``X.safetensors``) and metadata (``X.json``) as Rust reads them.

    ``meta`` defaults to ``model.meta`` (what ``load`` read: the run config,
    step, ...); ``shape`` and ``variant`` are filled in when missing.
    """
    path = Path(path)
    save_weights(model, path)
    meta = dict(model.meta if meta is None else meta)
    meta.setdefault("shape", model.shape)
    meta.setdefault("variant", model.variant)
    atomic.write_text(path.with_suffix(".json"), json.dumps(meta, indent=2))


def save_weights(model: RafleNet, path: PathLike) -> None:
    """Writes the weights alone (``X.safetensors``, the variable names Rust reads)."""
    state = {
        k: v.detach().cpu().contiguous()
        for k, v in model.state_dict().items()
        if not k.endswith("num_batches_tracked")
    }
    atomic.replace(path, lambda tmp: save_file(state, str(tmp)))


def evaluator(
    net: nn.Module,
    device: Union[str, torch.device, None] = None,
    dtype: Optional[torch.dtype] = None,
) -> Callable[[np.ndarray], Tuple[torch.Tensor, torch.Tensor]]:
    """``net`` as a rafle evaluator: obs (K, C, N, N) -> (policy logits (K, A),
    win/draw/loss probabilities (K, 3)), in eval mode without gradients, on
    ``device`` (default: the network's). ``dtype=torch.bfloat16`` runs
    batches of ``rafle.BF16_BATCH`` leaves or more under bf16 autocast (what
    ``rafle train`` does where bf16 is fast: CUDA, CPUs with AVX-512 BF16 or
    AMX; smaller ones are faster in f32). Batches under ``rafle.SMALL_BATCH``
    leaves run on one torch thread (see crates/rafle-search/src/network/evaluator.rs)."""
    if device is None:
        device = next(net.parameters()).device
    kind = torch.device(device).type
    on_cpu = kind == "cpu"

    @torch.inference_mode()
    def evaluate(obs: np.ndarray) -> Tuple[torch.Tensor, torch.Tensor]:
        threads = torch.get_num_threads()
        small = on_cpu and len(obs) < SMALL_BATCH and threads > 1
        if small:
            torch.set_num_threads(1)
        try:
            was_training = net.training
            net.eval()
            bf16 = dtype is not None and len(obs) >= BF16_BATCH
            with torch.autocast(kind, dtype=dtype, enabled=bf16):
                logits, wdl = net(torch.from_numpy(obs).to(device))
            if was_training:
                net.train()
            return logits, torch.softmax(wdl.float(), dim=-1)
        finally:
            if small:
                torch.set_num_threads(threads)

    return evaluate
