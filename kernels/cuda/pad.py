"""CUDA constant padding: every output element written once, the value or its source element.

``CudaConstantPad.plan`` collapses the dims (a dim merges into the next one
when that one is not padded and both operands step through the pair
contiguously; a padded dim merged with unpadded inner dims keeps its pads,
scaled) and returns ``run(src, so, out, oo)``; ``kernel(src, out, lows, value,
stream=None)`` keeps one plan per call signature. Kernel design (sizes for a
real GPU): a 1-D grid of 256-thread blocks, grid-stride over the output's
elements in C order, one element per thread step; each element's index is
unravelled once (one unsigned division per collapsed dim), each coordinate
shifted by its dim's left pad and checked against the source's extent with
one unsigned compare, and the element stores either the source element or
the value. Consecutive threads write consecutive output elements (coalesced)
and, inside the source, read consecutive source elements along its
unit-stride dim; the border costs no load. This replaces a fill of the whole
output followed by a copy of the interior (two passes over the interior).

Index arithmetic runs in 32 bits when the element count and both operands'
extents allow (a second compiled variant); buffer offsets are added in 64
bits.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache, partial
from typing import Any

from numba import cuda

from ..common.operands import nothing
from ..common.strided import Dims, is_c_contiguous
from ..registry import ANY, register
from ._elementwise_build import _JIT
from ._launch import SIMULATED, PlannedLaunch, flat_operand, remembered
from .copy import _at, _blocks, _index_types, _is_narrow

THREADS = 4 if SIMULATED else 256
"""Threads per block."""


@cache
def _pad_kernel(narrow: bool, out_contiguous: bool) -> Any:
    idx, uidx = _index_types(narrow)

    @cuda.jit(**_JIT)
    def gtensor_constant_pad(n, shape, src_shape, lows, out, oo, out_strides,  # noqa: ANN001, ANN202
                             src, so, src_strides, value):
        i = idx(idx(cuda.blockIdx.x) * idx(cuda.blockDim.x) + idx(cuda.threadIdx.x))
        step = idx(idx(cuda.gridDim.x) * idx(cuda.blockDim.x))
        while i < n:
            q = uidx(i)
            s_off = idx(0)
            d_off = idx(0)
            inside = True
            for d in range(len(shape) - 1, 0, -1):
                nq = uidx(q // shape[d])
                x = idx(q - nq * shape[d])
                q = nq
                y = idx(x - lows[d])
                inside = inside and uidx(y) < src_shape[d]
                s_off = idx(s_off + y * src_strides[d])
                if not out_contiguous:
                    d_off = idx(d_off + x * out_strides[d])
            y = idx(idx(q) - lows[0])
            inside = inside and uidx(y) < src_shape[0]
            s_off = idx(s_off + y * src_strides[0])
            if out_contiguous:
                d_off = i
            else:
                d_off = idx(d_off + idx(q) * out_strides[0])
            if inside:
                out[_at(oo, d_off)] = src[_at(so, s_off)]
            else:
                out[_at(oo, d_off)] = value
            i = idx(i + step)

    return gtensor_constant_pad


def collapse_padded(shape: Dims, src_shape: Dims, lows: Dims, out_strides: Dims,
                    src_strides: Dims) -> tuple[Dims, Dims, Dims, Dims, Dims]:
    """Merge each dim into the next one where that one is unpadded and both operands allow.

    Unpadded dims of size 1 are dropped. A merged dim keeps its pads, times the
    inner dim's size. Returns the collapsed ``(shape, src_shape, lows,
    out_strides, src_strides)`` (at least one dim).

    Example:
        >>> collapse_padded((2, 5, 3), (2, 3, 3), (0, 1, 0), (15, 3, 1), (9, 3, 1))
        ((2, 15), (2, 9), (0, 3), (15, 1), (9, 1))
    """
    dims = [list(t) for t in zip(shape, src_shape, lows, out_strides, src_strides, strict=True)
            if not (t[0] == 1 and t[1] == 1)] or [[1, 1, 0, 1, 1]]
    merged = [dims[-1]]
    for n, m, lo, os, ss in reversed(dims[:-1]):
        inner = merged[0]
        if inner[0] == inner[1] and os == inner[3] * inner[0] and ss == inner[4] * inner[1]:
            k = inner[0]
            merged[0] = [n * k, m * k, lo * k, inner[3], inner[4]]
        else:
            merged.insert(0, [n, m, lo, os, ss])
    columns = list(zip(*merged, strict=True))
    return tuple(tuple(int(v) for v in c) for c in columns)  # type: ignore[return-value]


class CudaConstantPad:
    """The CUDA ``constant_pad`` kernel: ``kernel(src, out, lows, value, stream=None)``."""

    __name__ = "gtensor_constant_pad_cuda"

    def __init__(self) -> None:
        self._plans: dict[tuple[Any, ...], Callable[..., None]] = {}

    def __call__(self, src: Any, out: Any, lows: Dims, value: Any, stream: Any = None) -> None:
        """Write ``src`` into ``out`` at offset ``lows`` and ``value`` everywhere else.

        Args:
            src: source device array (NumPy array on the simulator), ``out``'s dtype and
                rank, at most ``out``'s size in every dim.
            out: destination array.
            lows: the left pad of every dim (non-negative; each dim's right pad is what
                remains of ``out``'s size).
            value: the fill value, converted to ``out``'s dtype.
            stream: Numba stream to launch on (default stream when None).

        Example:
            >>> out = np.empty(4); gtensor_constant_pad_cuda(np.ones(2), out, (1,), 7.0)
            >>> out.tolist()
            [7.0, 1.0, 1.0, 7.0]
        """
        if out.size == 0:
            return
        s_flat, s_off, s_strides = flat_operand(src)
        o_flat, o_off, o_strides = flat_operand(out)
        key = (out.shape, src.shape, tuple(lows), s_strides, o_strides, out.dtype, stream)
        run = remembered(self._plans, key, self.plan, tuple(out.shape), tuple(src.shape),
                         tuple(lows), o_strides, s_strides, stream)
        run(s_flat, s_off, o_flat, o_off, out.dtype.type(value))

    def plan(self, shape: Dims, src_shape: Dims, lows: Dims, out_strides: Dims,
             src_strides: Dims, stream: Any = None) -> Callable[..., None]:
        """Collapse dims, pick the index width and grid once; return ``run(src, so, out, oo, v)``.

        Example:
            >>> run = gtensor_constant_pad_cuda.plan((4, 6), (2, 3), (1, 2), (6, 1), (3, 1))
            >>> out = np.empty(24, np.float32)
            >>> run(np.ones(6, np.float32), 0, out, 0, np.float32(0))
            >>> out.reshape(4, 6)[1].tolist()
            [0.0, 0.0, 1.0, 1.0, 1.0, 0.0]
        """
        n = math.prod(shape)
        if n == 0:
            return nothing
        cshape, csrc, clows, cos, css = collapse_padded(shape, src_shape, lows, out_strides,
                                                        src_strides)
        reach = n + sum((s + lo) * abs(st) for s, lo, st in zip(cshape, clows, css, strict=True))
        narrow = _is_narrow(reach, shape, out_strides) and _is_narrow(reach, src_shape,
                                                                      src_strides)
        idx, uidx = _index_types(narrow)
        launch = PlannedLaunch(_pad_kernel(narrow, is_c_contiguous(cshape, cos)), 0, stream,
                               _blocks(n, THREADS), THREADS)
        return partial(_run, launch, idx(n), tuple(uidx(s) for s in cshape),
                       tuple(uidx(s) for s in csrc), tuple(idx(s) for s in clows),
                       tuple(idx(s) for s in cos), tuple(idx(s) for s in css))


def _run(launch: Any, n: Any, shape: tuple[Any, ...], src_shape: tuple[Any, ...],
         lows: tuple[Any, ...], out_strides: tuple[Any, ...], src_strides: tuple[Any, ...],
         src: Any, so: int, out: Any, oo: int, value: Any) -> None:
    launch(n, shape, src_shape, lows, out, oo, out_strides, src, so, src_strides, value)


gtensor_constant_pad_cuda = register("constant_pad", "cuda", [ANY])(CudaConstantPad())
"""The registered instance."""
