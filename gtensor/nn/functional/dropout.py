"""Dropout: elementwise (``dropout``), whole channels (``dropout1d``, ``2d``, ``3d``) and the
SELU-preserving ``alpha_dropout`` and ``feature_alpha_dropout``."""

from __future__ import annotations

from ...errors import ShapeError, check
from ...generator import Generator
from ...ops.random_extra import dropout_mask
from ...tensor import Tensor


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False, *,
            generator: Generator | None = None) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``.

    The mask is drawn on the input's device from gtensor's generator; in
    evaluation (``training=False``) or with ``p = 0`` the input is returned.

    Args:
        input: any floating tensor.
        p: drop probability in ``[0, 1]``.
        training: apply dropout only when True.
        inplace: multiply ``input`` in place.
        generator: the random stream (the device's default one when None).

    Example:
        >>> sorted(set(F.dropout(gt.ones(100), 0.5).tolist()))  # kept values scaled by 1/(1-p)
        [0.0, 2.0]
        >>> F.dropout(gt.ones(3), 0.5, training=False)
        tensor([1., 1., 1.])
    """
    check(0.0 <= p <= 1.0, "dropout", lambda: f"p must be in [0, 1], got {p}", ValueError)
    if not training or p == 0.0:
        return input
    mask = dropout_mask(input.shape, p=p, dtype=input.dtype, device=input.device,
                        generator=generator)
    return input.mul_(mask) if inplace else input * mask


def _channel_dropout(op: str, input: Tensor, p: float, training: bool, inplace: bool,
                     spatial: int, generator: Generator | None) -> Tensor:
    """Zero whole channels of ``(N, C, *spatial)`` or unbatched ``(C, *spatial)`` input."""
    check(0.0 <= p <= 1.0, op, lambda: f"p must be in [0, 1], got {p}", ValueError)
    check(input.ndim in (spatial + 1, spatial + 2), op, lambda: f"expected a {spatial + 1}-D "
          f"or {spatial + 2}-D input, got shape {input.shape}", ShapeError)
    if not training or p == 0.0:
        return input
    lead = input.ndim - spatial
    mask = dropout_mask(input.shape[:lead] + (1,) * spatial, p=p, dtype=input.dtype,
                        device=input.device, generator=generator)
    return input.mul_(mask) if inplace else input * mask


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False, *,
              generator: Generator | None = None) -> Tensor:
    """Zero each channel of ``(N, C, L)`` or ``(C, L)`` with probability ``p``; scale the rest.

    Example:
        >>> y = F.dropout1d(gt.ones(2, 3, 4), 0.5)
        >>> y.shape, bool((y == y[..., :1]).all())  # whole channels kept or zeroed
        ((2, 3, 4), True)
    """
    return _channel_dropout("dropout1d", input, p, training, inplace, 1, generator)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False, *,
              generator: Generator | None = None) -> Tensor:
    """Zero each channel of ``(N, C, H, W)`` with probability ``p``; scale the rest.

    A 3-D input is taken as ``(N, C, L)`` (PyTorch's behaviour, which warns).

    Example:
        >>> F.dropout2d(gt.ones(2, 3, 4, 4), 0.5).shape
        (2, 3, 4, 4)
    """
    if input.ndim == 3:
        return _channel_dropout("dropout2d", input, p, training, inplace, 1, generator)
    return _channel_dropout("dropout2d", input, p, training, inplace, 2, generator)


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False, *,
              generator: Generator | None = None) -> Tensor:
    """Zero each channel of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` with probability ``p``.

    Example:
        >>> F.dropout3d(gt.ones(2, 3, 2, 2, 2), 0.5).shape
        (2, 3, 2, 2, 2)
    """
    return _channel_dropout("dropout3d", input, p, training, inplace, 3, generator)


_ALPHA_DROPOUT = 1.7580993408473766


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
