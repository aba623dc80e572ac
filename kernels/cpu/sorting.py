"""CPU sorting and searching kernels: row sort, searchsorted, bincount, histc, range, unique.

NumPy's stable sort is the host fast path; searches use the shared ordering
math of ``common/search_math.py`` compiled with ``numba.njit``.
"""

from __future__ import annotations

import numba
import numpy as np

from ..common import search_math
from ..common.dtype_groups import SORTABLE
from ..registry import ANY, register

_dev = search_math.build(numba.njit)
_bound = _dev.bound


@register("sort_rows", "cpu", SORTABLE)
def sort_rows(values: np.ndarray, indices: np.ndarray, descending: bool,
              stream: object = None) -> None:
    """Stable-sort each row of ``values`` in place; write each row's permutation to ``indices``.

    NaN sorts last ascending and first descending; equal values keep their order.

    Args:
        values: contiguous ``(rows, n)`` array, sorted in place.
        indices: ``(rows, n)`` int64 array, overwritten.
        descending: largest first.
        stream: ignored on the CPU.

    Example:
        >>> v = np.array([[2.0, 1.0, 2.0]]); ix = np.empty((1, 3), np.int64)
        >>> sort_rows(v, ix, True); ix.tolist()
        [[0, 2, 1]]
    """
    if values.size == 0:
        return
    n = values.shape[1]
    if descending:
        order = n - 1 - np.argsort(values[:, ::-1], axis=1, kind="stable")[:, ::-1]
    else:
        order = np.argsort(values, axis=1, kind="stable")
    values[...] = np.take_along_axis(values, order, axis=1)
    indices[...] = order


@numba.njit(cache=True)
def gtensor_searchsorted_cpu(seq, values, out, right):  # noqa: ANN001, ANN201
    m = seq.shape[1]
    shared = seq.shape[0] == 1
    for r in range(values.shape[0]):
        for j in range(values.shape[1]):
            out[r, j] = _bound(seq, 0 if shared else r, m, values[r, j], right)


@register("searchsorted", "cpu", [(d, d) for d in SORTABLE])
def searchsorted(seq: np.ndarray, values: np.ndarray, out: np.ndarray, right: bool,
                 stream: object = None) -> None:
    """Write the insertion point of each ``values[r, j]`` in sorted row ``seq[r]`` to ``out``.

    Args:
        seq: ``(1 or rows, m)`` sorted rows (NaN last).
        values: ``(rows, q)`` values, ``seq``'s dtype.
        out: ``(rows, q)`` int64, overwritten.
        right: insert after equal values instead of before.
        stream: ignored on the CPU.

    Example:
        >>> out = np.empty((1, 2), np.int64)
        >>> searchsorted(np.array([[1, 3]]), np.array([[3, 0]]), out, False); out.tolist()
        [[1, 0]]
    """
    if out.size:
        gtensor_searchsorted_cpu(seq, values, out, right)


@register("bincount", "cpu", [("int64", ANY)])
def bincount(x: np.ndarray, weights: np.ndarray | None, out: np.ndarray,
             stream: object = None) -> None:
    """Add ``weights[i]`` (or 1) into ``out[x[i]]``; ``out`` starts zeroed, ``x`` is in range.

    Example:
        >>> out = np.zeros(3, np.int64); bincount(np.array([0, 2, 2]), None, out); out.tolist()
        [1, 0, 2]
    """
    if x.size:
        np.add.at(out, x, 1 if weights is None else weights)


@register("histc", "cpu", ["float32", "float64"])
def histc(x: np.ndarray, out: np.ndarray, lo: float, hi: float, stream: object = None) -> None:
    """Count ``x`` into ``out.size`` equal bins over ``[lo, hi]``; values outside are ignored.

    Bin ``floor((v - lo) * bins / (hi - lo))`` in float64, ``v == hi`` in the last bin.

    Example:
        >>> out = np.zeros(2); histc(np.array([0.0, 0.6, 1.0, 2.0]), out, 0.0, 1.0); out.tolist()
        [1.0, 2.0]
    """
    bins = out.shape[0]
    v = x.astype(np.float64, copy=False)
    keep = (v >= lo) & (v <= hi)
    pos = np.minimum(((v[keep] - lo) * bins / (hi - lo)).astype(np.int64), bins - 1)
    np.add.at(out, pos, 1)


@register("value_range", "cpu", [ANY])
def value_range(x: np.ndarray, stream: object = None) -> tuple:
    """Return ``(min, max)`` of a non-empty array (NaN if any element is NaN).

    Example:
        >>> value_range(np.array([3, -1, 2]))
        (-1, 3)
    """
    return x.min().item(), x.max().item()


@register("unique_flags", "cpu", [(d, "bool") for d in SORTABLE])
def unique_flags(s: np.ndarray, flags: np.ndarray, stream: object = None) -> None:
    """Mark where a sorted 1-D ``s`` starts a new run of equal values (each NaN is its own run).

    Example:
        >>> f = np.empty(3, bool); unique_flags(np.array([1, 1, 2]), f); f.tolist()
        [True, False, True]
    """
    if s.size:
        flags[0] = True
        flags[1:] = s[1:] != s[:-1]


@register("unique_runs", "cpu", ["int64"])
def unique_runs(starts: np.ndarray, perm: np.ndarray, counts: np.ndarray, inverse: np.ndarray,
                stream: object = None) -> None:
    """From run starts of a sorted array, write run lengths and each source element's run.

    Args:
        starts: ``(u,)`` int64 run starts.
        perm: ``(n,)`` int64 sort permutation (sorted position -> source position).
        counts: ``(u,)`` int64 run lengths, overwritten.
        inverse: ``(n,)`` int64, ``inverse[perm[i]]`` = run of sorted position ``i``.
        stream: ignored on the CPU.

    Example:
        >>> c = np.empty(2, np.int64); inv = np.empty(3, np.int64)
        >>> unique_runs(np.array([0, 2]), np.array([2, 0, 1]), c, inv); c.tolist(), inv.tolist()
        ([2, 1], [0, 1, 0])
    """
    n = perm.shape[0]
    counts[...] = np.diff(np.append(starts, n))
    inverse[perm] = np.repeat(np.arange(starts.shape[0], dtype=np.int64), counts)
