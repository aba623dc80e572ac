"""One training step of a small MLP: forward, cross-entropy, backward, optimizer step."""

from __future__ import annotations

import gc
from typing import Any

import numpy as np

from ..libraries import Library
from ..registry import Workload, case
from .train_step import TrainStep

_SIZES: dict[str, dict[str, Any]] = {
    "tiny": {"batch": 8, "features": 16, "hidden": 8, "classes": 4},
    "quick": {"batch": 256, "features": 784, "hidden": 512, "classes": 10},
    "full": {"batch": 256, "features": 784, "hidden": 512, "classes": 10}}


class _Step(TrainStep):
    """An MLP training step; records allocated bytes after 2 steps and at the end.

    Adam creates its state in the first step, so from the second on the bytes
    held should stay the same (a growing number is a leak).
    """

    def __init__(self, lib: Library, batch: int, features: int, hidden: int, classes: int,
                 optimizer: str, compiled: bool = False, cuda_graphs: bool | None = None
                 ) -> None:
        self.sizes = (features, hidden, classes)
        super().__init__(lib, optimizer, compiled, cuda_graphs)
        self.x = lib.randn(batch, features, seed=1)
        rng = np.random.default_rng(2)
        self.y = lib.asarray(rng.integers(0, classes, batch, dtype=np.int64))
        self.steps = 0
        self.allocated: dict[str, int] = {}

    def build(self, nn: Any) -> Any:
        features, hidden, classes = self.sizes
        return nn.Sequential(nn.Linear(features, hidden), nn.ReLU(), nn.Linear(hidden, hidden),
                             nn.ReLU(), nn.Linear(hidden, classes))

    def _allocated(self) -> int | None:
        gc.collect()  # objects in cycles (an earlier case's, in this worker) still hold memory
        if self.lib.name == "gtensor":
            return int(self.lib.ns.memory.memory_allocated(self.lib.device))
        if self.lib.on_gpu:
            return int(self.lib.ns.cuda.memory_allocated())
        return None

    def __call__(self) -> None:
        super().__call__()
        self.steps += 1
        if self.steps == 2:
            self.allocated["after_2_steps"] = self._allocated() or 0

    def extra(self) -> dict[str, Any]:
        mem = self._allocated()
        if mem is None:
            return {"steps": self.steps}
        return {"steps": self.steps, "allocated_bytes": {**self.allocated, "at_end": mem}}


def _flops(batch: int, features: int, hidden: int, classes: int) -> int:
    """Matmul flops of forward and backward (about 3x the forward's 2 * batch * weights)."""
    weights = features * hidden + hidden * hidden + hidden * classes
    return 3 * 2 * batch * weights


@case("train.mlp_sgd", threaded=True, sizes=_SIZES)
def mlp_sgd(lib: Library, batch: int, features: int, hidden: int, classes: int) -> Workload:
    """MLP features-hidden-hidden-classes, ReLU, cross-entropy, SGD: one full training step.

    Example:
        >>> mlp_sgd(Library("numpy", "cpu"), 8, 16, 8, 4)  # doctest: +SKIP
        Traceback (most recent call last):
        bench.registry.Unsupported: no autograd or nn modules
    """
    step = _Step(lib, batch, features, hidden, classes, "sgd")
    return Workload(step, flops=_flops(batch, features, hidden, classes), extra=step.extra)


@case("train.mlp_adam", threaded=True, sizes=_SIZES)
def mlp_adam(lib: Library, batch: int, features: int, hidden: int, classes: int) -> Workload:
    """The same MLP training step with Adam (lr 1e-3) instead of SGD."""
    step = _Step(lib, batch, features, hidden, classes, "adam")
    return Workload(step, flops=_flops(batch, features, hidden, classes), extra=step.extra)


@case("train.mlp_sgd_compiled", threaded=True, sizes=_SIZES)
def mlp_sgd_compiled(lib: Library, batch: int, features: int, hidden: int,
                     classes: int) -> Workload:
    """train.mlp_sgd with the whole step (forward, backward, update) under gt.compile in
    gtensor; the references run eagerly (torch.compile needs a C++ toolchain on the cpu)."""
    step = _Step(lib, batch, features, hidden, classes, "sgd", compiled=True)
    return Workload(step, flops=_flops(batch, features, hidden, classes), extra=step.extra)


@case("train.mlp_adam_compiled", threaded=True, sizes=_SIZES)
def mlp_adam_compiled(lib: Library, batch: int, features: int, hidden: int,
                      classes: int) -> Workload:
    """train.mlp_adam with the whole step under gt.compile in gtensor (no CUDA graph)."""
    step = _Step(lib, batch, features, hidden, classes, "adam", compiled=True,
                 cuda_graphs=False)
    return Workload(step, flops=_flops(batch, features, hidden, classes), extra=step.extra)


@case("train.mlp_adam_compiled_graphs", threaded=True, devices=("cuda",), sizes=_SIZES)
def mlp_adam_compiled_graphs(lib: Library, batch: int, features: int, hidden: int,
                             classes: int) -> Workload:
    """train.mlp_adam_compiled replayed as one captured CUDA graph per step in gtensor."""
    step = _Step(lib, batch, features, hidden, classes, "adam", compiled=True,
                 cuda_graphs=True)
    return Workload(step, flops=_flops(batch, features, hidden, classes), extra=step.extra)


@case("train.mlp_adam_wide", threaded=True, max_rounds=5, devices=("cuda",), sizes={
    "tiny": {"batch": 8, "features": 16, "hidden": 16, "classes": 4},
    "quick": {"batch": 4096, "features": 4096, "hidden": 4096, "classes": 10},
    "full": {"batch": 4096, "features": 4096, "hidden": 4096, "classes": 10}})
def mlp_adam_wide(lib: Library, batch: int, features: int, hidden: int,
                  classes: int) -> Workload:
    """The Adam MLP step at GPU scale: 4096 wide, batch 4096 (matmul-bound)."""
    step = _Step(lib, batch, features, hidden, classes, "adam")
    return Workload(step, flops=_flops(batch, features, hidden, classes), extra=step.extra)
