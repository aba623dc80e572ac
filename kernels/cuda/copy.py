"""CUDA strided copy with dtype conversion (one compile per dtype pair and rank)."""

from __future__ import annotations

from typing import Any

from numba import cuda

from ..common.strided import collapse
from ..registry import ANY, register
from ._launch import flat_operand, on


@cuda.jit(device=True)
def strided_offset(i, shape, off, strides):  # noqa: ANN001, ANN201
    """Element offset of the ``i``-th element (C order) of a strided view."""
    for d in range(len(shape) - 1, -1, -1):
        off += (i % shape[d]) * strides[d]
        i //= shape[d]
    return off


@cuda.jit
def gtensor_copy(n, shape, dst, dst_off, dst_strides, src, src_off, src_strides):  # noqa: ANN001
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < n:
        dst[strided_offset(i, shape, dst_off, dst_strides)] = src[
            strided_offset(i, shape, src_off, src_strides)]
        i += step


@cuda.jit
def gtensor_copy_to_bool(n, shape, dst, dst_off, dst_strides, src, src_off,  # noqa: ANN001
                         src_strides):
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < n:
        dst[strided_offset(i, shape, dst_off, dst_strides)] = src[
            strided_offset(i, shape, src_off, src_strides)] != 0
        i += step


@register("copy", "cuda", [(ANY, ANY)])
def gtensor_copy_cuda(src: Any, out: Any, stream: Any = None) -> None:
    """Copy ``src`` (broadcast to ``out``'s shape, any strides) into ``out``, converting dtype.

    Args:
        src: source device array (or NumPy array on the simulator), ``out``'s shape.
        out: destination array.
        stream: Numba stream to launch on (default stream when None).

    Example:
        >>> gtensor_copy_cuda(src, out, stream=s)  # doctest: +SKIP
    """
    n = out.size
    if n == 0:
        return
    d_flat, d_off, d_strides = flat_operand(out)
    s_flat, s_off, s_strides = flat_operand(src)
    shape, (d_strides, s_strides) = collapse(out.shape, [d_strides, s_strides])
    fn = gtensor_copy_to_bool if out.dtype.kind == "b" else gtensor_copy
    on(fn, n, stream)(n, shape, d_flat, d_off, d_strides, s_flat, s_off, s_strides)
