"""Smaller functional forms: ``relu_``, ``gumbel_softmax``, ``alpha_dropout``,
``feature_alpha_dropout``, ``channel_shuffle``, ``pdist``, ``local_response_norm``,
``affine_grid`` and the deprecated ``upsample`` aliases of ``interpolate``.

All are compositions of gtensor ops, so autograd gives their gradients.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ...errors import ShapeError, check
from ...generator import Generator
from ...ops.arrangement import triu_indices
from ...ops.creation import tensor, zeros_like
from ...ops.layout.copies import pad
from ...ops.random import rand
from ...ops.random_extra import dropout_mask
from ...ops.resample import interpolate
from ...tensor import Tensor
from ...tensor_base import TensorBase
from .activation import softmax

_ALPHA_DROPOUT = 1.7580993408473766


def relu_(input: Tensor) -> Tensor:
    """``max(x, 0)`` written into ``input``.

    Example:
        >>> x = gt.tensor([-1.0, 2.0])
        >>> F.relu_(x).tolist()
        [0.0, 2.0]
    """
    return input.relu_()


def gumbel_softmax(logits: Tensor, tau: float = 1.0, hard: bool = False, eps: float = 1e-10,
                   dim: int = -1, *, generator: Generator | None = None) -> Tensor:
    """A sample of the Gumbel-softmax (concrete) distribution over ``dim``.

    Args:
        logits: unnormalized log-probabilities.
        tau: temperature (> 0).
        hard: return one-hot samples whose gradient is the soft sample's
            (straight-through).
        eps: unused; kept for PyTorch's signature.
        dim: the class dim.
        generator: the random stream (the device's default one when None).

    Example:
        >>> y = F.gumbel_softmax(gt.zeros(2, 3), hard=True)
        >>> y.sum(-1).tolist()
        [1.0, 1.0]
    """
    del eps
    check(tau > 0, "gumbel_softmax", lambda: f"tau must be positive, got {tau}", ValueError)
    u = 1.0 - rand(*logits.shape, dtype=logits.dtype, device=logits.device, generator=generator)
    gumbels = -((-u.log()).log())
    y_soft = softmax((logits + gumbels) / tau, dim)
    if not hard:
        return y_soft
    index = y_soft.argmax(dim, keepdim=True)
    y_hard = zeros_like(logits).scatter(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


def _alpha_dropout(op: str, input: Tensor, p: float, training: bool, inplace: bool,
                   mask_shape: tuple[int, ...], generator: Generator | None) -> Tensor:
    """SELU-preserving dropout: dropped entries take the saturation value, then an affine
    map restores zero mean and unit variance."""
    check(0.0 <= p <= 1.0, op, lambda: f"p must be in [0, 1], got {p}", ValueError)
    if not training or p == 0.0 or input.numel() == 0:
        return input
    if p == 1.0:
        return input.mul_(0.0) if inplace else input * 0.0
    keep = dropout_mask(mask_shape, p=p, scale=False, dtype=input.dtype, device=input.device,
                        generator=generator)
    a = 1.0 / ((_ALPHA_DROPOUT ** 2 * p + 1) * (1 - p)) ** 0.5
    shift = (keep - 1.0) * (_ALPHA_DROPOUT * a) + _ALPHA_DROPOUT * a * p
    out = input * (keep * a) + shift
    return input.copy_(out) if inplace else out


def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False,
                  *, generator: Generator | None = None) -> Tensor:
    """Dropout for SELU networks: keeps the input's mean and variance.

    Example:
        >>> x = gt.randn(4)
        >>> F.alpha_dropout(x, 0.2) is x  # evaluation mode by default
        True
    """
    return _alpha_dropout("alpha_dropout", input, p, training, inplace, tuple(input.shape),
                          generator)


def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,
                          inplace: bool = False, *,
                          generator: Generator | None = None) -> Tensor:
    """:func:`alpha_dropout` of whole channels of ``(N, C, *)`` input.

    Example:
        >>> F.feature_alpha_dropout(gt.randn(2, 3, 4), 0.5, True).shape
        (2, 3, 4)
    """
    op = "feature_alpha_dropout"
    check(input.ndim >= 2, op, lambda: f"expected an input with at least 2 dims, got shape "
          f"{input.shape}", ShapeError)
    shape = tuple(input.shape[:2]) + (1,) * (input.ndim - 2)
    return _alpha_dropout(op, input, p, training, inplace, shape, generator)


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


def pdist(input: Tensor, p: float = 2.0) -> Tensor:
    """p-norm distances between the rows of ``(N, M)`` input, pairs ``i < j`` in row order.

    Example:
        >>> F.pdist(gt.tensor([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]])).tolist()
        [5.0, 1.0, 4.242640495300293]
    """
    op = "pdist"
    check(input.ndim == 2, op, lambda: f"expected a 2-D input, got shape {input.shape}",
          ShapeError)
    check(p >= 0, op, lambda: f"p must be non-negative, got {p}", ValueError)
    n = input.shape[0]
    ij = triu_indices(n, n, 1, device=input.device)
    diff = input.index_select(0, ij[0]) - input.index_select(0, ij[1])
    return diff.norm(p, dim=1)


def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75,
                        k: float = 1.0) -> Tensor:
    """Divide each entry by ``(k + alpha * mean of squares over size neighbouring channels)
    ** beta``.

    Args:
        input: ``(N, C, *)`` with at least one position dim.
        size: channels in the window (zero padded at the ends).
        alpha: multiplicative factor.
        beta: exponent.
        k: additive factor.

    Example:
        >>> F.local_response_norm(gt.ones(1, 3, 2), 2).shape
        (1, 3, 2)
    """
    op = "local_response_norm"
    check(input.ndim >= 3, op, lambda: f"expected 3D or higher dimensionality input (got "
          f"{input.ndim} dimensions)", ShapeError)
    check(isinstance(size, int) and size > 0, op, lambda: f"size must be a positive int, got "
          f"{size!r}", ValueError)
    if input.numel() == 0:
        return input
    n, c = input.shape[:2]
    sq = (input * input).reshape(n, c, -1)
    sq = pad(sq, (0, 0, size // 2, (size - 1) // 2))
    total = sq.narrow(1, 0, c)
    for i in range(1, size):
        total = total + sq.narrow(1, i, c)
    div = (total.reshape(input.shape) * (alpha / size) + k) ** beta
    return input / div


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
        >>> F.upsample(gt.ones(1, 1, 2), scale_factor=2).shape  # doctest: +SKIP
        (1, 1, 4)
    """
    warnings.warn(_UPSAMPLE_WARNING.format("upsample"), UserWarning, stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:
    """Deprecated alias of :func:`interpolate` with ``mode="nearest"`` (warns).

    Example:
        >>> F.upsample_nearest(gt.ones(1, 1, 2, 2), 4).shape  # doctest: +SKIP
        (1, 1, 4, 4)
    """
    warnings.warn(_UPSAMPLE_WARNING.format("upsample_nearest"), UserWarning, stacklevel=2)
    return interpolate(input, size, scale_factor, "nearest")


def upsample_bilinear(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:
    """Deprecated alias of :func:`interpolate` with ``mode="bilinear"``, aligned corners (warns).

    Example:
        >>> F.upsample_bilinear(gt.ones(1, 1, 2, 2), 4).shape  # doctest: +SKIP
        (1, 1, 4, 4)
    """
    warnings.warn(_UPSAMPLE_WARNING.format("upsample_bilinear"), UserWarning, stacklevel=2)
    return interpolate(input, size, scale_factor, "bilinear", True)
