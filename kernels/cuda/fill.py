"""CUDA fill and arange kernels."""

from __future__ import annotations

from typing import Any

from numba import cuda

from ..common.strided import collapse
from ..registry import ANY, register
from ._launch import flat_operand, on
from .copy import strided_offset


@cuda.jit
def gtensor_fill(n, shape, out, off, strides, value):  # noqa: ANN001
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < n:
        out[strided_offset(i, shape, off, strides)] = value
        i += step


@cuda.jit
def gtensor_arange(out, start, step):  # noqa: ANN001
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < out.shape[0]:
        out[i] = start + i * step
        i += stride


@register("fill", "cuda", [ANY])
def gtensor_fill_cuda(out: Any, value: Any, stream: Any = None) -> None:
    """Set every element of ``out`` (any strides) to ``value``.

    Example:
        >>> out = np.empty((2, 3))[:, ::2]; gtensor_fill_cuda(out, 2.0); out.tolist()
        [[2.0, 2.0], [2.0, 2.0]]
    """
    n = out.size
    if n == 0:
        return
    flat, off, strides = flat_operand(out)
    shape, (strides,) = collapse(out.shape, [strides])
    on(gtensor_fill, n, stream)(n, shape, flat, off, strides, out.dtype.type(value))


@register("arange", "cuda", [ANY])
def gtensor_arange_cuda(out: Any, start: float, step: float, stream: Any = None) -> None:
    """Write ``start + i * step`` into the contiguous 1-D ``out``.

    Example:
        >>> out = np.empty(4); gtensor_arange_cuda(out, 1.0, 0.5); out.tolist()
        [1.0, 1.5, 2.0, 2.5]
    """
    if out.shape[0] == 0:
        return
    if out.dtype.kind in "fb":
        start, step = float(start), float(step)
    else:
        start, step = int(start), int(step)
    on(gtensor_arange, out.shape[0], stream)(out, start, step)
