"""One training step of a Transformer encoder (batch first) with a per-token head and Adam."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..libraries import Library
from ..registry import Unsupported, Workload, case

_SIZES: dict[str, dict[str, Any]] = {
    "tiny": {"layers": 1, "d_model": 8, "nhead": 2, "ff": 8, "seq": 3, "batch": 2},
    "quick": {"layers": 2, "d_model": 128, "nhead": 4, "ff": 512, "seq": 32, "batch": 8},
    "full": {"layers": 4, "d_model": 256, "nhead": 4, "ff": 1024, "seq": 64, "batch": 16}}
_CLASSES = 10


class _EncoderStep:
    """Encoder layers (dropout 0.1, ReLU, post-norm), a linear head per token, cross-entropy."""

    def __init__(self, lib: Library, layers: int, d_model: int, nhead: int, ff: int, seq: int,
                 batch: int) -> None:
        if lib.name not in ("gtensor", "torch"):
            raise Unsupported("no autograd or nn modules")
        nn = lib.ns.nn
        lib.ns.manual_seed(0)
        layer = nn.TransformerEncoderLayer(d_model, nhead, ff, batch_first=True)
        kwargs = {"enable_nested_tensor": False} if lib.name == "torch" else {}
        self.encoder = nn.TransformerEncoder(layer, layers, **kwargs).to(lib.device)
        self.head = nn.Linear(d_model, _CLASSES).to(lib.device)
        self.opt = lib.ns.optim.Adam([*self.encoder.parameters(), *self.head.parameters()],
                                     lr=1e-3)
        self.loss_fn = nn.CrossEntropyLoss()
        self.x = lib.randn(batch, seq, d_model, seed=1)
        labels = np.random.default_rng(2).integers(0, _CLASSES, batch * seq, dtype=np.int64)
        self.y = lib.asarray(labels)

    def __call__(self) -> None:
        self.opt.zero_grad()
        out = self.head(self.encoder(self.x)).reshape(-1, _CLASSES)
        self.loss_fn(out, self.y).backward()
        self.opt.step()


def _flops(layers: int, d_model: int, nhead: int, ff: int, seq: int, batch: int) -> int:
    """Matmul FLOPs of forward and backward (three times the forward's)."""
    tokens = batch * seq
    projections = 4 * d_model * d_model + 2 * d_model * ff
    attention = 2 * seq * d_model
    return 3 * 2 * layers * tokens * (projections + attention)


@case("train.transformer_adam", threaded=True, sizes=_SIZES)
def transformer_adam(lib: Library, layers: int, d_model: int, nhead: int, ff: int, seq: int,
                     batch: int) -> Workload:
    """Transformer encoder training step (Adam): layers x (self-attention, feed-forward).

    Example:
        >>> transformer_adam(Library("numpy", "cpu"), **_SIZES["tiny"])  # doctest: +SKIP
        Traceback (most recent call last):
        bench.registry.Unsupported: no autograd or nn modules
    """
    return Workload(_EncoderStep(lib, layers, d_model, nhead, ff, seq, batch),
                    flops=_flops(layers, d_model, nhead, ff, seq, batch))
