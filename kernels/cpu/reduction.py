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

from typing import Any

import numba
import numpy as np
from numba import njit, prange

from ..common.codegen import build
from ..common.dtype_groups import ALL
from ..common.reduce_codegen import cpu_reduce_source
from ..common.scalar_reduce import REDUCTIONS, Reduction, acc_dtype, start_value
from ..common.strided import host_flat, reduction_operands
from ..registry import register
from ._elementwise_build import _JIT, PARALLEL_MIN
from .axis_ops import element_offset_cpu, line_offsets_cpu


class CpuReduction:
    """The CPU kernel of one reduction op (see the module docstring)."""

    def __init__(self, op: str, red: Reduction) -> None:
        self.op = op
        self.red = red
        self.__name__ = name = f"gtensor_{op}"
        ns: dict[str, Any] = {"prange": prange, "line": line_offsets_cpu,
                              "eoff": element_offset_cpu}
        for tag, fold in (("1", red.center), ("2", red.main)):
            if fold is not None:
                ns.update({"c" + tag: njit(**_JIT)(fold.combine),
                           "m" + tag: njit(**_JIT)(fold.merge),
                           "f" + tag: njit(**_JIT)(fold.final)})
        two = red.center is not None
        serial = build(cpu_reduce_source(name, two, False), red.main.combine, ns)
        par = build(cpu_reduce_source(name + "_par", two, True), red.main.combine, ns)
        for space in (serial, par):
            for key in [k for k in space if k.endswith(("_range1", "_range2"))]:
                space[key] = njit(**_JIT)(space[key])
        self._serial = njit(**_JIT)(serial[f"{name}_by_output"])
        self._by_output = njit(parallel=True, **_JIT)(par[f"{name}_par_by_output"])
        self._split = njit(parallel=True, **_JIT)(par[f"{name}_par_split"])

    def __call__(self, x: np.ndarray, out: np.ndarray, axes: tuple[int, ...],
                 param: float = 0.0, stream: Any = None) -> None:
        if out.size == 0:
            return
        if self.op in _ROW_FOLDS and _contiguous_rows(x, out, axes):
            _sum_rows(x, out, self.op == "mean")
            return
        kshape, kxs, kos, rshape, rxs, n = reduction_operands(x, out, axes)
        xb, xo = host_flat(x)
        ob, oo = host_flat(out)
        dtype = x.dtype.name
        a02 = start_value(self.red.main, dtype)
        a01 = start_value(self.red.center, dtype) if self.red.center else a02
        args = (kshape, xb, xo, kxs, ob, oo, kos, rshape, rxs, n, a01, a02, float(param))
        outputs = out.size
        if outputs * n < PARALLEL_MIN:
            self._serial(*args)
        elif outputs >= 4 * numba.get_num_threads():
            self._by_output(*args)
        else:
            chunks = 4 * numba.get_num_threads()
            center = self.red.center or self.red.main
            part1 = np.empty(chunks, acc_dtype(center, dtype))
            part2 = np.empty(chunks, acc_dtype(self.red.main, dtype))
            self._split(*args, part1, part2)


# Sums and means over the trailing dims of a contiguous float array are plain row folds:
# with reassociation allowed LLVM vectorizes them (5x on a 16M float32 sum). Only the order
# of the float64 additions changes; nan and inf keep their meaning.
_ROW_FOLDS = ("sum", "mean")
_FAST = {**_JIT, "fastmath": {"reassoc"}}


@njit(parallel=True, **_FAST)
def gtensor_sum_flat(x):  # noqa: ANN001, ANN201
    acc = 0.0
    for i in prange(x.size):
        acc += x[i]
    return acc


@njit(parallel=True, **_FAST)
def gtensor_sum_rows(x, out, scale):  # noqa: ANN001, ANN201
    for r in prange(x.shape[0]):
        acc = 0.0
        for j in range(x.shape[1]):
            acc += x[r, j]
        out[r] = acc * scale


def _contiguous_rows(x: np.ndarray, out: np.ndarray, axes: tuple[int, ...]) -> bool:
    k = len(axes)
    return (x.dtype.kind == "f" and x.dtype.itemsize >= 4 and x.flags.c_contiguous
            and out.flags.c_contiguous and out.dtype.kind == "f" and k > 0
            and tuple(sorted(axes)) == tuple(range(x.ndim - k, x.ndim))
            and x.size >= PARALLEL_MIN and x.size > 0)


def _sum_rows(x: np.ndarray, out: np.ndarray, mean: bool) -> None:
    rows = out.size
    n = x.size // rows
    scale = 1.0 / n if mean else 1.0
    if rows == 1:
        out.reshape(-1)[0] = gtensor_sum_flat(x.reshape(-1)) * scale
    else:
        gtensor_sum_rows(x.reshape(rows, n), out.reshape(-1), scale)


for _op, _red in REDUCTIONS.items():
    register(_op, "cpu", _red.dtypes)(CpuReduction(_op, _red))


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
