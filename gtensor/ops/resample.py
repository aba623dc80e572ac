"""``interpolate``: resampling of ``(N, C, L)`` and ``(N, C, H, W)`` tensors, as PyTorch does.

Nearest and (bi)linear are a linear map recorded through
:func:`gtensor.ops.pooling.linear_map`: the VJP is the gathering transpose
kernel, whose VJP is the forward again. The other modes are compositions
that autograd differentiates: ``area`` is the adaptive average pool,
``nearest-exact`` an ``index_select`` per axis, and ``bicubic`` per axis the
sum of four ``index_select`` taps (clamped at the edges) times host-computed
cubic-convolution weights.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..errors import ShapeError, check
from ..graph.autocast_mode import autocast_inputs
from .creation import tensor
from .pooling import adaptive_avg_pool2d, batched, linear_map
from .widen import half_in_float32

MODES = ("nearest", "linear", "bilinear", "bicubic", "trilinear", "area", "nearest-exact")
CUBIC_A = -0.75


def _per_axis(value: Any, n: int, op: str, name: str) -> tuple[Any, ...]:
    items = (value,) * n if isinstance(value, (int, float)) else tuple(value)
    check(len(items) == n, op, lambda: f"{name} must be a number or a sequence of {n}, got "
          f"{value!r}", ValueError)
    return items


@half_in_float32
def interpolate(input: Any, size: Any = None, scale_factor: Any = None,
                mode: str = "nearest", align_corners: bool | None = None,
                recompute_scale_factor: bool | None = None, antialias: bool = False) -> Any:
    """Resize the spatial dims of ``(N, C, L)``, ``(N, C, H, W)`` or ``(N, C, D, H, W)``
    tensors, as PyTorch does.

    Every input takes modes ``"nearest"``, ``"nearest-exact"`` and ``"area"``; a
    3-D one also ``"linear"``, a 4-D one ``"bilinear"`` and ``"bicubic"``, a 5-D one
    ``"trilinear"``. A 3-D input runs as ``(N, C, 1, L)``; a 5-D one as two 4-D
    passes (these modes are separable): ``(H, W)`` first, then ``D``.

    Args:
        input: float tensor.
        size: output ``L`` or ``(OH, OW)`` (an int for every dim, or one per dim);
            exclusive with ``scale_factor``.
        scale_factor: multiplier (a float, or one per dim); the output size is
            ``floor(n * scale_factor)``.
        mode: ``"nearest"``, ``"nearest-exact"`` (source pixel of each output
            centre), ``"area"`` (adaptive average), ``"linear"`` (3-D),
            ``"bilinear"`` or ``"bicubic"`` (4-D), ``"trilinear"`` (5-D).
        align_corners: (bi/tri)linear and bicubic only; map corner pixel centres onto
            each other.
        recompute_scale_factor: with ``scale_factor``, derive the sampling
            step from the output size instead of from ``scale_factor``.
        antialias: must be False.

    Returns:
        ``(N, C, OL)``, ``(N, C, OH, OW)`` or ``(N, C, OD, OH, OW)``.

    Raises:
        ValueError, ShapeError, TypeError: messages start with ``[interpolate]``.

    Example:
        >>> gt.interpolate(gt.ones(1, 1, 2, 2), scale_factor=2, mode="bilinear").shape
        (1, 1, 4, 4)
    """
    (input,) = autocast_inputs("interpolate", input)
    op = "interpolate"
    check(mode in MODES, op,
          lambda: f"mode {mode!r} is not supported; expected one of {MODES}", ValueError)
    check(not antialias, op, "antialias=True is not supported", ValueError)
    ndim = getattr(input, "ndim", None)
    want = {"linear": (3,), "bilinear": (4,), "bicubic": (4,), "trilinear": (5,)}.get(
        mode, (3, 4, 5))
    check(ndim in want, op, lambda: f"expected {' or '.join(f'{n}-D' for n in want)} input "
          f"for mode {mode!r}, got shape {getattr(input, 'shape', type(input).__name__)}",
          ShapeError)
    check(align_corners is None or mode in ("linear", "bilinear", "bicubic", "trilinear"), op,
          "align_corners can only be set with modes 'linear', 'bilinear', 'bicubic' and "
          "'trilinear'", ValueError)
    check((size is None) != (scale_factor is None), op,
          "exactly one of size and scale_factor must be given", ValueError)
    n_sp = ndim - 2
    if size is not None:
        size = (1, *_per_axis(size, n_sp, op, "size"))[-n_sp if n_sp > 1 else -2:]
    else:
        scale_factor = (1.0, *_per_axis(scale_factor, n_sp, op, "scale_factor"))[
            -n_sp if n_sp > 1 else -2:]
    if ndim == 5:
        return _interpolate_3d(input, size, scale_factor, mode, align_corners,
                               recompute_scale_factor)
    flat = input.unsqueeze(2) if ndim == 3 else input
    out = _interpolate_2d(flat, size, scale_factor, mode, align_corners,
                          recompute_scale_factor)
    return out.squeeze(2) if ndim == 3 else out


def _interpolate_2d(input: Any, size: tuple[Any, Any] | None,
                    scale_factor: tuple[Any, Any] | None, mode: str,
                    align_corners: bool | None, recompute_scale_factor: bool | None) -> Any:
    """Resample ``(N, C, H, W)`` to ``size`` (or by ``scale_factor``) in ``mode``."""
    op = "interpolate"
    x, _ = batched(input, op)
    in_hw = x.shape[2:]
    factors: tuple[Any, Any] | None = None
    if size is not None:
        out_hw = tuple(int(v) for v in size)
    else:
        assert scale_factor is not None
        factors = tuple(float(v) for v in scale_factor)  # type: ignore[assignment]
        check(all(f > 0 for f in factors), op,  # type: ignore[union-attr]
              lambda: f"scale_factor must be positive, got {scale_factor!r}", ValueError)
        out_hw = tuple(math.floor(n * f) for n, f in zip(in_hw, factors, strict=True))  # type: ignore[arg-type]
        if recompute_scale_factor:
            factors = None
    check(all(v > 0 for v in out_hw), op,
          lambda: f"output size {out_hw} must be positive", ValueError)
    check(in_hw[0] > 0 and in_hw[1] > 0, op,
          lambda: f"expected non-empty spatial dims, got shape {x.shape}", ShapeError)
    if mode == "area":
        return adaptive_avg_pool2d(x, out_hw)
    linear = mode not in ("nearest", "nearest-exact")
    align = bool(align_corners)
    scales = tuple(_scale(in_hw[i], out_hw[i], None if factors is None else factors[i],
                          linear and align) for i in range(2))
    if mode == "nearest-exact":
        for axis in (2, 3):
            src = np.floor((np.arange(out_hw[axis - 2]) + 0.5) * scales[axis - 2])
            picks = np.minimum(src, in_hw[axis - 2] - 1).astype(np.int64)
            x = x.index_select(axis, tensor(picks, device=x.device))
        return x
    if mode == "bicubic":
        for axis in (2, 3):
            x = _cubic_axis(x, axis, out_hw[axis - 2], scales[axis - 2], align)
        return x
    return linear_map(x, x.shape[:2] + out_hw, "resample2d", "resample2d_backward",
                      (scales, linear, align))


def _interpolate_3d(input: Any, size: tuple[Any, ...] | None,
                    scale_factor: tuple[Any, ...] | None, mode: str,
                    align_corners: bool | None, recompute_scale_factor: bool | None) -> Any:
    """Resample ``(N, C, D, H, W)``: ``(H, W)`` as ``(N, C*D, H, W)``, then ``D`` as
    ``(N, C, D, OH*OW)`` with the last axis kept (a unit step maps it onto itself)."""
    flat_mode = "bilinear" if mode == "trilinear" else mode
    n, c, d = input.shape[:3]
    planes = input.reshape(n, c * d, *input.shape[3:])
    hw = _interpolate_2d(planes, None if size is None else size[1:],
                         None if scale_factor is None else scale_factor[1:], flat_mode,
                         align_corners, recompute_scale_factor)
    oh, ow = hw.shape[2:]
    lines = hw.reshape(n, c, d, oh * ow)
    out = _interpolate_2d(lines, None if size is None else (size[0], oh * ow),
                          None if scale_factor is None else (scale_factor[0], 1.0), flat_mode,
                          align_corners, recompute_scale_factor)
    return out.reshape(n, c, out.shape[2], oh, ow)


def cubic_weights(t: Any) -> list[Any]:
    """The four cubic-convolution weights (``a = -0.75``) of the taps at offsets -1, 0, 1, 2,
    for the fractions ``t`` (a NumPy array or a tensor: only arithmetic is used).

    Example:
        >>> [float(w) for w in cubic_weights(np.float64(0.0))]
        [0.0, 1.0, 0.0, 0.0]
    """
    a = CUBIC_A

    def near(d: np.ndarray) -> np.ndarray:
        return ((a + 2) * d - (a + 3)) * d * d + 1

    def far(d: np.ndarray) -> np.ndarray:
        return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a

    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _cubic_axis(x: Any, axis: int, n_out: int, scale: float, align: bool) -> Any:
    """Bicubic resampling of ``x`` along ``axis``: four clamped taps times constant weights."""
    n_in = x.shape[axis]
    dst = np.arange(n_out, dtype=np.float64)
    src = dst * scale if align else scale * (dst + 0.5) - 0.5
    base = np.floor(src)
    shape = [1] * x.ndim
    shape[axis] = n_out
    out = None
    for k, w in enumerate(cubic_weights(src - base)):
        picks = np.clip(base + k - 1, 0, n_in - 1).astype(np.int64)
        term = x.index_select(axis, tensor(picks, device=x.device)) * tensor(
            w.reshape(shape).astype(x.dtype.name), device=x.device)
        out = term if out is None else out + term
    return out


def _scale(n_in: int, n_out: int, factor: float | None, align: bool) -> float:
    """PyTorch's source step per output step along one axis."""
    if align:
        return (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    if factor is not None:
        return 1.0 / factor
    return n_in / n_out


EXPORTS = ("interpolate",)
