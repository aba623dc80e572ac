"""The cuBLAS strided-batched GEMM plan, checked by running it as cuBLAS would on host memory.

``emulate`` reads the operands only through the plan (column-major matrices at
pointer + offset with a leading dim, ``op`` N or T, one stride per batch), so a
wrong ``m``/``n``/``k``, leading dim, transpose flag, batch stride or offset
gives a wrong product here, as it would on a GPU.
"""

from __future__ import annotations

import numpy as np
import pytest
from gtensor.kernels.common import matmul_precision
from gtensor.kernels.common.gemm_layout import (
    COMPUTE_32F,
    COMPUTE_32F_FAST_TF32,
    COMPUTE_64F,
    CUDA_R_16BF,
    CUDA_R_32F,
    CUDA_R_64F,
    OP_N,
    OP_T,
    gemm_plan,
    gemm_types,
)
from gtensor.kernels.common.strided import element_strides, host_flat


def _column_major(buf: np.ndarray, off: int, rows: int, cols: int, ld: int) -> np.ndarray:
    """The ``(rows, cols)`` column-major matrix at ``buf[off]``, which must lie inside ``buf``."""
    assert ld >= max(1, rows) and off >= 0 and off + rows - 1 + (cols - 1) * ld < buf.size
    size = buf.itemsize
    return np.lib.stride_tricks.as_strided(buf[off:], (rows, cols), (size, ld * size))


def emulate(plan, a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:  # noqa: ANN001
    """Run ``plan`` as ``cublasGemmStridedBatchedEx`` would: ``C = op(A) op(B)``, A = b, B = a."""
    (fa, oa), (fb, ob), (fc, oc) = host_flat(b), host_flat(a), host_flat(out)
    m, n, k = plan.m, plan.n, plan.k
    for da, db, dc in plan.offsets:
        for i in range(plan.batch):
            x = _column_major(fa, oa + da + i * plan.stride_a, *((m, k) if plan.transa == OP_N
                                                                   else (k, m)), plan.lda)
            y = _column_major(fb, ob + db + i * plan.stride_b, *((k, n) if plan.transb == OP_N
                                                                   else (n, k)), plan.ldb)
            c = _column_major(fc, oc + dc + i * plan.stride_c, m, n, plan.ldc)
            c[...] = (x if plan.transa == OP_N else x.T) @ (y if plan.transb == OP_N else y.T)


def _plan(a: np.ndarray, b: np.ndarray, out: np.ndarray):  # noqa: ANN202
    return gemm_plan(a.shape, element_strides(a), element_strides(b), out.shape,
                     element_strides(out))


def _layouts() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    r = np.random.default_rng(3)

    def x(*shape: int) -> np.ndarray:
        return r.integers(-4, 5, shape).astype(np.float64)

    return {
        "2d": (x(3, 4), x(4, 5)),
        "b transposed (W.mT)": (x(3, 4), x(5, 4).T),
        "a transposed": (x(4, 3).T, x(4, 5)),
        "both transposed, batched": (x(2, 4, 3).transpose(0, 2, 1), x(2, 5, 4).mT),
        "batched": (x(3, 2, 4), x(3, 4, 5)),
        "shared b folds into rows": (x(3, 2, 4), np.broadcast_to(x(4, 5), (3, 4, 5))),
        "shared W.mT folds into rows": (x(2, 3, 4), np.broadcast_to(x(5, 4).T, (2, 4, 5))),
        "shared a": (np.broadcast_to(x(2, 4), (3, 2, 4)), x(3, 4, 5)),
        "outer batch looped": (np.broadcast_to(x(2, 1, 2, 4), (2, 3, 2, 4)),
                               np.broadcast_to(x(1, 3, 4, 5), (2, 3, 4, 5))),
        "sliced rows and batch": (x(3, 5, 6)[::2, 1:3, :4], x(2, 4, 7)[:, :, 2:7]),
        "m = n = 1": (x(3, 1, 4), x(3, 4, 1)),
        "k = 1": (x(2, 3, 1), x(2, 1, 4)),
        "column of a matrix": (x(4, 6)[:, 2:3].T, x(4, 3)),
    }


LAYOUTS = _layouts()


@pytest.mark.parametrize("name", list(LAYOUTS))
def test_plan_runs_as_cublas_would(name: str) -> None:
    a, b = LAYOUTS[name]
    shape = (*np.broadcast_shapes(a.shape[:-2], b.shape[:-2]), a.shape[-2], b.shape[-1])
    out = np.full(shape, np.nan)
    plan = _plan(a, b, out)
    assert plan is not None
    emulate(plan, a, b, out)
    np.testing.assert_array_equal(out, a @ b)


def test_plan_fold_transpose_and_loops() -> None:
    a, b = LAYOUTS["shared b folds into rows"]
    plan = _plan(a, b, np.empty((3, 2, 5)))
    assert (plan.m, plan.n, plan.batch, len(plan.offsets)) == (5, 6, 1, 1)
    a, b = LAYOUTS["both transposed, batched"]
    plan = _plan(a, b, np.empty((2, 3, 5)))
    assert (plan.transa, plan.transb, plan.batch) == (OP_T, OP_T, 2)
    a, b = LAYOUTS["outer batch looped"]
    plan = _plan(a, b, np.empty((2, 3, 2, 5)))
    assert (plan.batch, len(plan.offsets), plan.stride_b) == (3, 2, 0)


def test_layouts_cublas_cannot_take_fall_back() -> None:
    r = np.arange(60.0)
    every_other = r[:48].reshape(4, 12)[:, ::2]  # neither dim contiguous
    assert _plan(every_other, np.ones((6, 2)), np.empty((4, 2))) is None
    assert _plan(np.ones((4, 6)), every_other.T, np.empty((4, 4))) is None
    assert _plan(np.ones((2, 3)), np.ones((3, 4)), np.empty((4, 2)).T) is None  # out transposed
    assert _plan(np.ones((2, 0)), np.ones((0, 4)), np.empty((2, 4))) is None  # k = 0
    reversed_cols = np.ones((3, 5)).T[:, ::-1]
    assert _plan(np.ones((2, 5)), reversed_cols, np.empty((2, 3))) is None
    rows_broadcast = np.broadcast_to(np.ones((1, 3)), (2, 3))  # ld 0
    assert _plan(rows_broadcast, np.ones((3, 4)), np.empty((2, 4))) is None


def test_gemm_types_follow_the_precision_switch() -> None:
    assert gemm_types("float32", False) == (CUDA_R_32F, COMPUTE_32F, "float32")
    assert gemm_types("complex64", True)[1] == COMPUTE_32F_FAST_TF32
    assert gemm_types("float64", True) == (CUDA_R_64F, COMPUTE_64F, "float64")
    assert gemm_types("bfloat16", True) == (CUDA_R_16BF, COMPUTE_32F, "float32")
    assert gemm_types("int32", False) is None
    assert not matmul_precision.tf32_allowed()
