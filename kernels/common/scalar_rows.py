"""Per-row bodies of the axis ops (cumsum/cumprod, softmax/log_softmax), written once.

Each works on one line of ``L`` elements along the op's axis, read from a flat
buffer at offset ``px`` with stride ``sx`` and written at ``po`` with stride
``so``; both backends compile it (``njit`` / CUDA device function) and call it
once per line. ``online_add``, ``online_merge`` and ``softmax_total`` are the
one-read softmax statistics (a running max and a rescaled sum) that the CUDA
kernels fold per thread and merge across threads and chunks.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba.extending import register_jitable

from .scalar_reduce import wide_integer


@register_jitable(inline="always")
def as_is(v):  # noqa: ANN001, ANN201
    """The load and store of a row body over values (half-precision rows rebind them)."""
    return v


ld = st = as_is


def scan_row(x, px, sx, out, po, so, length, acc, is_prod):  # noqa: ANN001, ANN201
    """Inclusive running sum or product; ``acc`` starts as the identity (wider dtype).

    Elements are read through ``ld`` and written through ``st`` (see ``softmax_row``).
    """
    for j in range(length):
        v = ld(x[px + j * sx])
        acc = acc * v if is_prod else acc + v
        out[po + j * so] = st(acc)


def softmax_row(x, px, sx, out, po, so, length, log):  # noqa: ANN001, ANN201
    """Softmax (or log-softmax) of one line, stable on large logits: shifted by the max.

    Elements are read through ``ld`` and results written through ``st``
    (``as_is`` here; a half-precision kernel rebinds them to its bit conversions).
    """
    m = ld(x[px])
    for j in range(1, length):
        v = ld(x[px + j * sx])
        if v > m or v != v:
            m = v
    total = 0.0
    for j in range(length):
        total += math.exp(ld(x[px + j * sx]) - m)
    if log:
        shift = m + math.log(total)
        for j in range(length):
            out[po + j * so] = st(ld(x[px + j * sx]) - shift)
    else:
        inv = 1.0 / total
        for j in range(length):
            out[po + j * so] = st(math.exp(ld(x[px + j * sx]) - m) * inv)


def online_add(m, s, v):  # noqa: ANN001, ANN201
    """Fold element ``v`` into a running max ``m`` and a sum ``s`` of ``exp(. - m)``.

    ``s`` (float64) is rescaled when the max grows. Start from ``(-inf, 0.0)``.
    The pair is exact only for a line whose max is finite: a NaN max stays NaN,
    and ``softmax_total`` turns any other max into a NaN total, as the two-pass
    softmax does.

    Example:
        >>> online_add(np.float64(1.0), 1.0, np.float64(1.0))
        (np.float64(1.0), 2.0)
    """
    if v > m:
        return v, s * math.exp(np.float64(m) - np.float64(v)) + 1.0
    if v != v:
        return v, s
    if v > -math.inf:
        s += math.exp(v - m)
    return m, s


def online_merge(m1, s1, m2, s2):  # noqa: ANN001, ANN201
    """Merge two ``(max, sum)`` pairs of ``online_add``; ``(-inf, 0.0)`` is the identity.

    Example:
        >>> online_merge(np.float64(0.0), 1.0, np.float64(0.0), 1.0)
        (np.float64(0.0), 2.0)
    """
    if m2 > m1:
        m1, s1, m2, s2 = m2, s2, m1, s1
    elif m2 != m2:
        return m2, s2
    if m2 > -math.inf:
        s1 += s2 * math.exp(np.float64(m2) - np.float64(m1))
    return m1, s1


def softmax_total(m, s):  # noqa: ANN001, ANN201
    """The line's sum of ``exp(x - m)`` from the merged pair: NaN unless the max is finite.

    Example:
        >>> softmax_total(np.float32(np.inf), 1.0)
        nan
    """
    if m > -math.inf and m < math.inf:
        return s
    return math.nan


def scan_start(x: Any, is_prod: bool) -> tuple[Any, bool]:
    """The running accumulator's identity and the flag.

    The accumulator is float64 for floats, complex128 for complex numbers, else
    :func:`.scalar_reduce.wide_integer`'s.

    Example:
        >>> scan_start(np.zeros(2, np.int8), True)
        (np.int64(1), True)
    """
    kind = np.dtype(x.dtype).kind
    wide = {"f": np.float64, "c": np.complex128}.get(kind) or wide_integer(x.dtype).type
    return wide(1 if is_prod else 0), is_prod
