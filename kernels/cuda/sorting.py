"""CUDA sorting and searching kernels: row sort, searchsorted, bincount, histc, range, unique.

Same contracts as ``kernels/cpu/sorting.py``. Row sorts longer than
``SMALL_ROW`` run CuPy's stable sort on a real GPU (imported on first use); short
rows, the simulator and GPUs without CuPy run a stable per-row insertion sort
kernel (one thread a row), quadratic in the row length but one launch.
``unique_runs`` gives each element a thread that binary-searches its run, so a
long run of equal values costs no more than distinct ones.

topk and kthvalue take the row sort (``cupy.argpartition`` sorts fully, as
``cupy.argsort`` does), and unique the row sort plus ``unique_flags`` and
``unique_runs`` (the steps ``cupy.unique`` takes, without its extra passes for
the inverse).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

from ..common import search_math
from ..common.dtype_groups import SORTABLE
from ..registry import ANY, register
from ._launch import SIMULATED, THREADS, on, stream_pointer, to_host

RANGE_CHUNKS = 4 * THREADS
SMALL_ROW = 16
"""Longest row the insertion-sort kernel takes on a real GPU that has CuPy.

A thread sorts its row in at most ``n (n - 1) / 2`` compare-and-swaps (120 at
16, on a row that stays in cache) in a single launch. CuPy's last-axis sort
sorts all ``rows * n`` elements as (row, value) keys with Thrust: several
passes over the data, key and index temporaries, and a gather of the values
after the argsort; that only pays once the quadratic per-row work grows.
"""

_dev = search_math.build(cuda.jit(device=True))
_bound = _dev.bound
_insertion_sort_row = _dev.insertion_sort_row


def _cupy() -> Any:
    if SIMULATED:
        return None
    try:
        import cupy
    except ImportError:
        return None
    return cupy


def row_sort_path(n: int, have_cupy: bool) -> str:
    """Which sort takes rows of length ``n``: ``"cupy"`` or the insertion-sort ``"kernel"``.

    Example:
        >>> row_sort_path(8, True), row_sort_path(1000, True), row_sort_path(1000, False)
        ('kernel', 'cupy', 'kernel')
    """
    return "cupy" if have_cupy and n > SMALL_ROW else "kernel"


@cuda.jit
def gtensor_sort_rows(values, indices, descending):  # noqa: ANN001
    r = cuda.grid(1)
    step = cuda.gridsize(1)
    while r < values.shape[0]:
        _insertion_sort_row(values, indices, r, values.shape[1], descending)
        r += step


def _sort_rows_cupy(cp: Any, values: Any, indices: Any, descending: bool, stream: Any) -> None:
    with cp.cuda.ExternalStream(stream_pointer(stream)):
        v = cp.asarray(values)
        n = v.shape[1]
        if descending:
            order = n - 1 - cp.argsort(v[:, ::-1], axis=1)[:, ::-1]
        else:
            order = cp.argsort(v, axis=1)
        v[...] = cp.take_along_axis(v, order, axis=1)
        cp.asarray(indices)[...] = order


@register("sort_rows", "cuda", SORTABLE)
def sort_rows(values: Any, indices: Any, descending: bool, stream: Any = None) -> None:
    """Stable-sort each row of ``values`` in place; write each row's permutation to ``indices``.

    Args:
        values: contiguous ``(rows, n)`` device array, sorted in place.
        indices: ``(rows, n)`` int64 device array, overwritten.
        descending: largest first (NaN first), else smallest first (NaN last).
        stream: Numba stream (default stream when None).

    Example:
        >>> v = np.array([[2.0, 1.0, 2.0]]); ix = np.empty((1, 3), np.int64)
        >>> sort_rows(v, ix, True); ix.tolist()
        [[0, 2, 1]]
    """
    if values.size == 0:
        return
    cp = _cupy()
    if row_sort_path(values.shape[1], cp is not None) == "cupy":
        _sort_rows_cupy(cp, values, indices, bool(descending), stream)
        return
    on(gtensor_sort_rows, values.shape[0], stream)(values, indices, bool(descending))


@cuda.jit
def gtensor_searchsorted(seq, values, out, right):  # noqa: ANN001
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    q = values.shape[1]
    shared = seq.shape[0] == 1
    while i < out.size:
        r = i // q
        j = i % q
        out[r, j] = _bound(seq, 0 if shared else r, seq.shape[1], values[r, j], right)
        i += step


@register("searchsorted", "cuda", [(d, d) for d in SORTABLE])
def searchsorted(seq: Any, values: Any, out: Any, right: bool, stream: Any = None) -> None:
    """Write the insertion point of each ``values[r, j]`` in sorted row ``seq[r]`` to ``out``.

    Args:
        seq: ``(1 or rows, m)`` sorted device rows (NaN last).
        values: ``(rows, q)`` device values, ``seq``'s dtype.
        out: ``(rows, q)`` int64 device array, overwritten.
        right: insert after equal values instead of before.
        stream: Numba stream (default stream when None).

    Example:
        >>> out = np.empty((1, 2), np.int64)
        >>> searchsorted(np.array([[1, 3]]), np.array([[3, 0]]), out, False); out.tolist()
        [[1, 0]]
    """
    if out.size:
        on(gtensor_searchsorted, out.size, stream)(seq, values, out, bool(right))


@cuda.jit
def gtensor_bincount(x, weights, out, weighted):  # noqa: ANN001
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < x.shape[0]:
        cuda.atomic.add(out, x[i], weights[i] if weighted else 1)
        i += step


@register("bincount", "cuda", [("int64", ANY)])
def bincount(x: Any, weights: Any, out: Any, stream: Any = None) -> None:
    """Add ``weights[i]`` (or 1) into ``out[x[i]]``; ``out`` starts zeroed, ``x`` is in range.

    ``out`` is int64 without weights, else float32 or float64 (atomic adds).

    Example:
        >>> out = np.zeros(3, np.int64); bincount(np.array([0, 2, 2]), None, out); out.tolist()
        [1, 0, 2]
    """
    n = x.shape[0]
    if n == 0:
        return
    weighted = weights is not None
    on(gtensor_bincount, n, stream)(x, weights if weighted else x, out, weighted)


@cuda.jit
def gtensor_histc(x, out, lo, hi):  # noqa: ANN001
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    bins = out.shape[0]
    while i < x.shape[0]:
        v = np.float64(x[i])
        if v >= lo and v <= hi:
            pos = min(int((v - lo) * bins / (hi - lo)), bins - 1)
            cuda.atomic.add(out, pos, 1)
        i += step


@register("histc", "cuda", ["float32", "float64"])
def histc(x: Any, out: Any, lo: float, hi: float, stream: Any = None) -> None:
    """Count ``x`` into ``out.size`` equal bins over ``[lo, hi]``; values outside are ignored.

    Example:
        >>> out = np.zeros(2); histc(np.array([0.0, 0.6, 1.0, 2.0]), out, 0.0, 1.0); out.tolist()
        [1.0, 2.0]
    """
    if x.shape[0]:
        on(gtensor_histc, x.shape[0], stream)(x, out, float(lo), float(hi))


@cuda.jit
def gtensor_value_range(x, chunk, lows, highs):  # noqa: ANN001
    t = cuda.grid(1)
    if t < lows.shape[0]:
        start = t * chunk
        lo = x[start]
        hi = x[start]
        for i in range(start, min(start + chunk, x.shape[0])):
            v = x[i]
            if v != v:
                lo = v
                hi = v
                break
            lo = min(lo, v)
            hi = max(hi, v)
        lows[t] = lo
        highs[t] = hi


@register("value_range", "cuda", [ANY])
def value_range(x: Any, stream: Any = None) -> tuple:
    """Return ``(min, max)`` of a non-empty contiguous array (NaN if any element is NaN).

    Each thread reduces one chunk; the host reduces the chunk results.

    Example:
        >>> value_range(np.array([3, -1, 2]))
        (-1, 3)
    """
    n = x.size
    s = 0 if stream is None else stream
    flat = x.reshape(n)
    chunk = -(-n // RANGE_CHUNKS)
    nchunks = -(-n // chunk)
    lows = cuda.device_array(nchunks, x.dtype, stream=s)
    highs = cuda.device_array(nchunks, x.dtype, stream=s)
    on(gtensor_value_range, nchunks, stream)(flat, chunk, lows, highs)
    return to_host(lows, stream).min().item(), to_host(highs, stream).max().item()


@cuda.jit
def gtensor_unique_flags(s, flags):  # noqa: ANN001
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < s.shape[0]:
        if i == 0:
            flags[i] = True
        else:
            flags[i] = s[i] != s[i - 1]
        i += step


@register("unique_flags", "cuda", [(d, "bool") for d in SORTABLE])
def unique_flags(s: Any, flags: Any, stream: Any = None) -> None:
    """Mark where a sorted 1-D ``s`` starts a new run of equal values (each NaN is its own run).

    Example:
        >>> f = np.empty(3, bool); unique_flags(np.array([1, 1, 2]), f); f.tolist()
        [True, False, True]
    """
    if s.shape[0]:
        on(gtensor_unique_flags, s.shape[0], stream)(s, flags)


@cuda.jit
def gtensor_unique_runs(starts, perm, counts, inverse):  # noqa: ANN001
    g = cuda.grid(1)
    step = cuda.gridsize(1)
    u = starts.shape[1]
    n = perm.shape[0]
    i = g
    while i < n:  # the run of sorted position i: the last start at or before it
        inverse[perm[i]] = _bound(starts, 0, u, i, True) - 1
        i += step
    while g < u:
        counts[g] = (starts[0, g + 1] if g + 1 < u else n) - starts[0, g]
        g += step


@register("unique_runs", "cuda", ["int64"])
def unique_runs(starts: Any, perm: Any, counts: Any, inverse: Any, stream: Any = None) -> None:
    """From run starts of a sorted array, write run lengths and each source element's run.

    Example:
        >>> c = np.empty(2, np.int64); inv = np.empty(3, np.int64)
        >>> unique_runs(np.array([0, 2]), np.array([2, 0, 1]), c, inv); c.tolist(), inv.tolist()
        ([2, 1], [0, 1, 0])
    """
    u = starts.shape[0]
    if u:
        on(gtensor_unique_runs, max(u, perm.shape[0]), stream)(starts.reshape(1, u), perm, counts,
                                                                inverse)
