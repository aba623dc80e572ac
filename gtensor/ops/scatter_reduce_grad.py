"""The VJP of ``scatter_reduce`` for every reduction, following PyTorch's formulas.

``sum`` passes the gradient through; ``mean`` divides it by the group size;
``amax``/``amin`` split it evenly among the elements equal to the result;
``prod`` divides the result by each factor, computing the exclusive product
directly for a factor that is the only zero of its group.
"""

from __future__ import annotations

from ..autograd.node import Node
from ..tensor import Tensor
from .indexing import put_index
from .scatter_gather import gather, pad_to, scatter, scatter_add, scatter_reduce


def _group_sizes(ctx: Node, g: Tensor, index: Tensor) -> Tensor:
    """How many values each output position averages (1 where no index lands)."""
    from .creation import ones

    n = ones(g.shape, dtype=g.dtype, device=g.device)
    if not ctx.include_self:
        n = scatter(n, ctx.dim, index, 0.0)
    return scatter_add(n, ctx.dim, index, ones(index.shape, dtype=g.dtype, device=g.device))


def _region(src: Tensor, index: Tensor) -> Tensor:
    """The part of ``src`` that ``index`` reads (``src`` may be larger outside it)."""
    return src[tuple(slice(0, n) for n in index.shape)]  # type: ignore[index]


def _extremum_grads(ctx: Node, g: Tensor, index: Tensor, self: Tensor, src: Tensor,
                    result: Tensor) -> tuple[Tensor, Tensor]:
    d = ctx.dim
    value = gather(result, d, index)
    self_is = (self == result).to(g.dtype)  # type: ignore[attr-defined]
    src_is = (src == value).to(g.dtype)  # type: ignore[attr-defined]
    share = g / scatter_add(self_is, d, index, src_is)  # type: ignore[operator]
    return self_is * share, src_is * gather(share, d, index)  # type: ignore[operator]


def _prod_grads(ctx: Node, g: Tensor, index: Tensor, self: Tensor, src: Tensor,
                result: Tensor) -> tuple[Tensor, Tensor]:
    from .creation import zeros

    d, include_self = ctx.dim, ctx.include_self
    masked_self = self.masked_fill(self == 0, 1.0)  # type: ignore[attr-defined]
    masked_self_result = scatter_reduce(masked_self, d, index, src, "prod",
                                        include_self=include_self)
    grad_self = g * masked_self_result / masked_self  # type: ignore[operator]
    src_zero = src == 0
    zeros_in_group = gather(scatter_add(zeros(self.shape, dtype=g.dtype, device=g.device), d,
                                        index, src_zero.to(g.dtype)), d, index)  # type: ignore
    single_zero = src_zero.logical_and(zeros_in_group == 1)  # type: ignore[attr-defined]
    exclusive = scatter_reduce(self, d, index, src.masked_fill(single_zero, 1.0), "prod",
                               include_self=include_self)
    by_division = gather(g * result, d, index) / src.masked_fill(src_zero, 1.0)  # type: ignore
    grad_src = put_index(by_division, (single_zero,),
                         gather(g * exclusive, d, index)[single_zero],  # type: ignore
                         False, "scatter_reduce")
    return grad_self, grad_src


def scatter_reduce_vjp(ctx: Node, g: Tensor) -> tuple[Tensor | None, Tensor | None]:
    """Gradients of ``scatter_reduce`` for ``self`` and ``src`` (PyTorch's definitions)."""
    index = ctx.saved_tensors[0]
    d, reduce = ctx.dim, ctx.reduce
    if reduce == "sum":
        grad_self, grad_src = g, gather(g, d, index)
    elif reduce == "mean":
        share = g / _group_sizes(ctx, g, index)  # type: ignore[operator]
        grad_self, grad_src = share, gather(share, d, index)
    else:
        _, self, src, result = ctx.saved_tensors
        assert self is not None and src is not None and result is not None
        grads = _extremum_grads if reduce in ("amax", "amin") else _prod_grads
        grad_self, grad_src = grads(ctx, g, index, self, _region(src, index), result)
    if not ctx.include_self:
        grad_self = scatter(grad_self, d, index, 0.0)
    return grad_self, pad_to(grad_src, ctx.src_shape)
