"""CUDA resampling kernels (nearest and bilinear ``interpolate``) and their transposes.

One grid-stride thread per output element runs the math of
``common/window_math.py``; calling conventions match ``kernels.cpu.resample``.
"""

from __future__ import annotations

from typing import Any

from numba import cuda

from ..common import window_math
from ..common.dtype_groups import FLOAT
from ..registry import register
from ._launch import on

_dev = window_math.build(cuda.jit(device=True))
_resample_at = _dev.resample_at
_resample_grad_at = _dev.resample_grad_at


@cuda.jit
def gtensor_resample2d(x, out, scale_h, scale_w, bilinear, align):  # noqa: ANN001
    i = cuda.grid(1)
    while i < out.size:
        _resample_at(i, x, out, scale_h, scale_w, bilinear, align)
        i += cuda.gridsize(1)


@cuda.jit
def gtensor_resample2d_backward(g, gx, scale_h, scale_w, bilinear, align):  # noqa: ANN001
    i = cuda.grid(1)
    while i < gx.size:
        _resample_grad_at(i, g, gx, scale_h, scale_w, bilinear, align)
        i += cuda.gridsize(1)


@register("resample2d", "cuda", FLOAT)
def resample2d(x: Any, out: Any, scales: tuple[float, float], bilinear: bool,
               align_corners: bool, stream: Any = None) -> None:
    """Resample ``x`` to ``out``'s spatial size (nearest, or bilinear when ``bilinear``).

    Example:
        >>> out, x = np.empty((1, 1, 1, 4)), np.array([[[[0.0, 3.0]]]])
        >>> resample2d(x, out, (1.0, 1 / 3), True, True); out.ravel().tolist()
        [0.0, 1.0, 2.0, 3.0]
    """
    if out.size:
        on(gtensor_resample2d, out.size, stream)(x, out, float(scales[0]), float(scales[1]),
                                                  bool(bilinear), bool(align_corners))


@register("resample2d_backward", "cuda", FLOAT)
def resample2d_backward(g: Any, gx: Any, scales: tuple[float, float], bilinear: bool,
                        align_corners: bool, stream: Any = None) -> None:
    """Write ``gx``, the transpose of :func:`resample2d` applied to ``g``.

    Example:
        >>> gx = np.empty((1, 1, 2, 2))
        >>> resample2d_backward(np.ones((1, 1, 4, 4)), gx, (0.5, 0.5), False, False); gx.tolist()
        [[[[4.0, 4.0], [4.0, 4.0]]]]
    """
    if gx.size:
        on(gtensor_resample2d_backward, gx.size, stream)(g, gx, float(scales[0]),
                                                          float(scales[1]), bool(bilinear),
                                                          bool(align_corners))
