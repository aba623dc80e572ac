"""Define a new elementwise op from one scalar function, for the CPU and CUDA at once.

Write the scalar body once with ``math`` and arithmetic (no NumPy calls), then::

    import math
    from gtensor.kernels import define_elementwise, lookup

    def hypot(a, b):
        return math.sqrt(a * a + b * b)

    define_elementwise("hypot", hypot, ["float32", "float64"])
    kernel = lookup("hypot", "cpu", ("float32", "float32"))
    kernel(x, y, out)              # x, y broadcast to out's shape; numbers allowed

The op then behaves like a built-in kernel: CPU (``njit``, serial or parallel by
size, cached on disk when the function lives in a file) and CUDA (grid-stride,
on the caller's stream; compiled on first use, so defining an op imports no CUDA
library). A gradient rule belongs to the frontend op that calls the kernel (see
``gtensor.ops``); the kernel layer only computes values.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

from .common.dtype_groups import same
from .registry import register


class _LazyCuda:
    """Builds the CUDA kernel on first call, so defining an op imports no CUDA library."""

    def __init__(self, op: str, scalar_fn: Callable, arity: int) -> None:
        self._args = (op, scalar_fn, arity)
        self._kernel: Callable | None = None
        self.__name__ = f"gtensor_{op}_cuda"

    def _built(self) -> Any:
        if self._kernel is None:
            from .cuda._elementwise_build import CudaElementwise

            self._kernel = CudaElementwise(*self._args)
        return self._kernel

    def __call__(self, *args: Any, stream: Any = None) -> None:
        self._built()(*args, stream=stream)

    def plan(self, *args: Any, **kwargs: Any) -> Callable[..., None]:
        """The built kernel's launch plan (see ``CudaElementwise.plan``)."""
        return self._built().plan(*args, **kwargs)


def define_elementwise(op: str, scalar_fn: Callable, dtypes: Sequence[str],
                       arity: int | None = None) -> None:
    """Register ``scalar_fn`` as elementwise op ``op`` on ``cpu`` and ``cuda``.

    Args:
        op: the new op's name (registering an existing name raises).
        scalar_fn: ``f(a, b, ...) -> value`` on scalars, using ``math`` and arithmetic.
        dtypes: dtype names the op accepts; all inputs of a call share one.
        arity: number of inputs (default: ``scalar_fn``'s parameter count).

    Example:
        >>> from gtensor.kernels import lookup
        >>> define_elementwise("doc_twice", lambda x: x + x, ["float64"])
        >>> lookup("doc_twice", "cpu", ("float64",)).__name__
        'gtensor_doc_twice_lambda'
    """
    from .cpu._elementwise_build import CpuElementwise

    n = arity if arity is not None else len(inspect.signature(scalar_fn).parameters)
    sigs = same(tuple(dtypes), n)
    register(op, "cpu", sigs)(CpuElementwise(op, scalar_fn, n))
    register(op, "cuda", sigs)(_LazyCuda(op, scalar_fn, n))
