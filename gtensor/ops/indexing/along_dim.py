"""Indexing along one dim or the flattened tensor: the ``index_*``, take, gather, scatter ops.

``index_select``, ``index_add``, ``index_copy``, ``index_fill``, ``take``,
``take_along_dim``, ``gather``, ``scatter`` and ``scatter_add``, with their
VJPs.

The ``index_*`` ops and ``take`` plan a ``(slice(None),) * dim + (index,)``
advanced index (see :mod:`.rows`); ``gather``/``scatter``/``scatter_add``
build index rows for :func:`.rows.row_offsets` themselves (the index tensor
on the indexed dim, coordinates on the others). Either way the indices are
bounds-checked on the device and then read or combined by the
``gather``/``scatter`` kernels.

The in-place forms are raw kernel paths; each out-of-place form is a clone,
the raw path and one recorded node, and the public in-place method records
through :func:`~gtensor.graph.inplace.differentiable_inplace`.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import numpy as np

from ...dtypes import int64
from ...errors import ShapeError, check, check_same_device
from ...graph.autocast_mode import autocast_inputs
from ...graph.grad_mode import no_grad
from ...graph.inplace import differentiable_inplace
from ...graph.node import Node, needs_grad, record
from ...shape_rules import broadcast_shapes, wrap_dim
from ...tensor_base import TensorBase
from .. import tracing
from ..copy import write_out
from ..creation import arange, full, zeros
from ..layout.padding import pad_to
from ..layout.views import expand_to
from .rows import gather_rows, int_index, plan_index, row_offsets, scatter_rows
from .subscript import advanced_getitem, advanced_setitem

if TYPE_CHECKING:
    from ...tensor import Tensor


def _dim_index(self: Tensor, dim: int, index: Any, op: str) -> tuple[int, Tensor]:
    d = wrap_dim(dim, self.ndim, op)
    idx = int_index(index, self.device, op)
    check(idx.ndim <= 1, op, lambda: f"index must be 0-d or 1-d, got {idx.ndim}-d", ShapeError)
    return d, idx.reshape(-1)


def _index_select_vjp(ctx: Node, g: Tensor) -> Tensor:
    (idx,) = ctx.saved_tensors
    if tracing.state.trace is not None:
        return tracing.library_call(
            "index_select_backward", functools.partial(_index_select_grad, dim=ctx.dim,
                                                       in_shape=ctx.in_shape),
            (g, idx), ctx.in_shape, g.dtype)
    return _index_select_grad(g, idx, ctx.dim, ctx.in_shape)


def _index_select_grad(g: Tensor, idx: Tensor, dim: int, in_shape: tuple[int, ...]) -> Tensor:
    """``g`` added back along ``dim`` at ``idx`` into zeros of ``in_shape``."""
    z = zeros(in_shape, dtype=g.dtype, device=g.device)
    if not in_shape:
        return index_add(z.reshape(1), 0, idx, g.reshape(1)).reshape(())
    return index_add(z, dim, idx, g)


def index_select(self: Tensor, dim: int, index: Any, *, out: Tensor | None = None) -> Tensor:
    """Return the entries ``index`` (1-D integers) of ``self`` along ``dim``.

    Differentiable in ``self`` (the gradient is index-added back).

    Example:
        >>> gt.tensor([[1, 2], [3, 4]]).index_select(1, gt.tensor([1, 1])).tolist()
        [[2, 2], [4, 4]]
    """
    with no_grad():
        if self.ndim == 0:
            flat = self.reshape(1)
            idx = int_index(index, self.device, "index_select").reshape(-1)
            res = advanced_getitem(flat, plan_index(flat, (idx,), "index_select")  # type: ignore
                                   ).reshape(())
            d = 0
        else:
            d, idx = _dim_index(self, dim, index, "index_select")
            res = advanced_getitem(self, plan_index(  # type: ignore[arg-type]
                self, (slice(None),) * d + (idx,), "index_select"))
    record("index_select", res, (self,), _index_select_vjp, save=(idx,), dim=d,
           in_shape=self.shape)
    return res if out is None else write_out(res, out, "index_select")


def _index_write(self: Tensor, dim: int, index: Any, source: Any, mode: str, op: str) -> Tensor:
    """Raw in-place write (``copy`` or ``add``) of ``source`` at ``index`` along ``dim``."""
    d, idx = _dim_index(self, dim, index, op)
    plan = plan_index(self, (slice(None),) * d + (idx,), op)
    assert plan is not None
    if isinstance(source, TensorBase):
        check_same_device(op, self.device, source.device)
        check(source.shape == plan.shape or (mode == "copy" and source.ndim == 0), op,
              lambda: f"source must have shape {plan.shape}, got {source.shape}", ShapeError)
    with no_grad():
        if mode == "copy":
            advanced_setitem(self, plan, source)
            return self
        src = source if source.dtype is self.dtype else source.to(self.dtype)
        if plan.offsets.numel():
            scatter_rows(plan.rest, plan.offsets, plan.lead(src), mode)
    self._bump_version()
    return self


def _index_out(self: Tensor, dim: int, index: Any, source: Any, mode: str, op: str,
               vjp: Any, written: Any = None, **attrs: Any) -> Tensor:
    """Out-of-place index write of ``written`` (default ``source``): clone, raw path, one node."""
    d, idx = _dim_index(self, dim, index, op)
    with no_grad():
        out = _index_write(self.clone(), d, idx,
                           source if written is None else written, mode, op)
    record(op.rstrip("_"), out, (self, source), vjp, save=(idx,), dim=d, **attrs)
    return out


def _index_add_vjp(ctx: Node, g: Tensor) -> tuple[Tensor, Tensor | None]:
    (idx,) = ctx.saved_tensors
    if not ctx.needs_input_grad[1]:
        return g, None
    grad_source = index_select(g, ctx.dim, idx)
    return g, grad_source if ctx.alpha == 1 else grad_source * ctx.alpha  # type: ignore


def index_add(self: Tensor, dim: int, index: Any, source: Tensor, *, alpha: Any = 1) -> Tensor:
    """Out-of-place :meth:`index_add_`; differentiable in ``self`` and ``source``.

    Example:
        >>> gt.zeros(3).index_add(0, gt.tensor([0, 0]), gt.tensor([1.0, 2.0])).tolist()
        [3.0, 0.0, 0.0]
    """
    with no_grad():
        scaled = source if alpha == 1 else source * alpha
    return _index_out(self, dim, index, source, "add", "index_add_", _index_add_vjp,
                      written=scaled, alpha=alpha)


@differentiable_inplace(index_add)
def index_add_(self: Tensor, dim: int, index: Any, source: Tensor, *, alpha: Any = 1) -> Tensor:
    """Add ``alpha * source`` into ``self`` at ``index`` along ``dim``; repeats accumulate.

    Example:
        >>> gt.zeros(3).index_add_(0, gt.tensor([0, 0]), gt.tensor([1.0, 2.0])).tolist()
        [3.0, 0.0, 0.0]
    """
    if alpha != 1:
        source = source * alpha
    return _index_write(self, dim, index, source, "add", "index_add_")


def _index_copy_vjp(ctx: Node, g: Tensor) -> tuple[Tensor | None, Tensor | None]:
    (idx,) = ctx.saved_tensors
    grad_self = index_fill(g, ctx.dim, idx, 0.0) if ctx.needs_input_grad[0] else None
    grad_source = index_select(g, ctx.dim, idx) if ctx.needs_input_grad[1] else None
    return grad_self, grad_source


def index_copy(self: Tensor, dim: int, index: Any, source: Tensor) -> Tensor:
    """Out-of-place :meth:`index_copy_`; differentiable in ``self`` and ``source``.

    Example:
        >>> gt.zeros(3).index_copy(0, gt.tensor([2]), gt.tensor([9.0])).tolist()
        [0.0, 0.0, 9.0]
    """
    self, source = autocast_inputs("index_copy", self, source)
    return _index_out(self, dim, index, source, "copy", "index_copy_", _index_copy_vjp)


@differentiable_inplace(index_copy)
def index_copy_(self: Tensor, dim: int, index: Any, source: Tensor) -> Tensor:
    """Copy ``source`` into ``self`` at ``index`` along ``dim`` in place.

    Example:
        >>> gt.zeros(3).index_copy_(0, gt.tensor([2]), gt.tensor([9.0])).tolist()
        [0.0, 0.0, 9.0]
    """
    return _index_write(self, dim, index, source, "copy", "index_copy_")


def _index_fill_vjp(ctx: Node, g: Tensor) -> tuple[Tensor | None, Tensor | None]:
    (idx,) = ctx.saved_tensors
    grad_self = index_fill(g, ctx.dim, idx, 0.0) if ctx.needs_input_grad[0] else None
    grad_value = None
    if ctx.needs_input_grad[1]:
        grad_value = index_select(g, ctx.dim, idx.unique()).sum()  # type: ignore[attr-defined]
    return grad_self, grad_value


def index_fill(self: Tensor, dim: int, index: Any, value: Any) -> Tensor:
    """Out-of-place :meth:`index_fill_`; differentiable in ``self`` and a 0-d tensor ``value``.

    Example:
        >>> gt.zeros(3).index_fill(0, gt.tensor([1]), 4.0).tolist()
        [0.0, 4.0, 0.0]
    """
    return _index_out(self, dim, index, value, "copy", "index_fill_", _index_fill_vjp)


@differentiable_inplace(index_fill)
def index_fill_(self: Tensor, dim: int, index: Any, value: Any) -> Tensor:
    """Set ``self`` to ``value`` (a number or 0-d tensor) at ``index`` along ``dim`` in place.

    Example:
        >>> gt.zeros(3).index_fill_(0, gt.tensor([1]), 4.0).tolist()
        [0.0, 4.0, 0.0]
    """
    check(not isinstance(value, TensorBase) or value.ndim == 0, "index_fill_",
          lambda: f"value must be a number or a 0-d tensor, got shape {value.shape}")
    return _index_write(self, dim, index, value, "copy", "index_fill_")


def take(self: Tensor, index: Any, *, out: Tensor | None = None) -> Tensor:
    """Index ``self`` as if flattened; the result has ``index``'s shape (differentiable).

    Example:
        >>> gt.tensor([[1, 2], [3, 4]]).take(gt.tensor([3, 0])).tolist()
        [4, 1]
    """
    idx = int_index(index, self.device, "take")
    flat = self.reshape(-1)
    return write_out(advanced_getitem(flat, plan_index(flat, (idx,), "take")),  # type: ignore
                     out, "take")


def take_along_dim(self: Tensor, indices: Any, dim: int | None = None) -> Tensor:
    """Gather along ``dim`` with ``indices`` broadcast against ``self`` (flattened if dim=None).

    Differentiable in ``self``.

    Example:
        >>> x = gt.tensor([[10, 30, 20]])
        >>> x.take_along_dim(gt.tensor([[1, 2, 0]]), 1).tolist()
        [[30, 20, 10]]
    """
    idx = int_index(indices, self.device, "take_along_dim")
    if dim is None:
        return take(self, idx.reshape(-1))
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


def _coord_offsets(t: Tensor, dim: int, index: Tensor, op: str, strict: bool = False) -> Tensor:
    """Offsets of ``t[..., index[i,j,k], ...]`` (index on ``dim``, coordinates elsewhere).

    With ``strict``, negative values of ``index`` are out of range.
    """
    rows = []
    for j, n in enumerate(index.shape):
        if j == dim:
            rows.append(index)
        else:
            shape = tuple(n if k == j else 1 for k in range(index.ndim))
            rows.append(arange(n, dtype=int64, device=t.device).view(shape))
    return row_offsets(rows, index.shape, t.shape or (1,), t._strides or (0,),
                       tuple(range(max(t.ndim, 1))), op, t.device, strict)


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


def _gather_vjp(ctx: Node, g: Tensor) -> Tensor:
    (index,) = ctx.saved_tensors
    return scatter_add(zeros(ctx.in_shape, dtype=g.dtype, device=g.device), ctx.dim, index, g)


def gather(self: Tensor, dim: int, index: Any, *, sparse_grad: bool = False,
           out: Tensor | None = None) -> Tensor:
    """Return ``out[i][j] = self[index[i][j]][j]`` (for ``dim=0``; likewise for other dims).

    Differentiable in ``self`` (the gradient is scatter-added back).

    Args:
        dim: the dim ``index`` selects along.
        index: integer tensor with ``self``'s rank; outside ``dim`` no larger than ``self``.
        sparse_grad: accepted for PyTorch compatibility; the gradient is always dense.
        out: the tensor to write the result into.

    Returns:
        A tensor of ``index``'s shape.

    Raises:
        IndexError: an index outside ``[-size, size)`` (checked on the device).

    Example:
        >>> gt.tensor([[1, 2], [3, 4]]).gather(1, gt.tensor([[1], [0]])).tolist()
        [[2], [3]]
    """
    result = gather_indices(self, dim, index, "gather")
    return result if out is None else write_out(result, out, "gather")


def gather_indices(self: Tensor, dim: int, index: Any, op: str, strict: bool = False) -> Tensor:
    """:func:`gather` reporting errors as ``op``; ``strict`` refuses negative indices.

    Example:
        >>> logp = gt.tensor([[0.25, 0.75], [0.5, 0.5]])
        >>> gather_indices(logp, 1, gt.tensor([[1], [0]]), "nll_loss", strict=True).tolist()
        [[0.75], [0.5]]
        >>> gather_indices(logp, 1, gt.tensor([[-1], [0]]), "nll_loss", strict=True)
        Traceback (most recent call last):
        IndexError: [nll_loss] index -1 is out of bounds for dimension 1 with size 2
    """
    index = int_index(index, self.device, op)
    d = _check_dim_index(self, dim, index, op)
    out = tracing.library_call(op, functools.partial(_gathered, dim=d, op=op, strict=strict),
                               (self, index), index.shape, self.dtype)
    record("gather", out, (self,), _gather_vjp, save=(index,), dim=d, in_shape=self.shape)
    return out


def _gathered(self: Tensor, index: Tensor, dim: int, op: str, strict: bool) -> Tensor:
    """The gather itself, into a new contiguous tensor (no recording)."""
    out = TensorBase.empty(index.shape, self.dtype, self.device)
    if out.numel():
        offsets = _coord_offsets(self, dim, index, op, strict)
        gather_rows(_scalar_0d(self), offsets, out.reshape(-1))
    return out


def scatter_raw(self: Tensor, dim: int, index: Any, src: Any, mode: str, op: str,
                 include_self: bool = True) -> Tensor:
    """Combine ``src`` (a tensor or number) into ``self`` at ``index`` in place; no recording."""
    index = int_index(index, self.device, op)
    if isinstance(src, TensorBase):
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
    flat = values.reshape(-1)
    if not include_self:
        ident = _identity(mode, self)
        scatter_rows(_scalar_0d(self), offsets, expand_to(ident, flat.shape, op), "copy")
    scatter_rows(_scalar_0d(self), offsets, flat, mode)
    self._bump_version()
    return self


def _identity(mode: str, t: Tensor) -> Tensor:
    dt = t.dtype.numpy
    if mode in ("amax", "amin"):
        info = np.finfo(dt) if dt.kind == "f" else np.iinfo(dt) if dt.kind in "iu" else None
        big = np.inf if dt.kind == "f" else (info.max if info is not None else True)
        small = -np.inf if dt.kind == "f" else (info.min if info is not None else False)
        value = small if mode == "amax" else big
    else:
        value = 1 if mode == "prod" else 0
    return full((), value, dtype=t.dtype, device=t.device)


def _scatter_out(self: Tensor, dim: int, index: Any, src: Any, mode: str, op: str,
                 vjp: Any, **attrs: Any) -> Tensor:
    """Out-of-place scatter: clone, raw kernel path, one node ``op`` with ``vjp``."""
    index = int_index(index, self.device, op)
    out = tracing.library_call(op, functools.partial(_scattered, dim=dim, mode=mode, op=op),
                               (self, index, src), self.shape, self.dtype)
    if needs_grad(self, src):
        record(op.rstrip("_"), out, (self, src), vjp, save=(index,),
               dim=wrap_dim(dim, self.ndim, op),
               src_shape=src.shape if isinstance(src, TensorBase) else (), **attrs)
    return out


def _scattered(self: Tensor, index: Tensor, src: Any, dim: int, mode: str, op: str) -> Tensor:
    """The scatter itself, into a copy of ``self`` (no recording)."""
    with no_grad():
        return scatter_raw(self.clone(), dim, index, src, mode, op)


def _src_grad(ctx: Node, g: Tensor, index: Tensor) -> Tensor:
    """``g.gather(dim, index)`` zero-padded to ``src``'s shape."""
    return pad_to(gather(g, ctx.dim, index), ctx.src_shape)


def _scatter_vjp(ctx: Node, g: Tensor) -> tuple[Tensor | None, Tensor | None]:
    index = ctx.saved_tensors[0]
    if ctx.reduce == "multiply":
        raise RuntimeError("[scatter] the derivative of scatter with reduce='multiply' is not "
                           "implemented; use scatter_reduce(..., reduce='prod')")
    grad_self = g if ctx.reduce == "add" else scatter(g, ctx.dim, index, 0.0)
    grad_src = _src_grad(ctx, g, index) if ctx.needs_input_grad[1] else None
    return grad_self, grad_src


def _scatter_mode(reduce: str | None, op: str) -> str:
    check(reduce in (None, "add", "multiply"), op, lambda: "reduce must be None, 'add' "
          f"or 'multiply', got {reduce!r}", ValueError)
    return {None: "copy", "add": "add", "multiply": "prod"}[reduce]


def scatter(self: Tensor, dim: int, index: Any, src: Any = None, *, value: Any = None,
            reduce: str | None = None) -> Tensor:
    """Out-of-place :meth:`scatter_`; differentiable in ``self`` and ``src``.

    The overwritten positions of ``self`` get a zero gradient; ``src`` gets the
    gradient read back at ``index`` (PyTorch's rule, also with repeated indices).

    Example:
        >>> gt.zeros(2).scatter(0, gt.tensor([1]), 7.0).tolist()
        [0.0, 7.0]
    """
    mode = _scatter_mode(reduce, "scatter_")
    return _scatter_out(self, dim, index, value if src is None else src, mode, "scatter_",
                        _scatter_vjp, reduce=reduce)


@differentiable_inplace(scatter)
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
    mode = _scatter_mode(reduce, "scatter_")
    return scatter_raw(self, dim, index, value if src is None else src, mode, "scatter_")


def _scatter_add_vjp(ctx: Node, g: Tensor) -> tuple[Tensor, Tensor | None]:
    (index,) = ctx.saved_tensors
    return g, _src_grad(ctx, g, index) if ctx.needs_input_grad[1] else None


def scatter_add(self: Tensor, dim: int, index: Any, src: Tensor) -> Tensor:
    """Out-of-place :meth:`scatter_add_`; differentiable in ``self`` and ``src``.

    Example:
        >>> gt.zeros(2).scatter_add(0, gt.tensor([1, 1]), gt.ones(2)).tolist()
        [0.0, 2.0]
    """
    self, src = autocast_inputs("scatter_add", self, src)
    return _scatter_out(self, dim, index, src, "add", "scatter_add_", _scatter_add_vjp)


@differentiable_inplace(scatter_add)
def scatter_add_(self: Tensor, dim: int, index: Any, src: Tensor) -> Tensor:
    """Add ``src[i][j]`` into ``self[index[i][j]][j]`` in place; repeated indices accumulate.

    Example:
        >>> gt.zeros(2).scatter_add_(0, gt.tensor([1, 1]), gt.ones(2)).tolist()
        [0.0, 2.0]
    """
    return scatter_raw(self, dim, index, src, "add", "scatter_add_")


# Functional forms, exported as gt.<name> (PyTorch's torch.<name>).
EXPORTS = ("index_select", "index_add", "index_copy", "index_fill", "take", "take_along_dim",
           "gather", "scatter", "scatter_add")
