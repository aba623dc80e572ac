"""CUDA pooling kernels: max (with indices), average and adaptive average, and their transposes.

One grid-stride thread per output element runs the per-element math of
``common/window_math.py`` compiled with ``numba.cuda.jit(device=True)``; the
transposes gather (an input position sums the windows covering it), so no
atomics are needed. Calling conventions match ``kernels.cpu.pooling``.
"""

from __future__ import annotations

from typing import Any

from numba import cuda

from ..common import window_math
from ..common.dtype_groups import FLOAT
from ..registry import register
from ._launch import on

_dev = window_math.build(cuda.jit(device=True))
_max_pool_at = _dev.max_pool_at
_max_pool_grad_at = _dev.max_pool_grad_at
_plane_gather_at = _dev.plane_gather_at
_avg_pool_at = _dev.avg_pool_at
_avg_pool_grad_at = _dev.avg_pool_grad_at
_adaptive_avg_at = _dev.adaptive_avg_at
_adaptive_avg_grad_at = _dev.adaptive_avg_grad_at

Pair = tuple[int, int]


@cuda.jit
def gtensor_max_pool2d(x, out, idx, kh, kw, sh, sw, ph, pw, dh, dw):  # noqa: ANN001
    i = cuda.grid(1)
    while i < out.size:
        _max_pool_at(i, x, out, idx, kh, kw, sh, sw, ph, pw, dh, dw)
        i += cuda.gridsize(1)


@cuda.jit
def gtensor_max_pool2d_backward(g, idx, gx, kh, kw, sh, sw, ph, pw, dh, dw):  # noqa: ANN001
    i = cuda.grid(1)
    while i < gx.size:
        _max_pool_grad_at(i, g, idx, gx, kh, kw, sh, sw, ph, pw, dh, dw)
        i += cuda.gridsize(1)


@cuda.jit
def gtensor_plane_gather(x, idx, out):  # noqa: ANN001
    i = cuda.grid(1)
    while i < out.size:
        _plane_gather_at(i, x, idx, out)
        i += cuda.gridsize(1)


@cuda.jit
def gtensor_avg_pool2d(x, out, kh, kw, sh, sw, ph, pw, include_pad, divisor):  # noqa: ANN001
    i = cuda.grid(1)
    while i < out.size:
        _avg_pool_at(i, x, out, kh, kw, sh, sw, ph, pw, include_pad, divisor)
        i += cuda.gridsize(1)


@cuda.jit
def gtensor_avg_pool2d_backward(g, gx, kh, kw, sh, sw, ph, pw, include_pad, divisor):  # noqa: ANN001
    i = cuda.grid(1)
    while i < gx.size:
        _avg_pool_grad_at(i, g, gx, kh, kw, sh, sw, ph, pw, include_pad, divisor)
        i += cuda.gridsize(1)


@cuda.jit
def gtensor_adaptive_avg_pool2d(x, out):  # noqa: ANN001
    i = cuda.grid(1)
    while i < out.size:
        _adaptive_avg_at(i, x, out)
        i += cuda.gridsize(1)


@cuda.jit
def gtensor_adaptive_avg_pool2d_backward(g, gx):  # noqa: ANN001
    i = cuda.grid(1)
    while i < gx.size:
        _adaptive_avg_grad_at(i, g, gx)
        i += cuda.gridsize(1)


@register("max_pool2d", "cuda", FLOAT)
def max_pool2d(x: Any, out: Any, indices: Any, kernel: Pair, stride: Pair, padding: Pair,
               dilation: Pair, stream: Any = None) -> None:
    """Write each window's maximum to ``out`` and its flat ``h*W + w`` position to ``indices``.

    Example:
        >>> out, idx = np.empty((1, 1, 2, 2)), np.empty((1, 1, 2, 2), np.int64)
        >>> x = np.arange(16.0).reshape(1, 1, 4, 4)
        >>> max_pool2d(x, out, idx, (2, 2), (2, 2), (0, 0), (1, 1))
        >>> out[0, 0].tolist(), idx.ravel().tolist()
        ([[5.0, 7.0], [13.0, 15.0]], [5, 7, 13, 15])
    """
    if out.size:
        on(gtensor_max_pool2d, out.size, stream)(x, out, indices, *kernel, *stride, *padding,
                                                  *dilation)


@register("max_pool2d_backward", "cuda", FLOAT)
def max_pool2d_backward(g: Any, indices: Any, gx: Any, kernel: Pair, stride: Pair,
                        padding: Pair, dilation: Pair, stream: Any = None) -> None:
    """Write ``gx``: each input position sums ``g`` over the windows whose maximum it was.

    Example:
        >>> gx = np.empty((1, 1, 2, 2)); idx = np.array([[[[3]]]])
        >>> max_pool2d_backward(np.ones((1, 1, 1, 1)), idx, gx, (2, 2), (2, 2), (0, 0), (1, 1))
        >>> gx.ravel().tolist()
        [0.0, 0.0, 0.0, 1.0]
    """
    if gx.size:
        on(gtensor_max_pool2d_backward, gx.size, stream)(g, indices, gx, *kernel, *stride,
                                                          *padding, *dilation)


@register("plane_gather", "cuda", FLOAT)
def plane_gather(x: Any, indices: Any, out: Any, stream: Any = None) -> None:
    """Write ``out[n, c, i, j] = x[n, c].flat[indices[n, c, i, j]]``.

    Example:
        >>> out, x = np.empty((1, 1, 1, 2)), np.arange(4.0).reshape(1, 1, 2, 2)
        >>> plane_gather(x, np.array([[[[3, 0]]]]), out); out.ravel().tolist()
        [3.0, 0.0]
    """
    if out.size:
        on(gtensor_plane_gather, out.size, stream)(x, indices, out)


@register("avg_pool2d", "cuda", FLOAT)
def avg_pool2d(x: Any, out: Any, kernel: Pair, stride: Pair, padding: Pair,
               count_include_pad: bool, divisor: int, stream: Any = None) -> None:
    """Write each window's mean (``divisor`` > 0 overrides PyTorch's divisor rule).

    Example:
        >>> out, x = np.empty((1, 1, 2, 2)), np.arange(16.0).reshape(1, 1, 4, 4)
        >>> avg_pool2d(x, out, (2, 2), (2, 2), (0, 0), True, 0); out[0, 0].tolist()
        [[2.5, 4.5], [10.5, 12.5]]
    """
    if out.size:
        on(gtensor_avg_pool2d, out.size, stream)(x, out, *kernel, *stride, *padding,
                                                  bool(count_include_pad), int(divisor))


@register("avg_pool2d_backward", "cuda", FLOAT)
def avg_pool2d_backward(g: Any, gx: Any, kernel: Pair, stride: Pair, padding: Pair,
                        count_include_pad: bool, divisor: int, stream: Any = None) -> None:
    """Write ``gx``, the transpose of :func:`avg_pool2d` applied to ``g``.

    Example:
        >>> gx = np.empty((1, 1, 4, 4))
        >>> avg_pool2d_backward(np.ones((1, 1, 2, 2)), gx, (2, 2), (2, 2), (0, 0), True, 0)
        >>> gx[0, 0, 0].tolist()
        [0.25, 0.25, 0.25, 0.25]
    """
    if gx.size:
        on(gtensor_avg_pool2d_backward, gx.size, stream)(g, gx, *kernel, *stride, *padding,
                                                          bool(count_include_pad), int(divisor))


@register("adaptive_avg_pool2d", "cuda", FLOAT)
def adaptive_avg_pool2d(x: Any, out: Any, stream: Any = None) -> None:
    """Write the mean of each adaptive bin (bins sized by ``out``'s last two dims).

    Example:
        >>> out, x = np.empty((1, 1, 2, 2)), np.arange(9.0).reshape(1, 1, 3, 3)
        >>> adaptive_avg_pool2d(x, out); out[0, 0].tolist()
        [[2.0, 3.0], [5.0, 6.0]]
    """
    if out.size:
        on(gtensor_adaptive_avg_pool2d, out.size, stream)(x, out)


@register("adaptive_avg_pool2d_backward", "cuda", FLOAT)
def adaptive_avg_pool2d_backward(g: Any, gx: Any, stream: Any = None) -> None:
    """Write ``gx``, the transpose of :func:`adaptive_avg_pool2d` applied to ``g``.

    Example:
        >>> gx = np.empty((1, 1, 3, 3)); adaptive_avg_pool2d_backward(np.ones((1, 1, 2, 2)), gx)
        >>> gx[0, 0, 1].tolist()
        [0.5, 1.0, 0.5]
    """
    if gx.size:
        on(gtensor_adaptive_avg_pool2d_backward, gx.size, stream)(g, gx)
