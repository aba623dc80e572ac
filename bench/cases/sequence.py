"""One training step of a small LSTM classifier: the per-time-step loop is op overhead."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..libraries import Library
from ..registry import Workload, case
from .train_step import TrainStep

# full: the size of issue 18's target (2 layers, hidden 256, 64 steps, batch 32)
_SIZES: dict[str, dict[str, Any]] = {
    "tiny": {"batch": 2, "steps": 3, "features": 4, "hidden": 3, "layers": 1},
    "quick": {"batch": 32, "steps": 16, "features": 32, "hidden": 64, "layers": 1},
    "full": {"batch": 32, "steps": 64, "features": 128, "hidden": 256, "layers": 2}}


class _LstmStep(TrainStep):
    """LSTM (batch first) over ``steps`` steps, a linear head on the last, cross-entropy, Adam."""

    def __init__(self, lib: Library, batch: int, steps: int, features: int, hidden: int,
                 layers: int, compiled: bool) -> None:
        self.sizes = (features, hidden, layers)
        super().__init__(lib, compiled=compiled)
        self.x = lib.randn(batch, steps, features, seed=1)
        self.y = lib.asarray(np.random.default_rng(2).integers(0, 10, batch, dtype=np.int64))

    def build(self, nn: Any) -> Any:
        features, hidden, layers = self.sizes
        return nn.ModuleList([nn.LSTM(features, hidden, num_layers=layers, batch_first=True),
                              nn.Linear(hidden, 10)])

    def logits(self, x: Any) -> Any:
        lstm, head = self.model
        out, _ = lstm(x)
        return head(out[:, -1])


def _flops(batch: int, steps: int, features: int, hidden: int, layers: int) -> int:
    """Forward and backward matmul FLOPs of the LSTM (three times the forward's)."""
    per_step = sum(4 * hidden * ((features if k == 0 else hidden) + hidden) for k in range(layers))
    return 3 * 2 * batch * steps * per_step


@case("train.lstm_adam", threaded=True, sizes=_SIZES)
def lstm_adam(lib: Library, batch: int, steps: int, features: int, hidden: int,
              layers: int) -> Workload:
    """LSTM classifier training step (Adam), eager.

    Example:
        >>> lstm_adam(Library("numpy", "cpu"), 2, 3, 4, 3, 1)  # doctest: +SKIP
        Traceback (most recent call last):
        bench.registry.Unsupported: no autograd or nn modules
    """
    return Workload(_LstmStep(lib, batch, steps, features, hidden, layers, False),
                    flops=_flops(batch, steps, features, hidden, layers))


@case("train.lstm_adam_compiled", threaded=True, sizes=_SIZES)
def lstm_adam_compiled(lib: Library, batch: int, steps: int, features: int,
                       hidden: int, layers: int) -> Workload:
    """train.lstm_adam with the whole step compiled in gtensor (PyTorch eager)."""
    return Workload(_LstmStep(lib, batch, steps, features, hidden, layers, True),
                    flops=_flops(batch, steps, features, hidden, layers))
