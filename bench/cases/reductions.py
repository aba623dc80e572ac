"""Reductions and softmax over a square float32 matrix (4096 x 4096)."""

from __future__ import annotations

from typing import Any

from ..libraries import Library
from ..registry import Workload, case

_SIZES: dict[str, dict[str, Any]] = {"tiny": {"n": 64}, "quick": {"n": 4096},
                                     "full": {"n": 4096}}


@case("reduce.sum_all", threaded=True, sizes=_SIZES)
def sum_all(lib: Library, n: int) -> Workload:
    """Sum of all n * n float32 values (bytes: one read).

    Example:
        >>> sum_all(Library("numpy", "cpu"), 4).bytes
        64
    """
    x = lib.randn(n, n)
    return Workload(lambda: x.sum(), bytes=4 * n * n)


@case("reduce.sum_dim1", threaded=True, sizes=_SIZES)
def sum_dim1(lib: Library, n: int) -> Workload:
    """x.sum(dim=1) of an n x n float32 matrix (bytes: one read, n written)."""
    x = lib.randn(n, n)
    return Workload(lambda: lib.sum(x, 1), bytes=4 * n * n + 4 * n)


@case("reduce.sum_dim0", threaded=True, sizes=_SIZES)
def sum_dim0(lib: Library, n: int) -> Workload:
    """x.sum(dim=0) of an n x n float32 matrix: a reduction across rows (bytes: one read)."""
    x = lib.randn(n, n)
    return Workload(lambda: lib.sum(x, 0), bytes=4 * n * n + 4 * n)


@case("reduce.sum_tiny", sizes={p: {"n": 4} for p in ("tiny", "quick", "full")})
def sum_tiny(lib: Library, n: int) -> Workload:
    """x.sum() of 4 float32 values: the fixed cost of one reduction call."""
    x = lib.randn(n)
    return Workload(lambda: x.sum())


@case("reduce.sum_vector", threaded=True, sizes={
    "tiny": {"n": 1000}, "quick": {"n": 1 << 24}, "full": {"n": 1 << 26}})
def sum_vector(lib: Library, n: int) -> Workload:
    """Sum of n float32 values in one vector, 64M in the full run: one output (bytes: one read)."""
    x = lib.randn(n)
    return Workload(lambda: x.sum(), bytes=4 * n)


@case("reduce.softmax_last", threaded=True, sizes=_SIZES)
def softmax_last(lib: Library, n: int) -> Workload:
    """Softmax along the last axis of an n x n float32 matrix (bytes: one read, one write).

    NumPy and CuPy have no softmax: theirs is the usual max-shifted composition.
    """
    x = lib.randn(n, n)
    return Workload(lambda: lib.softmax(x, -1), bytes=8 * n * n)


@case("reduce.softmax_wide", threaded=True, sizes={
    "tiny": {"rows": 64, "cols": 32}, "quick": {"rows": 8192, "cols": 1024},
    "full": {"rows": 8192, "cols": 1024}})
def softmax_wide(lib: Library, rows: int, cols: int) -> Workload:
    """Softmax along the last axis of a rows x cols float32 matrix (bytes: one read, one write)."""
    x = lib.randn(rows, cols)
    return Workload(lambda: lib.softmax(x, -1), bytes=8 * rows * cols)
