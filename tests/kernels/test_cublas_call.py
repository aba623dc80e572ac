"""The cuBLAS call of the CUDA matmul, run against a stand-in CuPy that does the GEMM on the host.

The stand-in's ``gemmStridedBatchedEx`` takes CuPy's arguments in CuPy's order
(``cupy_backends.cuda.libs.cublas``: handle, transa, transb, m, n, k, alpha, A,
Atype, lda, strideA, B, Btype, ldb, strideB, beta, C, Ctype, ldc, strideC,
batchCount, computeType, algo), reads the matrices through the raw pointers
the kernel passes, and records the compute type and the handle's math mode;
so the pointer arithmetic, argument order and precision switch are checked
without a GPU. ``cupy.matmul`` (the fallback) is NumPy's. The numbers are
CUDA's (cudaDataType_t, cublasComputeType_t, cublasMath_t), as CuPy defines them.
"""

from __future__ import annotations

import ctypes
import sys
import types
from contextlib import nullcontext

import ml_dtypes
import numpy as np
import pytest
from gtensor.kernels.common import matmul_precision
from gtensor.kernels.cuda import matmul as cuda_matmul

DATA = {0: np.float32, 1: np.float64, 4: np.complex64, 5: np.complex128, 2: np.float16,
        14: ml_dtypes.bfloat16}
COMPUTE = {68: "32F", 70: "64F", 77: "TF32"}
DEFAULT_MATH, TF32_MATH = 0, 3  # cublasMath_t values of cublas_api.h


class Device(np.ndarray):
    """A host array that shows a ``__cuda_array_interface__`` with its host pointer."""

    @property
    def __cuda_array_interface__(self) -> dict:
        return {"data": (self.__array_interface__["data"][0], False), "shape": self.shape,
                "strides": self.strides, "typestr": self.dtype.str, "version": 3}


def _matrix(ptr: int, dtype: type, rows: int, cols: int, ld: int) -> np.ndarray:
    """The column-major ``(rows, cols)`` matrix at ``ptr`` with leading dim ``ld``."""
    size = np.dtype(dtype).itemsize
    count = rows + (cols - 1) * ld
    buf = np.frombuffer((ctypes.c_char * (count * size)).from_address(ptr), dtype)
    return np.lib.stride_tricks.as_strided(buf, (rows, cols), (size, ld * size))


class FakeCublas(types.SimpleNamespace):
    def __init__(self) -> None:
        super().__init__(mode=DEFAULT_MATH, calls=[])

    def getMathMode(self, handle: int) -> int:  # noqa: N802
        return self.mode

    def setMathMode(self, handle: int, mode: int) -> None:  # noqa: N802
        self.mode = mode

    def gemmStridedBatchedEx(self, handle, transa, transb, m, n, k, alpha, A, Atype, lda,  # noqa: ANN001, N802, N803, PLR0913
                             strideA, B, Btype, ldb, strideB, beta, C, Ctype, ldc,  # noqa: ANN001, N803
                             strideC, batchCount, computeType, algo) -> None:  # noqa: ANN001, N803
        assert Atype == Btype == Ctype and algo == -1
        dtype = DATA[Atype]
        scalar = np.float32 if np.dtype(dtype).itemsize == 2 else dtype
        width = np.dtype(scalar).itemsize
        alpha_v = np.frombuffer((ctypes.c_char * width).from_address(alpha), scalar)[0]
        beta_v = np.frombuffer((ctypes.c_char * width).from_address(beta), scalar)[0]
        assert (alpha_v, beta_v) == (1, 0)
        self.calls.append((COMPUTE[computeType], self.mode, batchCount))
        size = np.dtype(dtype).itemsize
        for i in range(batchCount):
            x = _matrix(A + i * strideA * size, dtype, *((m, k) if transa == 0 else (k, m)), lda)
            y = _matrix(B + i * strideB * size, dtype, *((k, n) if transb == 0 else (n, k)), ldb)
            c = _matrix(C + i * strideC * size, dtype, m, n, ldc)
            c[...] = (x if transa == 0 else x.T) @ (y if transb == 0 else y.T)


@pytest.fixture
def cublas(monkeypatch: pytest.MonkeyPatch) -> FakeCublas:
    fake = FakeCublas()
    cuda = types.SimpleNamespace(cublas=fake, get_cublas_handle=lambda: 7,
                                 ExternalStream=lambda ptr: nullcontext())

    def fallback(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
        fake.calls.append(("cupy.matmul", fake.mode, 0))
        np.matmul(a, b, out=out)

    monkeypatch.setitem(sys.modules, "cupy", types.SimpleNamespace(
        cuda=cuda, asarray=np.asarray, matmul=fallback))
    return fake


def _run(a: np.ndarray, b: np.ndarray, out: np.ndarray, half: str | None = None) -> None:
    cuda_matmul._gpu_multiply(*(x.view(Device) for x in (a, b, out)), None, half)


@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_cublas_call_on_strided_operands(cublas: FakeCublas, dtype: str) -> None:
    r = np.random.default_rng(0)
    a = r.integers(-3, 4, (2, 3, 3, 5)).astype(dtype)[1, :, :, :4]  # (3, 3, 4), sliced
    w = r.integers(-3, 4, (2, 4)).astype(dtype)
    b = np.broadcast_to(w.T, (3, 4, 2))  # a shared W.mT: one taller GEMM
    out = np.full((3, 3, 2), np.nan, dtype)
    _run(a, b, out)
    np.testing.assert_array_equal(out, a @ b)
    a2 = a.transpose(0, 2, 1)[:, :3, :]  # (3, 3, 3), transposed matrices
    out2 = np.full((3, 3, 4), np.nan, dtype)
    _run(a2, np.ascontiguousarray(a), out2)
    np.testing.assert_array_equal(out2, a2 @ a)
    compute = "32F" if dtype == "float32" else "64F"
    assert cublas.calls == [(compute, DEFAULT_MATH, 1), (compute, DEFAULT_MATH, 3)]


def test_cublas_call_follows_tf32_switch(cublas: FakeCublas) -> None:
    a, b = np.ones((2, 3), np.float32), np.ones((3, 2), np.float32)
    out = np.zeros((2, 2), np.float32)
    try:
        matmul_precision.set_level("high")
        _run(a, b, out)
        _run(a.astype(np.float64), b.astype(np.float64), np.zeros((2, 2)))
        _run(np.ones((2, 0), np.float32), np.ones((0, 2), np.float32), out)  # k = 0: fallback
    finally:
        matmul_precision.set_level("highest")
    assert cublas.calls == [("TF32", TF32_MATH, 1), ("64F", TF32_MATH, 1),
                            ("cupy.matmul", TF32_MATH, 0)]
    assert cublas.mode == DEFAULT_MATH  # the handle's mode is put back after each call
    np.testing.assert_array_equal(out, np.zeros((2, 2)))


def test_layouts_and_dtypes_cublas_cannot_take_go_to_cupy_matmul(cublas: FakeCublas) -> None:
    ints = np.ones((2, 2), np.int32)
    out = np.zeros((2, 2), np.int32)
    _run(ints, ints, out)
    a = np.arange(32.0).reshape(4, 8)[:, ::2]  # neither dim contiguous
    out2 = np.zeros((4, 2))
    _run(a, np.ones((4, 2)), out2)
    np.testing.assert_array_equal(out2, a @ np.ones((4, 2)))
    np.testing.assert_array_equal(out, np.full((2, 2), 2))
    assert cublas.calls == [("cupy.matmul", DEFAULT_MATH, 0), ("cupy.matmul", DEFAULT_MATH, 0)]


def test_half_operands_go_as_16_bit_types_with_float32_scalars(cublas: FakeCublas) -> None:
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.ones((3, 2), np.float32)
    out = np.zeros((2, 2), np.float16)
    _run(a.astype(np.float16), b.astype(np.float16), out)
    bits = [x.astype(ml_dtypes.bfloat16).view(np.uint16) for x in (a, b)]  # bfloat16 as bits
    out_bits = np.zeros((2, 2), np.uint16)
    _run(*bits, out_bits, "bfloat16")
    np.testing.assert_array_equal(out, a @ b)
    np.testing.assert_array_equal(out_bits.view(ml_dtypes.bfloat16).astype(np.float32), a @ b)
    assert [c[0] for c in cublas.calls] == ["32F", "32F"]
