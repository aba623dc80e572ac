"""``interpolate``: nearest and bilinear resampling of ``(N, C, H, W)`` tensors.

A linear map recorded through :func:`gtensor.ops.pooling.linear_map`: the VJP
is the gathering transpose kernel, whose VJP is the forward again.
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import ShapeError, check
from .pooling import batched, linear_map

MODES = ("nearest", "bilinear")


def _per_axis(value: Any, op: str, name: str) -> tuple[Any, Any]:
    items = (value, value) if isinstance(value, (int, float)) else tuple(value)
    check(len(items) == 2, op, lambda: f"{name} must be a number or a pair, got {value!r}",
          ValueError)
    return items  # type: ignore[return-value]


def interpolate(input: Any, size: Any = None, scale_factor: Any = None,
                mode: str = "nearest", align_corners: bool | None = None,
                recompute_scale_factor: bool | None = None) -> Any:
    """Resize the spatial dims of a 4-D ``(N, C, H, W)`` tensor, as PyTorch does.

    Args:
        input: float tensor.
        size: output ``(OH, OW)`` (int or pair); exclusive with ``scale_factor``.
        scale_factor: multiplier (float or pair); the output size is
            ``floor(H * scale_factor)``.
        mode: ``"nearest"`` or ``"bilinear"``.
        align_corners: bilinear only; map corner pixel centres onto each other.
        recompute_scale_factor: with ``scale_factor``, derive the sampling
            step from the output size instead of from ``scale_factor``.

    Returns:
        ``(N, C, OH, OW)``.

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
    check(input.ndim == 4 if hasattr(input, "ndim") else False, op,
          lambda: f"expected 4-D input (N, C, H, W) for mode {mode!r}, got shape "
          f"{getattr(input, 'shape', type(input).__name__)}", ShapeError)
    x, _ = batched(input, op)
    check(align_corners is None or mode == "bilinear", op,
          "align_corners can only be set with mode 'bilinear'", ValueError)
    check((size is None) != (scale_factor is None), op,
          "exactly one of size and scale_factor must be given", ValueError)
    in_hw = x.shape[2:]
    factors: tuple[Any, Any] | None = None
    if size is not None:
        out_hw = tuple(int(v) for v in _per_axis(size, op, "size"))
    else:
        factors = tuple(float(v) for v in _per_axis(scale_factor, op, "scale_factor"))  # type: ignore[assignment]
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
                          mode == "bilinear" and align) for i in range(2))
    return linear_map(x, x.shape[:2] + out_hw, "resample2d", "resample2d_backward",
                      (scales, mode == "bilinear", align))


def _scale(n_in: int, n_out: int, factor: float | None, align: bool) -> float:
    """PyTorch's source step per output step along one axis."""
    if align:
        return (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    if factor is not None:
        return 1.0 / factor
    return n_in / n_out


EXPORTS = ("interpolate",)
