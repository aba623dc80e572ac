"""CPU kernels for shape ops that compute values: the triangle mask of ``tril``/``triu``."""

from __future__ import annotations

import numpy as np

from ..registry import ANY, register


@register("triangle", "cpu", [ANY])
def triangle(src: np.ndarray, out: np.ndarray, k: int, lower: bool,
             stream: object = None) -> None:
    """Copy ``src`` (``(batch, rows, cols)``, any strides) keeping one triangle, zeroing the rest.

    Args:
        src: the input.
        out: same shape and dtype, overwritten.
        k: diagonal offset (0 main, > 0 above, < 0 below).
        lower: keep ``col - row <= k`` (``tril``), else ``col - row >= k`` (``triu``).
        stream: ignored on the CPU.

    Example:
        >>> out = np.empty((1, 2, 2)); triangle(np.ones((1, 2, 2)), out, 0, True); out[0].tolist()
        [[1.0, 0.0], [1.0, 1.0]]
    """
    out[...] = np.tril(src, k) if lower else np.triu(src, k)
