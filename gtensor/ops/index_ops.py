"""Indexing along one dim or the flattened tensor: ``index_select``, ``index_add``,
``index_copy``, ``index_fill``, ``take``, ``take_along_dim``.

They plan a ``(slice(None),) * dim + (index,)`` advanced index (see
``indexing.py``) and read or combine with the gather/scatter kernels. The
in-place forms are raw kernel paths; each out-of-place form is a clone, the
raw path and one recorded node, and the public in-place method records
through :func:`~gtensor.graph.inplace.differentiable_inplace`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import ShapeError, check, check_same_device
from ..graph.grad_mode import no_grad
from ..graph.inplace import differentiable_inplace
from ..graph.node import Node, record
from ..shape_rules import broadcast_shapes, wrap_dim
from ..tensor_base import TensorBase
from .creation import zeros
from .indexing import advanced_getitem, advanced_setitem, int_index, plan_index, scatter_rows
from .scatter_gather import gather
from .sorting import unique
from .views import expand_to

if TYPE_CHECKING:
    from ..tensor import Tensor


def _dim_index(self: Tensor, dim: int, index: Any, op: str) -> tuple[int, Tensor]:
    d = wrap_dim(dim, self.ndim, op)
    idx = int_index(index, self.device, op)
    check(idx.ndim <= 1, op, lambda: f"index must be 0-d or 1-d, got {idx.ndim}-d", ShapeError)
    return d, idx.reshape(-1)


def _index_select_vjp(ctx: Node, g: Tensor) -> Tensor:
    (idx,) = ctx.saved_tensors
    z = zeros(ctx.in_shape, dtype=g.dtype, device=g.device)
    if not ctx.in_shape:
        return index_add(z.reshape(1), 0, idx, g.reshape(1)).reshape(())
    return index_add(z, ctx.dim, idx, g)


def index_select(self: Tensor, dim: int, index: Any) -> Tensor:
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
            out = advanced_getitem(flat, plan_index(flat, (idx,), "index_select")  # type: ignore
                                   ).reshape(())
            d = 0
        else:
            d, idx = _dim_index(self, dim, index, "index_select")
            out = advanced_getitem(self, plan_index(  # type: ignore[arg-type]
                self, (slice(None),) * d + (idx,), "index_select"))
    record("index_select", out, (self,), _index_select_vjp, save=(idx,), dim=d,
           in_shape=self.shape)
    return out


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
        grad_value = index_select(g, ctx.dim, unique(idx)).sum()  # type: ignore[attr-defined]
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


def take(self: Tensor, index: Any) -> Tensor:
    """Index ``self`` as if flattened; the result has ``index``'s shape (differentiable).

    Example:
        >>> gt.tensor([[1, 2], [3, 4]]).take(gt.tensor([3, 0])).tolist()
        [4, 1]
    """
    idx = int_index(index, self.device, "take")
    flat = self.reshape(-1)
    return advanced_getitem(flat, plan_index(flat, (idx,), "take"))  # type: ignore[arg-type]


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


# Functional forms, exported as gt.<name> (PyTorch's torch.<name>).
EXPORTS = ("index_select", "index_add", "index_copy", "index_fill", "take", "take_along_dim")
