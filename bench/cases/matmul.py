"""Matrix multiplication: square float32 products and a batch of small ones."""

from __future__ import annotations

from ..libraries import Library
from ..registry import Workload, case


@case("matmul.square_1024", threaded=True, sizes={
    "tiny": {"n": 32}, "quick": {"n": 1024}, "full": {"n": 1024}})
def square_1024(lib: Library, n: int) -> Workload:
    """n x n @ n x n in float32 (flops: 2 n^3).

    Example:
        >>> square_1024(Library("numpy", "cpu"), 2).flops
        16
    """
    a, b = lib.randn(n, n, seed=1), lib.randn(n, n, seed=2)
    return Workload(lambda: a @ b, flops=2 * n**3)


@case("matmul.square_2048", threaded=True, max_rounds=5, sizes={
    "tiny": {"n": 48}, "quick": {"n": 2048}, "full": {"n": 2048}})
def square_2048(lib: Library, n: int) -> Workload:
    """n x n @ n x n in float32 at a size where BLAS should reach its ceiling (flops: 2 n^3)."""
    a, b = lib.randn(n, n, seed=1), lib.randn(n, n, seed=2)
    return Workload(lambda: a @ b, flops=2 * n**3)


@case("matmul.square_4096", threaded=True, max_rounds=5, devices=("cuda",), sizes={
    "tiny": {"n": 64}, "quick": {"n": 4096}, "full": {"n": 4096}})
def square_4096(lib: Library, n: int) -> Workload:
    """n x n @ n x n in float32 on a GPU, where the device reaches its ceiling (flops: 2 n^3)."""
    a, b = lib.randn(n, n, seed=1), lib.randn(n, n, seed=2)
    return Workload(lambda: a @ b, flops=2 * n**3)


@case("matmul.batched", threaded=True, sizes={
    "tiny": {"batch": 4, "n": 16}, "quick": {"batch": 64, "n": 128},
    "full": {"batch": 64, "n": 128}})
def batched(lib: Library, batch: int, n: int) -> Workload:
    """A batch of n x n @ n x n float32 products (flops: 2 batch n^3)."""
    a, b = lib.randn(batch, n, n, seed=1), lib.randn(batch, n, n, seed=2)
    return Workload(lambda: a @ b, flops=2 * batch * n**3)
