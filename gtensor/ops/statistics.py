"""Order statistics and moments: median, nanmedian, quantile, nanquantile, mode, msort, cov,
corrcoef, histogram.

Compositions of existing ops (sort, gather, searchsorted, matmul, bincount), so
they run on every device without a kernel of their own and differentiate
through the ops they are made of. Values picked along a dim (``median(dim)``,
``mode``) are gathered from the input at the returned indices, so their
gradient goes to those elements, as PyTorch's does; ``median()`` over all
elements shares its gradient evenly among the elements equal to the result.
Positions are computed on the device; a tensor is read back to the host only
by ``histogram`` (its bin range) and by the range checks of a tensor ``q`` and
of ``cov``'s weights.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..dtypes import bool_, float32, float64, get_default_dtype, int64
from ..errors import DTypeError, ShapeError, check, check_same_device
from ..graph.autocast_mode import autocast_inputs
from ..graph.grad_mode import no_grad
from ..graph.node import Node, record
from ..shape_rules import wrap_dim
from ..tensor_base import TensorBase
from .complex_rules import refuse_complex
from .creation import arange, as_tensor, full, ones
from .elementwise import where
from .indexing.along_dim import gather
from .layout.copies import cat
from .reduction import ValuesIndices
from .sorting import bincount, searchsorted, sort

if TYPE_CHECKING:
    from ..tensor import Tensor

_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")
_ROUNDINGS = {"lower": "floor", "higher": "ceil", "nearest": "round"}  # of the fractional ranks


class Histogram(NamedTuple):
    """``(hist, bin_edges)`` as returned by :func:`histogram`."""

    hist: Tensor
    bin_edges: Tensor


def _evenly_vjp(ctx: Node, g: Tensor) -> Tensor:
    """The gradient of a full median: shared by the elements equal to it (or nan with it)."""
    x, result = ctx.saved_tensors
    mask = ((x == result) | (x.isnan() & result.isnan())).to(g.dtype)
    return g * mask / mask.sum()


def _median_all(op: str, input: Tensor, ignore_nan: bool) -> Tensor:
    """The lower median of all elements; nan when one is nan (unless ``ignore_nan``)."""
    refuse_complex(op, input.dtype)
    floating = input.dtype.is_floating_point
    if input.numel() == 0:
        check(floating, op, "expected a non-empty input", ShapeError)
        return full((), math.nan, dtype=input.dtype, device=input.device)
    flat = input.reshape(-1)
    with no_grad():
        out = flat.gather(0, _median_index(flat, 0, ignore_nan)).reshape(())
    if floating:
        record(op, out, (input,), _evenly_vjp, save=[input, out])
    return out


def _median_index(x: Tensor, d: int, ignore_nan: bool) -> Tensor:
    """The index along ``d`` of each median, kept-dim shaped.

    The lower middle of the sorted numbers (nans sort last); ``nanmedian`` of
    nans only takes the first, ``median`` with a nan takes the first nan.
    """
    with no_grad():
        s, order = sort(x, d)
        n = s.shape[d]
        if x.dtype.is_floating_point:
            valid = (~s.isnan()).sum(d, keepdim=True)
            k = ((valid - 1) // 2).clamp(min=0) if ignore_nan else \
                where(valid < n, valid, (n - 1) // 2)
        else:
            k = full(_kept(s.shape, d), (n - 1) // 2, dtype=int64, device=x.device)
        return order.gather(d, k)


def _median_dim(op: str, input: Tensor, dim: int, keepdim: bool,
                ignore_nan: bool) -> ValuesIndices:
    """``(values, indices)`` of the median along ``dim``."""
    refuse_complex(op, input.dtype)
    x = input.reshape(1) if input.ndim == 0 else input
    d = wrap_dim(dim, max(input.ndim, 1), op)
    check(x.shape[d] > 0, op, lambda: f"expected reduction dim {d} to have non-zero size",
          IndexError)
    return _picked(input, x, d, _median_index(x, d, ignore_nan), keepdim)


def _kept(shape: tuple[int, ...], d: int) -> tuple[int, ...]:
    return shape[:d] + (1,) + shape[d + 1:]


def _picked(input: Tensor, x: Tensor, d: int, idx: Tensor, keepdim: bool) -> ValuesIndices:
    """``x``'s values at ``idx`` along ``d`` (gradient to those elements), shaped as asked."""
    values = gather(x, d, idx)
    if input.ndim == 0:
        return ValuesIndices(values.reshape(()), idx.reshape(()))
    if not keepdim:
        values, idx = values.squeeze(d), idx.squeeze(d)
    return ValuesIndices(values, idx)


def median(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Any:
    """The lower median: of all elements (``dim=None``), else ``(values, indices)`` along ``dim``.

    A nan anywhere in the reduced elements makes the median nan (its index is
    the first nan's). Among equal medians the index is that of one of them.

    Example:
        >>> gt.tensor([4.0, 1.0, 3.0, 2.0]).median().item()
        2.0
    """
    if dim is None:
        return _median_all("median", input, ignore_nan=False)
    return _median_dim("median", input, dim, keepdim, ignore_nan=False)


def nanmedian(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Any:
    """:func:`median` ignoring nans (nan only where every reduced element is nan).

    Example:
        >>> gt.tensor([1.0, float("nan"), 3.0]).nanmedian().item()
        1.0
    """
    if dim is None:
        return _median_all("nanmedian", input, ignore_nan=True)
    return _median_dim("nanmedian", input, dim, keepdim, ignore_nan=True)


def _quantile_q(op: str, input: Tensor, q: Any) -> tuple[Tensor, bool]:
    """``q`` as a 1-D tensor of ``input``'s dtype and device, and whether it was a scalar."""
    if isinstance(q, TensorBase):
        check(q.ndim <= 1, op, lambda: f"q must be a scalar or 1-D tensor, got {q.ndim}-D",
              ShapeError)
        check(q.dtype is input.dtype, op, lambda: f"q ({q.dtype.name}) must have the input's "
              f"dtype ({input.dtype.name})", DTypeError)
        check_same_device(op, input.device, q.device)
        if q.numel():
            lo, hi = float(q.min()), float(q.max())
            check(0 <= lo and hi <= 1, op, lambda: "q values must be in [0, 1], got "
                  f"[{lo}, {hi}]", ValueError)
        return q.reshape(-1), q.ndim == 0
    check(isinstance(q, (int, float)) and 0 <= q <= 1, op,
          lambda: f"q must be in [0, 1], got {q}", ValueError)
    return as_tensor([float(q)], dtype=input.dtype, device=input.device), True


def _quantile(op: str, input: Tensor, q: Any, dim: int | None, keepdim: bool,
              interpolation: str, ignore_nan: bool) -> Tensor:
    check(input.dtype in (float32, float64), op, lambda: "input must be float32 or float64, "
          f"got {input.dtype.name}", DTypeError)
    check(interpolation in _INTERPOLATIONS, op, lambda: "interpolation must be one of "
          f"{', '.join(_INTERPOLATIONS)}, got {interpolation!r}", ValueError)
    check(input.numel() > 0, op, "input tensor must be non-empty", ShapeError)
    qs, scalar_q = _quantile_q(op, input, q)
    x = input.reshape(-1) if dim is None or input.ndim == 0 else input
    d = 0 if dim is None else wrap_dim(dim, max(input.ndim, 1), op)
    s = sort(x, d).values
    n = s.shape[d]
    with no_grad():
        per_q = qs.reshape(tuple(-1 if i == d else 1 for i in range(s.ndim)))
        nan = s.isnan()
        if ignore_nan:
            ranks = per_q * ((~nan).sum(d, keepdim=True) - 1).to(s.dtype)
            ranks = where(ranks < 0, 0.0, ranks)
        else:
            ranks = where(nan.any(d, keepdim=True), float(n - 1), per_q * (n - 1))
        if interpolation in _ROUNDINGS:
            ranks = getattr(ranks, _ROUNDINGS[interpolation])()
        below = ranks.to(int64)
    out = s.gather(d, below)
    if interpolation in ("linear", "midpoint"):
        with no_grad():
            weights = ranks - below.to(s.dtype) if interpolation == "linear" else 0.5
            above = ranks.ceil().to(int64)
        out = out.lerp(s.gather(d, above), weights)
    if dim is None or input.ndim == 0:
        kept = (1,) * input.ndim if keepdim else ()
        return out.reshape((() if scalar_q else (qs.shape[0],)) + kept)
    if scalar_q:
        return out if keepdim else out.squeeze(d)
    out = out.unsqueeze(0).transpose(0, d + 1)
    return out if keepdim else out.squeeze(d + 1)


def quantile(input: Tensor, q: Any, dim: int | None = None, keepdim: bool = False, *,
             interpolation: str = "linear") -> Tensor:
    """The ``q``-th quantiles along ``dim`` (of all elements when None), nan where one is nan.

    Args:
        q: a number in ``[0, 1]`` or a 1-D tensor of them (its dim comes first
            in the result).
        interpolation: between the two nearest ranks: ``"linear"``, ``"lower"``,
            ``"higher"``, ``"midpoint"`` or ``"nearest"`` (ties to even).

    Example:
        >>> gt.tensor([1.0, 2.0, 3.0, 4.0]).quantile(0.5).item()
        2.5
    """
    input, q = autocast_inputs("quantile", input, q)
    return _quantile("quantile", input, q, dim, keepdim, interpolation, ignore_nan=False)


def nanquantile(input: Tensor, q: Any, dim: int | None = None, keepdim: bool = False, *,
                interpolation: str = "linear") -> Tensor:
    """:func:`quantile` ignoring nans (nan only where every reduced element is nan).

    Example:
        >>> gt.tensor([1.0, float("nan"), 3.0]).nanquantile(0.5).item()
        2.0
    """
    input, q = autocast_inputs("nanquantile", input, q)
    return _quantile("nanquantile", input, q, dim, keepdim, interpolation, ignore_nan=True)


def mode(input: Tensor, dim: int = -1, keepdim: bool = False) -> ValuesIndices:
    """The most frequent value along ``dim`` and the index of its last occurrence.

    Among equally frequent values the smallest wins; nans never equal each other.

    Example:
        >>> gt.tensor([1, 2, 2, 1]).mode()
        ValuesIndices(values=tensor(1), indices=tensor(3))
    """
    x = input.reshape(1) if input.ndim == 0 else input
    d = wrap_dim(dim, max(input.ndim, 1), "mode")
    n = x.shape[d]
    check(n > 0, "mode", lambda: f"expected reduction dim {d} to have non-zero size", IndexError)
    with no_grad():
        s, order = sort(x.transpose(d, -1))
        first = ones(s.shape[:-1] + (1,), dtype=bool_, device=s.device)
        run = cat([first, s.narrow(-1, 1, n - 1) != s.narrow(-1, 0, n - 1)], -1).cumsum(-1)
        start, end = searchsorted(run, run), searchsorted(run, run, right=True)
        longest = (end - start).argmax(-1, keepdim=True)
        idx = order.gather(-1, end.gather(-1, longest) - 1).transpose(d, -1)
    return _picked(input, x, d, idx, keepdim)


def msort(input: Tensor) -> Tensor:
    """``input`` sorted along its first dim (``sort(input, 0).values``).

    Example:
        >>> gt.tensor([[2, 1], [1, 3]]).msort().tolist()
        [[1, 1], [2, 3]]
    """
    return sort(input, 0).values


def _observation_weights(input: Tensor, n: int, fweights: Tensor | None,
                         aweights: Tensor | None) -> Tensor | None:
    """The product of the frequency and analytic weights of the ``n`` observations (or None)."""
    w = None
    for name, weights, integral in (("fweights", fweights, True), ("aweights", aweights, False)):
        if weights is None:
            continue
        check(weights.ndim <= 1, "cov", lambda: f"expected {name} to have one or fewer dims, "
              f"got {weights.ndim}", ShapeError)
        check(weights.numel() == n, "cov", lambda: f"expected {name} to have the same number of "
              f"elements as there are observations ({n}), got {weights.numel()}", ShapeError)
        check(weights.dtype.is_floating_point != integral, "cov", lambda: f"expected {name} to "
              f"have {'an integral' if integral else 'a floating point'} dtype, got "
              f"{weights.dtype.name}", DTypeError)
        check_same_device("cov", input.device, weights.device)
        check(n == 0 or float(weights.min()) >= 0, "cov", lambda: f"{name} cannot be negative",
              ValueError)
        w = weights.reshape(-1) if w is None else w * weights.reshape(-1)
    return w


def cov(input: Tensor, *, correction: int = 1, fweights: Tensor | None = None,
        aweights: Tensor | None = None) -> Tensor:
    """Covariance of the variables in ``input``'s rows (one variable when 1-D) over its columns.

    Args:
        correction: subtracted from the (weighted) observation count: 1 is
            Bessel's correction, 0 the maximum-likelihood estimate.
        fweights: integer frequency of each observation.
        aweights: floating importance of each observation.

    Example:
        >>> gt.cov(gt.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])).tolist()
        [[1.0, -1.0], [-1.0, 1.0]]
    """
    check(input.ndim <= 2, "cov", lambda: "expected input to have two or fewer dims, got "
          f"{input.ndim}", ShapeError)
    x = input if input.dtype.is_floating_point else input.to(get_default_dtype())
    x = x.reshape(1, -1) if x.ndim < 2 else x
    n = x.shape[1]
    w = _observation_weights(input, n, fweights, aweights)
    if w is None:
        avg = x.sum(1) / n
        norm: Any = n - correction
        if norm <= 0:
            warnings.warn("[cov] degrees of freedom is <= 0; correction should be strictly less "
                          "than the number of observations", RuntimeWarning, stacklevel=2)
            norm = 0
    else:
        w = w.to(x.dtype)
        w_sum = w.sum()
        avg = (x * w).sum(1) / w_sum
        if aweights is not None and correction:
            norm = w_sum - correction * (w * aweights.to(x.dtype)).sum() / w_sum
        else:
            norm = w_sum - correction
        norm = where(norm <= 0, 0.0, norm)
    centered = x - avg.unsqueeze(1)
    c = centered.matmul((centered if w is None else centered * w).t())
    return (c / norm).squeeze()


def corrcoef(input: Tensor) -> Tensor:
    """Pearson correlation coefficients of the rows of ``input``, clipped to ``[-1, 1]``.

    Example:
        >>> gt.corrcoef(gt.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])).tolist()
        [[1.0, -1.0], [-1.0, 1.0]]
    """
    check(input.ndim <= 2, "corrcoef", lambda: "expected input to have two or fewer dims, got "
          f"{input.ndim}", ShapeError)
    c = cov(input)
    if c.ndim == 0:
        return c / c
    std = c.diagonal().sqrt()
    return (c / std.reshape(-1, 1) / std.reshape(1, -1)).clamp(-1, 1)


def _bin_edges(lo: float, hi: float, bins: int, like: Tensor) -> Tensor:
    """``bins + 1`` evenly spaced edges from ``lo`` to ``hi``, each half stepped from its end."""
    step = (hi - lo) / bins
    i = arange(bins + 1, dtype=like.dtype, device=like.device)
    return where(i < (bins + 1) // 2, i * step + lo, (i - bins) * step + hi)


def histogram(input: Tensor, bins: int | Tensor = 100, *,
              range: Sequence[float] | None = None,  # noqa: A002
              weight: Tensor | None = None, density: bool = False) -> Histogram:
    """Histogram of ``input``'s elements: ``(hist, bin_edges)``.

    Args:
        bins: the number of equal bins, or a 1-D tensor of increasing edges.
        range: ``(min, max)`` of equal bins (default: the data's range; an
            empty range is widened by 0.5 each side). Elements outside the edges
            are not counted; the last bin includes its right edge.
        weight: each element's contribution (default 1).
        density: normalize so that the histogram integrates to 1.

    Example:
        >>> gt.histogram(gt.tensor([1.0, 2.0, 1.0]), 2).hist.tolist()
        [2.0, 1.0]
    """
    check(input.dtype.is_floating_point, "histogram", lambda: "expected a floating point "
          f"input, got {input.dtype.name}", DTypeError)
    with no_grad():
        x = input.reshape(-1)
        if isinstance(bins, TensorBase):
            check(bins.ndim == 1 and bins.numel() >= 2, "histogram", "bins must be a 1-D tensor "
                  "of at least 2 edges", ShapeError)
            check(bins.dtype is input.dtype, "histogram", lambda: f"bins ({bins.dtype.name}) "
                  f"must have the input's dtype ({input.dtype.name})", DTypeError)
            check_same_device("histogram", input.device, bins.device)
            check(range is None, "histogram", "range applies to a number of bins, not to edges",
                  TypeError)
            edges = bins.contiguous().clone()
        else:
            check(isinstance(bins, int) and bins > 0, "histogram", lambda: "bins must be > 0, "
                  f"got {bins}", ValueError)
            lo, hi = _histogram_range(x, range)
            edges = _bin_edges(lo, hi, bins, x)
        nbins = edges.shape[0] - 1
        pos = searchsorted(edges, x, right=True) - 1
        inside = (x >= edges[0]) & (x <= edges[-1])
        pos = where(inside, pos.clamp(max=nbins - 1), nbins)
        if weight is not None:
            check(weight.shape == input.shape, "histogram", lambda: f"weight {weight.shape} must "
                  f"match input {input.shape}", ShapeError)
            w = where(inside, weight.reshape(-1).to(x.dtype), 0.0)
        else:
            w = inside.to(x.dtype)
        hist = bincount(pos, w, minlength=nbins + 1)[:nbins].to(x.dtype)
        if density:
            hist = hist / (hist.sum() * (edges[1:] - edges[:-1]))
    return Histogram(hist, edges)


def _histogram_range(x: Tensor, range: Sequence[float] | None) -> tuple[float, float]:  # noqa: A002
    """The outer edges: ``range``, or the data's; empty ranges widened as NumPy does."""
    if range is not None:
        lo, hi = (float(v) for v in range)
    elif x.numel():
        lo, hi = float(x.min()), float(x.max())
    else:
        lo, hi = 0.0, 1.0
    check(math.isfinite(lo) and math.isfinite(hi), "histogram", lambda: f"range [{lo}, {hi}] "
          "is not finite", ValueError)
    check(lo <= hi, "histogram", lambda: f"min should not exceed max, got min {lo} max {hi}",
          ValueError)
    return (lo - 0.5, hi + 0.5) if lo == hi else (lo, hi)


# Functional forms, exported as gt.<name> (PyTorch's torch.<name>).
EXPORTS = ("median", "nanmedian", "quantile", "nanquantile", "mode", "msort", "cov", "corrcoef",
           "histogram")

