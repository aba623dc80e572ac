"""CPU softmax/log_softmax of C-contiguous arrays, and both backwards, in vectorized passes.

Forward (float32/float64, called by ``axis_ops``): along the last axis, per
row a max (eight running maxima, so the loop pipelines), ``exp(x - max)`` into
the output with :mod:`.fast_math`'s vectorizable ``exp`` (float32 data in
float32 with FMAs, float64 in float64), their sum in float64 (its loop
vectorized by reassociation), then one pass writing ``e * (1 / sum)`` or
``(x - max) - log(sum)`` in the data's precision. Along an inner axis the same
passes run over blocks of ``COLUMNS`` adjacent lines, each step along the axis
a contiguous run (per-line maxima and sums in small arrays). A line with a
NaN, a ``+inf`` or only ``-inf`` gives NaN everywhere, as the strided kernel
does.

Backward (``softmax_backward`` / ``log_softmax_backward``, ``kernel(y, g, out,
axis, stream=None)``, all three C-contiguous of one shape, ``y`` the forward's
output): per line ``y * (g - sum(g * y))`` or ``g - exp(y) * sum(g)`` with the
sum in float64, over rows or (an inner axis) blocks of ``COLUMNS`` lines as
in the forward. Rows and blocks run in parallel above ``PARALLEL_MIN``
elements.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange, types
from numba.extending import overload

from ..common.dtype_groups import FLOAT
from ..registry import register
from ._elementwise_build import _JIT, PARALLEL_MIN
from .fast_math import exp, exp_nonpositive32

_SUM_JIT = {**_JIT, "fastmath": {"reassoc"}}
_FMA_JIT = {**_JIT, "fastmath": {"contract"}}  # fused multiply-adds in the exp polynomials


@njit(**_JIT)
def row_max(x):  # noqa: ANN001, ANN201
    """The max of a nonempty row, NaN ignored (NaN reaches the result through the sum)."""
    n = x.size
    m0 = m1 = m2 = m3 = m4 = m5 = m6 = m7 = x[0]
    j = 0
    while j + 8 <= n:
        m0 = x[j] if x[j] > m0 else m0
        m1 = x[j + 1] if x[j + 1] > m1 else m1
        m2 = x[j + 2] if x[j + 2] > m2 else m2
        m3 = x[j + 3] if x[j + 3] > m3 else m3
        m4 = x[j + 4] if x[j + 4] > m4 else m4
        m5 = x[j + 5] if x[j + 5] > m5 else m5
        m6 = x[j + 6] if x[j + 6] > m6 else m6
        m7 = x[j + 7] if x[j + 7] > m7 else m7
        j += 8
    while j < n:
        m0 = x[j] if x[j] > m0 else m0
        j += 1
    return max(max(max(m0, m1), max(m2, m3)), max(max(m4, m5), max(m6, m7)))


@njit(**_SUM_JIT)
def row_sum(e):  # noqa: ANN001, ANN201
    """The float64 sum of a row."""
    s = 0.0
    for j in range(e.size):
        s += e[j]
    return s


@njit(**_SUM_JIT)
def row_dot(a, b):  # noqa: ANN001, ANN201
    """The float64 sum of ``a * b`` over a row."""
    s = 0.0
    for j in range(a.size):
        s += np.float64(a[j]) * b[j]
    return s


def exp_shifted(d):  # noqa: ANN001, ANN201 - compiled helper
    """``exp(d)`` for ``d <= 0`` in ``d``'s precision (0 where it underflows)."""
    return math.exp(d)


@overload(exp_shifted, jit_options={"error_model": "numpy"})
def _exp_shifted_overload(d):  # noqa: ANN001, ANN202
    if d == types.float32:
        return lambda d: exp_nonpositive32(d)
    return lambda d: 0.0 if d < -745.0 else exp(d)


@njit(**_FMA_JIT)
def _exp_shifted(x, m, out):  # noqa: ANN001, ANN202
    for j in range(x.size):
        out[j] = exp_shifted(x[j] - m)


@njit(**_JIT)
def _scale(out, inv):  # noqa: ANN001, ANN202
    for j in range(out.size):
        out[j] *= inv


@njit(**_JIT)
def _log_shift(x, m, lse, out):  # noqa: ANN001, ANN202
    for j in range(x.size):
        out[j] = (x[j] - m) - lse


@njit(**_JIT)
def softmax_row(x, out, log):  # noqa: ANN001, ANN201
    """Softmax (or log-softmax) of one contiguous row into ``out`` (the row's exps first)."""
    m = row_max(x)
    _exp_shifted(x, m, out)
    total = row_sum(out)
    if log:
        _log_shift(x, m, x.dtype.type(math.log(total)), out)
    else:
        _scale(out, out.dtype.type(1.0 / total))


def gtensor_softmax_rows(x, out, rows, length, log):  # noqa: ANN001, ANN201
    for i in prange(rows):
        softmax_row(x[i * length:(i + 1) * length], out[i * length:(i + 1) * length], log)


_FORWARD = (njit(**_JIT)(gtensor_softmax_rows), njit(parallel=True, **_JIT)(gtensor_softmax_rows))


@njit(**_FMA_JIT)
def softmax_columns(x, out, base, length, inner, width, log):  # noqa: ANN001, ANN201
    """Softmax (or log-softmax) of ``width`` adjacent lines ``inner`` apart (an inner axis)
    starting at ``base``: each pass runs along contiguous runs of ``width`` elements."""
    m = x[base:base + width].copy()
    total = np.zeros(width, np.float64)
    for j in range(1, length):
        xr = x[base + j * inner:base + j * inner + width]
        for q in range(width):
            m[q] = xr[q] if xr[q] > m[q] else m[q]
    for j in range(length):
        xr = x[base + j * inner:base + j * inner + width]
        orow = out[base + j * inner:base + j * inner + width]
        for q in range(width):
            e = exp_shifted(xr[q] - m[q])
            orow[q] = e
            total[q] += e
    shift = np.empty(width, x.dtype)
    for q in range(width):
        shift[q] = math.log(total[q]) if log else 1.0 / total[q]
    for j in range(length):
        xr = x[base + j * inner:base + j * inner + width]
        orow = out[base + j * inner:base + j * inner + width]
        if log:
            for q in range(width):
                orow[q] = (xr[q] - m[q]) - shift[q]
        else:
            for q in range(width):
                orow[q] *= shift[q]


def gtensor_softmax_columns(x, out, outer, length, inner, log):  # noqa: ANN001, ANN201
    blocks = -(-inner // COLUMNS)
    for task in prange(outer * blocks):
        o = task // blocks
        lo = (task - o * blocks) * COLUMNS
        softmax_columns(x, out, o * length * inner + lo, length, inner,
                        min(COLUMNS, inner - lo), log)


COLUMNS = 64  # lines a task of the inner-axis kernel takes: wide vectors, 64 x length in cache
_COLUMNS = (njit(**_JIT)(gtensor_softmax_columns),
            njit(parallel=True, **_JIT)(gtensor_softmax_columns))


def softmax_contiguous(x: np.ndarray, out: np.ndarray, axis: int, log: bool) -> None:
    """Softmax (``log``: log-softmax) along ``axis`` of C-contiguous ``x`` into C-contiguous
    ``out``: row passes for the last axis, column blocks for an inner one.

    Example:
        >>> out = np.empty((2, 1))
        >>> softmax_contiguous(np.zeros((2, 1)), out, 0, False)
        >>> out.tolist()
        [[0.5], [0.5]]
    """
    axis %= x.ndim
    length = x.shape[axis]
    inner = math.prod(x.shape[axis + 1:])
    outer = x.size // (length * inner)
    xf, of = x.reshape(-1), out.reshape(-1)
    if inner == 1:
        _FORWARD[x.size >= PARALLEL_MIN and outer > 1](xf, of, outer, length, log)
    else:
        tasks = outer * -(-inner // COLUMNS)
        _COLUMNS[x.size >= PARALLEL_MIN and tasks > 1](xf, of, outer, length, inner, log)


@njit(**_FMA_JIT)
def _grad_columns(y, g, out, base, length, inner, width, log):  # noqa: ANN001, ANN202
    """The backward over ``width`` adjacent lines ``inner`` apart, in contiguous runs."""
    total = np.zeros(width, np.float64)
    for j in range(length):
        lo = base + j * inner
        gr = g[lo:lo + width]
        yr = y[lo:lo + width]
        for q in range(width):
            total[q] += gr[q] if log else np.float64(gr[q]) * yr[q]
    s = total.astype(y.dtype)
    for j in range(length):
        lo = base + j * inner
        gr = g[lo:lo + width]
        yr = y[lo:lo + width]
        orow = out[lo:lo + width]
        if log:
            for q in range(width):
                orow[q] = gr[q] - exp_shifted(yr[q]) * s[q]
        else:
            for q in range(width):
                orow[q] = yr[q] * (gr[q] - s[q])


@njit(**_FMA_JIT)
def _grad_row(y, g, out, log):  # noqa: ANN001, ANN202
    if log:
        s = y.dtype.type(row_sum(g))
        for j in range(y.size):
            out[j] = g[j] - exp_shifted(y[j]) * s
    else:
        s = y.dtype.type(row_dot(g, y))
        for j in range(y.size):
            out[j] = y[j] * (g[j] - s)


def gtensor_softmax_grad(y, g, out, outer, length, inner, log):  # noqa: ANN001, ANN201
    if inner == 1:
        for i in prange(outer):
            lo = i * length
            _grad_row(y[lo:lo + length], g[lo:lo + length], out[lo:lo + length], log)
    else:
        blocks = -(-inner // COLUMNS)
        for task in prange(outer * blocks):
            o = task // blocks
            lo = (task - o * blocks) * COLUMNS
            _grad_columns(y, g, out, o * length * inner + lo, length, inner,
                          min(COLUMNS, inner - lo), log)


_BACKWARD = (njit(**_JIT)(gtensor_softmax_grad), njit(parallel=True, **_JIT)(gtensor_softmax_grad))


def _backward(log: bool, y: np.ndarray, g: np.ndarray, out: np.ndarray, axis: int,
              stream: object = None) -> None:
    if out.size == 0:
        return
    axis %= out.ndim
    length = out.shape[axis]
    inner = math.prod(out.shape[axis + 1:])
    outer = out.size // (length * inner)
    tasks = outer if inner == 1 else outer * -(-inner // COLUMNS)
    _BACKWARD[out.size >= PARALLEL_MIN and tasks > 1](
        y.reshape(-1), g.reshape(-1), out.reshape(-1), outer, length, inner, log)


@register("softmax_backward", "cpu", FLOAT)
def softmax_backward(y: np.ndarray, g: np.ndarray, out: np.ndarray, axis: int,
                     stream: object = None) -> None:
    """``y * (g - sum(g * y, axis))`` into ``out`` (all C-contiguous, one shape).

    Example:
        >>> out = np.empty(2)
        >>> softmax_backward(np.array([0.5, 0.5]), np.array([1.0, 0.0]), out, 0)
        >>> out.tolist()
        [0.25, -0.25]
    """
    _backward(False, y, g, out, axis)


@register("log_softmax_backward", "cpu", FLOAT)
def log_softmax_backward(y: np.ndarray, g: np.ndarray, out: np.ndarray, axis: int,
                         stream: object = None) -> None:
    """``g - exp(y) * sum(g, axis)`` into ``out`` (all C-contiguous, one shape).

    Example:
        >>> out = np.empty(2)
        >>> log_softmax_backward(np.log([0.5, 0.5]), np.array([1.0, 0.0]), out, 0)
        >>> [round(v, 6) for v in out.tolist()]
        [0.5, -0.5]
    """
    _backward(True, y, g, out, axis)
