"""Strided-batched GEMM arguments for a row-major batched ``out = a @ b``, in cuBLAS's terms.

cuBLAS is column-major, and a row-major ``(r, c)`` matrix read column-major is
its ``(c, r)`` transpose, so ``out = a @ b`` is computed as ``out^T = b^T a^T``:
cuBLAS's ``A`` is ``b``, its ``B`` is ``a``, its ``m`` is ``out``'s column count
and its ``n`` is ``out``'s row count. An operand whose rows are contiguous goes
as it is (``N``, leading dim = its row stride); one whose columns are
contiguous (a transposed view such as ``W.mT``) goes as ``T`` with its column
stride as leading dim, so neither needs a copy. ``out`` must have contiguous
rows.

Batch dims that step uniformly through all three arrays merge into one
strided batch (stride 0 for a broadcast operand); the merged dims left before
it are looped on the host, one GEMM call per entry of ``offsets``. A matrix
shared by the whole batch (a linear layer's weight) against a row-contiguous
batch folds the batch into the rows: one GEMM instead of a batch of them.

All strides and offsets are in elements.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from .strided import collapse

OP_N = 0
"""``CUBLAS_OP_N``."""
OP_T = 1
"""``CUBLAS_OP_T``."""
DEFAULT_MATH = 0
"""``CUBLAS_DEFAULT_MATH`` (``cublasMath_t``, cublas_api.h)."""
TF32_TENSOR_OP_MATH = 3
"""``CUBLAS_TF32_TENSOR_OP_MATH``."""
INT_MAX = 2**31 - 1
"""cuBLAS's 32-bit API takes sizes, leading dims and the batch count as ``int``."""
MAX_CALLS = 64
"""Most host-looped GEMM calls a layout may take before the caller's general path is better."""

# cudaDataType_t (library_types.h) and cublasComputeType_t (cublas_api.h) values, as numbers:
# CuPy 13 has no name for CUDA_R_16BF.
CUDA_R_32F, CUDA_R_64F, CUDA_R_16F, CUDA_C_32F, CUDA_C_64F, CUDA_R_16BF = 0, 1, 2, 4, 5, 14
COMPUTE_32F, COMPUTE_64F, COMPUTE_32F_FAST_TF32 = 68, 70, 77
GEMM_DEFAULT = -1
"""``CUBLAS_GEMM_DEFAULT``."""

# data type, compute type and alpha/beta dtype per operand dtype; half types accumulate in
# float32
_TYPES = {
    "float16": (CUDA_R_16F, COMPUTE_32F, "float32"),
    "bfloat16": (CUDA_R_16BF, COMPUTE_32F, "float32"),
    "float32": (CUDA_R_32F, COMPUTE_32F, "float32"),
    "float64": (CUDA_R_64F, COMPUTE_64F, "float64"),
    "complex64": (CUDA_C_32F, COMPUTE_32F, "complex64"),
    "complex128": (CUDA_C_64F, COMPUTE_64F, "complex128"),
}
_TF32 = ("float32", "complex64")


class GemmPlan(NamedTuple):
    """The arguments of ``cublasGemmStridedBatchedEx`` but the pointers, types and scalars.

    ``offsets`` holds one ``(A, B, C)`` element offset triple per call (cuBLAS's
    ``A`` = ``b``, ``B`` = ``a``, ``C`` = ``out``).
    """

    transa: int
    transb: int
    m: int
    n: int
    k: int
    lda: int
    ldb: int
    ldc: int
    stride_a: int
    stride_b: int
    stride_c: int
    batch: int
    offsets: tuple[tuple[int, int, int], ...]


def gemm_types(dtype: str, tf32: bool) -> tuple[int, int, str] | None:
    """cuBLAS's data type, compute type and scalar dtype for operands of ``dtype``.

    Args:
        dtype: the operands' dtype name (``"bfloat16"`` for bfloat16 bits).
        tf32: whether float32 and complex64 products may use TF32 tensor cores.

    Returns:
        ``(cudaDataType_t, cublasComputeType_t, alpha/beta dtype)``, or None
        for dtypes cuBLAS has no GEMM for (integers, bool).

    Example:
        >>> gemm_types("float32", True) == (CUDA_R_32F, COMPUTE_32F_FAST_TF32, "float32")
        True
    """
    found = _TYPES.get(dtype)
    if found is None:
        return None
    data, compute, scalar = found
    if tf32 and dtype in _TF32:
        compute = COMPUTE_32F_FAST_TF32
    return data, compute, scalar


def _operand(rows: int, cols: int, s_row: int, s_col: int) -> tuple[int, int] | None:
    """``(op, ld)`` passing a row-major ``(rows, cols)`` matrix as cuBLAS's ``(cols, rows)``
    column-major one; None when neither dim is contiguous (or the rows overlap)."""
    if cols == 1 or s_col == 1:
        ld = s_row if rows > 1 else cols
        if max(1, cols) <= ld <= INT_MAX:
            return OP_N, ld
    if rows == 1 or s_row == 1:
        ld = s_col if cols > 1 else rows
        if max(1, rows) <= ld <= INT_MAX:
            return OP_T, ld
    return None


def gemm_plan(a_shape: Sequence[int], a_strides: Sequence[int], b_strides: Sequence[int],
              out_shape: Sequence[int], out_strides: Sequence[int]) -> GemmPlan | None:
    """Plan ``out = a @ b`` (batch dims already broadcast to ``out``'s) as cuBLAS GEMMs.

    Args:
        a_shape: ``(*batch, m, k)``; ``b`` is ``(*batch, k, n)`` and ``out``
            ``(*batch, m, n)``.
        a_strides, b_strides, out_strides: element strides (0 on broadcast dims).
        out_shape: ``(*batch, m, n)``.

    Returns:
        The plan, or None when the layout does not fit a strided GEMM (an operand
        with neither dim contiguous, ``out`` without contiguous rows, ``k == 0``,
        sizes past cuBLAS's ``int``, or too many host-looped batch dims).

    Example:
        >>> gemm_plan((2, 3), (3, 1), (1, 3), (2, 4), (4, 1))[:6]
        (1, 0, 4, 2, 3, 3)
    """
    return _plan(tuple(a_shape), tuple(a_strides), tuple(b_strides), tuple(out_shape),
                 tuple(out_strides))


@lru_cache(maxsize=512)
def _plan(a_shape: tuple[int, ...], a_strides: tuple[int, ...], b_strides: tuple[int, ...],
          out_shape: tuple[int, ...], out_strides: tuple[int, ...]) -> GemmPlan | None:
    if not len(a_shape) == len(a_strides) == len(b_strides) == len(out_shape) == len(
            out_strides) >= 2:
        return None
    m, k = a_shape[-2:]
    n = out_shape[-1]
    if k == 0 or 0 in out_shape or max(m, n, k) > INT_MAX:
        return None
    ops = (_operand(k, n, *b_strides[-2:]), _operand(m, k, *a_strides[-2:]),
           _operand(m, n, *out_strides[-2:]))
    if None in ops or ops[2][0] != OP_N:  # type: ignore[index]
        return None
    (transa, lda), (transb, ldb), (_, ldc) = ops  # type: ignore[misc]
    shape, (sa, sb, sc) = collapse(out_shape[:-2], [b_strides[:-2], a_strides[:-2],
                                                    out_strides[:-2]])
    batch = shape[-1]
    stride_a, stride_b, stride_c = sa[-1], sb[-1], sc[-1]
    if batch == 1:
        stride_a = stride_b = stride_c = 0
    elif stride_a == 0 and transb == OP_N and stride_b == m * ldb and stride_c == m * ldc:
        m_rows = batch * m  # the batch of a's rows against one shared b: one taller GEMM
        if m_rows > INT_MAX:
            return None
        return _finish(transa, transb, n, m_rows, k, lda, ldb, ldc, 0, 0, 0, 1,
                       shape[:-1], sa[:-1], sb[:-1], sc[:-1])
    if batch > INT_MAX or min(stride_a, stride_b, stride_c) < 0:
        return None
    return _finish(transa, transb, n, m, k, lda, ldb, ldc, stride_a, stride_b, stride_c, batch,
                   shape[:-1], sa[:-1], sb[:-1], sc[:-1])


def _finish(transa: int, transb: int, m: int, n: int, k: int, lda: int, ldb: int, ldc: int,
            stride_a: int, stride_b: int, stride_c: int, batch: int, outer: tuple[int, ...],
            sa: tuple[int, ...], sb: tuple[int, ...], sc: tuple[int, ...]) -> GemmPlan | None:
    """Attach the host-looped offsets of the batch dims left before the strided batch."""
    if math.prod(outer) > MAX_CALLS:
        return None
    offsets = tuple(
        (int(np.dot(idx, sa)), int(np.dot(idx, sb)), int(np.dot(idx, sc))) if outer else (0, 0, 0)
        for idx in np.ndindex(*outer))
    return GemmPlan(transa, transb, m, n, k, lda, ldb, ldc, stride_a, stride_b, stride_c,
                    batch, offsets)
