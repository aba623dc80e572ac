"""Build CUDA elementwise kernels from a scalar body (grid-stride, on the caller's stream)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np
from numba import cuda

from ..common.codegen import build, cuda_source, has_source_file, kernel_name
from ..common.operands import (
    convert_scalars,
    elementwise_layout,
    is_array,
    nothing,
    pack_strided,
    with_numbers,
)
from ..common.strided import element_strides
from ._launch import SIMULATED, PlannedLaunch, flat_operand

_JIT: dict[str, Any] = {} if SIMULATED else {"cache": True}


def item(x, i):  # noqa: ANN001, ANN201 - compiled helper; arrays are indexed, scalars pass
    return x[i] if getattr(x, "ndim", 0) else x


if not SIMULATED:
    from numba.cuda.extending import overload

    @overload(item, target="cuda")
    def _item_overload(x, i):  # noqa: ANN001, ANN202
        if getattr(x, "ndim", None) is not None:
            return lambda x, i: x[i]
        return lambda x, i: x


class CudaElementwise:
    """A CUDA elementwise kernel for one op: ``kernel(*inputs, out, stream=None)``.

    Same calling convention as the CPU kernels. All-contiguous operands take a
    flat grid-stride loop; others are collapsed to the fewest dims and indexed
    through flat views of their memory with element offsets and strides.
    """

    def __init__(self, op: str, scalar_fn: Callable, arity: int, value_start: int = 0) -> None:
        name = kernel_name(op, scalar_fn)
        ns = {"f": cuda.jit(device=True)(scalar_fn), "item": item, "cuda": cuda}
        src = build(cuda_source(name, arity), scalar_fn, ns)
        jit = _JIT if has_source_file(scalar_fn) else {}
        self._flat = cuda.jit(**jit)(src[f"{name}_flat"])
        self._strided = cuda.jit(**jit)(src[f"{name}_strided"])
        self.arity = arity
        self.value_start = value_start
        self.__name__ = name
        self.__doc__ = f"CUDA kernel for ``{op}``: ``kernel(*inputs, out, stream=None)``."

    def __call__(self, *args: Any, stream: Any = None) -> None:
        *inputs, out = args
        if len(inputs) != self.arity:
            raise TypeError(f"[{self.__name__}] expected {self.arity} inputs, got {len(inputs)}")
        if out.size == 0:
            return
        ops = convert_scalars(inputs, out, self.value_start)
        run = self.plan(tuple(out.shape), [element_strides(x) if is_array(x) else None
                                           for x in ops], element_strides(out), None, stream)
        packed: list[Any] = []
        for x in ops:
            packed += flat_operand(x)[:2] if is_array(x) else (x, 0)
        run(*packed, *flat_operand(out)[:2])

    def plan(self, shape: tuple[int, ...], strides: Sequence[tuple[int, ...] | None],
             out_strides: tuple[int, ...], scalar_dtype: np.dtype | None,
             stream: Any = None) -> Callable[..., None]:
        """Work out layout, grid and configured launches once per call signature and stream.

        Returns ``run(a0, o0, a1, o1, ..., out, oo)`` over flat device buffers (or
        numbers) and element offsets, as the CPU kernels' ``plan``.
        """
        n, cshape, per_input, so, flat = elementwise_layout(shape, strides, out_strides)
        if n == 0:
            return nothing
        run = partial(_launch_planned, PlannedLaunch(self._flat, n, stream) if flat else None,
                      PlannedLaunch(self._strided, n, stream), n, cshape, per_input, so)
        return with_numbers(run, strides, scalar_dtype)


def _launch_planned(flat: Any, strided: Any, n: int, shape: tuple[int, ...],
                    strides: tuple[tuple[int, ...], ...], so: tuple[int, ...], *args: Any) -> None:
    # The flat loop runs over its whole output buffer from element 0: take it when every
    # operand starts its buffer and the output buffer holds exactly the n results.
    if flat is not None and not any(args[1::2]) and args[-2].shape[0] == n:
        flat(*args[0::2])
    else:
        strided(n, shape, *pack_strided(args, strides), args[-2], args[-1], so)
