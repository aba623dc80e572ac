"""CUDA reduction kernels: one block per output, a shared-memory tree per pass.

Same calling conventions as the CPU (see ``kernels.cpu.reduction``):
``kernel(x, out, axes, param=0.0, stream=None)`` for the folds of
``common.scalar_reduce`` and ``kernel(x, out, axes, values=None, stream=None)``
for ``argmax``/``argmin``. Threads of a block stride over the reduced elements
(adjacent threads read adjacent elements of a contiguous reduction), then merge
their accumulators in shared memory; blocks stride over the outputs.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache, partial
from typing import Any

import numpy as np
from numba import cuda, from_dtype

from ..common.codegen import build
from ..common.dtype_groups import ALL
from ..common.operands import nothing
from ..common.reduce_codegen import cuda_reduce_source
from ..common.scalar_reduce import REDUCTIONS, Reduction, acc_dtype, start_value
from ..common.strided import Dims, reduction_arrays, reduction_operands, reduction_plan
from ..registry import register
from ._elementwise_build import _JIT
from ._launch import MAX_BLOCKS, SIMULATED, PlannedLaunch, flat_operand
from .axis_ops import _eoff, _line

THREADS = 4 if SIMULATED else 256


class CudaReduction:
    """The CUDA kernel of one reduction op."""

    def __init__(self, op: str, red: Reduction) -> None:
        self.red = red
        self.__name__ = f"gtensor_{op}"
        self._device = {}
        for tag, fold in (("1", red.center), ("2", red.main)):
            if fold is not None:
                self._device.update({"c" + tag: cuda.jit(device=True)(fold.combine),
                                     "m" + tag: cuda.jit(device=True)(fold.merge),
                                     "f" + tag: cuda.jit(device=True)(fold.final)})

    @cache  # noqa: B019 - one compiled kernel per accumulator dtype pair, kept for the process
    def _kernel(self, acc1: np.dtype, acc2: np.dtype) -> Any:
        ns = {**self._device, "cuda": cuda, "THREADS": THREADS, "line": _line, "eoff": _eoff,
              "ACC1": from_dtype(acc1), "ACC2": from_dtype(acc2)}
        name = f"{self.__name__}_{acc1.name}_{acc2.name}"
        src = build(cuda_reduce_source(name, self.red.center is not None), self.red.main.combine,
                    ns)
        return cuda.jit(**_JIT)(src[f"{name}_kernel"])

    def __call__(self, x: Any, out: Any, axes: tuple[int, ...], param: float = 0.0,
                 stream: Any = None) -> None:
        if out.size == 0:
            return
        run = self.plan(*reduction_arrays(x, out, axes), np.dtype(x.dtype), np.dtype(out.dtype),
                        stream)
        xb, xo, _ = flat_operand(x) if x.size else (out, 0, None)
        ob, oo, _ = flat_operand(out)
        run(xb, xo, ob, oo, param)

    def plan(self, shape: tuple[int, ...], x_strides: tuple[int, ...],
             out_strides: tuple[int, ...], axes: tuple[int, ...], dtype: np.dtype,
             out_dtype: np.dtype, stream: Any = None) -> Callable[..., None]:
        """Work out layout, kernel, grid and launch once; return ``run(xb, xo, ob, oo, param)``.

        Same arguments as the CPU kernel's ``plan``; the buffers are flat device
        arrays and the launch goes to ``stream``.
        """
        kshape, kxs, kos, rshape, rxs, n = reduction_plan(shape, x_strides, out_strides, axes)
        outputs = math.prod(kshape)
        if outputs == 0:
            return nothing
        name = np.dtype(dtype).name
        center = self.red.center or self.red.main
        kernel = self._kernel(acc_dtype(center, name), acc_dtype(self.red.main, name))
        a02 = start_value(self.red.main, name)
        a01 = start_value(center, name)
        blocks = max(1, min(MAX_BLOCKS, outputs))
        launch = PlannedLaunch(kernel, 0, stream, blocks, THREADS)
        return partial(_launch_reduction, launch, kshape, kxs, kos, rshape, rxs, n, a01, a02)


def _launch_reduction(launch: Any, kshape: Dims, kxs: Dims, kos: Dims, rshape: Dims,
                      rxs: Dims, n: int, a01: Any, a02: Any, xb: Any, xo: int, ob: Any, oo: int,
                      param: float = 0.0) -> None:
    launch(kshape, xb, xo, kxs, ob, oo, kos, rshape, rxs, n, a01, a02, float(param))


for _op, _red in REDUCTIONS.items():
    register(_op, "cuda", _red.dtypes)(CudaReduction(_op, _red))


@cache
def _argext_kernel(value_type: Any) -> Any:
    @cuda.jit(**_JIT)
    def gtensor_argext(kshape, x, xo, kxs, out, oo, kos, vals, vo, vos,  # noqa: ANN001, ANN202
                       rshape, rxs, n, is_max):
        best_v = cuda.shared.array(THREADS, value_type)
        best_j = cuda.shared.array(THREADS, np.int64)
        t = cuda.threadIdx.x
        total = 1
        for q in range(len(kshape)):
            total *= kshape[q]
        k = cuda.blockIdx.x
        while k < total:
            px, po = _line(k, kshape, xo, kxs, oo, kos)
            pv = _line(k, kshape, xo, kxs, vo, vos)[1]
            bj = -1
            bv = x[px]
            j = t
            while j < n:
                v = x[_eoff(j, rshape, rxs, px)]
                if bj < 0 or (bv == bv and (v != v or (v > bv if is_max else v < bv))):
                    bv = v
                    bj = j
                j += THREADS
            best_v[t] = bv
            best_j[t] = bj
            cuda.syncthreads()
            s = THREADS // 2
            while s > 0:
                if t < s:
                    ov = best_v[t + s]
                    oj = best_j[t + s]
                    mv = best_v[t]
                    mj = best_j[t]
                    if oj >= 0 and (mj < 0 or (
                            mv == mv and (ov != ov or (ov > mv if is_max else ov < mv)
                                          or (ov == mv and oj < mj)))
                            or (mv != mv and ov != ov and oj < mj)):
                        best_v[t] = ov
                        best_j[t] = oj
                cuda.syncthreads()
                s //= 2
            if t == 0:
                out[po] = best_j[0]
                vals[pv] = best_v[0]
            cuda.syncthreads()
            k += cuda.gridDim.x

    return gtensor_argext


def _argext(is_max: bool) -> Any:
    op = "argmax" if is_max else "argmin"

    def kernel(x: Any, out: Any, axes: tuple[int, ...], values: Any = None,
               stream: Any = None) -> None:
        if out.size == 0:
            return
        kshape, kxs, kos, rshape, rxs, n = reduction_operands(x, out, axes)
        if n == 0:
            raise ValueError(f"[{op}] cannot reduce over an empty dimension")
        if values is None:
            values = (np.empty(out.shape, x.dtype) if SIMULATED
                      else cuda.device_array(out.shape, x.dtype, stream=stream or 0))
        _, _, vos, _, _, _ = reduction_operands(x, values, axes)
        fn = _argext_kernel(from_dtype(np.dtype(x.dtype)))
        blocks = max(1, min(MAX_BLOCKS, out.size))
        launch = fn[blocks, THREADS] if stream is None else fn[blocks, THREADS, stream]
        launch(kshape, *flat_operand(x)[:2], kxs, *flat_operand(out)[:2], kos,
               *flat_operand(values)[:2], vos, rshape, rxs, n, is_max)

    kernel.__name__ = f"gtensor_{op}_cuda"
    kernel.__doc__ = f"CUDA ``{op}`` kernel: ``kernel(x, out, axes, values=None, stream=None)``."
    return kernel


register("argmax", "cuda", ALL)(_argext(True))
register("argmin", "cuda", ALL)(_argext(False))
