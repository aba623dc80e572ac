"""Gather and scatter along a dim: ``gather``, ``scatter``, ``scatter_add``, ``scatter_reduce``,
``index_select``, ``index_add``, ``index_copy``, ``index_fill``, ``take``, ``take_along_dim``.

Each op builds index rows for ``indexing.row_offsets`` (the index tensor on
the indexed dim, coordinates on the others), so indices are bounds-checked on
the device and then read or combined by the ``gather``/``scatter`` kernels.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..dtypes import int64
from ..errors import ShapeError, check, check_same_device
from ..shape_rules import broadcast_shapes, wrap_dim
from ..tensor import Tensor, tensor_method
from .dispatch import launch
from .indexing import (
    advanced_getitem,
    advanced_setitem,
    as_index_tensor,
    gather_rows,
    plan_index,
    row_offsets,
    scatter_rows,
)
from .views import expand_to

REDUCTIONS = {"sum": "add", "prod": "prod", "amax": "amax", "amin": "amin", "mean": "add"}


def _int_index(index: Any, dev: Any, op: str) -> Tensor:
    idx = as_index_tensor(index, dev, op)
    check(idx.dtype.name != "bool", op, "expected an integer index tensor, got bool", TypeError)
    return idx


def _coord_offsets(t: Tensor, dim: int, index: Tensor, op: str) -> Tensor:
    """Offsets of ``t[..., index[i,j,k], ...]`` (index on ``dim``, coordinates elsewhere)."""
    from .creation import arange

    rows = []
    for j, n in enumerate(index.shape):
        if j == dim:
            rows.append(index)
        else:
            shape = tuple(n if k == j else 1 for k in range(index.ndim))
            rows.append(arange(n, dtype=int64, device=t.device).view(shape))  # type: ignore
    return row_offsets(rows, index.shape, t.shape or (1,), t._strides or (0,),
                       tuple(range(max(t.ndim, 1))), op, t.device)


def _check_dim_index(t: Tensor, dim: int, index: Tensor, op: str,
                     src: Tensor | None = None) -> int:
    d = wrap_dim(dim, t.ndim, op)
    check(index.ndim == t.ndim or (t.ndim == 0 and index.ndim <= 1), op, lambda: "index "
          f"must have as many dims as the input ({t.ndim}), got {index.ndim}", ShapeError)
    check(all(n <= t.shape[j] for j, n in enumerate(index.shape) if j != d and t.ndim), op,
          lambda: f"index {index.shape} is larger than input {t.shape} outside dim {d}",
          ShapeError)
    if src is not None:
        check(src.ndim == index.ndim and all(
            n <= m for n, m in zip(index.shape, src.shape, strict=True)), op,
            lambda: f"index {index.shape} is larger than src {src.shape}", ShapeError)
    return d


def _scalar_0d(t: Tensor) -> Tensor:
    return t._make_view((), (), t._offset)


@tensor_method()
def gather(self: Tensor, dim: int, index: Any) -> Tensor:
    """Return ``out[i][j] = self[index[i][j]][j]`` (for ``dim=0``; likewise for other dims).

    Args:
        dim: the dim ``index`` selects along.
        index: integer tensor with ``self``'s rank; outside ``dim`` no larger than ``self``.

    Returns:
        A tensor of ``index``'s shape.

    Raises:
        IndexError: an index outside ``[-size, size)`` (checked on the device).

    Example:
        >>> gt.tensor([[1, 2], [3, 4]]).gather(1, gt.tensor([[1], [0]])).tolist()
        [[2], [3]]
    """
    index = _int_index(index, self.device, "gather")
    d = _check_dim_index(self, dim, index, "gather")
    out = Tensor.empty(index.shape, self.dtype, self.device)
    if out.numel():
        offsets = _coord_offsets(self, d, index, "gather")
        gather_rows(_scalar_0d(self), offsets, out.reshape(-1))  # type: ignore[attr-defined]
    return out


def _scatter_into(self: Tensor, dim: int, index: Any, src: Any, mode: str, op: str,
                  include_self: bool = True) -> Tensor:
    from .creation import full

    index = _int_index(index, self.device, op)
    if isinstance(src, Tensor):
        check_same_device(op, self.device, src.device)
        check(src.dtype is self.dtype, op, lambda: f"expected src of dtype {self.dtype.name}, "
              f"got {src.dtype.name}", TypeError)
        d = _check_dim_index(self, dim, index, op, src)
        values = src[tuple(slice(0, n) for n in index.shape)]
    else:
        d = _check_dim_index(self, dim, index, op)
        values = expand_to(full((), src, dtype=self.dtype, device=self.device), index.shape, op)
    if index.numel() == 0:
        self._bump_version()
        return self
    offsets = _coord_offsets(self, d, index, op)
    flat = values.reshape(-1)  # type: ignore[attr-defined]
    if not include_self:
        ident = _identity(mode, self)
        scatter_rows(_scalar_0d(self), offsets, expand_to(ident, flat.shape, op), "copy")
    scatter_rows(_scalar_0d(self), offsets, flat, mode)
    self._bump_version()
    return self


def _identity(mode: str, t: Tensor) -> Tensor:
    from .creation import full

    dt = t.dtype.numpy
    if mode in ("amax", "amin"):
        info = np.finfo(dt) if dt.kind == "f" else np.iinfo(dt) if dt.kind in "iu" else None
        big = np.inf if dt.kind == "f" else (info.max if info is not None else True)
        small = -np.inf if dt.kind == "f" else (info.min if info is not None else False)
        value = small if mode == "amax" else big
    else:
        value = 1 if mode == "prod" else 0
    return full((), value, dtype=t.dtype, device=t.device)


@tensor_method()
def scatter_(self: Tensor, dim: int, index: Any, src: Any = None, *, value: Any = None,
             reduce: str | None = None) -> Tensor:
    """Write ``src[i][j]`` (or ``value``) to ``self[index[i][j]][j]`` in place (``dim=0``).

    Args:
        dim: the dim ``index`` selects along.
        index: integer tensor with ``self``'s rank.
        src: tensor (at least ``index``'s size per dim) or a Python number.
        value: a number, instead of ``src``.
        reduce: None (overwrite; with repeated indices one write wins), ``"add"`` or
            ``"multiply"``.

    Example:
        >>> gt.zeros(3).scatter_(0, gt.tensor([2]), gt.tensor([5.0])).tolist()
        [0.0, 0.0, 5.0]
    """
    check(reduce in (None, "add", "multiply"), "scatter_", lambda: "reduce must be None, 'add' "
          f"or 'multiply', got {reduce!r}", ValueError)
    mode = {None: "copy", "add": "add", "multiply": "prod"}[reduce]
    return _scatter_into(self, dim, index, value if src is None else src, mode, "scatter_")


@tensor_method()
def scatter(self: Tensor, dim: int, index: Any, src: Any = None, *, value: Any = None,
            reduce: str | None = None) -> Tensor:
    """Out-of-place :meth:`scatter_`.

    Example:
        >>> gt.zeros(2).scatter(0, gt.tensor([1]), 7.0).tolist()
        [0.0, 7.0]
    """
    return scatter_(self.clone(), dim, index, src, value=value, reduce=reduce)  # type: ignore


@tensor_method()
def scatter_add_(self: Tensor, dim: int, index: Any, src: Tensor) -> Tensor:
    """Add ``src[i][j]`` into ``self[index[i][j]][j]`` in place; repeated indices accumulate.

    Example:
        >>> gt.zeros(2).scatter_add_(0, gt.tensor([1, 1]), gt.ones(2)).tolist()
        [0.0, 2.0]
    """
    return _scatter_into(self, dim, index, src, "add", "scatter_add_")


@tensor_method()
def scatter_add(self: Tensor, dim: int, index: Any, src: Tensor) -> Tensor:
    """Out-of-place :meth:`scatter_add_`."""
    return scatter_add_(self.clone(), dim, index, src)  # type: ignore[attr-defined]


@tensor_method()
def scatter_reduce_(self: Tensor, dim: int, index: Any, src: Tensor, reduce: str, *,
                    include_self: bool = True) -> Tensor:
    """Reduce ``src`` into ``self`` at ``index`` along ``dim`` in place.

    Args:
        dim, index, src: as in :meth:`scatter_add_`.
        reduce: ``"sum"``, ``"prod"``, ``"mean"``, ``"amax"`` or ``"amin"``.
        include_self: also reduce over the values already in ``self`` at the
            scattered positions (positions no index hits are always kept).

    Example:
        >>> x = gt.tensor([1.0, 1.0])
        >>> x.scatter_reduce_(0, gt.tensor([0, 0]), gt.tensor([4.0, 7.0]), "amax").tolist()
        [7.0, 1.0]
    """
    check(reduce in REDUCTIONS, "scatter_reduce", lambda: f"reduce must be one of "
          f"{sorted(REDUCTIONS)}, got {reduce!r}", ValueError)
    mode = REDUCTIONS[reduce]
    if reduce != "mean":
        return _scatter_into(self, dim, index, src, mode, "scatter_reduce", include_self)
    from .creation import ones, zeros

    target = self if self.is_contiguous() else self.clone()  # type: ignore[attr-defined]
    counts = (ones if include_self else zeros)(self.shape, dtype=int64, device=self.device)
    _scatter_into(counts, dim, index, 1, "add", "scatter_reduce")
    _scatter_into(target, dim, index, src, "add", "scatter_reduce", include_self)
    if target.numel():
        launch("divide_by_count", self.device, (self.dtype, int64),
               target.reshape(-1)._native(), counts.reshape(-1)._native())  # type: ignore
    if target is not self:
        self.copy_(target)  # type: ignore[attr-defined]
    self._bump_version()
    return self


@tensor_method()
def scatter_reduce(self: Tensor, dim: int, index: Any, src: Tensor, reduce: str, *,
                   include_self: bool = True) -> Tensor:
    """Out-of-place :meth:`scatter_reduce_`."""
    return scatter_reduce_(self.clone(), dim, index, src, reduce,  # type: ignore[attr-defined]
                           include_self=include_self)


def _dim_index(self: Tensor, dim: int, index: Any, op: str) -> tuple[int, tuple[Any, ...]]:
    d = wrap_dim(dim, self.ndim, op)
    idx = _int_index(index, self.device, op)
    check(idx.ndim <= 1, op, lambda: f"index must be 0-d or 1-d, got {idx.ndim}-d", ShapeError)
    return d, (slice(None),) * d + (idx.reshape(-1),)  # type: ignore[attr-defined]


@tensor_method()
def index_select(self: Tensor, dim: int, index: Any) -> Tensor:
    """Return the entries ``index`` (1-D integers) of ``self`` along ``dim``.

    Example:
        >>> gt.tensor([[1, 2], [3, 4]]).index_select(1, gt.tensor([1, 1])).tolist()
        [[2, 2], [4, 4]]
    """
    if self.ndim == 0:
        return advanced_getitem(self.reshape(1), plan_index(  # type: ignore[attr-defined]
            self.reshape(1), (_int_index(index, self.device, "index_select").reshape(-1),),
            "index_select")).reshape(())
    _, item = _dim_index(self, dim, index, "index_select")
    return advanced_getitem(self, plan_index(self, item, "index_select"))  # type: ignore


def _index_write(self: Tensor, dim: int, index: Any, source: Any, mode: str, op: str) -> Tensor:
    _, item = _dim_index(self, dim, index, op)
    plan = plan_index(self, item, op)
    assert plan is not None
    if isinstance(source, Tensor):
        check_same_device(op, self.device, source.device)
        check(source.shape == plan.shape, op, lambda: f"source must have shape {plan.shape}, "
              f"got {source.shape}", ShapeError)
    if mode == "copy":
        advanced_setitem(self, plan, source)
        return self
    src = source if source.dtype is self.dtype else source.to(self.dtype)  # type: ignore
    if plan.offsets.numel():
        scatter_rows(plan.rest, plan.offsets, plan.lead(src), mode)
    self._bump_version()
    return self


@tensor_method()
def index_add_(self: Tensor, dim: int, index: Any, source: Tensor, *, alpha: Any = 1) -> Tensor:
    """Add ``alpha * source`` into ``self`` at ``index`` along ``dim``; repeats accumulate.

    Example:
        >>> gt.zeros(3).index_add_(0, gt.tensor([0, 0]), gt.tensor([1.0, 2.0])).tolist()
        [3.0, 0.0, 0.0]
    """
    if alpha != 1:
        source = source * alpha  # type: ignore[operator]
    return _index_write(self, dim, index, source, "add", "index_add_")


@tensor_method()
def index_add(self: Tensor, dim: int, index: Any, source: Tensor, *, alpha: Any = 1) -> Tensor:
    """Out-of-place :meth:`index_add_`."""
    return index_add_(self.clone(), dim, index, source, alpha=alpha)  # type: ignore


@tensor_method()
def index_copy_(self: Tensor, dim: int, index: Any, source: Tensor) -> Tensor:
    """Copy ``source`` into ``self`` at ``index`` along ``dim`` in place.

    Example:
        >>> gt.zeros(3).index_copy_(0, gt.tensor([2]), gt.tensor([9.0])).tolist()
        [0.0, 0.0, 9.0]
    """
    return _index_write(self, dim, index, source, "copy", "index_copy_")


@tensor_method()
def index_copy(self: Tensor, dim: int, index: Any, source: Tensor) -> Tensor:
    """Out-of-place :meth:`index_copy_`."""
    return index_copy_(self.clone(), dim, index, source)  # type: ignore[attr-defined]


@tensor_method()
def index_fill_(self: Tensor, dim: int, index: Any, value: Any) -> Tensor:
    """Set ``self`` to ``value`` at ``index`` along ``dim`` in place.

    Example:
        >>> gt.zeros(3).index_fill_(0, gt.tensor([1]), 4.0).tolist()
        [0.0, 4.0, 0.0]
    """
    return _index_write(self, dim, index, value, "copy", "index_fill_")


@tensor_method()
def index_fill(self: Tensor, dim: int, index: Any, value: Any) -> Tensor:
    """Out-of-place :meth:`index_fill_`."""
    return index_fill_(self.clone(), dim, index, value)  # type: ignore[attr-defined]


@tensor_method()
def take(self: Tensor, index: Any) -> Tensor:
    """Index ``self`` as if flattened; the result has ``index``'s shape.

    Example:
        >>> gt.tensor([[1, 2], [3, 4]]).take(gt.tensor([3, 0])).tolist()
        [4, 1]
    """
    idx = _int_index(index, self.device, "take")
    flat = self.reshape(-1)  # type: ignore[attr-defined]
    return advanced_getitem(flat, plan_index(flat, (idx,), "take"))  # type: ignore[arg-type]


@tensor_method()
def take_along_dim(self: Tensor, indices: Any, dim: int | None = None) -> Tensor:
    """Gather along ``dim`` with ``indices`` broadcast against ``self`` (flattened if dim=None).

    Example:
        >>> x = gt.tensor([[10, 30, 20]])
        >>> x.take_along_dim(gt.tensor([[1, 2, 0]]), 1).tolist()
        [[30, 20, 10]]
    """
    idx = _int_index(indices, self.device, "take_along_dim")
    if dim is None:
        return take(self, idx.reshape(-1))  # type: ignore[attr-defined]
    d = wrap_dim(dim, self.ndim, "take_along_dim")
    check(idx.ndim == self.ndim, "take_along_dim", lambda: "indices must have as many dims as "
          f"the input ({self.ndim}), got {idx.ndim}", ShapeError)
    other = broadcast_shapes(tuple(n for j, n in enumerate(self.shape) if j != d),
                             tuple(n for j, n in enumerate(idx.shape) if j != d),
                             op="take_along_dim")
    xs = other[:d] + (self.shape[d],) + other[d:]
    ishape = other[:d] + (idx.shape[d],) + other[d:]
    return gather(expand_to(self, xs, "take_along_dim"), d,
                  expand_to(idx, ishape, "take_along_dim"))
