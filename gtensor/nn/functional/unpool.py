"""``max_unpool1d``/``2d``/``3d`` (the partial inverse of max pooling) and power-average
pooling ``lp_pool1d``/``2d``/``3d``, composed of a ``scatter`` and of average pooling."""

from __future__ import annotations

import math
from typing import Any

from ...errors import DTypeError, ShapeError, check
from ...ops.creation import zeros
from ...ops.pooling import avg_pool2d
from ...tensor import Tensor
from .fold import tuple_of
from .pooling import avg_pool1d
from .pooling3d import avg_pool3d, batched_nd, unbatch


def _unpool_size(op: str, x: Tensor, nd: int, kernel_size: Any, stride: Any, padding: Any,
                 output_size: Any) -> tuple[int, ...]:
    k = tuple_of(kernel_size, nd, op, "kernel_size", 1)
    s = k if stride is None else tuple_of(stride, nd, op, "stride", 1)
    p = tuple_of(padding, nd, op, "padding", 0)
    default = tuple((n - 1) * si - 2 * pi + ki
                    for n, si, pi, ki in zip(x.shape[2:], s, p, k, strict=True))
    if output_size is None:
        return default
    size = tuple(int(v) for v in output_size)[-nd:]
    check(len(size) == nd, op, lambda: f"output_size must have {nd} spatial sizes, got "
          f"{output_size!r}", ValueError)
    for v, dflt, si in zip(size, default, s, strict=True):
        check(dflt - si < v < dflt + si, op, lambda: f"invalid output_size {size}: each size "
              f"must lie strictly between default size - stride and default size + stride "
              f"(default {default})", ValueError)
    return size


def _max_unpool(op: str, nd: int, input: Tensor, indices: Tensor, kernel_size: Any,
                stride: Any, padding: Any, output_size: Any) -> Tensor:
    x, squeeze = batched_nd(input, nd, op)
    check(isinstance(indices, Tensor) and indices.dtype.name == "int64", op,
          "expected int64 indices", DTypeError)
    check(tuple(indices.shape) == tuple(input.shape), op, lambda: "expected indices of shape "
          f"{tuple(input.shape)}, got {tuple(indices.shape)}", ShapeError)
    size = _unpool_size(op, x, nd, kernel_size, stride, padding, output_size)
    n, c = x.shape[:2]
    numel = math.prod(size)
    idx = indices.reshape(n, c, -1)
    if idx.numel():
        lo, hi = int(idx.min()), int(idx.max())
        bad = hi if hi >= numel else lo
        check(lo >= 0 and hi < numel, op, lambda: f"found an invalid max index {bad} (output "
              f"volumes are of size {numel})", IndexError)
    out = zeros(n, c, numel, dtype=x.dtype, device=x.device)
    out = out.scatter(2, idx, x.reshape(n, c, -1))
    return unbatch(out.reshape(n, c, *size), squeeze)


def max_unpool1d(input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None,
                 padding: Any = 0, output_size: Any = None) -> Tensor:
    """Place each value of ``input`` at its ``indices`` (from ``max_pool1d``) in zeros.

    Args:
        input: ``(N, C, L)`` or ``(C, L)`` pooled values.
        indices: their int64 positions, the input's shape.
        kernel_size, stride, padding: the pool's (``stride`` defaults to ``kernel_size``).
        output_size: the unpooled size (default ``(L - 1) * stride - 2 * padding + kernel``).

    Example:
        >>> x = gt.tensor([[[1.0, 3.0, 2.0, 0.0]]])
        >>> v, i = F.max_pool1d(x, 2, return_indices=True)
        >>> F.max_unpool1d(v, i, 2).tolist()
        [[[0.0, 3.0, 2.0, 0.0]]]
    """
    return _max_unpool("max_unpool1d", 1, input, indices, kernel_size, stride, padding,
                       output_size)


def max_unpool2d(input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None,
                 padding: Any = 0, output_size: Any = None) -> Tensor:
    """:func:`max_unpool1d` over ``(N, C, H, W)`` or ``(C, H, W)`` input.

    Example:
        >>> v, i = F.max_pool2d(gt.randn(1, 1, 4, 4), 2, return_indices=True)
        >>> F.max_unpool2d(v, i, 2).shape
        (1, 1, 4, 4)
    """
    return _max_unpool("max_unpool2d", 2, input, indices, kernel_size, stride, padding,
                       output_size)


def max_unpool3d(input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None,
                 padding: Any = 0, output_size: Any = None) -> Tensor:
    """:func:`max_unpool1d` over ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input.

    Example:
        >>> v, i = F.max_pool3d(gt.randn(1, 1, 2, 2, 2), 2, return_indices=True)
        >>> F.max_unpool3d(v, i, 2).shape
        (1, 1, 2, 2, 2)
    """
    return _max_unpool("max_unpool3d", 3, input, indices, kernel_size, stride, padding,
                       output_size)


def _lp(avg: Tensor, norm_type: float, window: int) -> Tensor:
    """``(window * avg) ** (1 / p)``, with negative averages (odd ``p``) read as 0."""
    return (avg.sign() * avg.abs().relu() * window) ** (1.0 / norm_type)


def lp_pool1d(input: Tensor, norm_type: float, kernel_size: int, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    """Power-average pooling: ``(sum over the window of x**p) ** (1/p)``.

    Example:
        >>> F.lp_pool1d(gt.tensor([[[3.0, 4.0]]]), 2, 2).tolist()
        [[[5.0]]]
    """
    op = "lp_pool1d"
    batched_nd(input, 1, op)
    (k,) = tuple_of(kernel_size, 1, op, "kernel_size", 1)
    avg = avg_pool1d(input ** norm_type, k, stride, 0, ceil_mode)
    return _lp(avg, norm_type, k)


def lp_pool2d(input: Tensor, norm_type: float, kernel_size: Any, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    """:func:`lp_pool1d` over ``(N, C, H, W)`` or ``(C, H, W)`` input.

    Example:
        >>> F.lp_pool2d(gt.ones(1, 1, 2, 2), 1, 2).tolist()
        [[[[4.0]]]]
    """
    op = "lp_pool2d"
    batched_nd(input, 2, op)
    k = tuple_of(kernel_size, 2, op, "kernel_size", 1)
    avg = avg_pool2d(input ** norm_type, k, stride, 0, ceil_mode)
    return _lp(avg, norm_type, math.prod(k))


def lp_pool3d(input: Tensor, norm_type: float, kernel_size: Any, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    """:func:`lp_pool1d` over ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input.

    Example:
        >>> F.lp_pool3d(gt.ones(1, 1, 2, 2, 2), 1, 2).flatten().tolist()
        [8.0]
    """
    op = "lp_pool3d"
    batched_nd(input, 3, op)
    k = tuple_of(kernel_size, 3, op, "kernel_size", 1)
    avg = avg_pool3d(input ** norm_type, k, stride, 0, ceil_mode)
    return _lp(avg, norm_type, math.prod(k))
