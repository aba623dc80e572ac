"""CUDA matmul: cuBLAS through CuPy on a real GPU, a tiled Numba kernel on the simulator.

Calling convention as on the CPU: ``kernel(a, b, out, stream=None)``, batch dims
already broadcast to ``out``'s (stride 0 where an operand is broadcast). On a
real GPU, floating and complex products go to ``cublasGemmStridedBatchedEx``
on the operands' own strides (``common.gemm_layout`` plans the call: a
transposed operand goes as a transposed GEMM operand, a broadcast one with
batch stride 0, a weight shared by a batch as one taller GEMM), on the
caller's stream. float32 and complex64 products use TF32 tensor cores only
when ``common.matmul_precision`` allows it (PyTorch's
``allow_tf32``/``set_float32_matmul_precision``; off by default): the compute
type and the handle's math mode are set per call. Layouts cuBLAS cannot take
(neither dim of a matrix contiguous, ``K == 0``) and integer dtypes go to
``cupy.matmul`` on arrays wrapped zero-copy from the device buffers.

float16 and bfloat16 operands go to cuBLAS as they are (tensor cores, float32
accumulation); bfloat16 buffers arrive as their ``uint16`` bits (viewed as
ml_dtypes' bfloat16 for CuPy). The simulator has no CuPy, so a shared-memory
tiled kernel (float64 accumulation for floats, complex128 for complex
numbers, int64 for integers) runs each batch item; it widens half loads into
its float64 tiles and rounds each result once.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from numba import complex128, cuda, float64, int64

from ..common import matmul_precision
from ..common.dtype_groups import COMPLEX, FLOAT, HALF, INT, same
from ..common.gemm_layout import (
    DEFAULT_MATH,
    GEMM_DEFAULT,
    TF32_TENSOR_OP_MATH,
    GemmPlan,
    gemm_plan,
    gemm_types,
)
from ..common.strided import element_strides
from ..registry import register
from ._launch import SIMULATED, address, flat_operand, stream_pointer
from .half import half_io

TILE = 4 if SIMULATED else 16


@cache
def _tiled(acc: Any, half: str | None = None) -> Any:
    zero = 0j if acc is complex128 else 0.0 if acc is float64 else 0
    ld, st = half_io(half)

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
            sa[ty, tx] = ld(a[ao + row * sa_[0] + (kk + tx) * sa_[1]]) if (
                row < m and kk + tx < k) else 0
            sb[ty, tx] = ld(b[bo + (kk + ty) * sb_[0] + col * sb_[1]]) if (
                col < n and kk + ty < k) else 0
            cuda.syncthreads()
            for j in range(TILE):
                total += sa[ty, j] * sb[j, tx]
            cuda.syncthreads()
        if row < m and col < n:
            out[oo + row * so[0] + col * so[1]] = st(total)

    return gtensor_matmul_tiled


def _gpu_multiply(a: Any, b: Any, out: Any, stream: Any, half: str | None) -> None:
    """``out = a @ b`` on a real GPU: strided-batched cuBLAS GEMMs where the layout fits
    one, else ``cupy.matmul``, under the math mode of the TF32 switch (restored after)."""
    import cupy

    tf32 = matmul_precision.tf32_allowed()
    types = gemm_types(half or np.dtype(out.dtype).name, tf32)
    if types is None:  # integers: CuPy's own kernel, no cuBLAS
        with cupy.cuda.ExternalStream(stream_pointer(stream)):
            _cupy_matmul(cupy, a, b, out, half)
        return
    plan = gemm_plan(a.shape, element_strides(a), element_strides(b), out.shape,
                     element_strides(out))
    cublas = cupy.cuda.cublas
    handle = cupy.cuda.get_cublas_handle()
    with cupy.cuda.ExternalStream(stream_pointer(stream)):
        mode = cublas.getMathMode(handle)
        cublas.setMathMode(handle, TF32_TENSOR_OP_MATH if tf32 else DEFAULT_MATH)
        try:
            if plan is None:
                _cupy_matmul(cupy, a, b, out, half)
            else:
                _gemm(cublas, handle, plan, types, a, b, out)
        finally:
            cublas.setMathMode(handle, mode)


def _gemm(cublas: Any, handle: int, plan: GemmPlan, types: tuple[int, int, str], a: Any,
          b: Any, out: Any) -> None:
    """Run ``plan``: one ``cublasGemmStridedBatchedEx`` per host-looped batch entry."""
    data, compute = types[:2]
    one, zero = _one_zero(types[2])
    size = out.dtype.itemsize
    pa, pb, pc = (address(x) for x in (b, a, out))  # A = b, B = a
    for oa, ob, oc in plan.offsets:
        cublas.gemmStridedBatchedEx(
            handle, plan.transa, plan.transb, plan.m, plan.n, plan.k, one.ctypes.data,
            pa + oa * size, data, plan.lda, plan.stride_a,
            pb + ob * size, data, plan.ldb, plan.stride_b, zero.ctypes.data,
            pc + oc * size, data, plan.ldc, plan.stride_c,
            plan.batch, compute, GEMM_DEFAULT)


@cache
def _one_zero(dtype: str) -> tuple[np.ndarray, np.ndarray]:
    """Host ``alpha = 1`` and ``beta = 0`` for cuBLAS (read at the call, host pointer mode)."""
    return np.ones((), dtype), np.zeros((), dtype)


def _cupy_matmul(cupy: Any, a: Any, b: Any, out: Any, half: str | None) -> None:
    """``cupy.matmul`` on arrays wrapped zero-copy from the device buffers."""
    arrays = [cupy.asarray(x) for x in (a, b, out)]
    if half == "bfloat16":
        import ml_dtypes

        arrays = [x.view(ml_dtypes.bfloat16) for x in arrays]
    cupy.matmul(arrays[0], arrays[1], out=arrays[2])


@register("matmul", "cuda", same((*FLOAT, *INT, *COMPLEX), 2))
def gtensor_matmul_cuda(a: Any, b: Any, out: Any, stream: Any = None) -> None:
    """Write ``a @ b`` into ``out`` on ``stream``.

    Example:
        >>> out = np.empty((2, 2))  # device arrays on a GPU: cuBLAS takes their pointers
        >>> gtensor_matmul_cuda(np.ones((2, 3)), np.ones((3, 2)), out)  # doctest: +SKIP
        >>> out.tolist()  # doctest: +SKIP
        [[3.0, 3.0], [3.0, 3.0]]
    """
    _multiply(a, b, out, stream, None)


def _multiply(a: Any, b: Any, out: Any, stream: Any, half: str | None) -> None:
    if out.size == 0:
        return
    if not SIMULATED:
        _gpu_multiply(a, b, out, stream, half)
        return
    kind = np.dtype(out.dtype).kind
    kernel = _tiled(complex128 if kind == "c" else float64 if half or kind == "f" else int64,
                    half)
    if half:  # the simulated kernel reads and writes half types as bits, as kernels do
        a, b, out = (x.view(np.uint16) for x in (a, b, out))
    m, n = out.shape[-2:]
    grid = ((n + TILE - 1) // TILE, (m + TILE - 1) // TILE)
    launch = kernel[grid, (TILE, TILE)] if stream is None else kernel[grid, (TILE, TILE), stream]
    k = a.shape[-1]
    for idx in np.ndindex(*out.shape[:-2]):
        ops = [flat_operand(x[idx]) for x in (a, b, out)]
        launch(m, n, k, *[v for op in ops for v in op])


def _half_matmul(half: str) -> Any:
    def kernel(a: Any, b: Any, out: Any, stream: Any = None) -> None:
        _multiply(a, b, out, stream, half)
    kernel.__name__ = f"gtensor_matmul_{half}_cuda"
    kernel.__doc__ = f"Write ``a @ b`` of {half} operands (their bits) into ``out``."
    return kernel


for _half in HALF:
    register("matmul", "cuda", [(_half, _half)])(_half_matmul(_half))
