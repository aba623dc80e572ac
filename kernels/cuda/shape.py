"""CUDA kernels for shape ops that compute values: the triangle mask of ``tril``/``triu``."""

from __future__ import annotations

from typing import Any

from numba import cuda

from ..registry import ANY, register
from ._launch import on


@cuda.jit
def gtensor_triangle(src, out, k, lower):  # noqa: ANN001
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    rows = out.shape[1]
    cols = out.shape[2]
    while i < out.size:
        b = i // (rows * cols)
        r = (i // cols) % rows
        c = i % cols
        keep = c - r <= k if lower else c - r >= k
        out[b, r, c] = src[b, r, c] if keep else 0
        i += step


@register("triangle", "cuda", [ANY])
def triangle(src: Any, out: Any, k: int, lower: bool, stream: Any = None) -> None:
    """Copy ``src`` (``(batch, rows, cols)``, any strides) keeping one triangle, zeroing the rest.

    Args:
        src: the input device array.
        out: same shape and dtype, overwritten.
        k: diagonal offset (0 main, > 0 above, < 0 below).
        lower: keep ``col - row <= k`` (``tril``), else ``col - row >= k`` (``triu``).
        stream: Numba stream (default stream when None).

    Example:
        >>> out = np.empty((1, 2, 2)); triangle(np.ones((1, 2, 2)), out, 0, True); out[0].tolist()
        [[1.0, 0.0], [1.0, 1.0]]
    """
    if out.size == 0:
        return
    on(gtensor_triangle, out.size, stream)(src, out, int(k), bool(lower))
