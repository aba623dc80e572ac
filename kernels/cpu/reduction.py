"""CPU reduction kernels: folds from ``common.scalar_reduce`` plus argmax/argmin.

Calling convention: ``kernel(x, out, axes, param=0.0, stream=None)``. ``x`` has
any strides; ``out`` holds the kept dims (the reduced dims either dropped or
kept with size 1: ``keepdim`` is the caller's) and may be any dtype: the
accumulator is cast on store, so ``sum(int8) -> int64`` and
``sum(float32, dtype=float64)`` need no extra pass. ``param`` is ``correction``
for ``var``/``std`` and the order for ``norm``. An empty reduction gives the
fold's identity (0, 1, False, True; -inf/+inf for ``amax``/``amin``, which the
frontend rejects first); ``mean``/``var`` of nothing give nan.

``argmax``/``argmin``: ``kernel(x, out, axes, values=None, stream=None)`` write
int64 indices into the row-major flattening of the reduced dims (first
occurrence wins, a nan counts as the extreme) and, when ``values`` is given, the
extreme values too (``max(dim)`` in one pass).

Parallelism: many outputs -> one output per iteration (``prange``); few outputs
over many elements -> each output's range is cut into chunks reduced in
parallel and merged; below ``PARALLEL_MIN`` elements everything is serial.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any

import numba
import numpy as np
from numba import carray, njit, prange

from ..common.codegen import HALF_SUFFIX, build
from ..common.dtype_groups import ALL, HALF
from ..common.operands import nothing
from ..common.reduce_codegen import cpu_reduce_source, fold_functions
from ..common.scalar_reduce import REDUCTIONS, Reduction, acc_dtype, start_value
from ..common.strided import (
    Dims,
    host_flat,
    is_c_contiguous,
    reduction_arrays,
    reduction_operands,
    reduction_plan,
)
from ..registry import LazyKernel, register
from . import half as bits
from ._call import PlannedCall, address, pointer_entry
from ._elementwise_build import _JIT, PARALLEL_MIN
from .axis_ops import element_offset_cpu, line_offsets_cpu


class CpuReduction:
    """The CPU kernel of one reduction op (see the module docstring)."""

    def __init__(self, op: str, red: Reduction, half: str | None = None) -> None:
        self.op = op
        self.red = red
        self.half = half
        self.__name__ = name = f"gtensor_{op}" + ("" if half is None else
                                                  f"_{HALF_SUFFIX[half]}")
        ns: dict[str, Any] = {"prange": prange, "line": line_offsets_cpu,
                              "eoff": element_offset_cpu, "carray": carray, "address": address}
        ns.update(fold_functions(red, name, njit(**_JIT), half, bits))
        two = red.center is not None
        serial = build(cpu_reduce_source(name, two, False), red.main.combine, ns)
        par = build(cpu_reduce_source(name + "_par", two, True), red.main.combine, ns)
        for space in (serial, par):
            for key in [k for k in space if k.endswith(("_range1", "_range2"))]:
                space[key] = njit(**_JIT)(space[key])
        self._serial = njit(**_JIT)(serial[f"{name}_by_output"])
        self._rows = njit(**_JIT)(serial[f"{name}_rows"])
        self._by_output = njit(parallel=True, **_JIT)(par[f"{name}_par_by_output"])
        self._split = njit(parallel=True, **_JIT)(par[f"{name}_par_split"])

    def __call__(self, x: np.ndarray, out: np.ndarray, axes: tuple[int, ...],
                 param: float = 0.0, stream: Any = None) -> None:
        if out.size == 0:
            return
        run = self.plan(*reduction_arrays(x, out, axes), x.dtype, out.dtype)
        xb, xo = host_flat(x)
        ob, oo = host_flat(out)
        run(xb, xo, ob, oo, param)

    def plan(self, shape: tuple[int, ...], x_strides: tuple[int, ...],
             out_strides: tuple[int, ...], axes: tuple[int, ...], dtype: np.dtype,
             out_dtype: np.dtype, stream: Any = None) -> Callable[..., None]:
        """Work out everything but the buffers once; return ``run(xb, xo, ob, oo, param)``.

        Args:
            shape: the input's shape.
            x_strides: its element strides.
            out_strides: the output's element strides over the kept dims.
            axes: the reduced dims, sorted and unique.
            dtype: the input's NumPy dtype.
            out_dtype: the output's NumPy dtype.
            stream: unused on the cpu.

        Returns:
            ``run(xb, xo, ob, oo, param=0.0)`` over flat buffers and
            element offsets (``host_flat`` or a storage's flat view).
        """
        kshape, kxs, kos, rshape, rxs, n = reduction_plan(shape, x_strides, out_strides, axes)
        outputs = math.prod(kshape)
        if outputs == 0:
            return nothing
        folds = self.op in _ROW_FOLDS and dtype.kind == "f" and out_dtype.kind == "f"
        if folds and outputs * n >= PARALLEL_MIN and is_c_contiguous(shape, x_strides):
            scale = 1.0 / n if self.op == "mean" else 1.0
            nd = len(shape)
            if axes == tuple(range(nd - len(axes), nd)) and is_c_contiguous(kshape, kos):
                return partial(_fold_rows, outputs, n, scale)
            if axes == tuple(range(len(axes))) and is_c_contiguous(kshape, kos):
                return partial(_fold_cols, n, outputs, scale)
        name = "float32" if self.half else np.dtype(dtype).name
        a02 = start_value(self.red.main, name)
        a01 = start_value(self.red.center, name) if self.red.center else a02
        layout = (kshape, kxs, kos, rshape, rxs, n, a01, a02)
        if outputs * n < PARALLEL_MIN:
            return partial(_by_output, PlannedCall(self._serial), *layout)
        if outputs >= 4 * numba.get_num_threads():
            return partial(_by_output, PlannedCall(self._by_output), *layout)
        chunks = 4 * numba.get_num_threads()
        center = self.red.center or self.red.main
        acc1, acc2 = acc_dtype(center, name), acc_dtype(self.red.main, name)
        return partial(_split, PlannedCall(self._split), kshape, kxs, kos, rshape, rxs, n, a01, a02,
                       chunks, acc1, acc2)


    def plan_pointers(self, shape: tuple[int, ...], x_strides: tuple[int, ...],
                      out_strides: tuple[int, ...], axes: tuple[int, ...], dtype: np.dtype,
                      out_dtype: np.dtype) -> Callable[..., None] | None:
        """:meth:`plan` for buffers given by address: ``run(x_address, out_address, param)``.

        Only a small reduction (serial) of the trailing dims of a contiguous
        input into a contiguous output has one; for any other layout, None
        (use :meth:`plan`). An address is that of the first element.
        """
        nd = len(shape)
        if axes != tuple(range(nd - len(axes), nd)) or not is_c_contiguous(shape, x_strides):
            return None
        kept = shape[:nd - len(axes)]
        rows, n = math.prod(kept), math.prod(shape[nd - len(axes):])
        if rows == 0 or n == 0 or rows * n >= PARALLEL_MIN or \
                not is_c_contiguous(kept, out_strides):
            return None
        name = "float32" if self.half else np.dtype(dtype).name
        a02 = start_value(self.red.main, name)
        a01 = start_value(self.red.center, name) if self.red.center else a02
        kinds = (np.dtype(dtype).type, np.dtype(out_dtype).type)
        entry = pointer_entry(self._rows, rows, n, a01, a02, *kinds, 0, 0, 0.0)
        return partial(entry, rows, n, a01, a02, *kinds)


def _by_output(fn: Any, kshape: Dims, kxs: Dims, kos: Dims, rshape: Dims, rxs: Dims, n: int,
               a01: Any, a02: Any, xb: Any, xo: int, ob: Any, oo: int,
               param: float = 0.0) -> None:
    fn(kshape, xb, xo, kxs, ob, oo, kos, rshape, rxs, n, a01, a02, float(param))


def _split(fn: Any, kshape: Dims, kxs: Dims, kos: Dims, rshape: Dims, rxs: Dims, n: int,
           a01: Any, a02: Any, chunks: int, acc1: Any, acc2: Any, xb: Any, xo: int, ob: Any,
           oo: int, param: float = 0.0) -> None:
    fn(kshape, xb, xo, kxs, ob, oo, kos, rshape, rxs, n, a01, a02, float(param),
       np.empty(chunks, acc1), np.empty(chunks, acc2))


# Sums and means of a contiguous float array over its trailing dims (rows) or its leading
# dims (columns) are plain folds: with reassociation allowed LLVM vectorizes them (5x on a
# 16M float32 sum). Only the order of the float64 additions changes; nan and inf keep their
# meaning.
_ROW_FOLDS = ("sum", "mean")
_FAST = {**_JIT, "fastmath": {"reassoc"}}
_COLS = 256  # columns per task: 1 KiB of float32 per row


@njit(parallel=True, **_FAST)
def gtensor_sum_rows(x, xo, rows, n, out, oo, scale):  # noqa: ANN001, ANN201
    # rows are sliced off first: a non-negative loop index lets the loop vectorize
    if rows == 1:
        v = x[xo:xo + n]
        acc = 0.0
        for i in prange(n):
            acc += v[i]
        out[oo] = acc * scale
        return
    for r in prange(rows):
        acc = 0.0
        row = x[xo + r * n:xo + r * n + n]
        for j in range(n):
            acc += row[j]
        out[oo + r] = acc * scale


@njit(parallel=True, **_FAST)
def gtensor_sum_cols(x, xo, m, k, out, oo, scale, chunks):  # noqa: ANN001, ANN201
    # Each task adds a block of columns over a run of rows, four rows per step: one
    # accumulator update per four loads keeps the loop at memory speed.
    blocks = (k + _COLS - 1) // _COLS
    part = np.empty((chunks, k), np.float64)
    per = (m + chunks - 1) // chunks
    for t in prange(chunks * blocks):
        c = t // blocks
        lo = (t - c * blocks) * _COLS
        w = min(k, lo + _COLS) - lo
        acc = np.zeros(_COLS, np.float64)
        i = c * per
        stop = min(m, i + per)
        while i + 4 <= stop:
            b = xo + i * k + lo
            r0 = x[b:b + w]
            r1 = x[b + k:b + k + w]
            r2 = x[b + 2 * k:b + 2 * k + w]
            r3 = x[b + 3 * k:b + 3 * k + w]
            for j in range(w):
                acc[j] += ((np.float64(r0[j]) + np.float64(r1[j]))
                           + (np.float64(r2[j]) + np.float64(r3[j])))
            i += 4
        while i < stop:
            b = xo + i * k + lo
            r0 = x[b:b + w]
            for j in range(w):
                acc[j] += r0[j]
            i += 1
        for j in range(w):
            part[c, lo + j] = acc[j]
    for j in prange(k):
        total = 0.0
        for c in range(chunks):
            total += part[c, j]
        out[oo + j] = total * scale


def _fold_rows(rows: int, n: int, scale: float, xb: Any, xo: int, ob: Any, oo: int,
               param: float = 0.0) -> None:
    gtensor_sum_rows(xb, xo, rows, n, ob, oo, scale)


def _fold_cols(m: int, k: int, scale: float, xb: Any, xo: int, ob: Any, oo: int,
               param: float = 0.0) -> None:
    threads = numba.get_num_threads()
    blocks = (k + _COLS - 1) // _COLS
    chunks = 1 if blocks >= 4 * threads else max(1, min(4 * threads, m // 64))
    gtensor_sum_cols(xb, xo, m, k, ob, oo, scale, chunks)


for _op, _red in REDUCTIONS.items():
    register(_op, "cpu", _red.dtypes)(CpuReduction(_op, _red))
    if "float32" in _red.dtypes:
        for _half in HALF:
            register(_op, "cpu", [_half])(LazyKernel(
                partial(CpuReduction, _op, _red, _half), f"gtensor_{_op}_{_half}"))


@njit(parallel=True, **_JIT)
def gtensor_argext(kshape, x, xo, kxs, out, oo, kos, vals, vo, vos,  # noqa: ANN001, ANN201
                   rshape, rxs, n, is_max):
    total = 1
    for q in range(len(kshape)):
        total *= kshape[q]
    nd = len(rshape)
    inner = rshape[nd - 1]
    s = rxs[nd - 1]
    for k in prange(total):
        px, po = line_offsets_cpu(k, kshape, xo, kxs, oo, kos)
        pv = line_offsets_cpu(k, kshape, xo, kxs, vo, vos)[1]
        best = x[px]
        best_j = 0
        for row in range(n // inner):
            off = element_offset_cpu(row * inner, rshape, rxs, px)
            for q in range(inner):
                v = x[off + q * s]
                if best != best:
                    break
                if v != v or (v > best if is_max else v < best):
                    best = v
                    best_j = row * inner + q
        out[po] = best_j
        vals[pv] = best


def _argext(is_max: bool) -> Any:
    op = "argmax" if is_max else "argmin"

    def kernel(x: np.ndarray, out: np.ndarray, axes: tuple[int, ...],
               values: np.ndarray | None = None, stream: Any = None) -> None:
        if out.size == 0:
            return
        kshape, kxs, kos, rshape, rxs, n = reduction_operands(x, out, axes)
        if n == 0:
            raise ValueError(f"[{op}] cannot reduce over an empty dimension")
        vals = values if values is not None else np.empty(out.shape, x.dtype)
        _, _, vos, _, _, _ = reduction_operands(x, vals, axes)
        xb, xo = host_flat(x)
        ob, oo = host_flat(out)
        vb, vo = host_flat(vals)
        gtensor_argext(kshape, xb, xo, kxs, ob, oo, kos, vb, vo, vos, rshape, rxs, n, is_max)

    kernel.__name__ = f"gtensor_{op}_cpu"
    kernel.__doc__ = f"CPU ``{op}`` kernel: ``kernel(x, out, axes, values=None, stream=None)``."
    return kernel


register("argmax", "cpu", ALL)(_argext(True))
register("argmin", "cpu", ALL)(_argext(False))
