"""Vision helpers: ``pixel_shuffle``, ``pixel_unshuffle``, ``channel_shuffle``, ``grid_sample``,
``affine_grid`` and the deprecated ``upsample`` aliases of ``interpolate``.

The shuffles are a reshape and a permute. ``grid_sample`` unnormalizes the
grid, applies the padding mode to the coordinates, then reads the corner
pixels of every sample point with ``gather`` over the flattened plane and
blends them with weights that are differentiable in the grid (bilinear) or
reads the nearest pixel; autograd gives both gradients. ``affine_grid`` is a
host-built base grid times the transposed matrices.
"""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import numpy as np

from ...dtypes import int64
from ...errors import DTypeError, ShapeError, check
from ...graph.autocast_mode import autocast_inputs
from ...ops.creation import tensor
from ...ops.elementwise import where
from ...ops.resample import cubic_weights, interpolate
from ...ops.widen import half_in_float32
from ...tensor import Tensor
from ...tensor_base import TensorBase


def _shuffle(op: str, input: Any, r: int, up: bool) -> Tensor:
    """Move ``r x r`` blocks between the channels and the plane (``up``: into the plane)."""
    check(isinstance(input, TensorBase), op, "input must be a tensor", TypeError)
    check(input.ndim >= 3, op, lambda: f"expected an input with at least 3 dims, got shape "
          f"{input.shape}", ShapeError)
    check(isinstance(r, int) and r >= 1, op,
          lambda: f"the factor must be a positive int, got {r!r}", ValueError)
    *lead, c, h, w = input.shape
    b = len(lead)
    if up:
        check(c % (r * r) == 0, op, lambda: f"channels ({c}) must be divisible by the square "
              f"of upscale_factor ({r})", ShapeError)
        x = input.reshape(*lead, c // (r * r), r, r, h, w)
        x = x.permute(*range(b), b, b + 3, b + 1, b + 4, b + 2)
        return x.reshape(*lead, c // (r * r), h * r, w * r)
    check(h % r == 0 and w % r == 0, op, lambda: f"height ({h}) and width ({w}) must be "
          f"divisible by downscale_factor ({r})", ShapeError)
    x = input.reshape(*lead, c, h // r, r, w // r, r)
    x = x.permute(*range(b), b, b + 2, b + 4, b + 1, b + 3)
    return x.reshape(*lead, c * r * r, h // r, w // r)


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """Rearrange ``(*, C*r*r, H, W)`` into ``(*, C, H*r, W*r)``.

    Example:
        >>> F.pixel_shuffle(gt.arange(4.0).reshape(1, 4, 1, 1), 2)
        tensor([[[[0., 1.],
                  [2., 3.]]]])
    """
    return _shuffle("pixel_shuffle", input, upscale_factor, True)


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """Rearrange ``(*, C, H*r, W*r)`` into ``(*, C*r*r, H, W)`` (the inverse of ``pixel_shuffle``).

    Example:
        >>> F.pixel_unshuffle(gt.arange(4.0).reshape(1, 1, 2, 2), 2).flatten()
        tensor([0., 1., 2., 3.])
    """
    return _shuffle("pixel_unshuffle", input, downscale_factor, False)


def _reflect(coord: Tensor, low2: int, high2: int) -> Tensor:
    """Fold ``coord`` into ``[low2/2, high2/2]`` by reflecting at the ends (PyTorch's rule)."""
    if low2 == high2:
        return coord * 0.0
    low, span = low2 / 2, (high2 - low2) / 2
    dist = (coord - low).abs()
    flips = (dist / span).floor().detach()
    extra = dist - flips * span
    even = (flips.remainder(2) == 0)
    return where(even, extra + low, (span - extra) + low)


def _unnormalize(coord: Tensor, size: int, align: bool) -> Tensor:
    return (coord + 1) * ((size - 1) / 2) if align else ((coord + 1) * size - 1) / 2


def _source(coord: Tensor, size: int, padding_mode: str, align: bool) -> Tensor:
    """Pixel coordinate of normalized ``coord`` along an axis of ``size``, after padding."""
    return _padded(_unnormalize(coord, size, align), size, padding_mode, align)


def _padded(x: Tensor, size: int, padding_mode: str, align: bool) -> Tensor:
    """Pixel coordinate ``x`` moved inside the input by ``padding_mode`` (zeros: unmoved)."""
    if padding_mode == "reflection":
        x = _reflect(x, 0, 2 * (size - 1)) if align else _reflect(x, -1, 2 * size - 1)
    if padding_mode != "zeros":
        x = x.clamp(0, size - 1)
    return x


def _read(plane: Tensor, idx: tuple[Tensor, ...], sizes: tuple[int, ...]) -> Tensor:
    """``plane[n, c, *idx]`` with zeros outside the volume of ``sizes``; plane is
    ``(N, C, prod(sizes))`` and ``idx`` the (float, integral) coordinates, slowest first."""
    inside = None
    flat = None
    for i, size in zip(idx, sizes, strict=True):
        ok = (i >= 0) & (i <= size - 1)
        inside = ok if inside is None else inside & ok
        flat = i.clamp(0, size - 1) if flat is None else flat * size + i.clamp(0, size - 1)
    assert flat is not None and inside is not None
    n, c = plane.shape[:2]
    index = flat.reshape(n, 1, -1).to(int64).expand(n, c, flat[0].numel())
    vals = plane.gather(2, index).reshape(n, c, *idx[0].shape[1:])
    return vals * inside.unsqueeze(1).to(plane.dtype)


@half_in_float32
def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear",
                padding_mode: str = "zeros", align_corners: bool | None = None) -> Tensor:
    """Sample ``(N, C, H, W)`` input at the normalized ``(x, y)`` points of ``grid``
    (``(N, C, D, H, W)`` input at ``(x, y, z)`` points).

    Args:
        input: ``(N, C, H, W)`` or ``(N, C, D, H, W)`` float tensor.
        grid: ``(N, OH, OW, 2)`` or ``(N, OD, OH, OW, 3)`` of the input's dtype; ``-1``
            and ``1`` are the input's edges (pixel centres of the corners with
            ``align_corners``).
        mode: ``"bilinear"`` (trilinear for 5-D), ``"nearest"`` (rounds half to
            even) or ``"bicubic"`` (4-D; PyTorch's cubic convolution, ``a = -0.75``,
            each tap padded).
        padding_mode: ``"zeros"``, ``"border"`` or ``"reflection"``.
        align_corners: map ``-1`` and ``1`` onto the corner pixel centres
            (None means False).

    Returns:
        ``(N, C, OH, OW)`` or ``(N, C, OD, OH, OW)``; differentiable in ``input`` and
        (bilinear, bicubic) in ``grid``.

    Example:
        >>> img = gt.arange(4.0).reshape(1, 1, 2, 2)
        >>> F.grid_sample(img, gt.zeros(1, 1, 1, 2), align_corners=False)  # the centre: a mean
        tensor([[[[1.5000]]]])
    """
    input, grid = autocast_inputs("grid_sample", input, grid)
    op = "grid_sample"
    check(isinstance(input, TensorBase) and isinstance(grid, TensorBase), op,
          "input and grid must be tensors", TypeError)
    check(input.ndim in (4, 5), op, lambda: f"expected a 4-D or 5-D input, got shape "
          f"{input.shape}", ShapeError)
    k = input.ndim - 2
    check(grid.ndim == input.ndim and grid.shape[-1] == k and grid.shape[0] == input.shape[0],
          op, lambda: f"expected a grid of shape ({input.shape[0]}, {'OD, ' * (k - 2)}OH, OW, "
          f"{k}), got {grid.shape}", ShapeError)
    check(input.dtype.name in ("float32", "float64") and grid.dtype is input.dtype, op,
          lambda: f"expected float input and grid of one dtype, got {input.dtype.name} and "
          f"{grid.dtype.name}", DTypeError)
    check(mode in ("bilinear", "nearest", "bicubic"), op,
          lambda: f"mode must be 'bilinear', 'nearest' or 'bicubic', got {mode!r}", ValueError)
    check(mode != "bicubic" or k == 2, op, "mode 'bicubic' needs a 4-D input", ValueError)
    check(padding_mode in ("zeros", "border", "reflection"), op, lambda: "padding_mode must "
          f"be 'zeros', 'border' or 'reflection', got {padding_mode!r}", ValueError)
    align = bool(align_corners)
    sizes = tuple(input.shape[2:])
    plane = input.reshape(*input.shape[:2], -1)
    if mode == "bicubic":
        return _bicubic(plane, grid, *sizes, padding_mode, align)
    # grid's last axis lists x (the fastest input axis) first
    src = [_source(grid[..., k], size, padding_mode, align)
           for k, size in zip(range(len(sizes) - 1, -1, -1), sizes, strict=True)]
    if mode == "nearest":
        return _read(plane, tuple(s.detach().round() for s in src), sizes)
    low = [s.detach().floor() for s in src]
    frac = [(s - f).unsqueeze(1) for s, f in zip(src, low, strict=True)]
    out = None
    for corner in itertools.product((0, 1), repeat=len(sizes)):
        weight = None
        for up, f in zip(corner, frac, strict=True):
            part = f if up else 1 - f
            weight = part if weight is None else weight * part
        term = _read(plane, tuple(f + up for f, up in zip(low, corner, strict=True)), sizes)
        out = term * weight if out is None else out + term * weight
    return out  # type: ignore[return-value]


def _bicubic(plane: Tensor, grid: Tensor, h: int, w: int, padding_mode: str,
             align: bool) -> Tensor:
    """Sixteen taps around each point, each moved by ``padding_mode``, cubic-weighted."""
    ux, uy = _unnormalize(grid[..., 0], w, align), _unnormalize(grid[..., 1], h, align)
    x0, y0 = ux.detach().floor(), uy.detach().floor()
    wx = [wt.unsqueeze(1) for wt in cubic_weights(ux - x0)]
    wy = [wt.unsqueeze(1) for wt in cubic_weights(uy - y0)]
    out = None
    for i in range(4):
        iy = _padded(y0 + (i - 1), h, padding_mode, align)
        row = None
        for j in range(4):
            tap = _read(plane, (iy, _padded(x0 + (j - 1), w, padding_mode, align)),
                        (h, w)) * wx[j]
            row = tap if row is None else row + tap
        out = row * wy[i] if out is None else out + row * wy[i]
    return out  # type: ignore[return-value]


def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """Interleave the channels of ``(N, C, *)`` input from ``groups`` groups.

    Example:
        >>> F.channel_shuffle(gt.arange(4.0).reshape(1, 4, 1), 2).flatten().tolist()
        [0.0, 2.0, 1.0, 3.0]
    """
    op = "channel_shuffle"
    check(isinstance(input, TensorBase), op, "input must be a tensor", TypeError)
    check(input.ndim >= 3, op, lambda: f"expected an input with at least 3 dims, got shape "
          f"{input.shape}", ShapeError)
    check(isinstance(groups, int) and groups > 0, op, lambda: f"number of groups to divide "
          f"channels in must be positive, got {groups!r}", ValueError)
    n, c, *rest = input.shape
    check(c % groups == 0, op, lambda: f"number of channels ({c}) must be divisible by groups "
          f"({groups})", ShapeError)
    x = input.reshape(n, groups, c // groups, *rest).transpose(1, 2)
    return x.reshape(n, c, *rest)


def native_channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """:func:`channel_shuffle` under PyTorch's other name.

    Example:
        >>> F.native_channel_shuffle(gt.arange(4.0).reshape(1, 4, 1), 2).flatten().tolist()
        [0.0, 2.0, 1.0, 3.0]
    """
    return channel_shuffle(input, groups)


def _base_grid(spatial: tuple[int, ...], align_corners: bool) -> np.ndarray:
    """``(*spatial, d + 1)`` normalized coordinates ``(x, y[, z], 1)``, the last dim fastest;
    a size-1 dim sits at 0."""
    axes = []
    for s in spatial:
        a = np.linspace(-1.0, 1.0, s) if s > 1 else np.zeros(1)
        axes.append(a if align_corners else a * (s - 1) / s)
    mesh = np.meshgrid(*axes, indexing="ij")
    return np.stack([*reversed(mesh), np.ones(spatial)], axis=-1)


def affine_grid(theta: Tensor, size: Any, align_corners: bool | None = None) -> Tensor:
    """Sampling grid for :func:`grid_sample` from batched affine matrices.

    Args:
        theta: ``(N, 2, 3)`` (2-D) or ``(N, 3, 4)`` (3-D) float affine matrices.
        size: the target ``(N, C, H, W)`` or ``(N, C, D, H, W)``.
        align_corners: as in :func:`grid_sample` (default False).

    Returns:
        ``(N, H, W, 2)`` or ``(N, D, H, W, 3)`` grid.

    Example:
        >>> eye = gt.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
        >>> F.affine_grid(eye, (1, 1, 2, 2), align_corners=True)[0, 0].tolist()
        [[-1.0, -1.0], [1.0, -1.0]]
    """
    op = "affine_grid"
    check(isinstance(theta, TensorBase) and theta.dtype.is_floating_point, op,
          "expected theta to be a floating point tensor", TypeError)
    size = tuple(int(s) for s in size)
    check(len(size) in (4, 5), op, lambda: f"only 2-D and 3-D affine grids are supported, got "
          f"size {size}", ValueError)
    d = len(size) - 2
    n = size[0]
    check(tuple(theta.shape) == (n, d, d + 1), op, lambda: f"expected a batch of {d}D affine "
          f"matrices of shape Nx{d}x{d + 1} for size {size}, got {tuple(theta.shape)}",
          ShapeError)
    check(min(size[2:]) > 0, op, lambda: f"expected non-zero, positive output size, got {size}",
          ValueError)
    spatial = size[2:]
    base = tensor(_base_grid(spatial, bool(align_corners)).reshape(1, -1, d + 1),
                  dtype=theta.dtype, device=theta.device)
    grid = base.expand(n, -1, -1) @ theta.transpose(1, 2)
    return grid.reshape(n, *spatial, d)


_UPSAMPLE_WARNING = ("nn.functional.{} is deprecated. Use nn.functional.interpolate instead.")


def upsample(input: Tensor, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
             align_corners: bool | None = None) -> Tensor:
    """Deprecated alias of :func:`interpolate` (warns).

    Example:
        >>> with warnings.catch_warnings(record=True):
        ...     F.upsample(gt.tensor([[[1.0, 2.0]]]), scale_factor=2)
        tensor([[[1., 1., 2., 2.]]])
    """
    warnings.warn(_UPSAMPLE_WARNING.format("upsample"), UserWarning, stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:
    """Deprecated alias of :func:`interpolate` with ``mode="nearest"`` (warns).

    Example:
        >>> with warnings.catch_warnings(record=True):
        ...     F.upsample_nearest(gt.tensor([[[[1.0, 2.0]]]]), (1, 4))
        tensor([[[[1., 1., 2., 2.]]]])
    """
    warnings.warn(_UPSAMPLE_WARNING.format("upsample_nearest"), UserWarning, stacklevel=2)
    return interpolate(input, size, scale_factor, "nearest")


def upsample_bilinear(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:
    """Deprecated alias of :func:`interpolate` with ``mode="bilinear"``, aligned corners (warns).

    Example:
        >>> with warnings.catch_warnings(record=True):
        ...     F.upsample_bilinear(gt.tensor([[[[1.0, 2.0]]]]), (1, 3))
        tensor([[[[1.0000, 1.5000, 2.0000]]]])
    """
    warnings.warn(_UPSAMPLE_WARNING.format("upsample_bilinear"), UserWarning, stacklevel=2)
    return interpolate(input, size, scale_factor, "bilinear", True)
