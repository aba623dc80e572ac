"""Mixed precision: half-precision matrix products and the MLP Adam step under autocast.

The products report TFLOP/s against PyTorch's (cuBLAS with float32 accumulation on
a GPU); the training step runs PyTorch's recipe in both libraries: forward and
loss under ``autocast``, the backward pass and the step outside it, with a
``GradScaler`` in float16.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..libraries import Library
from ..registry import Unsupported, Workload, case
from .train_step import TrainStep

_MATMUL_SIZES: dict[str, dict[str, Any]] = {
    "tiny": {"n": 32}, "quick": {"n": 512}, "full": {"n": 8192}}
_MLP_SIZES: dict[str, dict[str, Any]] = {
    "tiny": {"batch": 8, "features": 16, "hidden": 8, "classes": 4},
    "quick": {"batch": 256, "features": 784, "hidden": 512, "classes": 10},
    "full": {"batch": 256, "features": 784, "hidden": 512, "classes": 10}}


def _low(lib: Library, name: str) -> Any:
    """The library's dtype ``name`` (float16 or bfloat16); Unsupported where it has none or
    no half-precision matrix product."""
    if lib.name == "numpy":
        raise Unsupported("no half-precision BLAS")
    dt = getattr(lib.ns, name, None)
    if dt is None:
        raise Unsupported(f"no {name}")
    return dt


def _square(lib: Library, n: int, name: str) -> Workload:
    dt = _low(lib, name)
    a, b = (lib.randn(n, n, seed=s) for s in (1, 2))
    if lib.name == "cupy":
        a, b = a.astype(dt), b.astype(dt)
    else:
        a, b = a.to(dt), b.to(dt)
    return Workload(lambda: a @ b, flops=2 * n**3)


@case("amp.matmul_bfloat16", threaded=True, max_rounds=5, sizes=_MATMUL_SIZES)
def matmul_bfloat16(lib: Library, n: int) -> Workload:
    """n x n @ n x n in bfloat16, float32 accumulation (flops: 2 n^3; full: 8192^3).

    Example:
        >>> matmul_bfloat16(Library("numpy", "cpu"), 2)  # doctest: +SKIP
        Traceback (most recent call last):
        bench.registry.Unsupported: no half-precision BLAS
    """
    return _square(lib, n, "bfloat16")


@case("amp.matmul_float16", threaded=True, max_rounds=5, sizes=_MATMUL_SIZES)
def matmul_float16(lib: Library, n: int) -> Workload:
    """n x n @ n x n in float16, float32 accumulation (flops: 2 n^3; full: 8192^3)."""
    return _square(lib, n, "float16")


class _AmpStep(TrainStep):
    """The MLP Adam step of ``train.mlp_adam`` with forward and loss under autocast."""

    def __init__(self, lib: Library, batch: int, features: int, hidden: int, classes: int,
                 low: str) -> None:
        self.sizes = (features, hidden, classes)
        super().__init__(lib, "adam")
        self.low = _low(lib, low)
        device_type = lib.device.split(":")[0]
        self.autocast = lambda: lib.ns.autocast(device_type, dtype=self.low)
        self.scaler = lib.ns.amp.GradScaler(device_type, enabled=low == "float16")
        self.x = lib.randn(batch, features, seed=1)
        rng = np.random.default_rng(2)
        self.y = lib.asarray(rng.integers(0, classes, batch, dtype=np.int64))

    def build(self, nn: Any) -> Any:
        features, hidden, classes = self.sizes
        return nn.Sequential(nn.Linear(features, hidden), nn.ReLU(), nn.Linear(hidden, hidden),
                             nn.ReLU(), nn.Linear(hidden, classes))

    def _step(self, x: Any, y: Any) -> None:
        self.opt.zero_grad()
        with self.autocast():
            loss = self.loss_fn(self.logits(x), y)
        self.scaler.scale(loss).backward()
        self.scaler.step(self.opt)
        self.scaler.update()


def _mlp_step(lib: Library, low: str, batch: int, features: int, hidden: int,
              classes: int) -> Workload:
    """The step in dtype ``low``; flops are three times the forward matmuls'."""
    flops = 3 * 2 * batch * (features * hidden + hidden * hidden + hidden * classes)
    return Workload(_AmpStep(lib, batch, features, hidden, classes, low), flops=flops)


@case("amp.mlp_adam_bfloat16", threaded=True, sizes=_MLP_SIZES)
def mlp_adam_bfloat16(lib: Library, batch: int, features: int, hidden: int,
                      classes: int) -> Workload:
    """MLP features-hidden-hidden-classes Adam step under autocast to bfloat16 (no scaler).

    Example:
        >>> mlp_adam_bfloat16(Library("numpy", "cpu"), 8, 16, 8, 4)  # doctest: +SKIP
        Traceback (most recent call last):
        bench.registry.Unsupported: no autograd or nn modules
    """
    return _mlp_step(lib, "bfloat16", batch, features, hidden, classes)


@case("amp.mlp_adam_float16", threaded=True, sizes=_MLP_SIZES)
def mlp_adam_float16(lib: Library, batch: int, features: int, hidden: int,
                     classes: int) -> Workload:
    """MLP features-hidden-hidden-classes Adam step under autocast to float16, GradScaler."""
    return _mlp_step(lib, "float16", batch, features, hidden, classes)
