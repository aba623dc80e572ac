"""CPU resampling kernels (nearest and bilinear ``interpolate``) and their transposes.

Per-element math from ``common/window_math.py`` compiled with ``numba.njit``
over a ``prange`` of the output's elements; arrays are 4-D ``(N, C, H, W)``.
``scales`` are PyTorch's per-axis source steps (see ``source_index``).
"""

from __future__ import annotations

import numba
import numpy as np

from ..common import window_math
from ..common.dtype_groups import FLOAT
from ..registry import register

_dev = window_math.build(numba.njit)
_resample_at = _dev.resample_at
_resample_grad_at = _dev.resample_grad_at


@numba.njit(parallel=True, cache=True)
def gtensor_resample2d_cpu(x, out, scale_h, scale_w, bilinear, align):  # noqa: ANN001, ANN201
    for i in numba.prange(out.size):
        _resample_at(i, x, out, scale_h, scale_w, bilinear, align)


@numba.njit(parallel=True, cache=True)
def gtensor_resample2d_backward_cpu(g, gx, scale_h, scale_w, bilinear, align):  # noqa: ANN001, ANN201
    for i in numba.prange(gx.size):
        _resample_grad_at(i, g, gx, scale_h, scale_w, bilinear, align)


@register("resample2d", "cpu", FLOAT)
def resample2d(x: np.ndarray, out: np.ndarray, scales: tuple[float, float], bilinear: bool,
               align_corners: bool, stream: object = None) -> None:
    """Resample ``x`` to ``out``'s spatial size (nearest, or bilinear when ``bilinear``).

    Args:
        x: ``(N, C, H, W)`` input.
        out: ``(N, C, OH, OW)`` result.
        scales: source step per output step along H and W.
        bilinear: bilinear instead of nearest.
        align_corners: bilinear corner alignment (``scales`` must match it).
        stream: ignored on the CPU.

    Example:
        >>> out = np.empty((1, 1, 4, 4))
        >>> resample2d(np.ones((1, 1, 2, 2)), out, (0.5, 0.5), True, False)
    """
    if out.size:
        gtensor_resample2d_cpu(x, out, float(scales[0]), float(scales[1]), bool(bilinear),
                               bool(align_corners))


@register("resample2d_backward", "cpu", FLOAT)
def resample2d_backward(g: np.ndarray, gx: np.ndarray, scales: tuple[float, float],
                        bilinear: bool, align_corners: bool, stream: object = None) -> None:
    """Write ``gx``, the transpose of :func:`resample2d` applied to ``g``.

    Example:
        >>> gx = np.empty((1, 1, 2, 2))
        >>> resample2d_backward(np.ones((1, 1, 4, 4)), gx, (0.5, 0.5), True, False)
    """
    if gx.size:
        gtensor_resample2d_backward_cpu(g, gx, float(scales[0]), float(scales[1]),
                                        bool(bilinear), bool(align_corners))
