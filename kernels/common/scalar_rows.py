"""Per-row bodies of the axis ops (cumsum/cumprod, softmax/log_softmax), written once.

Each works on one line of ``L`` elements along the op's axis, read from a flat
buffer at offset ``px`` with stride ``sx`` and written at ``po`` with stride
``so``; both backends compile it (``njit`` / CUDA device function) and call it
once per line.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def scan_row(x, px, sx, out, po, so, length, acc, is_prod):  # noqa: ANN001, ANN201
    """Inclusive running sum or product; ``acc`` starts as the identity (wider dtype)."""
    for j in range(length):
        v = x[px + j * sx]
        acc = acc * v if is_prod else acc + v
        out[po + j * so] = acc


def softmax_row(x, px, sx, out, po, so, length, log):  # noqa: ANN001, ANN201
    """Softmax (or log-softmax) of one line, stable on large logits: shifted by the max."""
    m = x[px]
    for j in range(1, length):
        v = x[px + j * sx]
        if v > m or v != v:
            m = v
    total = 0.0
    for j in range(length):
        total += math.exp(x[px + j * sx] - m)
    if log:
        shift = m + math.log(total)
        for j in range(length):
            out[po + j * so] = x[px + j * sx] - shift
    else:
        inv = 1.0 / total
        for j in range(length):
            out[po + j * so] = math.exp(x[px + j * sx] - m) * inv


def scan_start(x: Any, is_prod: bool) -> tuple[Any, bool]:
    """The running accumulator's identity (float64 for floats, int64 otherwise) and the flag.

    Example:
        >>> scan_start(np.zeros(2, np.int8), True)
        (np.int64(1), True)
    """
    wide = np.float64 if np.dtype(x.dtype).kind == "f" else np.int64
    return wide(1 if is_prod else 0), is_prod
