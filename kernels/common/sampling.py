"""Per-element sampling math on top of Philox (categorical draws, exponential keys).

Written once over the compiled Philox device functions and compiled per
target by :func:`build`, like ``common/philox.py``. Element ``i`` reads
counter ``offset + i`` only, so one seed gives the same draws on every device.
"""

from __future__ import annotations

import math
import types
from collections.abc import Callable

from .jit_build import build_functions

uniform_value = None  # bound to the compiled Philox function by build()


def unit53(i, k0, k1, o0, o1):  # noqa: ANN001, ANN201
    """Return element ``i``'s 53-bit uniform in [0, 1).

    Example:
        >>> import numpy as np; from kernels.common import philox
        >>> ns = build(lambda f: f, philox)
        >>> 0.0 <= ns.unit53(np.uint64(0), *(np.uint64(0),) * 4) < 1.0
        True
    """
    return uniform_value(i, k0, k1, o0, o1, True, 0.0, 1.0, 0.0, 0.0)


def exponential_key(i, k0, k1, o0, o1, w):  # noqa: ANN001, ANN201
    """Return ``E / w`` for a standard exponential ``E`` (``inf`` when ``w <= 0``).

    The ``k`` smallest keys of a row are a weighted sample without replacement.

    Example:
        >>> import numpy as np; from kernels.common import philox
        >>> ns = build(lambda f: f, philox)
        >>> ns.exponential_key(np.uint64(0), *(np.uint64(0),) * 4, 0.0)
        inf
    """
    if not w > 0.0:
        return math.inf
    return -math.log(1.0 - unit53(i, k0, k1, o0, o1)) / w


def categorical(probs, row, i, k0, k1, o0, o1):  # noqa: ANN001, ANN201
    """Draw a category of ``probs[row]`` (non-negative weights) with element ``i``'s uniform.

    Returns the first category whose running sum exceeds ``u * total``; a
    zero-weight category is never drawn. Returns -1 for an all-zero row.

    Example:
        >>> import numpy as np; from kernels.common import philox
        >>> ns = build(lambda f: f, philox)
        >>> int(ns.categorical(np.array([[0.0, 1.0]]), 0, np.uint64(0), *(np.uint64(0),) * 4))
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
    target = unit53(i, k0, k1, o0, o1) * total
    acc = 0.0
    for k in range(c):
        acc += probs[row, k]
        if acc > target and probs[row, k] > 0.0:
            return k
    return last


DEVICE_FUNCTIONS = ("unit53", "exponential_key", "categorical")


def build(jit: Callable[[Callable], Callable], philox_ns: object) -> types.SimpleNamespace:
    """Compile the sampling functions with ``jit`` over a compiled Philox namespace.

    Args:
        jit: ``numba.njit`` or ``numba.cuda.jit(device=True)``.
        philox_ns: the matching result of ``common.philox.build``.

    Example:
        >>> import numba
        >>> from kernels.common import philox
        >>> ns = build(numba.njit, philox.build(numba.njit))  # doctest: +SKIP
    """
    return build_functions(globals(), DEVICE_FUNCTIONS, jit,
                           {"uniform_value": philox_ns.uniform_value})
