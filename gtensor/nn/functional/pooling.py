"""1-D pooling and adaptive max pooling, composed of the 2-D pooling ops and gathers.

``max_pool1d`` and ``avg_pool1d`` run the 2-D kernels on ``(N, C, 1, L)``.
``adaptive_max_pool2d`` reads every bin with one ``index_select`` over the
flattened plane through a host-built table of positions ``(OH, OW, KMAX)``
(short bins repeat their first position, which leaves the max unchanged) and
takes the max over the last dim; autograd routes the gradient to the argmax.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ...errors import ShapeError, check
from ...ops.conv import renamed_errors, unit_height
from ...ops.creation import tensor
from ...ops.pooling import adaptive_size, avg_pool2d, batched, max_pool2d
from ...ops.widen import half_in_float32
from ...tensor import Tensor
from ...tensor_base import TensorBase


def _as_plane(input: Any, op: str) -> tuple[Tensor, bool]:
    """``(N, C, 1, L)`` view of a ``(N, C, L)`` or ``(C, L)`` tensor, and whether it was 2-D."""
    check(isinstance(input, TensorBase), op, "input must be a tensor", TypeError)
    check(input.ndim in (2, 3), op, lambda: f"expected a 2-D or 3-D input, got shape "
          f"{input.shape}", ShapeError)
    return (input.unsqueeze(0) if input.ndim == 2 else input).unsqueeze(2), input.ndim == 2


def _back(t: Tensor, squeeze: bool) -> Tensor:
    t = t.squeeze(2)
    return t.squeeze(0) if squeeze else t


def max_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               dilation: Any = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """1-D max pooling over ``(N, C, L)`` or ``(C, L)`` input (``max_pool2d`` with H = 1).

    Args:
        input: float tensor.
        kernel_size: int (or 1-tuple).
        stride: int (default: ``kernel_size``).
        padding: implicit ``-inf`` padding, at most half the effective kernel.
        dilation: spacing between window elements.
        ceil_mode: round the output size up.
        return_indices: also return the int64 position of each maximum along L.

    Example:
        >>> F.max_pool1d(gt.tensor([[[1.0, 3.0, 2.0, 0.0, 5.0, 4.0]]]), 2)
        tensor([[[3., 2., 5.]]])
    """
    op = "max_pool1d"
    x, squeeze = _as_plane(input, op)
    k = unit_height(kernel_size, op, "kernel_size", 1)
    s = None if stride is None else unit_height(stride, op, "stride", 1)
    with renamed_errors("max_pool2d", op):
        out = max_pool2d(x, k, s, unit_height(padding, op, "padding", 0),
                         unit_height(dilation, op, "dilation", 1), ceil_mode, return_indices)
    if return_indices:
        return _back(out[0], squeeze), _back(out[1], squeeze)
    return _back(out, squeeze)  # type: ignore[arg-type]


def avg_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               ceil_mode: bool = False, count_include_pad: bool = True) -> Tensor:
    """1-D average pooling over ``(N, C, L)`` or ``(C, L)`` input (``avg_pool2d`` with H = 1).

    Args:
        input: float tensor.
        kernel_size: int (or 1-tuple).
        stride: int (default: ``kernel_size``).
        padding: implicit zero padding, at most half the kernel.
        ceil_mode: round the output size up.
        count_include_pad: count padded zeros in the divisor.

    Example:
        >>> F.avg_pool1d(gt.tensor([[[1.0, 3.0, 2.0, 0.0]]]), 2)
        tensor([[[2., 1.]]])
    """
    op = "avg_pool1d"
    x, squeeze = _as_plane(input, op)
    k = unit_height(kernel_size, op, "kernel_size", 1)
    s = None if stride is None else unit_height(stride, op, "stride", 1)
    with renamed_errors("avg_pool2d", op):
        out = avg_pool2d(x, k, s, unit_height(padding, op, "padding", 0), ceil_mode,
                         count_include_pad)
    return _back(out, squeeze)


def _bins(size: int, n_out: int) -> list[tuple[int, int]]:
    return [(o * size // n_out, -(-(o + 1) * size // n_out)) for o in range(n_out)]


@functools.lru_cache(maxsize=64)
def _bin_table(h: int, w: int, oh: int, ow: int) -> np.ndarray:
    """Flat positions ``(OH, OW, KMAX)`` of each adaptive bin, short bins padded by repeats."""
    rows, cols = _bins(h, oh), _bins(w, ow)
    kmax = max(e - b for b, e in rows) * max(e - b for b, e in cols)
    table = np.empty((oh, ow, kmax), dtype=np.int64)
    for i, (r0, r1) in enumerate(rows):
        for j, (c0, c1) in enumerate(cols):
            flat = (np.arange(r0, r1)[:, None] * w + np.arange(c0, c1)[None, :]).reshape(-1)
            table[i, j, :flat.size] = flat
            table[i, j, flat.size:] = flat[0]
    return table


@half_in_float32
def adaptive_max_pool2d(input: Tensor, output_size: Any,
                        return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """Max over adaptive bins: bin ``o`` spans ``[floor(o*H/OH), ceil((o+1)*H/OH))``.

    Args:
        input: ``(N, C, H, W)`` or ``(C, H, W)`` float tensor.
        output_size: int or pair; a None entry keeps the input's size.
        return_indices: also return the int64 flat ``h*W + w`` position of each maximum.

    Returns:
        ``(N, C, OH, OW)``, or ``(pooled, indices)``.

    Example:
        >>> F.adaptive_max_pool2d(gt.arange(16.0).reshape(1, 1, 4, 4), 2)
        tensor([[[[ 5.,  7.],
                  [13., 15.]]]])
    """
    op = "adaptive_max_pool2d"
    x, squeeze = batched(input, op)
    n, c, h, w = x.shape
    oh, ow = adaptive_size(x, output_size, op)
    table = _bin_table(h, w, oh, ow)
    flat = tensor(table.reshape(-1), device=x.device)
    windows = x.reshape(n, c, h * w).index_select(2, flat).reshape(n, c, oh, ow, -1)
    out, arg = windows.max(4)
    out = out.squeeze(0) if squeeze else out
    if not return_indices:
        return out
    picked = flat.reshape(1, 1, oh, ow, -1).expand(n, c, oh, ow, table.shape[2])
    idx = picked.gather(4, arg.unsqueeze(4)).squeeze(4)
    return out, (idx.squeeze(0) if squeeze else idx)
