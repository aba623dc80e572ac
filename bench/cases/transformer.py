"""One training step of a Transformer encoder (batch first) with a per-token head and Adam."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..libraries import Library
from ..registry import Workload, case
from .train_step import TrainStep

_SIZES: dict[str, dict[str, Any]] = {
    "tiny": {"layers": 1, "d_model": 8, "nhead": 2, "ff": 8, "seq": 3, "batch": 2},
    "quick": {"layers": 2, "d_model": 128, "nhead": 4, "ff": 512, "seq": 32, "batch": 8},
    "full": {"layers": 4, "d_model": 256, "nhead": 4, "ff": 1024, "seq": 64, "batch": 16}}
_CLASSES = 10


class _EncoderStep(TrainStep):
    """Encoder layers (dropout 0.1, ReLU, post-norm), a linear head per token, cross-entropy."""

    def __init__(self, lib: Library, layers: int, d_model: int, nhead: int, ff: int, seq: int,
                 batch: int) -> None:
        self.sizes = (layers, d_model, nhead, ff)
        super().__init__(lib)
        self.x = lib.randn(batch, seq, d_model, seed=1)
        labels = np.random.default_rng(2).integers(0, _CLASSES, batch * seq, dtype=np.int64)
        self.y = lib.asarray(labels)

    def build(self, nn: Any) -> Any:
        layers, d_model, nhead, ff = self.sizes
        layer = nn.TransformerEncoderLayer(d_model, nhead, ff, batch_first=True)
        kwargs = {"enable_nested_tensor": False} if self.lib.name == "torch" else {}
        return nn.ModuleList([nn.TransformerEncoder(layer, layers, **kwargs),
                              nn.Linear(d_model, _CLASSES)])

    def logits(self, x: Any) -> Any:
        encoder, head = self.model
        return head(encoder(x)).reshape(-1, _CLASSES)


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
