"""Ordering and index math for sort, search and indexing kernels, compiled per target.

NaN sorts after every number (NumPy's order). :func:`build` compiles the
functions with ``numba.njit`` or ``numba.cuda.jit(device=True)``, binding
their calls to each other, as ``common/philox.py`` does.
"""

from __future__ import annotations

import types
from collections.abc import Callable

from .jit_build import build_functions


def before(a, b):  # noqa: ANN001, ANN201
    """True when ``a`` sorts strictly before ``b`` (NaN last).

    Example:
        >>> before(1.0, float("nan")), before(float("nan"), 1.0)
        (True, False)
    """
    return a < b or (b != b and a == a)


def bound(seq, row, m, v, right):  # noqa: ANN001, ANN201
    """Return the insertion point of ``v`` in the sorted ``seq[row, :m]``.

    Args:
        seq: 2-D sorted rows.
        row: the row to search.
        m: row length.
        v: the value.
        right: False for the first position whose value does not sort before
            ``v``, True for the first position whose value sorts after ``v``.

    Example:
        >>> import numpy as np
        >>> bound(np.array([[1, 2, 2, 3]]), 0, 4, 2, True)
        3
    """
    lo = 0
    hi = m
    while lo < hi:
        mid = (lo + hi) // 2
        x = seq[row, mid]
        go_right = not before(v, x) if right else before(x, v)
        if go_right:
            lo = mid + 1
        else:
            hi = mid
    return lo


def insertion_sort_row(values, indices, row, n, descending):  # noqa: ANN001, ANN201
    """Stable in-place sort of ``values[row, :n]``, writing the permutation into ``indices``.

    Example:
        >>> import numpy as np
        >>> v = np.array([[3.0, 1.0, 2.0]]); ix = np.zeros((1, 3), np.int64)
        >>> insertion_sort_row(v, ix, 0, 3, False); ix.tolist()
        [[1, 2, 0]]
    """
    for i in range(n):
        indices[row, i] = i
    for i in range(1, n):
        v = values[row, i]
        ix = indices[row, i]
        j = i - 1
        while j >= 0 and (before(values[row, j], v) if descending else before(v, values[row, j])):
            values[row, j + 1] = values[row, j]
            indices[row, j + 1] = indices[row, j]
            j -= 1
        values[row, j + 1] = v
        indices[row, j + 1] = ix


BAD_OFFSET = -(2**63)


def row_offset(indices, sizes, strides, i, strict):  # noqa: ANN001, ANN201
    """Return ``sum(wrap(indices[j, i]) * strides[j])``, or ``BAD_OFFSET`` for a bad index.

    Negative indices count from the end of their dim, unless ``strict`` (class
    indices, embedding rows), where they are out of range. Offsets themselves
    may be negative (views with negative strides), hence the sentinel.

    Example:
        >>> import numpy as np
        >>> int(row_offset(np.array([[1], [-1]]), np.array([3, 4]), np.array([4, -1]), 0, False))
        1
    """
    o = 0
    for j in range(indices.shape[0]):
        v = indices[j, i]
        if v < 0 and not strict:
            v += sizes[j]
        if v < 0 or v >= sizes[j]:
            return BAD_OFFSET
        o += v * strides[j]
    return o


def bad_index(indices, sizes, i, strict):  # noqa: ANN001, ANN201
    """Return the row ``j`` of the first out-of-range index in column ``i`` (-1 if none).

    Example:
        >>> import numpy as np
        >>> bad_index(np.array([[1], [-9]]), (3, 4), 0, False)
        1
    """
    for j in range(indices.shape[0]):
        v = indices[j, i]
        low = 0 if strict else -sizes[j]
        if v < low or v >= sizes[j]:
            return j
    return -1


DEVICE_FUNCTIONS = ("before", "bound", "insertion_sort_row", "row_offset", "bad_index")


def build(jit: Callable[[Callable], Callable]) -> types.SimpleNamespace:
    """Compile the functions in ``DEVICE_FUNCTIONS`` with ``jit``, bound to each other.

    Example:
        >>> import numba
        >>> build(numba.njit).before(1, 2)
        True
    """
    return build_functions(globals(), DEVICE_FUNCTIONS, jit)
