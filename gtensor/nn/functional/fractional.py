"""Fractional max pooling (Graham, 2014): ``fractional_max_pool2d`` and ``3d``.

Each plane gets pseudo-random window starts from one uniform sample per dim
(PyTorch's interval rule, computed in the input's dtype so equal samples give
equal windows); the windows are read with one ``gather`` over the flattened
plane and reduced with ``max``, so autograd routes the gradient to each argmax.
"""

from __future__ import annotations

import math
from typing import Any

from ...dtypes import int64
from ...errors import ShapeError, check
from ...ops.arrangement import arange
from ...ops.layout.copies import cat
from ...ops.random import rand
from ...ops.widen import half_in_float32
from ...tensor import Tensor
from .fold import tuple_of
from .pooling3d import batched_nd, unbatch


def _starts(sample: Tensor, size: int, out: int, pool: int) -> Tensor:
    """``(N, C, out)`` int64 window starts along one dim from ``(N, C)`` samples in [0, 1)."""
    last = sample.new_full((*sample.shape, 1), float(size - pool)).to(int64)
    if out == 1:
        return last
    alpha = (size - pool) / (out - 1)
    i = arange(out - 1, dtype=sample.dtype, device=sample.device)
    head = ((i + sample.unsqueeze(-1)) * alpha).to(int64)
    return cat([head - (sample * alpha).to(int64).unsqueeze(-1), last], -1)


def _fractional(op: str, nd: int, input: Tensor, kernel_size: Any, output_size: Any,
                output_ratio: Any, return_indices: bool,
                samples: Tensor | None) -> Tensor | tuple[Tensor, Tensor]:
    x, squeeze = batched_nd(input, nd, op)
    n, c, *sizes = x.shape
    k = tuple_of(kernel_size, nd, op, "kernel_size", 1)
    if output_size is None:
        check(output_ratio is not None, op, "fractional_max_pool requires specifying either an "
              "output_size or an output_ratio", ValueError)
        ratio = (output_ratio,) * nd if isinstance(output_ratio, (int, float)) \
            else tuple(output_ratio)
        check(len(ratio) == nd and all(0 < r < 1 for r in ratio), op, lambda: "output_ratio "
              f"must be {nd} values in (0, 1), got {output_ratio!r}", ValueError)
        out = tuple(int(s * r) for s, r in zip(sizes, ratio, strict=True))
    else:
        out = tuple_of(output_size, nd, op, "output_size", 1)
    room = 0 if nd == 2 else 1  # PyTorch's 3-D form wants one spare position
    for s, o, p in zip(sizes, out, k, strict=True):
        check(o + p - 1 + room <= s, op, lambda: f"output size {out} with kernel {k} is too large "
              f"for input of spatial size {tuple(sizes)}", ShapeError)
    if samples is None:
        samples = rand(n, c, nd, dtype=x.dtype, device=x.device)
    check(tuple(samples.shape) == (n, c, nd), op, lambda: f"expected _random_samples of shape "
          f"{(n, c, nd)}, got {tuple(samples.shape)}", ShapeError)
    samples = samples.to(x.dtype)
    # samples[..., 0] drives the width in 2-D and the depth in 3-D, as in PyTorch
    order = (1, 0) if nd == 2 else (0, 1, 2)
    flat = None
    for d in range(nd):
        starts = _starts(samples[..., order[d]], sizes[d], out[d], k[d])
        pos = starts.unsqueeze(-1) + arange(k[d], device=x.device)  # (N, C, out_d, k_d)
        shape = [n, c] + [1] * (2 * nd)
        shape[2 + d], shape[2 + nd + d] = out[d], k[d]
        pos = pos.reshape(shape) * math.prod(sizes[d + 1:])
        flat = pos if flat is None else flat + pos
    assert flat is not None
    window = math.prod(k)
    flat = flat.reshape(n, c, math.prod(out) * window)
    values, arg = x.reshape(n, c, -1).gather(2, flat).reshape(n, c, -1, window).max(3)
    values = unbatch(values.reshape(n, c, *out), squeeze)
    if not return_indices:
        return values
    idx = flat.reshape(n, c, -1, window).gather(3, arg.unsqueeze(3)).reshape(n, c, *out)
    return values, unbatch(idx, squeeze)


@half_in_float32
def fractional_max_pool2d(input: Tensor, kernel_size: Any, output_size: Any = None,
                          output_ratio: Any = None, return_indices: bool = False,
                          _random_samples: Tensor | None = None
                          ) -> Tensor | tuple[Tensor, Tensor]:
    """Max over pseudo-randomly placed windows of ``(N, C, H, W)`` or ``(C, H, W)`` input.

    Args:
        input: float tensor.
        kernel_size: int or pair.
        output_size: int or pair (or give ``output_ratio``).
        output_ratio: output size as a fraction in (0, 1) of the input's.
        return_indices: also return the int64 flat ``h*W + w`` position of each maximum.
        _random_samples: ``(N, C, 2)`` samples in [0, 1) placing the windows (drawn with
            ``rand`` when None).

    Example:
        >>> F.fractional_max_pool2d(gt.randn(1, 2, 7, 7), 2, output_size=4).shape
        (1, 2, 4, 4)
    """
    return _fractional("fractional_max_pool2d", 2, input, kernel_size, output_size,
                       output_ratio, return_indices, _random_samples)


@half_in_float32
def fractional_max_pool3d(input: Tensor, kernel_size: Any, output_size: Any = None,
                          output_ratio: Any = None, return_indices: bool = False,
                          _random_samples: Tensor | None = None
                          ) -> Tensor | tuple[Tensor, Tensor]:
    """:func:`fractional_max_pool2d` over ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input.

    Example:
        >>> F.fractional_max_pool3d(gt.randn(1, 1, 5, 5, 5), 2, output_ratio=0.5).shape
        (1, 1, 2, 2, 2)
    """
    return _fractional("fractional_max_pool3d", 3, input, kernel_size, output_size,
                       output_ratio, return_indices, _random_samples)


def fractional_max_pool2d_with_indices(input: Tensor, kernel_size: Any, output_size: Any = None,
                                       output_ratio: Any = None, return_indices: bool = False,
                                       _random_samples: Tensor | None = None
                                       ) -> tuple[Tensor, Tensor]:
    """:func:`fractional_max_pool2d` with its indices, whatever ``return_indices`` says.

    Example:
        >>> F.fractional_max_pool2d_with_indices(gt.randn(1, 1, 5, 5), 2, 3)[1].shape
        (1, 1, 3, 3)
    """
    del return_indices
    return fractional_max_pool2d(input, kernel_size, output_size, output_ratio, True,  # type: ignore[return-value]
                                 _random_samples)


def fractional_max_pool3d_with_indices(input: Tensor, kernel_size: Any, output_size: Any = None,
                                       output_ratio: Any = None, return_indices: bool = False,
                                       _random_samples: Tensor | None = None
                                       ) -> tuple[Tensor, Tensor]:
    """:func:`fractional_max_pool3d` with its indices, whatever ``return_indices`` says.

    Example:
        >>> F.fractional_max_pool3d_with_indices(gt.randn(1, 1, 4, 4, 4), 2, 2)[1].shape
        (1, 1, 2, 2, 2)
    """
    del return_indices
    return fractional_max_pool3d(input, kernel_size, output_size, output_ratio, True,  # type: ignore[return-value]
                                 _random_samples)
