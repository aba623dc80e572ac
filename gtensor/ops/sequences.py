"""Ops along one dim of a sequence: diff, cummax, cummin, logcumsumexp, trapezoid,
cumulative_trapezoid, bucketize.

Compositions of existing ops. The running extremes and ``logcumsumexp`` are
Hillis-Steele scans: ``ceil(log2 n)`` steps, each combining every element with
the one ``2**k`` before it in one whole-tensor op (``maximum``, ``minimum``,
``logaddexp``), so a row of any length costs a logarithmic number of launches
and every step runs over all rows at once. ``cummax``/``cummin`` then find each
running extreme's index with one ``cumsum`` and one ``searchsorted`` over the
positions where the running value is the element itself, and gather the
values from the input, so their gradient goes to those elements (as PyTorch's).
``logcumsumexp`` differentiates through ``logaddexp``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..dtypes import bool_, int32, int64, result_type
from ..errors import DTypeError, ShapeError, check
from ..graph.grad_mode import no_grad
from ..shape_rules import wrap_dim
from ..tensor_base import TensorBase
from .creation import as_tensor, zeros
from .elementwise import maximum, minimum
from .float_math import logaddexp
from .indexing.along_dim import gather
from .layout.copies import cat
from .reduction import ValuesIndices
from .sorting import searchsorted

if TYPE_CHECKING:
    from ..tensor import Tensor


def diff(input: Tensor, n: int = 1, dim: int = -1, prepend: Tensor | None = None,
         append: Tensor | None = None) -> Tensor:
    """The ``n``-th forward difference along ``dim`` (``!=`` for bools).

    Args:
        n: how many times to difference (the dim shrinks by one each time).
        prepend, append: tensors joined to ``input`` along ``dim`` first; same
            number of dims, same sizes elsewhere.

    Example:
        >>> gt.tensor([1, 3, 6, 10]).diff().tolist()
        [2, 3, 4]
    """
    check(input.ndim >= 1, "diff", "expected input to be at least 1-D, got a 0-d tensor",
          ShapeError)
    check(isinstance(n, int) and n >= 0, "diff", lambda: f"order must be non-negative, got {n}",
          ValueError)
    d = wrap_dim(dim, input.ndim, "diff")
    parts = [t for t in (prepend, input, append) if t is not None]
    for t in parts:
        check(t.ndim == input.ndim, "diff", lambda: "prepend and append must have the input's "
              f"{input.ndim} dims, got {t.ndim}", ShapeError)
    x = cat(parts, d) if len(parts) > 1 else input
    for _ in range(n):
        m = x.shape[d]
        if m == 0:
            break
        later, earlier = x.narrow(d, 1, m - 1), x.narrow(d, 0, m - 1)
        x = later != earlier if x.dtype is bool_ else later - earlier
    return x


def _running(x: Tensor, d: int, combine: Callable[[Tensor, Tensor], Tensor]) -> Tensor:
    """Inclusive scan of the associative ``combine`` along ``d`` (Hillis-Steele)."""
    n = x.shape[d]
    step = 1
    while step < n:
        combined = combine(x.narrow(d, step, n - step), x.narrow(d, 0, n - step))
        x = cat([x.narrow(d, 0, step), combined], d)
        step *= 2
    return x


def _cumulative_extreme(op: str, input: Tensor, dim: int,
                        combine: Callable[[Tensor, Tensor], Tensor]) -> ValuesIndices:
    """``(values, indices)`` of the running extreme; ties and nans take the latest index."""
    x = input.reshape(1) if input.ndim == 0 else input
    d = wrap_dim(dim, x.ndim, op)
    if x.numel() == 0:
        return ValuesIndices(x.clone(), zeros(x.shape, dtype=int64, device=x.device))
    with no_grad():
        running = _running(x, d, combine)
        hit = running == x
        if x.dtype.is_floating_point:
            hit = hit | x.isnan()
        rows = hit.cumsum(d).transpose(d, -1).contiguous()
        idx = searchsorted(rows, rows).transpose(d, -1)
    values = gather(x, d, idx)
    if input.ndim == 0:
        return ValuesIndices(values.reshape(()), idx.reshape(()))
    return ValuesIndices(values, idx)


def cummax(input: Tensor, dim: int) -> ValuesIndices:
    """Running maximum along ``dim`` and the index where each was found (nan propagates).

    Example:
        >>> gt.tensor([1, 3, 2, 3]).cummax(0).indices.tolist()
        [0, 1, 1, 3]
    """
    return _cumulative_extreme("cummax", input, dim, maximum)


def cummin(input: Tensor, dim: int) -> ValuesIndices:
    """Running minimum along ``dim`` and the index where each was found (nan propagates).

    Example:
        >>> gt.tensor([3, 1, 2, 1]).cummin(0).values.tolist()
        [3, 1, 1, 1]
    """
    return _cumulative_extreme("cummin", input, dim, minimum)


def logcumsumexp(input: Tensor, dim: int) -> Tensor:
    """``log(cumsum(exp(x)))`` along ``dim``, without overflow or underflow.

    Example:
        >>> gt.tensor([0.0, 0.0]).logcumsumexp(0).tolist()
        [0.0, 0.6931471824645996]
    """
    check(input.dtype.is_floating_point, "logcumsumexp", lambda: "expected a floating point "
          f"input, got {input.dtype.name}", DTypeError)
    if input.ndim == 0:
        return input.clone()
    return _running(input, wrap_dim(dim, input.ndim, "logcumsumexp"), logaddexp)


def _spacing(op: str, y: Tensor, x: Tensor, d: int) -> Tensor:
    """The gaps between the sample points ``x`` along ``y``'s dim ``d``."""
    check(x.dtype is not bool_, op, "x must not be a bool tensor", DTypeError)
    if x.ndim == 1:
        check(x.shape[0] == y.shape[d], op, lambda: "there must be one x value for each sample "
              f"point: {x.shape[0]} x values, {y.shape[d]} samples", ShapeError)
        x = x.reshape(tuple(-1 if i == d else 1 for i in range(y.ndim)))
    elif x.ndim < y.ndim:
        x = x.reshape((1,) * (y.ndim - x.ndim) + x.shape)
    m = x.shape[d]
    return x.narrow(d, 1, m - 1) - x.narrow(d, 0, m - 1)


def _samples(op: str, y: Tensor, x: Tensor | None, dx: Any, dim: int) -> int:
    check(y.dtype is not bool_, op, "y must not be a bool tensor", DTypeError)
    check(x is None or dx is None, op, "pass the sample points x or their spacing dx, not both",
          TypeError)
    return wrap_dim(dim, y.ndim, op)


def trapezoid(y: Tensor, x: Tensor | None = None, *, dx: float | None = None,
              dim: int = -1) -> Tensor:
    """Integral of ``y`` along ``dim`` by the trapezoidal rule.

    Args:
        x: the sample points (1-D along ``dim``, or broadcastable to ``y``).
        dx: the constant spacing when ``x`` is not given (default 1).

    Example:
        >>> gt.trapezoid(gt.tensor([1.0, 2.0, 3.0])).item()
        4.0
    """
    d = _samples("trapezoid", y, x, dx, dim)
    if y.shape[d] == 0:
        return zeros(y.shape[:d] + y.shape[d + 1:], dtype=y.dtype, device=y.device)
    if x is not None:
        m = y.shape[d]
        pairs = y.narrow(d, 0, m - 1) + y.narrow(d, 1, m - 1)
        return (_spacing("trapezoid", y, x, d) * pairs).sum(d) / 2.0
    ends = y.select(d, 0) + y.select(d, -1)
    return (y.sum(d) - ends * 0.5) * (1 if dx is None else dx)


def cumulative_trapezoid(y: Tensor, x: Tensor | None = None, *, dx: float | None = None,
                         dim: int = -1) -> Tensor:
    """Running integral of ``y`` along ``dim`` by the trapezoidal rule (one value fewer).

    Example:
        >>> gt.cumulative_trapezoid(gt.tensor([1.0, 2.0, 3.0])).tolist()
        [1.5, 4.0]
    """
    d = _samples("cumulative_trapezoid", y, x, dx, dim)
    m = y.shape[d]
    if m == 0:
        return zeros(y.shape, dtype=y.dtype, device=y.device)
    pairs = y.narrow(d, 0, m - 1) + y.narrow(d, 1, m - 1)
    if x is not None:
        return (_spacing("cumulative_trapezoid", y, x, d) * pairs / 2.0).cumsum(d)
    return ((1 if dx is None else dx) / 2.0 * pairs).cumsum(d)


def bucketize(input: Any, boundaries: Tensor, *, out_int32: bool = False,
              right: bool = False) -> Tensor:
    """The bucket of each element: how many ``boundaries`` lie below it (at or below: ``right``).

    Example:
        >>> gt.bucketize(gt.tensor([0.5, 2.0]), gt.tensor([1.0, 2.0])).tolist()
        [0, 1]
    """
    check(boundaries.ndim == 1, "bucketize", lambda: "boundaries must be 1-D, got "
          f"{boundaries.ndim}-D", ShapeError)
    values = input if isinstance(input, TensorBase) else as_tensor(input,
                                                                   device=boundaries.device)
    common = result_type(values, boundaries)
    out = searchsorted(boundaries.to(common), values.to(common), right=right)
    return out.to(int32) if out_int32 else out


# Functional forms, exported as gt.<name> (PyTorch's torch.<name>).
EXPORTS = ("diff", "cummax", "cummin", "logcumsumexp", "trapezoid", "cumulative_trapezoid",
           "bucketize")
