"""CUDA reduction kernels: groups of threads per output, chunks merged in a fixed order.

Same calling conventions as the CPU (see ``kernels.cpu.reduction``):
``kernel(x, out, axes, param=0.0, stream=None)`` for the folds of
``common.scalar_reduce`` and ``kernel(x, out, axes, values=None, stream=None)``
for ``argmax``/``argmin``. Kernel sources come from ``common.reduce_codegen``.

Design (``_reduce_layout.choose`` picks the layout once per call signature;
blocks of ``THREADS`` threads; grids capped at ``MAX_BLOCKS``, blocks
grid-stride over their tiles):

- ``{op}_kernel``: block ``b`` takes output group ``b // chunks`` (``THREADS //
  lanes`` outputs) and chunk ``b % chunks`` of their reduced range. Each output's
  ``lanes`` threads stride over the chunk (four loads in flight per lane on a
  strided run), then merge through a shared-memory tree. With one chunk it
  writes the result; else its partial accumulator goes to a scratch buffer
  (``chunks x outputs``, from the caching allocator).
  Rows layout (reduced dims inner, e.g. ``sum(dim=1)`` of a matrix): a group's
  lanes are adjacent threads, a block per output when the reduction is long,
  several outputs per block when it is short. Columns layout (kept dims
  inner, e.g. ``sum(dim=0)``): adjacent threads own adjacent outputs, so a
  warp's loads coalesce, and each lane walks the reduced dim.
- Split (few outputs, long reductions, e.g. a full reduction): ``chunks`` is
  chosen so that about ``BLOCKS_PER_SM`` blocks per multiprocessor run
  (``target_blocks``); then ``{op}_merge`` (one group per output, same layout)
  merges each output's partials with the fold's ``merge`` in a fixed tree
  order (deterministic) and applies ``final``.
- Centering (``var``/``std``: the mean; ``logsumexp``: the max): two passes over
  the data, as without a split, so the result is as accurate as the one-block
  form and every op with a ``Reduction.center`` works unchanged (a mergeable
  ``(count, mean, M2)`` form would serve ``var`` only). Split: stage 1 writes
  the center's partials; each block of stage 2 and the merge kernel merge them
  by the same tree (so all see the same center) before the main pass.
- Trees finish in shared memory with ``syncthreads``: the simulator has no warp
  shuffles, and the tree is a small share of a long reduction.

``argmax``/``argmin`` use the same layouts with (value, index) pairs: a nan
wins, then the first index among equals.

Expected on an H200 (132 SMs, so 528 target blocks), float32, C-contiguous:
``x.sum()`` of 64M elements: rows, 256 lanes, 528 chunks of 127,101 elements
(528 blocks), then a one-block merge. ``sum(dim=1)`` of 4096x4096: a block per
output, 4096 blocks, no scratch. ``sum(dim=0)`` of 4096x4096: columns, 32
outputs x 8 lanes per block, 128 output groups x 5 chunks (640 blocks), then a
128-block merge. ``sum(dim=1)`` of 1M x 8: rows, 2 lanes, 128 outputs per block
(8192 blocks).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache, partial
from typing import Any

import numpy as np
from numba import cuda, from_dtype

from ..common.codegen import HALF_SUFFIX, build
from ..common.dtype_groups import ALL, HALF
from ..common.operands import nothing
from ..common.reduce_codegen import cuda_argext_source, cuda_reduce_source, fold_functions
from ..common.scalar_reduce import REDUCTIONS, Reduction, acc_dtype, start_value
from ..common.strided import Dims, reduction_arrays, reduction_plan
from ..registry import LazyKernel, register
from . import half as bits
from ._elementwise_build import _JIT
from ._launch import PlannedLaunch, flat_operand, remembered, stream_pointer
from ._reduce_layout import THREADS, Layout, choose, group_of, scratch
from .axis_ops import _eoff, _line

_group = cuda.jit(device=True)(group_of)


class CudaReduction:
    """The CUDA kernels of one reduction op (see the module docstring)."""

    def __init__(self, op: str, red: Reduction, half: str | None = None) -> None:
        self.red = red
        self.half = half
        self.__name__ = name = f"gtensor_{op}" + ("" if half is None else
                                                  f"_{HALF_SUFFIX[half]}")
        self._plans: dict[Any, Callable[..., None]] = {}
        self._device = fold_functions(red, name, cuda.jit(device=True), half, bits)

    @cache  # noqa: B019 - one compiled pair per accumulator dtype pair, kept for the process
    def _kernels(self, acc1: np.dtype, acc2: np.dtype) -> tuple[Any, Any]:
        ns = {**self._device, "cuda": cuda, "THREADS": THREADS, "line": _line, "eoff": _eoff,
              "group": _group, "ACC1": from_dtype(acc1), "ACC2": from_dtype(acc2)}
        name = f"{self.__name__}_{acc1.name}_{acc2.name}"
        src = build(cuda_reduce_source(name, self.red.center is not None), self.red.main.combine,
                    ns)
        for key in [k for k in src if k.startswith((f"{name}_lanes", f"{name}_parts"))]:
            src[key] = cuda.jit(device=True)(src[key])
        return cuda.jit(**_JIT)(src[f"{name}_kernel"]), cuda.jit(**_JIT)(src[f"{name}_merge"])

    def __call__(self, x: Any, out: Any, axes: tuple[int, ...], param: float = 0.0,
                 stream: Any = None) -> None:
        if out.size == 0:
            return
        sig = (*reduction_arrays(x, out, axes), np.dtype(x.dtype), np.dtype(out.dtype))
        run = remembered(self._plans, (*sig, stream_pointer(stream)), self.plan, *sig, stream)
        xb, xo, _ = flat_operand(x) if x.size else (out, 0, None)
        ob, oo, _ = flat_operand(out)
        run(xb, xo, ob, oo, param)

    def plan(self, shape: tuple[int, ...], x_strides: tuple[int, ...],
             out_strides: tuple[int, ...], axes: tuple[int, ...], dtype: np.dtype,
             out_dtype: np.dtype, stream: Any = None) -> Callable[..., None]:
        """Work out layout, kernels, grids and launches once; return ``run(xb, xo, ob, oo, param)``.

        Same arguments as the CPU kernel's ``plan``; the buffers are flat device
        arrays and the launches go to ``stream``.
        """
        dims = reduction_plan(shape, x_strides, out_strides, axes)
        if math.prod(dims[0]) == 0:
            return nothing
        return _FoldRun(self, dims, "float32" if self.half else np.dtype(dtype).name, stream)


class _FoldRun:
    """The launches of one planned fold: ``run(xb, xo, ob, oo, param=0.0)``."""

    __slots__ = ("total", "dims", "starts", "accs", "two_pass", "lay", "work", "merge",
                 "stream", "empty")

    def __init__(self, fn: CudaReduction, dims: tuple[Any, ...], name: str,
                 stream: Any) -> None:
        red = fn.red
        center = red.center or red.main
        kshape, kxs, _, _, rxs, n = self.dims = dims
        self.total = math.prod(kshape)
        self.starts = (start_value(center, name), start_value(red.main, name))
        self.accs = (acc_dtype(center, name), acc_dtype(red.main, name))
        self.two_pass = red.center is not None
        self.lay = lay = choose(kshape, kxs, rxs, n)
        kernel, merge = fn._kernels(*self.accs)
        self.work = PlannedLaunch(kernel, 0, stream, lay.blocks, THREADS)
        self.merge = (PlannedLaunch(merge, 0, stream, lay.merge_blocks, THREADS)
                      if lay.chunks > 1 else None)
        self.stream = stream
        # zero-length stand-ins for unused scratch: the same argument types on every path
        self.empty = tuple(scratch(0, acc, stream) for acc in self.accs)

    def __call__(self, xb: Any, xo: int, ob: Any, oo: int, param: float = 0.0) -> None:
        lay, total = self.lay, self.total
        kshape, kxs, kos, rshape, rxs, n = self.dims
        a01, a02 = self.starts
        p = float(param)
        if self.merge is None:
            self.work(2, total, kshape, xb, xo, kxs, ob, oo, kos, rshape, rxs, n, a01, a02, p,
                      *self.empty, lay.lanes, lay.cols, 1, n)
            return
        part1 = scratch(lay.chunks * total, self.accs[0], self.stream) if self.two_pass \
            else self.empty[0]
        part2 = scratch(lay.chunks * total, self.accs[1], self.stream)
        for stage in (1, 2) if self.two_pass else (2,):
            self.work(stage, total, kshape, xb, xo, kxs, ob, oo, kos, rshape, rxs, n, a01, a02,
                      p, part1, part2, lay.lanes, lay.cols, lay.chunks, lay.size)
        self.merge(total, kshape, ob, oo, kos, n, a01, a02, p, part1, part2, lay.lanes,
                   lay.cols, lay.chunks)


for _op, _red in REDUCTIONS.items():
    register(_op, "cuda", _red.dtypes)(CudaReduction(_op, _red))
    if "float32" in _red.dtypes:
        for _half in HALF:
            register(_op, "cuda", [_half])(LazyKernel(
                partial(CudaReduction, _op, _red, _half), f"gtensor_{_op}_{_half}"))


def takes(v, j, bv, bj, is_max):  # noqa: ANN001, ANN201 - compiled as a device function
    """Whether candidate ``(v, j)`` beats ``(bv, bj)``: a nan wins, then the extreme, then
    the lower index; an index below 0 marks no candidate.

    Example:
        >>> takes(2.0, 5, 2.0, 3, True), takes(float("nan"), 5, 2.0, 3, True)
        (False, True)
    """
    if j < 0:
        return False
    if bj < 0:
        return True
    if bv != bv:
        return v != v and j < bj
    return v != v or (v > bv if is_max else v < bv) or (v == bv and j < bj)


_takes = cuda.jit(device=True)(takes)


@cache
def _argext_kernels(value_type: Any) -> tuple[Any, Any]:
    name = f"gtensor_argext_{value_type}"
    ns = {"cuda": cuda, "THREADS": THREADS, "line": _line, "eoff": _eoff, "group": _group,
          "takes": _takes, "VALUE": value_type,
          "INDEX": from_dtype(np.dtype(np.int64))}
    src = build(cuda_argext_source(name), takes, ns)
    src[f"{name}_lanes"] = cuda.jit(device=True)(src[f"{name}_lanes"])
    return cuda.jit(**_JIT)(src[f"{name}_kernel"]), cuda.jit(**_JIT)(src[f"{name}_merge"])


class _ArgExtreme:
    """The CUDA ``argmax``/``argmin`` kernel: ``kernel(x, out, axes, values=None, stream=None)``.

    Its callers do not keep plans, so it keeps its own per call signature (as the
    folds' ``__call__`` does).
    """

    def __init__(self, is_max: bool) -> None:
        self.is_max = is_max
        self.op = "argmax" if is_max else "argmin"
        self.__name__ = f"gtensor_{self.op}_cuda"
        self._plans: dict[Any, Callable[..., None]] = {}

    def __call__(self, x: Any, out: Any, axes: tuple[int, ...], values: Any = None,
                 stream: Any = None) -> None:
        if out.size == 0:
            return
        shape, xs, os_, axes = reduction_arrays(x, out, axes)
        if any(shape[d] == 0 for d in axes):
            raise ValueError(f"[{self.op}] cannot reduce over an empty dimension")
        if values is None:
            values = scratch(out.shape, np.dtype(x.dtype), stream)
        vs = reduction_arrays(x, values, axes)[2]
        sig = (shape, xs, os_, vs, axes, np.dtype(x.dtype))
        run = remembered(self._plans, (*sig, stream_pointer(stream)), self.plan, *sig, stream)
        run(*flat_operand(x)[:2], *flat_operand(out)[:2], *flat_operand(values)[:2])

    def plan(self, shape: Dims, x_strides: Dims, out_strides: Dims, values_strides: Dims,
             axes: Dims, dtype: np.dtype, stream: Any = None) -> Callable[..., None]:
        """Work out layout and launches once; return ``run(xb, xo, ob, oo, vb, vo)``."""
        kshape, kxs, kos, rshape, rxs, n = reduction_plan(shape, x_strides, out_strides, axes)
        vshape, _, vos, _, _, _ = reduction_plan(shape, x_strides, values_strides, axes)
        if vshape != kshape:  # out and values laid out differently: walk every kept dim
            kept = [d for d in range(len(shape)) if d not in axes]
            kshape, kxs = tuple(shape[d] for d in kept), tuple(x_strides[d] for d in kept)
            kos, vos = out_strides, values_strides
        lay = choose(kshape, kxs, rxs, n)
        kernel, merge = _argext_kernels(from_dtype(dtype))
        return _ArgRun(lay, (math.prod(kshape), kshape, kxs, kos, vos, rshape, rxs, n),
                       self.is_max, dtype, PlannedLaunch(kernel, 0, stream, lay.blocks, THREADS),
                       PlannedLaunch(merge, 0, stream, lay.merge_blocks, THREADS)
                       if lay.chunks > 1 else None, stream)


class _ArgRun:
    """The launches of one planned ``argmax``/``argmin``: ``run(xb, xo, ob, oo, vb, vo)``."""

    __slots__ = ("lay", "dims", "is_max", "dtype", "work", "merge", "stream", "empty")

    def __init__(self, lay: Layout, dims: tuple[Any, ...], is_max: bool, dtype: np.dtype,
                 work: PlannedLaunch, merge: PlannedLaunch | None, stream: Any) -> None:
        self.lay, self.dims, self.is_max, self.dtype = lay, dims, is_max, dtype
        self.work, self.merge, self.stream = work, merge, stream
        self.empty = (scratch(0, dtype, stream), scratch(0, np.dtype(np.int64), stream))

    def __call__(self, xb: Any, xo: int, ob: Any, oo: int, vb: Any, vo: int) -> None:
        lay = self.lay
        total, kshape, kxs, kos, vos, rshape, rxs, n = self.dims
        pv, pj = self.empty
        if self.merge is not None:
            pv = scratch(lay.chunks * total, self.dtype, self.stream)
            pj = scratch(lay.chunks * total, np.dtype(np.int64), self.stream)
        self.work(total, kshape, xb, xo, kxs, ob, oo, kos, vb, vo, vos, rshape, rxs, n,
                  self.is_max, pv, pj, lay.lanes, lay.cols, lay.chunks, lay.size)
        if self.merge is not None:
            self.merge(total, kshape, ob, oo, kos, vb, vo, vos, self.is_max, pv, pj, lay.lanes,
                       lay.cols, lay.chunks)


register("argmax", "cuda", ALL)(_ArgExtreme(True))
register("argmin", "cuda", ALL)(_ArgExtreme(False))
