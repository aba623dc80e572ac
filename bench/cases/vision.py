"""One training step of a small CNN (PyTorch's MNIST example network) with Adam."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..libraries import Library
from ..registry import Workload, case
from .train_step import TrainStep

# full: the size of issue 18's target (conv 1-32-64, 3x3, batch 64, 28x28)
_SIZES: dict[str, dict[str, Any]] = {
    "tiny": {"batch": 2, "side": 8, "width": 4, "hidden": 8},
    "quick": {"batch": 64, "side": 28, "width": 32, "hidden": 128},
    "full": {"batch": 64, "side": 28, "width": 32, "hidden": 128}}


class _CnnStep(TrainStep):
    """conv(1, w) relu conv(w, 2w) relu max_pool(2) flatten linear relu linear, cross-entropy."""

    def __init__(self, lib: Library, batch: int, side: int, width: int, hidden: int,
                 compiled: bool) -> None:
        self.sizes = (side, width, hidden)
        super().__init__(lib, compiled=compiled)
        self.x = lib.randn(batch, 1, side, side, seed=1)
        self.y = lib.asarray(np.random.default_rng(2).integers(0, 10, batch, dtype=np.int64))

    def build(self, nn: Any) -> Any:
        side, width, hidden = self.sizes
        flat = 2 * width * ((side - 4) // 2) ** 2
        return nn.Sequential(
            nn.Conv2d(1, width, 3), nn.ReLU(), nn.Conv2d(width, 2 * width, 3), nn.ReLU(),
            nn.MaxPool2d(2), nn.Flatten(), nn.Linear(flat, hidden), nn.ReLU(),
            nn.Linear(hidden, 10))


def _flops(batch: int, side: int, width: int, hidden: int) -> int:
    """Forward and backward FLOPs of the convolutions and linears (three times the forward's)."""
    s1, s2 = side - 2, side - 4
    conv = s1 * s1 * width * 9 + s2 * s2 * 2 * width * width * 9
    linear = 2 * width * ((side - 4) // 2) ** 2 * hidden + hidden * 10
    return 3 * 2 * batch * (conv + linear)


@case("train.cnn_adam", threaded=True, sizes=_SIZES)
def cnn_adam(lib: Library, batch: int, side: int, width: int, hidden: int) -> Workload:
    """Small CNN training step (Adam), eager.

    Example:
        >>> cnn_adam(Library("numpy", "cpu"), 2, 8, 4, 8)  # doctest: +SKIP
        Traceback (most recent call last):
        bench.registry.Unsupported: no autograd or nn modules
    """
    return Workload(_CnnStep(lib, batch, side, width, hidden, False),
                    flops=_flops(batch, side, width, hidden))


@case("train.cnn_adam_compiled", threaded=True, sizes=_SIZES)
def cnn_adam_compiled(lib: Library, batch: int, side: int, width: int, hidden: int) -> Workload:
    """train.cnn_adam with the whole step compiled in gtensor (PyTorch eager)."""
    return Workload(_CnnStep(lib, batch, side, width, hidden, True),
                    flops=_flops(batch, side, width, hidden))
