"""Host-side layout helpers for the gather/scatter kernels: flat buffers and element offsets.

The indexing kernels address a tensor's whole storage as a 1-D buffer plus a
base offset, per-dim strides and per-row element offsets, so one kernel serves
every rank and every indexing op. These helpers build offset grids on the
host and format the out-of-range message shared by both backends.
"""

from __future__ import annotations

import numpy as np


def element_offsets(shape: tuple[int, ...], strides: tuple[int, ...], base: int) -> np.ndarray:
    """Return the int64 array (of ``shape``) of ``base + sum(idx[d] * strides[d])``.

    Example:
        >>> element_offsets((2, 2), (3, 1), 1).tolist()
        [[1, 2], [4, 5]]
    """
    off = np.full((), base, np.int64)
    for n, s in zip(shape, strides, strict=True):
        off = off[..., None] + np.arange(n, dtype=np.int64) * s
    return off


def out_of_range(op: str, value: int, dim: int, size: int) -> IndexError:
    """Build the ``IndexError`` for an index outside ``[-size, size)``.

    Example:
        >>> str(out_of_range("gather", 7, 1, 5))
        '[gather] index 7 is out of bounds for dimension 1 with size 5'
    """
    return IndexError(f"[{op}] index {value} is out of bounds for dimension {dim} with size {size}")


SCATTER_MODES = ("copy", "add", "amax", "amin", "prod")
