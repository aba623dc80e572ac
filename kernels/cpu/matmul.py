"""CPU matmul through NumPy's BLAS.

Calling convention: ``kernel(a, b, out, stream=None)`` with ``a`` of shape
``(..., M, K)``, ``b`` of shape ``(..., K, N)`` and ``out`` of shape
``(..., M, N)``; the batch dims of ``a`` and ``b`` are already broadcast to
``out``'s (strides may be 0). The 1-D rules of ``matmul`` are the frontend's.
NumPy hands float32/float64 and complex64/complex128 to BLAS (copying a strided operand into a BLAS
layout itself when it must) and loops in C for integers. float16 and bfloat16
operands are cast to float32 once, multiplied by BLAS (float32 accumulation)
and the product rounded once into ``out``.
"""

from __future__ import annotations

import numpy as np

from ..common.dtype_groups import COMPLEX, FLOAT, HALF, INT, same
from ..registry import register


@register("matmul", "cpu", same((*FLOAT, *INT, *COMPLEX), 2))
def gtensor_matmul_cpu(
    a: np.ndarray, b: np.ndarray, out: np.ndarray, stream: object = None
) -> None:
    """Write ``a @ b`` into ``out``.

    Example:
        >>> out = np.empty((2, 2)); gtensor_matmul_cpu(np.eye(2), np.ones((2, 2)), out)
    """
    if out.size == 0:
        return
    if a.shape[-1] == 0:
        out[...] = 0
        return
    if a.ndim == 2 and out.flags.c_contiguous:
        # np.dot hands transposed operands to BLAS as they are; np.matmul with out= copies
        # them first (2-4x slower on the small matrices of a training step)
        np.dot(a, b, out=out)
        return
    if out.flags.c_contiguous and not any(b.strides[:-2]) and _folds(a):
        # one matrix for the whole batch (a linear layer on 3-D input): NumPy's matmul
        # loops without BLAS over a zero batch stride, so fold the batch into the rows
        np.dot(a.reshape(-1, a.shape[-1]), b[(0,) * (b.ndim - 2)],
               out=out.reshape(-1, out.shape[-1]))
        return
    np.matmul(a, b, out=out)


@register("matmul", "cpu", same(HALF, 2))
def gtensor_matmul_half_cpu(
    a: np.ndarray, b: np.ndarray, out: np.ndarray, stream: object = None
) -> None:
    """Write ``a @ b`` of float16 or bfloat16 operands into ``out``, through float32 BLAS.

    Example:
        >>> out = np.empty((2, 2), np.float16)
        >>> gtensor_matmul_half_cpu(np.eye(2, dtype=np.float16), np.ones((2, 2), np.float16), out)
    """
    if out.size == 0:
        return
    wide = np.empty(out.shape, np.float32)
    gtensor_matmul_cpu(a.astype(np.float32), b.astype(np.float32), wide)
    out[...] = wide.astype(out.dtype)


def _folds(a: np.ndarray) -> bool:
    """True when ``a``'s dims before the last fold into one without a copy."""
    for i in range(a.ndim - 2):
        if a.shape[i] != 1 and a.strides[i] != a.strides[i + 1] * a.shape[i + 1]:
            return False
    return True
