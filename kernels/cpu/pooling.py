"""CPU pooling kernels: max (with indices), average and adaptive average, and their transposes.

Each kernel runs the per-element math of ``common/window_math.py`` compiled
with ``numba.njit`` over a ``prange`` of the output's elements. Arrays are 4-D
``(N, C, H, W)``; outputs are written whole (no need to zero them first).
Geometry tuples are ``(kh, kw)``, ``(sh, sw)``, top/left ``(ph, pw)`` padding
and ``(dh, dw)`` dilation.
"""

from __future__ import annotations

import numba
import numpy as np

from ..common import window_math
from ..common.dtype_groups import FLOAT
from ..registry import register

_dev = window_math.build(numba.njit)
_plane_gather_at = _dev.plane_gather_at
_avg_pool_at = _dev.avg_pool_at
_avg_pool_grad_at = _dev.avg_pool_grad_at
_adaptive_avg_at = _dev.adaptive_avg_at
_adaptive_avg_grad_at = _dev.adaptive_avg_grad_at

Pair = tuple[int, int]


@numba.njit(parallel=True, cache=True)
def gtensor_max_pool2d_cpu(x, out, idx, kh, kw, sh, sw, ph, pw, dh, dw):  # noqa: ANN001, ANN201
    """Each window's maximum and its position, one (image, channel) plane per task.

    NaN wins and ties keep the first position in row-major order, as
    ``window_math.max_pool_at`` (the GPU's per-output version, whose index
    arithmetic per element measured ~10x slower here).
    """
    n_img, c_n, h_n, w_n = x.shape
    oh_n, ow_n = out.shape[2], out.shape[3]
    for p in numba.prange(n_img * c_n):
        n = p // c_n
        c = p - n * c_n
        plane = x[n, c]
        for oh in range(oh_n):
            for ow in range(ow_n):
                best = plane[0, 0]
                where = -1
                for ki in range(kh):
                    h = oh * sh - ph + ki * dh
                    if h < 0 or h >= h_n:
                        continue
                    for kj in range(kw):
                        w = ow * sw - pw + kj * dw
                        if w < 0 or w >= w_n:
                            continue
                        v = plane[h, w]
                        if where < 0 or v > best or v != v:
                            best = v
                            where = h * w_n + w
                out[n, c, oh, ow] = best
                idx[n, c, oh, ow] = where


@numba.njit(parallel=True, cache=True)
def gtensor_max_pool2d_backward_cpu(g, idx, gx):  # noqa: ANN001, ANN201
    """Scatter each window's gradient to its maximum, one (image, channel) plane per task.

    On the CPU a plane is summed by one thread, so the scatter needs no
    atomics and reads ``g`` once (the gather of ``window_math``, for GPUs,
    tests every window over each input element).
    """
    n_img, c_n, h_n, w_n = gx.shape
    oh_n, ow_n = g.shape[2], g.shape[3]
    for p in numba.prange(n_img * c_n):
        n = p // c_n
        c = p - n * c_n
        plane = gx[n, c]
        plane[...] = 0
        for oh in range(oh_n):
            for ow in range(ow_n):
                k = idx[n, c, oh, ow]
                if k >= 0:
                    plane[k // w_n, k - (k // w_n) * w_n] += g[n, c, oh, ow]


@numba.njit(parallel=True, cache=True)
def gtensor_plane_gather_cpu(x, idx, out):  # noqa: ANN001, ANN201
    for i in numba.prange(out.size):
        _plane_gather_at(i, x, idx, out)


@numba.njit(parallel=True, cache=True)
def gtensor_avg_pool2d_cpu(x, out, kh, kw, sh, sw, ph, pw, include_pad, divisor):  # noqa: ANN001, ANN201
    for i in numba.prange(out.size):
        _avg_pool_at(i, x, out, kh, kw, sh, sw, ph, pw, include_pad, divisor)


@numba.njit(parallel=True, cache=True)
def gtensor_avg_pool2d_backward_cpu(g, gx, kh, kw, sh, sw, ph, pw, include_pad, divisor):  # noqa: ANN001, ANN201
    for i in numba.prange(gx.size):
        _avg_pool_grad_at(i, g, gx, kh, kw, sh, sw, ph, pw, include_pad, divisor)


@numba.njit(parallel=True, cache=True)
def gtensor_adaptive_avg_pool2d_cpu(x, out):  # noqa: ANN001, ANN201
    for i in numba.prange(out.size):
        _adaptive_avg_at(i, x, out)


@numba.njit(parallel=True, cache=True)
def gtensor_adaptive_avg_pool2d_backward_cpu(g, gx):  # noqa: ANN001, ANN201
    for i in numba.prange(gx.size):
        _adaptive_avg_grad_at(i, g, gx)


@register("max_pool2d", "cpu", FLOAT)
def max_pool2d(x: np.ndarray, out: np.ndarray, indices: np.ndarray, kernel: Pair, stride: Pair,
               padding: Pair, dilation: Pair, stream: object = None) -> None:
    """Write each window's maximum to ``out`` and its flat ``h*W + w`` position to ``indices``.

    Args:
        x: ``(N, C, H, W)`` input.
        out: ``(N, C, OH, OW)`` result, x's dtype.
        indices: ``(N, C, OH, OW)`` int64 positions.
        kernel, stride, padding, dilation: window geometry (every window must
            hold at least one input element).
        stream: ignored on the CPU.

    Example:
        >>> x = np.random.rand(1, 1, 4, 4); out = np.empty((1, 1, 2, 2))
        >>> max_pool2d(x, out, np.empty((1, 1, 2, 2), np.int64), (2, 2), (2, 2), (0, 0), (1, 1))
    """
    if out.size:
        gtensor_max_pool2d_cpu(x, out, indices, *kernel, *stride, *padding, *dilation)


@register("max_pool2d_backward", "cpu", FLOAT)
def max_pool2d_backward(g: np.ndarray, indices: np.ndarray, gx: np.ndarray, kernel: Pair,
                        stride: Pair, padding: Pair, dilation: Pair,
                        stream: object = None) -> None:
    """Write ``gx``: each input position sums ``g`` over the windows whose maximum it was.

    Example:
        >>> gx = np.empty((1, 1, 2, 2)); idx = np.array([[[[3]]]])
        >>> max_pool2d_backward(np.ones((1, 1, 1, 1)), idx, gx, (2, 2), (2, 2), (0, 0), (1, 1))
        >>> gx.ravel().tolist()
        [0.0, 0.0, 0.0, 1.0]
    """
    if gx.size:
        gtensor_max_pool2d_backward_cpu(g, indices, gx)


@register("plane_gather", "cpu", FLOAT)
def plane_gather(x: np.ndarray, indices: np.ndarray, out: np.ndarray,
                 stream: object = None) -> None:
    """Write ``out[n, c, i, j] = x[n, c].flat[indices[n, c, i, j]]``.

    Example:
        >>> out = np.empty((1, 1, 1, 1))
        >>> plane_gather(np.ones((1, 1, 2, 2)), np.zeros((1, 1, 1, 1), np.int64), out)
    """
    if out.size:
        gtensor_plane_gather_cpu(x, indices, out)


@register("avg_pool2d", "cpu", FLOAT)
def avg_pool2d(x: np.ndarray, out: np.ndarray, kernel: Pair, stride: Pair, padding: Pair,
               count_include_pad: bool, divisor: int, stream: object = None) -> None:
    """Write each window's mean (``divisor`` > 0 overrides PyTorch's divisor rule).

    Example:
        >>> out = np.empty((1, 1, 2, 2))
        >>> avg_pool2d(np.ones((1, 1, 4, 4)), out, (2, 2), (2, 2), (0, 0), True, 0)
    """
    if out.size:
        gtensor_avg_pool2d_cpu(x, out, *kernel, *stride, *padding, count_include_pad, divisor)


@register("avg_pool2d_backward", "cpu", FLOAT)
def avg_pool2d_backward(g: np.ndarray, gx: np.ndarray, kernel: Pair, stride: Pair,
                        padding: Pair, count_include_pad: bool, divisor: int,
                        stream: object = None) -> None:
    """Write ``gx``, the transpose of :func:`avg_pool2d` applied to ``g``.

    Example:
        >>> gx = np.empty((1, 1, 4, 4))
        >>> avg_pool2d_backward(np.ones((1, 1, 2, 2)), gx, (2, 2), (2, 2), (0, 0), True, 0)
    """
    if gx.size:
        gtensor_avg_pool2d_backward_cpu(g, gx, *kernel, *stride, *padding, count_include_pad,
                                        divisor)


@register("adaptive_avg_pool2d", "cpu", FLOAT)
def adaptive_avg_pool2d(x: np.ndarray, out: np.ndarray, stream: object = None) -> None:
    """Write the mean of each adaptive bin (bins sized by ``out``'s last two dims).

    Example:
        >>> out = np.empty((1, 1, 2, 2)); adaptive_avg_pool2d(np.ones((1, 1, 5, 5)), out)
    """
    if out.size:
        gtensor_adaptive_avg_pool2d_cpu(x, out)


@register("adaptive_avg_pool2d_backward", "cpu", FLOAT)
def adaptive_avg_pool2d_backward(g: np.ndarray, gx: np.ndarray, stream: object = None) -> None:
    """Write ``gx``, the transpose of :func:`adaptive_avg_pool2d` applied to ``g``.

    Example:
        >>> gx = np.empty((1, 1, 5, 5)); adaptive_avg_pool2d_backward(np.ones((1, 1, 2, 2)), gx)
    """
    if gx.size:
        gtensor_adaptive_avg_pool2d_backward_cpu(g, gx)
