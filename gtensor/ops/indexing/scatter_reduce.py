"""``scatter_reduce``: reduce values into a tensor at scattered positions, with its VJP.

The forward reuses the scatter path of :mod:`.along_dim` (``mean`` adds
and then divides by the group sizes). Gradients follow PyTorch's formulas:
``sum`` passes the gradient through; ``mean`` divides it by the group size;
``amax``/``amin`` split it evenly among the elements equal to the result;
``prod`` divides the result by each factor, computing the exclusive product
directly for a factor that is the only zero of its group.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...dtypes import float32, int64
from ...errors import DTypeError, check
from ...graph.grad_mode import no_grad
from ...graph.inplace import differentiable_inplace
from ...graph.node import Node, needs_grad, record
from ...shape_rules import wrap_dim
from ..creation import ones, zeros
from ..dispatch import launch
from ..layout.padding import pad_to
from .along_dim import gather, scatter, scatter_add, scatter_raw
from .rows import int_index
from .subscript import put_index

if TYPE_CHECKING:
    from ...tensor import Tensor


REDUCTIONS = {"sum": "add", "prod": "prod", "amax": "amax", "amin": "amin", "mean": "add"}


def _scatter_reduce_raw(self: Tensor, dim: int, index: Any, src: Tensor, reduce: str,
                        include_self: bool = True) -> Tensor:
    check(reduce in REDUCTIONS, "scatter_reduce", lambda: f"reduce must be one of "
          f"{sorted(REDUCTIONS)}, got {reduce!r}", ValueError)
    refused = {"amax": 3, "amin": 3, "mean": 0}.get(reduce)  # complex has no order; bool no mean
    check(self.dtype.category != refused, "scatter_reduce", lambda: f"reduce={reduce!r} is "
          f"not defined for {self.dtype.name}", DTypeError)
    mode = REDUCTIONS[reduce]
    if reduce != "mean":
        return scatter_raw(self, dim, index, src, mode, "scatter_reduce", include_self)
    if self.dtype.is_half:  # the mean's division runs in float32, rounded back once
        wide = self.to(float32)
        _scatter_reduce_raw(wide, dim, index, src.to(float32), reduce, include_self)
        self.copy_(wide)
        return self
    target = self if self.is_contiguous() else self.clone()
    counts = (ones if include_self else zeros)(self.shape, dtype=int64, device=self.device)
    scatter_raw(counts, dim, index, 1, "add", "scatter_reduce")
    scatter_raw(target, dim, index, src, "add", "scatter_reduce", include_self)
    if target.numel():
        launch("divide_by_count", self.device, (self.dtype, int64),
               target.reshape(-1)._native(), counts.reshape(-1)._native())
    if target is not self:
        self.copy_(target)
    self._bump_version()
    return self


def scatter_reduce(self: Tensor, dim: int, index: Any, src: Tensor, reduce: str, *,
                   include_self: bool = True) -> Tensor:
    """Out-of-place :meth:`scatter_reduce_`; differentiable for every ``reduce``.

    Gradients follow PyTorch: ``sum`` and ``mean`` spread the gradient (divided
    by the group size for ``mean``); ``amax``/``amin`` split it evenly among
    tied extremes; ``prod`` divides out each factor (handling zeros exactly).

    Example:
        >>> x = gt.tensor([1.0, 1.0])
        >>> x.scatter_reduce(0, gt.tensor([0, 0]), gt.tensor([4.0, 7.0]), "amax").tolist()
        [7.0, 1.0]
    """
    check(reduce in REDUCTIONS, "scatter_reduce", lambda: f"reduce must be one of "
          f"{sorted(REDUCTIONS)}, got {reduce!r}", ValueError)
    index = int_index(index, self.device, "scatter_reduce")
    with no_grad():
        out = _scatter_reduce_raw(self.clone(), dim, index, src, reduce, include_self)
    if needs_grad(self, src):
        values = reduce in ("amax", "amin", "prod")
        record("scatter_reduce", out, (self, src), _scatter_reduce_vjp,
               save=(index, self, src, out) if values else (index,),
               dim=wrap_dim(dim, self.ndim, "scatter_reduce"), include_self=include_self,
               src_shape=src.shape, reduce=reduce)
    return out


def _scatter_reduce_of_clone(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """Out-of-place form for the in-place op: the VJP saves a copy that the write won't touch."""
    return scatter_reduce(self.clone(), *args, **kwargs)


@differentiable_inplace(_scatter_reduce_of_clone)
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
    return _scatter_reduce_raw(self, dim, index, src, reduce, include_self)


def _group_sizes(ctx: Node, g: Tensor, index: Tensor) -> Tensor:
    """How many values each output position averages (1 where no index lands)."""
    n = ones(g.shape, dtype=g.dtype, device=g.device)
    if not ctx.include_self:
        n = scatter(n, ctx.dim, index, 0.0)
    return scatter_add(n, ctx.dim, index, ones(index.shape, dtype=g.dtype, device=g.device))


def _region(src: Tensor, index: Tensor) -> Tensor:
    """The part of ``src`` that ``index`` reads (``src`` may be larger outside it)."""
    return src[tuple(slice(0, n) for n in index.shape)]


def _extremum_grads(ctx: Node, g: Tensor, index: Tensor, self: Tensor, src: Tensor,
                    result: Tensor) -> tuple[Tensor, Tensor]:
    d = ctx.dim
    value = gather(result, d, index)
    self_is = (self == result).to(g.dtype)
    src_is = (src == value).to(g.dtype)
    share = g / scatter_add(self_is, d, index, src_is)
    return self_is * share, src_is * gather(share, d, index)


def _prod_grads(ctx: Node, g: Tensor, index: Tensor, self: Tensor, src: Tensor,
                result: Tensor) -> tuple[Tensor, Tensor]:
    d, include_self = ctx.dim, ctx.include_self
    masked_self = self.masked_fill(self == 0, 1.0)
    masked_self_result = scatter_reduce(masked_self, d, index, src, "prod",
                                        include_self=include_self)
    grad_self = g * masked_self_result / masked_self
    src_zero = src == 0
    zeros_in_group = gather(scatter_add(zeros(self.shape, dtype=g.dtype, device=g.device), d,
                                        index, src_zero.to(g.dtype)), d, index)
    single_zero = src_zero.logical_and(zeros_in_group == 1)
    exclusive = scatter_reduce(self, d, index, src.masked_fill(single_zero, 1.0), "prod",
                               include_self=include_self)
    by_division = gather(g * result, d, index) / src.masked_fill(src_zero, 1.0)
    grad_src = put_index(by_division, (single_zero,),
                         gather(g * exclusive, d, index)[single_zero],
                         False, "scatter_reduce")
    return grad_self, grad_src


def _scatter_reduce_vjp(ctx: Node, g: Tensor) -> tuple[Tensor | None, Tensor | None]:
    """Gradients of ``scatter_reduce`` for ``self`` and ``src`` (PyTorch's definitions)."""
    index = ctx.saved_tensors[0]
    d, reduce = ctx.dim, ctx.reduce
    if reduce == "sum":
        grad_self, grad_src = g, gather(g, d, index)
    elif reduce == "mean":
        share = g / _group_sizes(ctx, g, index)
        grad_self, grad_src = share, gather(share, d, index)
    else:
        _, self, src, result = ctx.saved_tensors
        assert self is not None and src is not None and result is not None
        grads = _extremum_grads if reduce in ("amax", "amin") else _prod_grads
        grad_self, grad_src = grads(ctx, g, index, self, _region(src, index), result)
    if not ctx.include_self:
        grad_self = scatter(grad_self, d, index, 0.0)
    return grad_self, pad_to(grad_src, ctx.src_shape)


# Functional forms, exported as gt.<name> (PyTorch's torch.<name>).
EXPORTS = ("scatter_reduce",)
