"""The array API standard's ``fft`` extension over :mod:`gtensor.fft` (``axis=``/``axes=``).

Each function is gtensor's transform (and its gradient) under the
standard's signature: the array positional-only, the rest keyword-only, and
``axis``/``axes`` for PyTorch's ``dim``.

Example:
    >>> import gtensor as gt
    >>> xp = gt.ones(4).__array_namespace__()
    >>> xp.fft.rfft(xp.ones(4)).tolist()
    [(4+0j), 0j, 0j]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .. import fft as _fft
from ..device import DeviceLike

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["fft", "fftfreq", "fftn", "fftshift", "hfft", "ifft", "ifftn", "ifftshift", "ihfft",
           "irfft", "irfftn", "rfft", "rfftfreq", "rfftn"]


def fft(x: Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Tensor:
    """The one-dimensional DFT along ``axis`` (:func:`gtensor.fft.fft`)."""
    return _fft.fft(x, n, axis, norm)


def ifft(x: Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Tensor:
    """The inverse of :func:`fft` (:func:`gtensor.fft.ifft`)."""
    return _fft.ifft(x, n, axis, norm)


def fftn(x: Tensor, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
         norm: str = "backward") -> Tensor:
    """The N-dimensional DFT over ``axes`` (:func:`gtensor.fft.fftn`)."""
    return _fft.fftn(x, s, axes, norm)


def ifftn(x: Tensor, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: str = "backward") -> Tensor:
    """The inverse of :func:`fftn` (:func:`gtensor.fft.ifftn`)."""
    return _fft.ifftn(x, s, axes, norm)


def rfft(x: Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Tensor:
    """The one-sided DFT of a real array along ``axis`` (:func:`gtensor.fft.rfft`)."""
    return _fft.rfft(x, n, axis, norm)


def irfft(x: Tensor, /, *, n: int | None = None, axis: int = -1,
          norm: str = "backward") -> Tensor:
    """The inverse of :func:`rfft`: ``n`` real samples (:func:`gtensor.fft.irfft`)."""
    return _fft.irfft(x, n, axis, norm)


def rfftn(x: Tensor, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: str = "backward") -> Tensor:
    """The N-dimensional one-sided DFT of a real array (:func:`gtensor.fft.rfftn`)."""
    return _fft.rfftn(x, s, axes, norm)


def irfftn(x: Tensor, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
           norm: str = "backward") -> Tensor:
    """The inverse of :func:`rfftn` (:func:`gtensor.fft.irfftn`)."""
    return _fft.irfftn(x, s, axes, norm)


def hfft(x: Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Tensor:
    """The DFT of a Hermitian signal given by its half: real (:func:`gtensor.fft.hfft`)."""
    return _fft.hfft(x, n, axis, norm)


def ihfft(x: Tensor, /, *, n: int | None = None, axis: int = -1,
          norm: str = "backward") -> Tensor:
    """The inverse of :func:`hfft` (:func:`gtensor.fft.ihfft`)."""
    return _fft.ihfft(x, n, axis, norm)


def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None,
            device: DeviceLike | None = None) -> Tensor:
    """The sample frequencies of an ``n``-point DFT (:func:`gtensor.fft.fftfreq`)."""
    return _fft.fftfreq(n, d, dtype=dtype, device=device)


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None,
             device: DeviceLike | None = None) -> Tensor:
    """The sample frequencies of an ``n``-point :func:`rfft` (:func:`gtensor.fft.rfftfreq`)."""
    return _fft.rfftfreq(n, d, dtype=dtype, device=device)


def fftshift(x: Tensor, /, *, axes: int | Sequence[int] | None = None) -> Tensor:
    """The zero frequency moved to the center of ``axes`` (:func:`gtensor.fft.fftshift`)."""
    return _fft.fftshift(x, axes)


def ifftshift(x: Tensor, /, *, axes: int | Sequence[int] | None = None) -> Tensor:
    """The inverse of :func:`fftshift` (:func:`gtensor.fft.ifftshift`)."""
    return _fft.ifftshift(x, axes)
