"""``poisson`` and ``binomial`` samples, composed of uniform draws from the counter-based
generator (so one seed gives the same counts on cpu and cuda).

Small means (below 10) invert the CDF, stepping every element through ``k = 0, 1, ...``
together; larger ones use Hörmann's transformed rejection (PTRS for Poisson, BTRS for
the binomial), redrawing only for the rejected elements' positions until all accept.
The results carry no gradient.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..dtypes import float64, result_type
from ..errors import DTypeError, check
from ..generator import Generator
from ..graph.grad_mode import no_grad
from ..shape_rules import broadcast_shapes
from ..tensor_base import TensorBase
from . import elementwise as ew
from .creation import zeros
from .random import rand
from .unary import exp, floor, lgamma, log, sqrt

if TYPE_CHECKING:
    from ..tensor import Tensor

_SMALL_MEAN = 10.0
_MAX_STEPS = 1000  # CDF inversion with means below 10 ends far sooner; this bounds rounding


def _any(mask: Tensor) -> bool:
    return bool(mask.any())  # type: ignore[attr-defined]


def _uniform(like: Tensor, generator: Generator | None) -> Tensor:
    return rand(like.shape, generator=generator, dtype=float64, device=like.device)


def _invert(u: Tensor, first: Tensor, ratio: Any, pending: Tensor, limit: Tensor | None
            ) -> Tensor:
    """The count ``k`` where the CDF first reaches ``u``; ``ratio(j)`` gives
    ``pmf(j + 1) / pmf(j)``."""
    k = zeros(u.shape, dtype=float64, device=u.device)
    pmf, cdf = first, first
    pending = pending & (u > cdf)
    for j in range(_MAX_STEPS):
        if limit is not None:
            pending = pending & (k < limit)
        if not _any(pending):
            break
        k = k + pending
        pmf = pmf * ratio(j)
        cdf = cdf + pmf
        pending = pending & (u > cdf)
    return k


def _rejection(pending: Tensor, generator: Generator | None, propose: Any) -> Tensor:
    """Draw ``(U, V)`` until ``propose(U, V)`` accepts every pending element."""
    out = zeros(pending.shape, dtype=float64, device=pending.device)
    while _any(pending):
        u = _uniform(out, generator) - 0.5
        v = _uniform(out, generator)
        k, accepted = propose(u, v)
        take = pending & accepted
        out = ew.where(take, k, out)
        pending = pending & ~take
    return out


def poisson(input: Tensor, generator: Generator | None = None) -> Tensor:
    """A Poisson draw per element with the rate given by ``input`` (non-negative floats).

    Example:
        >>> gt.poisson(gt.zeros(3)).tolist()
        [0.0, 0.0, 0.0]
    """
    check(isinstance(input, TensorBase) and input.dtype.is_floating_point, "poisson",
          lambda: "expected a floating point tensor of rates, got " + (
              input.dtype.name if isinstance(input, TensorBase) else type(input).__name__),
          DTypeError)
    with no_grad():
        lam = input.to(float64)  # type: ignore[attr-defined]
        check(not _any(~(lam >= 0)), "poisson", "rates must be non-negative and not NaN",
              ValueError)
        small = lam < _SMALL_MEAN
        out = zeros(lam.shape, dtype=float64, device=lam.device)
        if _any(small):
            rate = ew.where(small, lam, 0.0)
            out = _invert(_uniform(lam, generator), exp(-rate), lambda j: rate / (j + 1),
                          small, None)
        if _any(~small):
            rate = ew.where(small, _SMALL_MEAN, lam)
            out = ew.where(small, out, _rejection(~small, generator, _ptrs(rate)))
    return out.to(input.dtype)  # type: ignore[attr-defined]


def _ptrs(lam: Tensor) -> Any:
    loglam = log(lam)
    b = sqrt(lam) * 2.53 + 0.931
    a = b * 0.02483 - 0.059
    log_inv_alpha = log(1.1239 + 1.1328 / (b - 3.4))
    vr = 0.9277 - 3.6224 / (b - 2)

    def propose(u: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
        us = 0.5 - u.abs()  # type: ignore[attr-defined]
        k = floor((2 * a / us + b) * u + lam + 0.43)
        quick = (us >= 0.07) & (v <= vr)
        valid = (k >= 0) & ~((us < 0.013) & (v > us))
        bound = log(v) + log_inv_alpha - log(a / (us * us) + b)
        return k, quick | (valid & (bound <= k * loglam - lam - lgamma(k + 1)))

    return propose


def binomial(count: Tensor, prob: Tensor, generator: Generator | None = None) -> Tensor:
    """A binomial draw per element: successes in ``count`` trials of probability ``prob``.

    Example:
        >>> gt.binomial(gt.tensor([5.0, 3.0]), gt.tensor([1.0, 0.0])).tolist()
        [5.0, 0.0]
    """
    for name, t in (("count", count), ("prob", prob)):
        check(isinstance(t, TensorBase) and t.dtype.is_floating_point, "binomial",
              lambda: f"{name} must be a floating point tensor", DTypeError)
    dt = result_type(count, prob)
    shape = broadcast_shapes(count.shape, prob.shape, op="binomial")
    with no_grad():
        n = count.to(float64).expand(shape)  # type: ignore[attr-defined]
        p = prob.to(float64).expand(shape)  # type: ignore[attr-defined]
        check(not _any(~((n >= 0) & (n == floor(n)))), "binomial",
              "count must hold non-negative whole numbers", ValueError)
        check(not _any(~((p >= 0) & (p <= 1))), "binomial", "prob must be in [0, 1]",
              ValueError)
        flip = p > 0.5
        q = ew.where(flip, 1 - p, p)
        small = n * q < _SMALL_MEAN
        out = zeros(shape, dtype=float64, device=n.device)
        if _any(small):
            qs = ew.where(small, q, 0.0)
            ns = ew.where(small, n, 0.0)
            odds = qs / (1 - qs)
            out = _invert(_uniform(n, generator), ew.pow(1 - qs, ns),
                          lambda j: (ns - j) / (j + 1) * odds, small, ns)
        if _any(~small):
            nl = ew.where(small, 40.0, n)
            ql = ew.where(small, 0.5, q)
            out = ew.where(small, out, _rejection(~small, generator, _btrs(nl, ql)))
        out = ew.where(flip, n - out, out)
    return out.to(dt)


def _btrs(n: Tensor, q: Tensor) -> Any:
    spq = sqrt(n * q * (1 - q))
    b = spq * 2.53 + 1.15
    a = b * 0.0248 + q * 0.01 - 0.0873
    c = n * q + 0.5
    vr = 0.92 - 4.2 / b
    alpha = (2.83 + 5.1 / b) * spq
    lpq = log(q / (1 - q))
    m = floor((n + 1) * q)
    h = lgamma(m + 1) + lgamma(n - m + 1)

    def propose(u: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
        us = 0.5 - u.abs()  # type: ignore[attr-defined]
        k = floor((2 * a / us + b) * u + c)
        inside = (k >= 0) & (k <= n)
        quick = (us >= 0.07) & (v <= vr)
        bound = log(v * alpha / (a / (us * us) + b))
        kk = ew.where(inside, k, 0.0)
        exact = bound <= h - lgamma(kk + 1) - lgamma(n - kk + 1) + (kk - m) * lpq
        return k, inside & (quick | exact)

    return propose
