"""Copy bandwidth: making a transposed matrix contiguous."""

from __future__ import annotations

from ..libraries import Library
from ..registry import Workload, case


@case("copy.contiguous_transpose", threaded=True, sizes={
    "tiny": {"n": 64}, "quick": {"n": 4096}, "full": {"n": 4096}})
def contiguous_transpose(lib: Library, n: int) -> Workload:
    """Copy a transposed n x n float32 matrix into contiguous memory (read + write bytes).

    Example:
        >>> contiguous_transpose(Library("numpy", "cpu"), 4).bytes
        128
    """
    x = lib.randn(n, n)
    xt = x.T
    return Workload(lambda: lib.contiguous(xt), bytes=2 * n * n * 4)
