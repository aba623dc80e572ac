"""CUDA matmul: cuBLAS through CuPy on a real GPU, a tiled Numba kernel on the simulator.

Calling convention as on the CPU: ``kernel(a, b, out, stream=None)``, batch dims
already broadcast to ``out``'s. On a real GPU the device buffers are wrapped as
CuPy arrays (zero-copy, through ``__cuda_array_interface__``) and multiplied on
the caller's stream. The simulator has no CuPy, so a shared-memory tiled kernel
(float64 accumulation for floats, int64 for integers) runs each batch item.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from numba import cuda, float64, int64

from ..common.dtype_groups import FLOAT, INT, same
from ..registry import register
from ._launch import SIMULATED, flat_operand, stream_pointer

TILE = 4 if SIMULATED else 16


@cache
def _tiled(acc: Any) -> Any:
    zero = 0.0 if acc is float64 else 0

    @cuda.jit
    def gtensor_matmul_tiled(m, n, k, a, ao, sa_, b, bo, sb_, out, oo, so):  # noqa: ANN001, ANN202
        sa = cuda.shared.array((TILE, TILE), acc)
        sb = cuda.shared.array((TILE, TILE), acc)
        tx = cuda.threadIdx.x
        ty = cuda.threadIdx.y
        row = cuda.blockIdx.y * TILE + ty
        col = cuda.blockIdx.x * TILE + tx
        total = zero
        for t in range((k + TILE - 1) // TILE):
            kk = t * TILE
            sa[ty, tx] = a[ao + row * sa_[0] + (kk + tx) * sa_[1]] if row < m and kk + tx < k else 0
            sb[ty, tx] = b[bo + (kk + ty) * sb_[0] + col * sb_[1]] if col < n and kk + ty < k else 0
            cuda.syncthreads()
            for j in range(TILE):
                total += sa[ty, j] * sb[j, tx]
            cuda.syncthreads()
        if row < m and col < n:
            out[oo + row * so[0] + col * so[1]] = total

    return gtensor_matmul_tiled


def _cupy_matmul(a: Any, b: Any, out: Any, stream: Any) -> None:
    import cupy

    with cupy.cuda.ExternalStream(stream_pointer(stream)):
        cupy.matmul(cupy.asarray(a), cupy.asarray(b), out=cupy.asarray(out))


@register("matmul", "cuda", same((*FLOAT, *INT), 2))
def gtensor_matmul_cuda(a: Any, b: Any, out: Any, stream: Any = None) -> None:
    """Write ``a @ b`` into ``out`` on ``stream``.

    Example:
        >>> gtensor_matmul_cuda(a, b, out, stream=s)  # doctest: +SKIP
    """
    if out.size == 0:
        return
    if not SIMULATED:
        _cupy_matmul(a, b, out, stream)
        return
    kernel = _tiled(float64 if np.dtype(out.dtype).kind == "f" else int64)
    m, n = out.shape[-2:]
    grid = ((n + TILE - 1) // TILE, (m + TILE - 1) // TILE)
    launch = kernel[grid, (TILE, TILE)] if stream is None else kernel[grid, (TILE, TILE), stream]
    k = a.shape[-1]
    for idx in np.ndindex(*out.shape[:-2]):
        ops = [flat_operand(x[idx]) for x in (a, b, out)]
        launch(m, n, k, *[v for op in ops for v in op])
