"""Gather and scatter_add along the last axis of a float32 matrix; row picking x[idx]."""

from __future__ import annotations

import numpy as np

from ..libraries import Library
from ..registry import Workload, case

_SIZES = {"tiny": {"rows": 16, "cols": 32, "picks": 8},
          "quick": {"rows": 4096, "cols": 1024, "picks": 256},
          "full": {"rows": 8192, "cols": 4096, "picks": 1024}}


def _index(lib: Library, rows: int, cols: int, picks: int) -> object:
    host = np.random.default_rng(7).integers(0, cols, (rows, picks), dtype=np.int64)
    return lib.asarray(host)


@case("indexing.gather", threaded=True, sizes=_SIZES)
def gather(lib: Library, rows: int, cols: int, picks: int) -> Workload:
    """x.gather(1, index): picks random columns per row (bytes: index, values read, written).

    Example:
        >>> gather(Library("numpy", "cpu"), 2, 4, 3).bytes
        96
    """
    x, index = lib.randn(rows, cols), _index(lib, rows, cols, picks)
    return Workload(lambda: lib.gather(x, 1, index), bytes=16 * rows * picks)


@case("indexing.scatter_add", threaded=True, sizes=_SIZES)
def scatter_add(lib: Library, rows: int, cols: int, picks: int) -> Workload:
    """out.scatter_add_(1, index, src) with repeated indices (bytes: index, src, out read+write).

    NumPy's is ``np.add.at``, CuPy's ``cupyx.scatter_add``.
    """
    out, index = lib.randn(rows, cols), _index(lib, rows, cols, picks)
    src = lib.randn(rows, picks, seed=3)
    return Workload(lambda: lib.scatter_add_(out, 1, index, src), bytes=20 * rows * picks)


@case("indexing.take_rows", threaded=True, sizes={
    "tiny": {"rows": 64, "width": 4, "picks": 100},
    "quick": {"rows": 1 << 16, "width": 32, "picks": 1 << 18},
    "full": {"rows": 1 << 16, "width": 32, "picks": 1 << 20}})
def take_rows(lib: Library, rows: int, width: int, picks: int) -> Workload:
    """x[idx]: picks random rows of a rows x width float32 table (bytes: index, rows read+written).

    Example:
        >>> take_rows(Library("numpy", "cpu"), 4, 2, 3).bytes
        72
    """
    x = lib.randn(rows, width)
    idx = lib.asarray(np.random.default_rng(7).integers(0, rows, picks, dtype=np.int64))
    return Workload(lambda: x[idx], bytes=picks * (8 + 8 * width))
