"""The sample frequencies of a transform and the shifts that center them (``torch.fft``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..device import DeviceLike
from ..errors import check
from ..ops.creation import arange
from ..ops.layout.copies import roll

if TYPE_CHECKING:
    from ..tensor import Tensor


def fftfreq(n: int, d: float = 1.0, *, dtype: Any = None, device: DeviceLike | None = None,
            requires_grad: bool = False) -> Tensor:
    """The frequencies of an ``n``-point DFT with sample spacing ``d``: ``[0, 1, ..., -1] / (d*n)``.

    Example:
        >>> import gtensor as gt
        >>> gt.fft.fftfreq(4).tolist()
        [0.0, 0.25, -0.5, -0.25]
    """
    check(n >= 0, "fft.fftfreq", lambda: f"n must be non-negative, got {n}", ValueError)
    k = arange(n, dtype=dtype, device=device)
    freqs = (k - (k >= (n + 1) // 2) * n) / (d * n)  # type: ignore[operator]
    return freqs.requires_grad_(True) if requires_grad else freqs


def rfftfreq(n: int, d: float = 1.0, *, dtype: Any = None, device: DeviceLike | None = None,
             requires_grad: bool = False) -> Tensor:
    """The non-negative frequencies of an ``n``-point :func:`gtensor.fft.rfft`.

    Example:
        >>> import gtensor as gt
        >>> gt.fft.rfftfreq(4).tolist()
        [0.0, 0.25, 0.5]
    """
    check(n >= 0, "fft.rfftfreq", lambda: f"n must be non-negative, got {n}", ValueError)
    freqs = arange(n // 2 + 1, dtype=dtype, device=device) / (d * n)
    return freqs.requires_grad_(True) if requires_grad else freqs


def _shift(input: Tensor, dim: int | Sequence[int] | None, sign: int) -> Tensor:
    dims = list(range(input.ndim)) if dim is None else [dim] if isinstance(dim, int) else list(dim)
    shifts = [sign * (input.shape[d] // 2) for d in dims]
    return roll(input, shifts, dims) if dims else input


def fftshift(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    """Move the zero frequency to the center of ``dim`` (every dim by default).

    Example:
        >>> import gtensor as gt
        >>> gt.fft.fftshift(gt.fft.fftfreq(4)).tolist()
        [-0.5, -0.25, 0.0, 0.25]
    """
    return _shift(input, dim, 1)


def ifftshift(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    """The inverse of :func:`fftshift`.

    Example:
        >>> import gtensor as gt
        >>> gt.fft.ifftshift(gt.fft.fftshift(gt.arange(5))).tolist()
        [0, 1, 2, 3, 4]
    """
    return _shift(input, dim, -1)
