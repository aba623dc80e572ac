"""Window functions for spectral analysis: hann, hamming, blackman, bartlett, kaiser.

Each is computed on the requested device in float64 from ``arange`` and
elementwise ops, then cast to the requested float dtype. A ``periodic``
window of length ``N`` is the first ``N`` points of the symmetric window of
length ``N + 1`` (what ``stft`` wants), as in PyTorch. Kaiser's ``I0`` is its
power series, summed in float64 until its terms no longer count.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ..device import DeviceLike
from ..dtypes import float64
from ..errors import DTypeError, check
from ..graph.grad_mode import no_grad
from .creation import arange, creation_args, finish_creation, ones

if TYPE_CHECKING:
    from ..tensor import Tensor


def _window(op: str, window_length: int, periodic: bool, dtype: Any, device: DeviceLike | None,
            requires_grad: bool, fn: Any) -> Tensor:
    """``fn(k / (N - 1))`` for ``k < window_length``, with ``N`` the symmetric length."""
    check(isinstance(window_length, int) and window_length >= 0, op, lambda: f"requires "
          f"non-negative window length, got window_length={window_length}", ValueError)
    (n,), dt, dev = creation_args((window_length,), dtype, device, op)
    check(dt.is_floating_point, op, lambda: f"expected a floating point dtype, got {dt.name}",
          DTypeError)
    with no_grad():
        if n <= 1:
            out = ones(n, dtype=dt, device=dev)
        else:
            m = n + 1 if periodic else n
            x = arange(n, dtype=float64, device=dev) / (m - 1)
            out = fn(x).to(dt)
    return finish_creation(out, requires_grad)


def hamming_window(window_length: int, periodic: bool = True, alpha: float = 0.54,
                   beta: float = 0.46, *, dtype: Any = None, device: DeviceLike | None = None,
                   requires_grad: bool = False) -> Tensor:
    """The Hamming window ``alpha - beta * cos(2 pi k / (N - 1))``.

    Example:
        >>> [round(v, 6) for v in gt.hamming_window(3, periodic=False).tolist()]
        [0.08, 1.0, 0.08]
    """
    return _window("hamming_window", window_length, periodic, dtype, device, requires_grad,
                   lambda x: alpha - beta * (x * (2 * math.pi)).cos())


def hann_window(window_length: int, periodic: bool = True, *, dtype: Any = None,
                device: DeviceLike | None = None, requires_grad: bool = False) -> Tensor:
    """The Hann window ``0.5 - 0.5 * cos(2 pi k / (N - 1))``.

    Example:
        >>> gt.hann_window(4).tolist()
        [0.0, 0.5, 1.0, 0.5]
    """
    return _window("hann_window", window_length, periodic, dtype, device, requires_grad,
                   lambda x: 0.5 - 0.5 * (x * (2 * math.pi)).cos())


def blackman_window(window_length: int, periodic: bool = True, *, dtype: Any = None,
                    device: DeviceLike | None = None, requires_grad: bool = False) -> Tensor:
    """The Blackman window ``0.42 - 0.5 cos(2 pi k / (N - 1)) + 0.08 cos(4 pi k / (N - 1))``.

    Example:
        >>> gt.blackman_window(3, periodic=False)[1].item()
        1.0
    """
    return _window("blackman_window", window_length, periodic, dtype, device, requires_grad,
                   lambda x: 0.42 - 0.5 * (x * (2 * math.pi)).cos()
                   + 0.08 * (x * (4 * math.pi)).cos())


def bartlett_window(window_length: int, periodic: bool = True, *, dtype: Any = None,
                    device: DeviceLike | None = None, requires_grad: bool = False) -> Tensor:
    """The triangular Bartlett window ``1 - |2k / (N - 1) - 1|``.

    Example:
        >>> gt.bartlett_window(5, periodic=False).tolist()
        [0.0, 0.5, 1.0, 0.5, 0.0]
    """
    return _window("bartlett_window", window_length, periodic, dtype, device, requires_grad,
                   lambda x: 1.0 - (x * 2.0 - 1.0).abs())


def _bessel_i0(x: Tensor, bound: float) -> Tensor:
    """The modified Bessel function ``I0(x) = sum_m ((x / 2)^(2m) / (m!)^2)`` for
    ``0 <= x <= bound``: past ``m = bound`` each term is under a quarter of the one before,
    so 40 more make the rest negligible in float64."""
    quarter = x * x * 0.25
    term, total = ones(x.shape, dtype=x.dtype, device=x.device), 0.0
    for m in range(1, math.ceil(bound) + 40):
        total = term + total
        term = term * quarter / (m * m)
    return total  # type: ignore[return-value]


def kaiser_window(window_length: int, periodic: bool = True, beta: float = 12.0, *,
                  dtype: Any = None, device: DeviceLike | None = None,
                  requires_grad: bool = False) -> Tensor:
    """The Kaiser window ``I0(beta sqrt(1 - (2k / (N - 1) - 1)^2)) / I0(beta)``.

    Example:
        >>> gt.kaiser_window(3, periodic=False, beta=0.0).tolist()
        [1.0, 1.0, 1.0]
    """
    def window(x: Tensor) -> Tensor:
        r = x * 2.0 - 1.0
        arg = (1.0 - r * r).clamp(min=0.0).sqrt() * beta  # type: ignore[attr-defined]
        scale = _bessel_i0(ones(1, dtype=float64, device=x.device) * beta, abs(beta))
        return _bessel_i0(arg, abs(beta)) / scale

    return _window("kaiser_window", window_length, periodic, dtype, device, requires_grad, window)
