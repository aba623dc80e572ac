"""Build CPU elementwise kernels from a scalar body (``njit``, serial and parallel)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numba import njit, prange, types
from numba.extending import overload

from ..common.codegen import build, cpu_source, has_source_file, kernel_name
from ..common.operands import convert_scalars
from ..common.strided import collapse, element_strides, host_flat

PARALLEL_MIN = 1 << 15  # below this many elements a parallel launch costs more than it saves
_JIT = {"cache": True, "error_model": "numpy", "nogil": True}


def item(x, i):  # noqa: ANN001, ANN201 - compiled helper; arrays are indexed, scalars pass
    return x[i] if isinstance(x, np.ndarray) else x


@overload(item, jit_options={"error_model": "numpy"})
def _item_overload(x, i):  # noqa: ANN001, ANN202
    if isinstance(x, types.Array):
        return lambda x, i: x[i]
    return lambda x, i: x


class CpuElementwise:
    """A CPU elementwise kernel for one op: ``kernel(*inputs, out, stream=None)``.

    Inputs are arrays already broadcast to ``out``'s shape (any strides,
    including 0 and negative) or Python numbers; ``out`` is written in place.
    All-contiguous operands take a flat loop; others are collapsed to the fewest
    dims and run through a strided loop over the original memory (no copies).
    Above ``PARALLEL_MIN`` elements the loop runs in parallel (``prange``).
    """

    def __init__(self, op: str, scalar_fn: Callable, arity: int, value_start: int = 0) -> None:
        name = kernel_name(op, scalar_fn)
        jit = {**_JIT, "cache": has_source_file(scalar_fn)}
        body = njit(**jit)(scalar_fn)
        ns = {"f": body, "item": item, "prange": prange}
        serial = build(cpu_source(name, arity, False), scalar_fn, ns)
        par = build(cpu_source(name + "_par", arity, True), scalar_fn, ns)
        self._flat = njit(**jit)(serial[f"{name}_flat"])
        self._strided = njit(**jit)(serial[f"{name}_strided"])
        self._flat_par = njit(parallel=True, **jit)(par[f"{name}_par_flat"])
        self._strided_par = njit(parallel=True, **jit)(par[f"{name}_par_strided"])
        self.arity = arity
        self.value_start = value_start
        self.__name__ = name
        self.__doc__ = f"CPU kernel for ``{op}``: ``kernel(*inputs, out, stream=None)``."

    def __call__(self, *args: Any, stream: Any = None) -> None:
        out = args[-1]
        if len(args) != self.arity + 1:
            raise TypeError(f"[{self.__name__}] expected {self.arity} inputs, got {len(args) - 1}")
        n = out.size
        if n == 0:
            return
        shape = out.shape
        flat = out.flags.c_contiguous
        if flat:
            for x in args:
                if type(x) is not np.ndarray or x.shape != shape or not x.flags.c_contiguous:
                    flat = False
                    break
        if flat:
            fn = self._flat_par if n >= PARALLEL_MIN else self._flat
            if out.ndim == 1:
                fn(*args)
            else:
                fn(*[x.reshape(-1) for x in args])
            return
        self._run_general(args[:-1], out, n)

    def _run_general(self, inputs: Sequence[Any], out: np.ndarray, n: int) -> None:
        ops = convert_scalars(inputs, out, self.value_start)
        if out.flags.c_contiguous and all(
            not isinstance(x, np.ndarray) or (x.flags.c_contiguous and x.shape == out.shape)
            for x in ops
        ):
            fn = self._flat_par if n >= PARALLEL_MIN else self._flat
            fn(*[x.reshape(-1) if isinstance(x, np.ndarray) else x for x in ops],
               out.reshape(-1))
            return
        self._run_strided(ops, out, n)

    def _run_strided(self, ops: list[Any], out: np.ndarray, n: int) -> None:
        arrays = [x for x in ops if isinstance(x, np.ndarray)]
        shape, strides = collapse(out.shape, [element_strides(a) for a in (*arrays, out)])
        it = iter(strides)
        packed: list[Any] = []
        zero = (0,) * len(shape)
        for x in ops:
            if isinstance(x, np.ndarray):
                buf, off = host_flat(x)
                packed += [buf, off, next(it)]
            else:
                packed += [x, 0, zero]
        obuf, ooff = host_flat(out)
        fn = self._strided_par if n >= PARALLEL_MIN else self._strided
        fn(shape, *packed, obuf, ooff, next(it))
