"""Sampling on top of Philox: tensor-p Bernoulli, dropout masks, exponential keys, categoricals.

Written once over the compiled Philox device functions and compiled per
target by :func:`build`, like ``common/philox.py``; each ``fill_*`` function
writes all values of one counter in the layout that module describes, so one
seed gives the same draws on every device. Bernoulli draws and dropout masks
take four values per counter (32-bit uniforms ``x * 2**-32``); exponential
keys and categorical draws take two (53-bit uniforms from word pairs).
"""

from __future__ import annotations

import math
import types
from collections.abc import Callable

import numpy as np

from .jit_build import build_functions
from .philox import FOUR, GROUP2_U, GROUP3_U, GROUP_U, TWO

# Bound to the compiled Philox functions by build().
block = first_value = unit32 = unit53_parts = put = None


def bernoulli_at(out, i, n, u, p):  # noqa: ANN001, ANN201
    """Store ``u < p[i]`` at ``out[i]`` when ``i < n``.

    Example:
        >>> a = np.zeros(1, np.bool_)
        >>> bernoulli_at(a, np.uint64(0), np.uint64(1), 0.25, np.array([0.5])); a.tolist()
        [True]
    """
    if i < n:
        out[i] = u < p[i]


def fill_bernoulli_tensor(out, j, k0, k1, o0, o1, p):  # noqa: ANN001, ANN201
    """Write counter ``j``'s four draws ``u < p[i]`` into ``out`` (``p`` has ``out``'s length).

    Example:
        >>> from kernels.common import philox
        >>> ns, z = build(lambda f: f, philox.build(lambda f: f)), np.uint64(0)
        >>> a, p = np.zeros(128, np.bool_), np.ones(128)
        >>> ns.fill_bernoulli_tensor(a, z, z, z, z, z, p); np.flatnonzero(a).tolist()
        [0, 32, 64, 96]
    """
    x0, x1, x2, x3 = block(j, k0, k1, o0, o1)
    n = np.uint64(out.size)
    i = first_value(j, FOUR)
    bernoulli_at(out, i, n, unit32(x0), p)
    bernoulli_at(out, i + GROUP_U, n, unit32(x1), p)
    bernoulli_at(out, i + GROUP2_U, n, unit32(x2), p)
    bernoulli_at(out, i + GROUP3_U, n, unit32(x3), p)


def fill_dropout(out, j, k0, k1, o0, o1, keep, scale):  # noqa: ANN001, ANN201
    """Write counter ``j``'s four mask values: ``scale`` when ``u < keep``, else 0.

    Example:
        >>> from kernels.common import philox
        >>> ns, z = build(lambda f: f, philox.build(lambda f: f)), np.uint64(0)
        >>> a = np.zeros(128); ns.fill_dropout(a, z, z, z, z, z, 1.0, 2.0); a[::32].tolist()
        [2.0, 2.0, 2.0, 2.0]
    """
    x0, x1, x2, x3 = block(j, k0, k1, o0, o1)
    n = np.uint64(out.size)
    i = first_value(j, FOUR)
    put(out, i, n, scale if unit32(x0) < keep else 0.0)
    put(out, i + GROUP_U, n, scale if unit32(x1) < keep else 0.0)
    put(out, i + GROUP2_U, n, scale if unit32(x2) < keep else 0.0)
    put(out, i + GROUP3_U, n, scale if unit32(x3) < keep else 0.0)


def exponential_key(u, w):  # noqa: ANN001, ANN201
    """Return ``E / w`` for the standard exponential ``E = -log(1 - u)`` (``inf`` when ``w <= 0``).

    The ``k`` smallest keys of a row are a weighted sample without replacement.

    Example:
        >>> exponential_key(0.5, 0.0)
        inf
    """
    if not w > 0.0:
        return math.inf
    return -math.log(1.0 - u) / w


def keys_at(out, i, n, u, w):  # noqa: ANN001, ANN201
    """Store the exponential key of ``u`` and ``w[i]`` at ``out[i]`` when ``i < n``.

    Example:
        >>> a = np.zeros(1); keys_at(a, np.uint64(0), np.uint64(1), 0.5, np.ones(1))
        >>> bool(a[0] == math.log(2.0))
        True
    """
    if i < n:
        out[i] = exponential_key(u, w[i])


def fill_exponential_keys(out, j, k0, k1, o0, o1, w):  # noqa: ANN001, ANN201
    """Write counter ``j``'s two keys ``E / w[i]`` into ``out`` (``w`` has ``out``'s length).

    Example:
        >>> from kernels.common import philox
        >>> ns, z = build(lambda f: f, philox.build(lambda f: f)), np.uint64(0)
        >>> a = np.zeros(64); ns.fill_exponential_keys(a, z, z, z, z, z, np.zeros(64))
        >>> np.flatnonzero(np.isinf(a)).tolist()
        [0, 32]
    """
    x0, x1, x2, x3 = block(j, k0, k1, o0, o1)
    n = np.uint64(out.size)
    i = first_value(j, TWO)
    hi, lo = unit53_parts(x0, x1)
    keys_at(out, i, n, hi + lo, w)
    hi, lo = unit53_parts(x2, x3)
    keys_at(out, i + GROUP_U, n, hi + lo, w)


def categorical(probs, row, u):  # noqa: ANN001, ANN201
    """Draw a category of ``probs[row]`` (non-negative weights) with the uniform ``u``.

    Returns the first category whose running sum exceeds ``u * total``; a
    zero-weight category is never drawn. Returns -1 for an all-zero row.

    Example:
        >>> int(categorical(np.array([[0.0, 1.0]]), 0, 0.0))
        1
    """
    c = probs.shape[1]
    total = 0.0
    last = -1
    for k in range(c):
        total += probs[row, k]
        if probs[row, k] > 0.0:
            last = k
    if not total > 0.0:
        return -1
    target = u * total
    acc = 0.0
    for k in range(c):
        acc += probs[row, k]
        if acc > target and probs[row, k] > 0.0:
            return k
    return last


def categorical_at(probs, out, i, n, u):  # noqa: ANN001, ANN201
    """Store a draw from row ``i // out.shape[1]`` at flat position ``i`` of ``out`` when ``i < n``.

    Example:
        >>> a = np.zeros((1, 1), np.int64)
        >>> categorical_at(np.array([[0.0, 1.0]]), a, np.uint64(0), np.uint64(1), 0.5); a.tolist()
        [[1]]
    """
    if i < n:
        s = np.uint64(out.shape[1])
        row = i // s
        out[row, i - row * s] = categorical(probs, row, u)


def fill_categorical(probs, out, j, k0, k1, o0, o1):  # noqa: ANN001, ANN201
    """Write counter ``j``'s two draws into ``out`` (flat position ``r * out.shape[1] + c``).

    Example:
        >>> from kernels.common import philox
        >>> ns, z = build(lambda f: f, philox.build(lambda f: f)), np.uint64(0)
        >>> a = np.zeros((2, 32), np.int64)
        >>> ns.fill_categorical(np.array([[0.0, 3.0]] * 2), a, z, z, z, z, z); a[:, 0].tolist()
        [1, 1]
    """
    x0, x1, x2, x3 = block(j, k0, k1, o0, o1)
    n = np.uint64(out.size)
    i = first_value(j, TWO)
    hi, lo = unit53_parts(x0, x1)
    categorical_at(probs, out, i, n, hi + lo)
    hi, lo = unit53_parts(x2, x3)
    categorical_at(probs, out, i + GROUP_U, n, hi + lo)


DEVICE_FUNCTIONS = ("bernoulli_at", "fill_bernoulli_tensor", "fill_dropout", "exponential_key",
                    "keys_at", "fill_exponential_keys", "categorical", "categorical_at",
                    "fill_categorical")
BOUND = ("block", "first_value", "unit32", "unit53_parts", "put")


def build(jit: Callable[[Callable], Callable], philox_ns: object) -> types.SimpleNamespace:
    """Compile the sampling functions with ``jit`` over a compiled Philox namespace.

    Args:
        jit: ``numba.njit`` or ``numba.cuda.jit(device=True)``.
        philox_ns: the matching result of ``common.philox.build``.

    Example:
        >>> import numba
        >>> from kernels.common import philox
        >>> ns = build(numba.njit, philox.build(numba.njit))
        >>> ns.exponential_key(0.5, 0.0)
        inf
    """
    return build_functions(globals(), DEVICE_FUNCTIONS, jit,
                           {name: getattr(philox_ns, name) for name in BOUND})
