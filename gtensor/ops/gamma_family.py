"""``i0``, ``polygamma`` and ``mvlgamma``, composed of existing elementwise ops (their
gradients come from the composition).

``i0`` sums its power series up to ``|x| = 15`` and uses the asymptotic expansion
beyond. ``polygamma(n, x)`` for ``n >= 1`` is ``(-1)^(n+1) n! zeta(n+1, x)``, with the
Hurwitz zeta summed directly over 12 terms and finished by Euler-Maclaurin (exact to
rounding for ``x > -2``); ``polygamma(0, x)`` is ``digamma``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..dtypes import get_default_dtype
from ..errors import DTypeError, check
from ..tensor_base import TensorBase
from . import elementwise as ew
from .elementwise import takes_out
from .unary import digamma, exp, lgamma, sqrt

if TYPE_CHECKING:
    from ..tensor import Tensor

_SERIES_LIMIT = 15.0
_SERIES_TERMS = 60
_ASYMPTOTIC_TERMS = 14
_ZETA_SHIFT = 12
# B_2j / (2j)! for j = 1..7
_BERNOULLI = (1 / 6 / 2, -1 / 30 / 24, 1 / 42 / 720, -1 / 30 / 40320, 5 / 66 / 3628800,
              -691 / 2730 / 479001600, 7 / 6 / 87178291200)


def _real_floating(op: str, x: Tensor) -> Tensor:
    check(isinstance(x, TensorBase), op, lambda: f"expected a tensor, got {type(x).__name__}",
          TypeError)
    check(not x.dtype.is_complex, op, "complex tensors are not supported", DTypeError)
    return x if x.dtype.is_floating_point else x.to(get_default_dtype())


@takes_out
def i0(input: Tensor) -> Tensor:
    """The modified Bessel function of the first kind, order 0.

    Example:
        >>> round(gt.i0(gt.tensor([1.0])).item(), 4)
        1.2661
    """
    x = _real_floating("i0", input)
    quarter_sq = ew.minimum(x * x, _SERIES_LIMIT ** 2) * 0.25
    term = quarter_sq * 0 + 1.0
    total = term
    for k in range(1, _SERIES_TERMS):
        term = term * quarter_sq * (1.0 / (k * k))
        total = total + term
    ax = ew.maximum(x.abs(), _SERIES_LIMIT)  # type: ignore[attr-defined]
    inv = 1.0 / (8.0 * ax)
    term_a = ax * 0 + 1.0
    tail = term_a
    for k in range(1, _ASYMPTOTIC_TERMS):
        term_a = term_a * inv * ((2 * k - 1) ** 2 / k)
        tail = tail + term_a
    large = exp(ax) / sqrt(ax * (2 * math.pi)) * tail
    return ew.where(x.abs() <= _SERIES_LIMIT, total, large)  # type: ignore[attr-defined]



def polygamma(n: int, input: Tensor) -> Tensor:
    """The ``n``-th derivative of the digamma function.

    Args:
        n: the order, a non-negative int.
        input: a real tensor.

    Example:
        >>> round(gt.polygamma(1, gt.tensor([1.0])).item(), 5)  # pi**2 / 6
        1.64493
    """
    check(isinstance(n, int) and not isinstance(n, bool) and n >= 0, "polygamma",
          lambda: f"n must be a non-negative int, got {n!r}", ValueError)
    x = _real_floating("polygamma", input)
    if n == 0:
        return digamma(x)
    s = n + 1
    total = ew.pow(x, -s)
    for k in range(1, _ZETA_SHIFT):
        total = total + ew.pow(x + k, -s)
    q = x + _ZETA_SHIFT
    total = total + ew.pow(q, 1 - s) * (1.0 / (s - 1)) + ew.pow(q, -s) * 0.5
    rising = float(s)
    power = ew.pow(q, -s - 1)
    inv_sq = ew.pow(q, -2)
    for j, b in enumerate(_BERNOULLI):
        total = total + power * (b * rising)
        rising *= (s + 2 * j + 1) * (s + 2 * j + 2)
        power = power * inv_sq
    return total * ((-1) ** (n + 1) * math.factorial(n))



def mvlgamma(input: Tensor, p: int) -> Tensor:
    """The log of the multivariate gamma function of dimension ``p``.

    ``sum_j lgamma(x - j / 2) + p (p - 1) / 4 log(pi)``; every element must exceed
    ``(p - 1) / 2``.

    Example:
        >>> round(gt.mvlgamma(gt.tensor([2.5]), 2).item(), 3)
        0.857
    """
    check(isinstance(p, int) and not isinstance(p, bool) and p >= 1, "mvlgamma",
          lambda: f"p must be a positive int, got {p!r}", ValueError)
    x = _real_floating("mvlgamma", input)
    check(bool((x > (p - 1) / 2).all()), "mvlgamma",  # type: ignore[attr-defined]
          lambda: f"all elements must be greater than (p-1)/2 = {(p - 1) / 2}", ValueError)
    total = lgamma(x)
    for j in range(1, p):
        total = total + lgamma(x - j / 2)
    return total + p * (p - 1) / 4 * math.log(math.pi)

