"""Build CPU elementwise kernels from a scalar body (``njit``, serial and parallel)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np
from numba import carray, njit, prange, types
from numba.extending import overload

from ..common.codegen import (
    HALF_SUFFIX,
    build,
    cpu_rows_source,
    cpu_source,
    half_source,
    has_source_file,
    kernel_name,
    row_pattern,
)
from ..common.operands import (
    convert_scalars,
    elementwise_layout,
    nothing,
    pack_strided,
    with_numbers,
)
from ..common.strided import element_strides, host_flat
from . import half as bits
from ._call import PlannedCall, address, pointer_entry

PARALLEL_MIN = 1 << 15  # below this many elements a parallel launch costs more than it saves
_JIT = {"cache": True, "error_model": "numpy", "nogil": True}


def item(x, i):  # noqa: ANN001, ANN201 - compiled helper; arrays are indexed, scalars pass
    return x[i] if isinstance(x, np.ndarray) else x


def window(x, o, n):  # noqa: ANN001, ANN201 - compiled helper; arrays are sliced, scalars pass
    return x[o:o + n] if isinstance(x, np.ndarray) else x


@overload(window, jit_options={"error_model": "numpy"})
def _window_overload(x, o, n):  # noqa: ANN001, ANN202
    if isinstance(x, types.Array):
        return lambda x, o, n: x[o:o + n]
    return lambda x, o, n: x


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
    dims and run through a strided loop over the original memory (no copies),
    over contiguous rows where the innermost dim allows (``row_pattern``).
    Above ``PARALLEL_MIN`` elements the loop runs in parallel (``prange``).
    A ``half`` kernel (``"float16"`` or ``"bfloat16"``) takes its arrays as
    ``uint16`` bits, numbers as float32, and runs the float32 body between the
    loads and stores of ``kernels.cpu.half``.
    """

    def __init__(self, op: str, scalar_fn: Callable, arity: int, value_start: int = 0,
                 half: str | None = None) -> None:
        name = kernel_name(op, scalar_fn)
        jit = {**_JIT, "cache": has_source_file(scalar_fn)}
        body = njit(**jit)(scalar_fn)
        self._numbers = None
        if half is not None:
            suffix = HALF_SUFFIX[half]
            name = f"{name}_{suffix}"
            ld, st = bits.half_io(half)
            wrapped = build(half_source(name + "_body", arity), scalar_fn,
                            {"f": body, "ld": ld, "st": st})[name + "_body"]
            body = njit(**jit)(wrapped)
            self._numbers = np.dtype(np.float32)
        ns = {"f": body, "item": item, "window": window, "prange": prange, "carray": carray,
              "address": address}
        serial = build(cpu_source(name, arity, False), scalar_fn, ns)
        par = build(cpu_source(name + "_par", arity, True), scalar_fn, ns)
        self._flat = njit(**jit)(serial[f"{name}_flat"])
        self._strided = njit(**jit)(serial[f"{name}_strided"])
        self._flat_par = njit(parallel=True, **jit)(par[f"{name}_par_flat"])
        self._strided_par = njit(parallel=True, **jit)(par[f"{name}_par_strided"])
        self._pointers = njit(**jit)(serial[f"{name}_pointers"])
        self._build = (name, scalar_fn, ns, jit)
        self._rows: dict[tuple[int, bool], Any] = {}
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
        inputs = convert_scalars(args[:-1], out, self.value_start, self._numbers)
        run = self.plan(out.shape, [element_strides(x) if type(x) is np.ndarray else None
                                    for x in inputs], element_strides(out), None)
        packed: list[Any] = []
        for x in inputs:
            packed += host_flat(x) if type(x) is np.ndarray else (x, 0)
        run(*packed, *host_flat(out))

    def plan(self, shape: tuple[int, ...], strides: Sequence[tuple[int, ...] | None],
             out_strides: tuple[int, ...], scalar_dtype: np.dtype | None,
             stream: Any = None) -> Callable[..., None]:
        """Work out the loop once per call signature; return ``run(a0, o0, a1, o1, ..., out, oo)``.

        Args:
            shape: the output's shape (inputs broadcast to it).
            strides: each input's element strides, or None where a number is passed.
            out_strides: the output's element strides.
            scalar_dtype: the dtype numbers are converted to (None: already converted).
            stream: unused on the cpu.

        Returns:
            A function of each operand's flat buffer (or number) and element offset.
        """
        n, cshape, per_input, so, flat = elementwise_layout(shape, strides, out_strides)
        if n == 0:
            return nothing
        if scalar_dtype is not None and self._numbers is not None:
            scalar_dtype = self._numbers
        par = n >= PARALLEL_MIN
        if flat:
            run: Callable[..., None] = partial(PlannedCall(self._flat_par if par else self._flat),
                                               n)
        else:
            pattern = row_pattern(per_input, so)
            if pattern is not None:
                loop = self._rows_kernel(pattern, par)
            else:
                loop = self._strided_par if par else self._strided
            run = partial(_strided, PlannedCall(loop), cshape, per_input, so)
        return with_numbers(run, strides, scalar_dtype)

    def _rows_kernel(self, pattern: int, parallel: bool) -> Any:
        """The strided loop over contiguous rows of one ``row_pattern`` (built when first used)."""
        loop = self._rows.get((pattern, parallel))
        if loop is None:
            name, scalar_fn, ns, jit = self._build
            name = f"{name}_par" if parallel else name
            source = cpu_rows_source(name, self.arity, parallel, pattern)
            loop = njit(parallel=parallel, **jit)(
                build(source, scalar_fn, ns)[f"{name}_rows{pattern}"])
            self._rows[(pattern, parallel)] = loop
        return loop

    def plan_pointers(self, shape: tuple[int, ...], strides: Sequence[tuple[int, ...]],
                      out_strides: tuple[int, ...], dtypes: Sequence[np.dtype],
                      out_dtype: np.dtype) -> Callable[..., None] | None:
        """:meth:`plan` for tensors given by address: ``run(p0, p1, ..., pout)``, or None.

        Only a small layout (serial) where every operand and the output are
        contiguous and of one shape (the flat loop) has a plan by address; for
        any other, None (use :meth:`plan`): per-call costs matter only for small
        operands. An address is that of the operand's first element.
        """
        n, _, _, _, flat = elementwise_layout(shape, strides, out_strides)
        if not flat or n == 0 or n >= PARALLEL_MIN:
            return None
        kinds = [np.dtype(d).type for d in (*dtypes, out_dtype)]
        entry = pointer_entry(self._pointers, n, *kinds, *[0] * len(kinds))
        return partial(entry, n, *kinds)


def _strided(fn: Callable, shape: tuple[int, ...], strides: tuple[tuple[int, ...], ...],
             so: tuple[int, ...], *args: Any) -> None:
    fn(shape, *pack_strided(args, strides), args[-2], args[-1], so)
