"""``interpolate``: nearest and (bi)linear resampling of ``(N, C, L)`` and ``(N, C, H, W)`` tensors.

A linear map recorded through :func:`gtensor.ops.pooling.linear_map`: the VJP
is the gathering transpose kernel, whose VJP is the forward again.
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import ShapeError, check
from .pooling import batched, linear_map

MODES = ("nearest", "linear", "bilinear")


def _per_axis(value: Any, n: int, op: str, name: str) -> tuple[Any, ...]:
    items = (value,) * n if isinstance(value, (int, float)) else tuple(value)
    check(len(items) == n, op, lambda: f"{name} must be a number or a sequence of {n}, got "
          f"{value!r}", ValueError)
    return items


def interpolate(input: Any, size: Any = None, scale_factor: Any = None,
                mode: str = "nearest", align_corners: bool | None = None,
                recompute_scale_factor: bool | None = None) -> Any:
    """Resize the spatial dims of ``(N, C, L)`` or ``(N, C, H, W)`` tensors, as PyTorch does.

    A 3-D input takes modes ``"nearest"`` and ``"linear"``, a 4-D one
    ``"nearest"`` and ``"bilinear"``; a 3-D input runs as ``(N, C, 1, L)``.

    Args:
        input: float tensor.
        size: output ``L`` or ``(OH, OW)`` (an int for every dim, or one per dim);
            exclusive with ``scale_factor``.
        scale_factor: multiplier (a float, or one per dim); the output size is
            ``floor(n * scale_factor)``.
        mode: ``"nearest"``, ``"linear"`` (3-D) or ``"bilinear"`` (4-D).
        align_corners: linear modes only; map corner pixel centres onto each other.
        recompute_scale_factor: with ``scale_factor``, derive the sampling
            step from the output size instead of from ``scale_factor``.

    Returns:
        ``(N, C, OL)`` or ``(N, C, OH, OW)``.

    Raises:
        ValueError, ShapeError, TypeError: messages start with ``[interpolate]``.

    Example:
        >>> gt.interpolate(gt.ones(1, 1, 2, 2), scale_factor=2, mode="bilinear").shape
        ... # doctest: +SKIP
        (1, 1, 4, 4)
    """
    op = "interpolate"
    check(mode in MODES, op,
          lambda: f"mode {mode!r} is not supported; expected one of {MODES}", ValueError)
    ndim = getattr(input, "ndim", None)
    want = {"linear": (3,), "bilinear": (4,)}.get(mode, (3, 4))
    check(ndim in want, op, lambda: f"expected {' or '.join(f'{n}-D' for n in want)} input "
          f"for mode {mode!r}, got shape {getattr(input, 'shape', type(input).__name__)}",
          ShapeError)
    check(align_corners is None or mode != "nearest", op,
          "align_corners can only be set with modes 'linear' and 'bilinear'", ValueError)
    check((size is None) != (scale_factor is None), op,
          "exactly one of size and scale_factor must be given", ValueError)
    n_sp = ndim - 2
    if size is not None:
        size = (1, *_per_axis(size, n_sp, op, "size"))[-2:]
    else:
        scale_factor = (1.0, *_per_axis(scale_factor, n_sp, op, "scale_factor"))[-2:]
    flat = input.unsqueeze(2) if ndim == 3 else input
    out = _interpolate_2d(flat, size, scale_factor, mode != "nearest", align_corners,
                          recompute_scale_factor)
    return out.squeeze(2) if ndim == 3 else out


def _interpolate_2d(input: Any, size: tuple[Any, Any] | None,
                    scale_factor: tuple[Any, Any] | None, linear: bool,
                    align_corners: bool | None, recompute_scale_factor: bool | None) -> Any:
    """Resample ``(N, C, H, W)`` to ``size`` (or by ``scale_factor``): nearest or bilinear."""
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
    align = bool(align_corners)
    scales = tuple(_scale(in_hw[i], out_hw[i], None if factors is None else factors[i],
                          linear and align) for i in range(2))
    return linear_map(x, x.shape[:2] + out_hw, "resample2d", "resample2d_backward",
                      (scales, linear, align))


def _scale(n_in: int, n_out: int, factor: float | None, align: bool) -> float:
    """PyTorch's source step per output step along one axis."""
    if align:
        return (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    if factor is not None:
        return 1.0 / factor
    return n_in / n_out


EXPORTS = ("interpolate",)
