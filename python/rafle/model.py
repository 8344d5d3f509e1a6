"""The rafle policy/value network in PyTorch, identical to the Rust one
(crates/rafle-zero/src/net.rs), so a model trained by ``rafle train`` can be
loaded, analysed or fine-tuned in Python, and saved back for Rust.

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
(metadata: ``shape`` gives the constructor arguments). Torch is needed here
(``pip install torch``); the rest of the ``rafle`` package does not need it.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Dict, Tuple, Union

import numpy as np
import torch
from torch import nn

__all__ = ["RafleNet", "load", "save", "read_safetensors", "write_safetensors"]

PathLike = Union[str, Path]

VALUE_CHANNELS = 2

_DTYPES = {
    "F32": (np.float32, torch.float32),
    "F64": (np.float64, torch.float64),
    "I64": (np.int64, torch.int64),
    "BOOL": (np.bool_, torch.bool),
}
_NAMES = {torch.float32: "F32", torch.float64: "F64", torch.int64: "I64", torch.bool: "BOOL"}


class ConvBn(nn.Module):
    def __init__(self, cin: int, cout: int, k: int) -> None:
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, padding=k // 2, bias=False)
        self.bn = nn.BatchNorm2d(cout, eps=1e-5, momentum=0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.bn(self.conv(x))


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
        self.shape = dict(
            variant=variant,
            planes=planes,
            board=board,
            actions=actions,
            blocks=blocks,
            channels=channels,
            policy_channels=policy_channels,
            value_hidden=value_hidden,
        )
        n2 = board * board
        self.stem = ConvBn(planes, channels, 3)
        self.blocks = nn.ModuleList([Block(channels) for _ in range(blocks)])
        self.policy = ConvBn(channels, policy_channels, 1)
        self.policy_fc = nn.Linear(policy_channels * n2, actions)
        self.value = ConvBn(channels, VALUE_CHANNELS, 1)
        self.value_fc1 = nn.Linear(VALUE_CHANNELS * n2, value_hidden)
        self.value_fc2 = nn.Linear(value_hidden, 3)

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


def read_safetensors(path: PathLike) -> Dict[str, torch.Tensor]:
    """Reads a safetensors file (the format is small enough to parse here)."""
    data = Path(path).read_bytes()
    if len(data) < 8:
        raise ValueError(f"{path}: not a safetensors file")
    (n,) = struct.unpack("<Q", data[:8])
    try:
        header = json.loads(data[8 : 8 + n])
    except ValueError as e:
        raise ValueError(f"{path}: not a safetensors file ({e})") from None
    base = 8 + n
    out: Dict[str, torch.Tensor] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = info["dtype"]
        if dtype not in _DTYPES:
            raise ValueError(f"{path}: tensor {name} has unsupported dtype {dtype}")
        np_type, _ = _DTYPES[dtype]
        start, end = info["data_offsets"]
        arr = np.frombuffer(data[base + start : base + end], dtype=np_type).reshape(info["shape"])
        out[name] = torch.from_numpy(arr.copy())
    return out


def write_safetensors(tensors: Dict[str, torch.Tensor], path: PathLike) -> None:
    """Writes tensors as a safetensors file readable by Rust (tch)."""
    header: Dict[str, object] = {}
    blobs = []
    offset = 0
    for name, t in sorted(tensors.items()):
        t = t.detach().cpu().contiguous()
        if t.dtype not in _NAMES:
            raise ValueError(f"tensor {name}: unsupported dtype {t.dtype}")
        blob = t.numpy().tobytes()
        header[name] = {"dtype": _NAMES[t.dtype], "shape": list(t.shape), "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)


def load(path: PathLike, device: Union[str, torch.device] = "cpu") -> RafleNet:
    """Loads ``X.safetensors`` written by ``rafle train`` (with ``X.json`` next to it)."""
    path = Path(path)
    meta_path = path.with_suffix(".json")
    if not path.is_file():
        raise ValueError(f"model file {path} not found")
    if not meta_path.is_file():
        raise ValueError(f"checkpoint metadata {meta_path} not found")
    meta = json.loads(meta_path.read_text())
    shape = meta["shape"]
    model = RafleNet(
        planes=shape["planes"],
        board=shape["board"],
        actions=shape["actions"],
        blocks=shape["blocks"],
        channels=shape["channels"],
        policy_channels=shape["policy_channels"],
        value_hidden=shape["value_hidden"],
        variant=shape.get("variant", ""),
    )
    state = read_safetensors(path)
    own = model.state_dict()
    missing = [k for k in own if k not in state and not k.endswith("num_batches_tracked")]
    unexpected = [k for k in state if k not in own]
    if missing or unexpected:
        raise ValueError(f"{path}: weights do not fit the network (missing {missing}, unexpected {unexpected})")
    model.load_state_dict(state, strict=False)
    return model.to(device).eval()


def save(model: RafleNet, path: PathLike, meta: Dict[str, object] | None = None) -> None:
    """Writes weights (``X.safetensors``) and metadata (``X.json``) as Rust reads them.

    ``meta`` should be the metadata the model was loaded with (it carries the
    run config); only ``shape`` and ``variant`` are filled in when missing.
    """
    path = Path(path)
    state = {k: v for k, v in model.state_dict().items() if not k.endswith("num_batches_tracked")}
    write_safetensors(state, path)
    meta = dict(meta or {})
    meta.setdefault("shape", model.shape)
    meta.setdefault("variant", model.variant)
    path.with_suffix(".json").write_text(json.dumps(meta, indent=2))
