"""Build CUDA elementwise kernels from a scalar body: unrolled grid-stride loops per layout.

Design, for the H200 (132 SMs, 2048 resident threads per SM); not yet timed on it:

* Grid: blocks of ``THREADS`` (256); ``ceil(n / (THREADS * UNROLL))`` blocks,
  capped at ``WAVES`` (4) waves of the blocks the device keeps resident (SM
  count x resident threads per SM / ``THREADS``, read once per device: 4224 on
  an H200). On the simulator at most ``SIMULATED_BLOCKS`` blocks of
  ``SIMULATED_THREADS``.
* Each grid-stride step, a thread takes ``UNROLL`` (4) elements ``blockDim``
  apart, so each load instruction of a warp reads 32 adjacent elements, and
  issues all of their loads before computing any, so ``UNROLL`` loads per
  operand are in flight. Numba CUDA cannot express 16-byte vector loads; this
  unrolling across adjacent threads is the substitute. The elements after the
  last whole step (fewer than one step) go one per thread at a time.
* Layout, chosen once per plan from the collapsed dims: ``flat`` (every
  operand contiguous, at any element offset; indexed by the element index),
  ``strided1`` (one dim: a multiply-add per operand), ``strided2`` (two dims:
  row and column broadcasts, transposes; each thread divides only to find its
  first row and column, then carries them forward, so the loop has no
  division) and ``strided`` (three dims or more: one division per dim but
  the outermost, per element).
* Index width: element indices and their unravel run in uint32 while
  ``n < INDEX32_LIMIT`` (2**31), else in uint64; buffer offsets are int64.
  Unsigned indices need no negative-index wraparound; the uint32 variants
  compile to ``div.u32`` where they divide.

ptxas for sm_90 (float32 ``add``): flat 30 registers, strided1 32, strided2
32 (52 with uint64 indices), strided 40 at rank 3; no spills.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np
from numba import cuda

from ..common import ieee_math
from ..common.codegen import (
    HALF_SUFFIX,
    UNROLL,
    build,
    cuda_source,
    half_source,
    has_source_file,
    kernel_name,
    rebound,
)
from ..common.operands import (
    convert_scalars,
    elementwise_layout,
    is_array,
    nothing,
    pack_strided,
    with_numbers,
)
from ..common.strided import element_strides
from . import half as bits
from ._launch import SIMULATED, PlannedLaunch, flat_operand, multiprocessors

_JIT: dict[str, Any] = {} if SIMULATED else {"cache": True}

SIMULATED_THREADS = 4
SIMULATED_BLOCKS = 2
THREADS = SIMULATED_THREADS if SIMULATED else 256
WAVES = 4
INDEX32_LIMIT = 2**31
"""Calls with fewer elements than this index in uint32, others in uint64."""

def item(x, i):  # noqa: ANN001, ANN201 - compiled helper; arrays are indexed, scalars pass
    return x[i] if getattr(x, "ndim", 0) else x


def window(x, o):  # noqa: ANN001, ANN201 - compiled helper; arrays start at o, scalars pass
    return x[o:] if getattr(x, "ndim", 0) else x


if not SIMULATED:
    from numba.cuda.extending import overload

    @overload(item, target="cuda")
    def _item_overload(x, i):  # noqa: ANN001, ANN202
        if getattr(x, "ndim", None) is not None:
            return lambda x, i: x[i]
        return lambda x, i: x

    @overload(window, target="cuda", inline="always")
    def _window_overload(x, o):  # noqa: ANN001, ANN202
        if getattr(x, "ndim", None) is not None:
            return lambda x, o: x[o:]
        return lambda x, o: x


def resident_blocks() -> int:
    """Blocks of ``THREADS`` the current GPU keeps resident at once.

    Example:
        >>> resident_blocks() >= 1  # doctest: +SKIP
        True
    """
    sms, threads_per_sm = multiprocessors()
    return sms * max(1, threads_per_sm // THREADS)


def launch_blocks(n: int) -> int:
    """Blocks for ``n`` elements: one ``UNROLL``-wide step each, at most a few device waves.

    Example:
        >>> launch_blocks(1)
        1
    """
    cap = SIMULATED_BLOCKS if SIMULATED else WAVES * resident_blocks()
    return max(1, min(cap, -(-n // (THREADS * UNROLL))))


def layout_name(shape: tuple[int, ...], flat: bool) -> str:
    """The kernel layout of a collapsed ``shape``: flat, strided1, strided2 or strided.

    Example:
        >>> layout_name((3, 4), False)
        'strided2'
    """
    if flat:
        return "flat"
    return f"strided{len(shape)}" if len(shape) <= 2 else "strided"


class CudaElementwise:
    """A CUDA elementwise kernel for one op: ``kernel(*inputs, out, stream=None)``.

    Same calling convention as the CPU kernels. Operands are collapsed to the
    fewest dims; all-contiguous ones take the flat loop, others a strided loop
    for their rank (see the module docstring). Each layout and index width is
    compiled on first use. A ``half`` kernel (``"float16"`` or ``"bfloat16"``)
    takes its arrays as ``uint16`` bits, numbers as float32, and runs the
    float32 body between the register conversions of ``kernels.cuda.half``.
    """

    def __init__(self, op: str, scalar_fn: Callable, arity: int, value_start: int = 0,
                 half: str | None = None) -> None:
        self._scalar_fn = scalar_fn
        self._jit = _JIT if has_source_file(scalar_fn) else {}
        self._body: Any = None
        self._kernels: dict[str, Any] = {}
        self._half = half
        self._numbers = None if half is None else np.dtype(np.float32)
        self.arity = arity
        self.value_start = value_start
        self.__name__ = kernel_name(op, scalar_fn) + (
            "" if half is None else f"_{HALF_SUFFIX[half]}")
        self.__doc__ = f"CUDA kernel for ``{op}``: ``kernel(*inputs, out, stream=None)``."

    def kernel(self, layout: str, bits: int) -> Any:
        """The kernel for one layout and index width: generated on first use, compiled on launch."""
        name = f"{self.__name__}_{layout}{bits}"
        compiled = self._kernels.get(name)
        if compiled is None:
            if self._body is None:
                self._body = self._device_body()
            namespace = {"f": self._body, "item": item, "window": window, "cuda": cuda,
                         "int64": np.int64, "uint32": np.uint32, "uint64": np.uint64}
            source = cuda_source(self.__name__, self.arity, layout, bits)
            defined = build(source, self._scalar_fn, namespace)[name]
            compiled = self._kernels[name] = cuda.jit(**self._jit)(defined)
        return compiled

    def _device_body(self) -> Any:
        fn = self._scalar_fn
        if SIMULATED and "cmath" in fn.__globals__:  # Python's cmath raises where C99 doesn't
            fn = rebound(fn, "ieee", {"cmath": ieee_math.CMATH, "math": ieee_math.MATH})
        body = cuda.jit(device=True)(fn)
        if self._half is None:
            return body
        ld, st = bits.half_io(self._half)
        name = f"{self.__name__}_body"
        wrapped = build(half_source(name, self.arity), self._scalar_fn,
                        {"f": body, "ld": ld, "st": st})[name]
        return cuda.jit(device=True)(wrapped)

    def __call__(self, *args: Any, stream: Any = None) -> None:
        *inputs, out = args
        if len(inputs) != self.arity:
            raise TypeError(f"[{self.__name__}] expected {self.arity} inputs, got {len(inputs)}")
        if out.size == 0:
            return
        ops = convert_scalars(inputs, out, self.value_start, self._numbers)
        run = self.plan(tuple(out.shape), [element_strides(x) if is_array(x) else None
                                           for x in ops], element_strides(out), None, stream)
        packed: list[Any] = []
        for x in ops:
            packed += flat_operand(x)[:2] if is_array(x) else (x, 0)
        run(*packed, *flat_operand(out)[:2])

    def plan(self, shape: tuple[int, ...], strides: Sequence[tuple[int, ...] | None],
             out_strides: tuple[int, ...], scalar_dtype: np.dtype | None,
             stream: Any = None) -> Callable[..., None]:
        """Work out layout, index width, grid and the configured launch once per signature.

        Returns ``run(a0, o0, a1, o1, ..., out, oo)`` over flat device buffers (or
        numbers) and element offsets, as the CPU kernels' ``plan``.
        """
        n, cshape, per_input, so, flat = elementwise_layout(shape, strides, out_strides)
        if n == 0:
            return nothing
        if scalar_dtype is not None and self._numbers is not None:
            scalar_dtype = self._numbers
        layout = layout_name(cshape, flat)
        bits = 32 if n < INDEX32_LIMIT else 64
        launch = PlannedLaunch(self.kernel(layout, bits), n, stream,
                               blocks=launch_blocks(n), threads=THREADS)
        if flat:
            run: Callable[..., None] = partial(launch, n)
        else:
            run = partial(_launch_strided, launch, n, cshape, per_input, so)
        return with_numbers(run, strides, scalar_dtype)


def _launch_strided(launch: PlannedLaunch, n: int, shape: tuple[int, ...],
                    strides: tuple[tuple[int, ...], ...], so: tuple[int, ...],
                    *args: Any) -> None:
    launch(n, shape, *pack_strided(args, strides), args[-2], args[-1], so)
