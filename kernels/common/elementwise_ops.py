"""Registration of every elementwise op of the scalar tables for one backend.

Calling convention of the registered kernels: ``kernel(*inputs, out, stream=None)``.
Array inputs share the computation dtype (the frontend promotes) and are
broadcast to ``out``'s shape (strides may be 0 or negative; they are read in
place); Python numbers are accepted in any input slot and converted to that
dtype. ``out`` has the input dtype, or ``bool`` for comparisons, logical ops
and ``isnan``-style tests. ``where`` takes ``(cond, a, b)`` with a boolean
``cond``; ``addcmul``/``addcdiv`` take ``(x, a, b, value)`` with a number ``value``.

Complex ops (``scalar_complex``) take complex64 and complex128 as Numba's
native complex types; ``abs`` and ``angle`` of a complex input write a real ``out``.

Every op defined for float32 is also registered for ``float16`` and
``bfloat16``: the factory's ``half`` kernel takes those arrays as their
``uint16`` bits and runs the float32 body in registers.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ..registry import LazyKernel, register
from .dtype_groups import ALL, COMPLEX, HALF, same
from .scalar_binary import BINARY, TERNARY, TERNARY_SCALAR, where
from .scalar_complex import COMPLEX_BINARY, COMPLEX_UNARY
from .scalar_unary import UNARY


def register_elementwise(backend: str, factory: Callable[..., Callable]) -> None:
    """Build each op's kernel with ``factory(op, scalar_fn, arity, value_start, half=None)``.

    Example:
        >>> register_elementwise("cpu", CpuElementwise)  # doctest: +SKIP
    """
    for table, arity in ((UNARY, 1), (COMPLEX_UNARY, 1), (BINARY, 2), (COMPLEX_BINARY, 2),
                         (TERNARY, 3), (TERNARY_SCALAR, 4)):
        for op, variants in table.items():
            for fn, dtypes, _ in variants:
                register(op, backend, same(dtypes, min(arity, 3)))(factory(op, fn, arity, 0))
                if "float32" in dtypes:
                    for h in HALF:
                        register(op, backend, same((h,), min(arity, 3)))(
                            LazyKernel(partial(factory, op, fn, arity, 0, half=h), op))
    register("where", backend, [("bool", d, d) for d in (*ALL, *COMPLEX)])(
        factory("where", where, 3, 1))
    for h in HALF:
        register("where", backend, [("bool", h, h)])(
            LazyKernel(partial(factory, "where", where, 3, 1, half=h), "where"))
