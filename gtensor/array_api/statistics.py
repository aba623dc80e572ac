"""The array API's statistical and utility functions over gtensor's reductions and scans.

``axis`` is None (every axis), an int or a tuple; an empty tuple reduces
nothing (gtensor, like PyTorch, reads ``dim=()`` as every axis), which is
done by reducing a new size-1 axis so dtype rules and NaN handling stay the
reduction's own. Sums and products of integers accumulate in int64, unsigned
ones too (gtensor's rule; the standard asks uint64 for those); float32 sums
accumulate in float64 and round once.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..dtypes import as_dtype, bool_, uint64
from ..errors import ShapeError, check
from ..ops import creation, reduction, scan
from ..ops import elementwise as ew
from ..ops.layout import copies, views
from ..shape_rules import wrap_dim

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = [
    "all", "any", "cumulative_prod", "cumulative_sum", "diff", "max", "mean", "min", "prod",
    "std", "sum", "var",
]

Axis = int | Sequence[int] | None


def _reduce(fn: Any, x: Tensor, axis: Axis, keepdims: bool, **kwargs: Any) -> Tensor:
    """``fn(x, axis, keepdims, ...)``, with an empty ``axis`` reducing nothing."""
    if axis is not None and not isinstance(axis, int) and len(axis) == 0:
        return fn(views.unsqueeze(x, x.ndim), -1, keepdim=False, **kwargs)
    return fn(x, axis if axis is None or isinstance(axis, int) else tuple(axis),
              keepdim=keepdims, **kwargs)


def _accumulator(x: Tensor, dtype: Any) -> Any:
    """The dtype a sum or product of ``x`` is taken in: ``dtype`` if given, else the
    standard's default unsigned integer (uint64) for unsigned ``x``, else None (PyTorch's)."""
    if dtype is None and x.dtype.category == 1 and not x.dtype.is_signed:
        return uint64
    return dtype


def _in_dtype(out: Tensor, dtype: Any) -> Tensor:
    """``out`` converted to ``dtype`` when one was asked and the reduction chose another."""
    if dtype is None:
        return out
    dt = as_dtype(dtype)
    return out if out.dtype is dt else out.to(dt)


def sum(x: Tensor, /, *, axis: Axis = None, dtype: Any = None,  # noqa: A001
        keepdims: bool = False) -> Tensor:
    """The sum over ``axis``, in ``dtype`` (default: ``x``'s floats, int64 for signed integers
    and bools, uint64 for unsigned ones).

    Example:
        >>> sum(gt.tensor([[1, 2], [3, 4]]), axis=(0, 1)).item()
        10
    """
    dtype = _accumulator(x, dtype)
    return _in_dtype(_reduce(reduction.sum, x, axis, keepdims, dtype=dtype), dtype)


def prod(x: Tensor, /, *, axis: Axis = None, dtype: Any = None,
         keepdims: bool = False) -> Tensor:
    """The product over ``axis``, in ``dtype`` (default as :func:`sum`)."""
    dtype = _accumulator(x, dtype)
    return _in_dtype(_reduce(reduction.prod, x, axis, keepdims, dtype=dtype), dtype)


def mean(x: Tensor, /, *, axis: Axis = None, keepdims: bool = False) -> Tensor:
    """The mean over ``axis`` of a floating array (NaN for an empty one)."""
    return _reduce(reduction.mean, x, axis, keepdims)


def max(x: Tensor, /, *, axis: Axis = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    """The largest element over ``axis`` (NaN when one is NaN).

    Example:
        >>> max(gt.tensor([[1, 7], [9, 2]]), axis=0).tolist()
        [9, 7]
    """
    return _reduce(reduction.amax, x, axis, keepdims)


def min(x: Tensor, /, *, axis: Axis = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    """The smallest element over ``axis`` (NaN when one is NaN)."""
    return _reduce(reduction.amin, x, axis, keepdims)


def var(x: Tensor, /, *, axis: Axis = None, correction: float = 0.0,
        keepdims: bool = False) -> Tensor:
    """The variance over ``axis``, dividing by ``N - correction``.

    Example:
        >>> var(gt.tensor([1.0, 3.0]), correction=1).item()
        2.0
    """
    return _reduce(reduction.var, x, axis, keepdims, correction=correction)


def std(x: Tensor, /, *, axis: Axis = None, correction: float = 0.0,
        keepdims: bool = False) -> Tensor:
    """The standard deviation over ``axis``, from the variance with ``N - correction``."""
    return _reduce(reduction.std, x, axis, keepdims, correction=correction)


def _scan_axis(x: Tensor, axis: int | None, op: str) -> int:
    check(x.ndim > 0, op, "expected an array with at least one axis, got a 0-d one",
          ShapeError)
    check(axis is not None or x.ndim == 1, op, lambda: "axis is required for a "
          f"{x.ndim}-d array", ValueError)
    return wrap_dim(0 if axis is None else axis, x.ndim, op)


def _with_initial(out: Tensor, axis: int, value: int) -> Tensor:
    """``out`` with a slice of ``value`` put first along ``axis``."""
    shape = list(out.shape)
    shape[axis] = 1
    return copies.cat([creation.full(tuple(shape), value, dtype=out.dtype, device=out.device),
                       out], axis)


def cumulative_sum(x: Tensor, /, *, axis: int | None = None, dtype: Any = None,
                   include_initial: bool = False) -> Tensor:
    """Running sums along ``axis`` (optional for 1-d ``x``); ``include_initial`` puts a 0 first.

    Example:
        >>> cumulative_sum(gt.tensor([1, 2, 3]), include_initial=True).tolist()
        [0, 1, 3, 6]
    """
    d = _scan_axis(x, axis, "cumulative_sum")
    dtype = _accumulator(x, dtype)
    out = _in_dtype(scan.cumsum(x, d, dtype=dtype), dtype)
    return _with_initial(out, d, 0) if include_initial else out


def cumulative_prod(x: Tensor, /, *, axis: int | None = None, dtype: Any = None,
                    include_initial: bool = False) -> Tensor:
    """Running products along ``axis`` (optional for 1-d ``x``).

    ``include_initial`` puts a 1 first.
    """
    d = _scan_axis(x, axis, "cumulative_prod")
    dtype = _accumulator(x, dtype)
    out = _in_dtype(scan.cumprod(x, d, dtype=dtype), dtype)
    return _with_initial(out, d, 1) if include_initial else out


def _truth(out: Tensor) -> Tensor:
    return out if out.dtype is bool_ else out.to(bool_)


def all(x: Tensor, /, *, axis: Axis = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    """True where every element over ``axis`` is nonzero (True over no elements)."""
    return _truth(_reduce(reduction.all, x, axis, keepdims))


def any(x: Tensor, /, *, axis: Axis = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    """True where some element over ``axis`` is nonzero (False over no elements)."""
    return _truth(_reduce(reduction.any, x, axis, keepdims))


def diff(x: Tensor, /, *, axis: int = -1, n: int = 1, prepend: Tensor | None = None,
         append: Tensor | None = None) -> Tensor:
    """The ``n``-th differences along ``axis``, after joining ``prepend`` and ``append``.

    Bools differ by ``!=`` of neighbours.

    Example:
        >>> diff(gt.tensor([1, 4, 9]), prepend=gt.tensor([0])).tolist()
        [1, 3, 5]
    """
    check(isinstance(n, int) and n >= 0, "diff", lambda: f"n must be a non-negative int, got {n}",
          ValueError)
    d = wrap_dim(axis, x.ndim, "diff")
    parts = [p for p in (prepend, x, append) if p is not None]
    out = copies.cat(parts, d) if len(parts) > 1 else x
    for _ in range(n):
        m = builtins.max(out.shape[d] - 1, 0)
        later, earlier = views.narrow(out, d, 1, m), views.narrow(out, d, 0, m)
        out = ew.ne(later, earlier) if out.dtype is bool_ else ew.sub(later, earlier)
    return out
