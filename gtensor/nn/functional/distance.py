"""Norm-based functions: ``normalize``, ``cosine_similarity``, ``pairwise_distance`` and
``pdist``.

Each is a composition of gtensor ops (``norm``, ``clamp``, elementwise
arithmetic), so autograd and ``gt.compile`` go through them.
"""

from __future__ import annotations

from ...dtypes import result_type
from ...errors import DTypeError, ShapeError, check
from ...graph.autocast_mode import autocast_inputs
from ...ops.arrangement import triu_indices
from ...ops.elementwise import div
from ...shape_rules import broadcast_shapes, wrap_dim
from ...tensor import Tensor


def normalize(input: Tensor, p: float = 2.0, dim: int | tuple[int, ...] = 1,
              eps: float = 1e-12, out: Tensor | None = None) -> Tensor:
    """``x / max(||x||_p, eps)`` with the norm taken over ``dim``.

    Args:
        input: any shape.
        p: the norm's exponent.
        dim: the dim (or dims) each vector lies along.
        eps: the smallest divisor.
        out: written with the result when given (then, as in PyTorch, not differentiable).

    Example:
        >>> F.normalize(gt.tensor([[3.0, 4.0]]))
        tensor([[0.6000, 0.8000]])
    """
    denom = input.norm(p, dim, keepdim=True).clamp(min=eps)
    if out is None:
        return input / denom
    return div(input, denom, out=out)


def _clamp_min_keep_grad(n: Tensor, eps: float) -> Tensor:
    """``max(n, eps)`` whose gradient is ``n``'s own: PyTorch clamps its norms under no_grad."""
    value = n.detach()
    return n + (value.clamp(min=eps) - value)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """``<x1, x2> / (max(||x1||, eps) * max(||x2||, eps))`` along ``dim`` (inputs broadcast).

    Each input is divided by its own norm before the dot product, as in PyTorch,
    so the result stays in ``[-1, 1]`` and large norms do not overflow.

    Raises:
        DTypeError: the inputs' common dtype is not floating point.

    Example:
        >>> F.cosine_similarity(gt.tensor([1.0, 0.0]), gt.tensor([1.0, 1.0]), dim=0)
        tensor(0.7071)
    """
    x1, x2 = autocast_inputs("cosine_similarity", x1, x2)
    dt = result_type(x1, x2)
    check(dt.is_floating_point, "cosine_similarity", lambda: "expected common dtype to be "
          f"floating point, yet common dtype is {dt.name}", DTypeError)
    shape = broadcast_shapes(x1.shape, x2.shape, op="cosine_similarity")
    d = wrap_dim(dim, len(shape), "cosine_similarity")
    unit = []
    for x in (x1, x2):
        x = x if x.dtype is dt else x.to(dt)
        x = x if tuple(x.shape) == shape else x.expand(*shape)
        unit.append(x / _clamp_min_keep_grad(x.norm(2, d, keepdim=True), eps))
    return (unit[0] * unit[1]).sum(d)


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6,
                      keepdim: bool = False) -> Tensor:
    """``||x1 - x2 + eps||_p`` over the last dim of the broadcast inputs.

    Example:
        >>> F.pairwise_distance(gt.zeros(2, 3), gt.ones(2, 3))  # sqrt(3), less eps
        tensor([1.7320, 1.7320])
    """
    last = max(x1.ndim, x2.ndim) - 1
    return (x1 - x2 + eps).norm(p, last, keepdim)


def pdist(input: Tensor, p: float = 2.0) -> Tensor:
    """p-norm distances between the rows of ``(N, M)`` input, pairs ``i < j`` in row order.

    Example:
        >>> F.pdist(gt.tensor([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]])).tolist()
        [5.0, 1.0, 4.242640495300293]
    """
    op = "pdist"
    check(input.ndim == 2, op, lambda: f"expected a 2-D input, got shape {input.shape}",
          ShapeError)
    check(p >= 0, op, lambda: f"p must be non-negative, got {p}", ValueError)
    n = input.shape[0]
    ij = triu_indices(n, n, 1, device=input.device)
    diff = input.index_select(0, ij[0]) - input.index_select(0, ij[1])
    return diff.norm(p, dim=1)
