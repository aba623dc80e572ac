"""CPU elementwise kernels: every op of the common scalar tables, registered for ``cpu``.

See ``kernels.common.elementwise_ops`` for the calling convention. The
transcendental float ops use NumPy's SIMD loops instead (see ``numpy_loops``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..common.elementwise_ops import register_elementwise
from ._elementwise_build import CpuElementwise
from .numpy_loops import NUMPY_LOOPS, NumpyLoop


def _kernel(op: str, scalar_fn: Callable, arity: int, value_start: int,
            half: str | None = None) -> Callable:
    if op in NUMPY_LOOPS and half is None:
        return NumpyLoop(op, NUMPY_LOOPS[op])
    return CpuElementwise(op, scalar_fn, arity, value_start, half)


register_elementwise("cpu", _kernel)
