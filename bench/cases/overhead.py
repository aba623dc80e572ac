"""Per-call overhead: ops on 100 elements, where the time is all dispatch and bookkeeping."""

from __future__ import annotations

from typing import Any

from ..libraries import Library
from ..registry import Unsupported, Workload, case

_SIZES: dict[str, dict[str, Any]] = {p: {"n": 100} for p in ("tiny", "quick", "full")}


@case("overhead.add", sizes=_SIZES)
def add(lib: Library, n: int) -> Workload:
    """a + b on 100 float32 values: the fixed cost of one op call.

    Example:
        >>> add(Library("numpy", "cpu"), 100).work()
        {}
    """
    a, b = lib.randn(n, seed=1), lib.randn(n, seed=2)
    return Workload(lambda: a + b)


@case("overhead.chain_forward", sizes=_SIZES)
def chain_forward(lib: Library, n: int) -> Workload:
    """(a*b + c).relu().sum() on 100 float32 values: four small ops, no gradient."""
    a, b, c = lib.randn(n, seed=1), lib.randn(n, seed=2), lib.randn(n, seed=3)
    return Workload(lambda: lib.relu(a * b + c).sum())


@case("overhead.chain_backward", sizes=_SIZES)
def chain_backward(lib: Library, n: int) -> Workload:
    """Forward and backward of (a*b + c).relu().sum() on 100 float32 leaves needing grad.

    Gradients accumulate into ``.grad`` across calls, as in a loop without
    ``zero_grad``. NumPy and CuPy have no autograd and are reported unsupported.
    """
    if lib.name not in ("gtensor", "torch"):
        raise Unsupported("no autograd")
    a, b, c = (lib.randn(n, seed=s).requires_grad_() for s in (1, 2, 3))

    def step() -> None:
        lib.relu(a * b + c).sum().backward()

    return Workload(step)
