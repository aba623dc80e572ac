"""Triangles and diagonals of matrices: tril, triu, diagonal, diag, trace.

``tril``/``triu`` run the ``triangle`` kernel; ``diagonal`` is a view; each op
records one node whose VJP follows it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..dtypes import int64
from ..errors import ShapeError, check
from ..graph.grad_mode import no_grad
from ..graph.node import Node, record
from ..shape_rules import wrap_dim
from ..tensor_base import TensorBase, contiguous_strides, from_storage
from .creation import zeros
from .dispatch import launch
from .scatter_gather import scatter_add_

if TYPE_CHECKING:
    from ..tensor import Tensor


def _triangle(self: Tensor, diagonal: int, lower: bool, op: str) -> Tensor:
    check(self.ndim >= 2, op, lambda: f"expected a tensor with >= 2 dims, got {self.ndim}",
          ShapeError)
    rows, cols = self.shape[-2:]
    src = self.reshape((-1, rows, cols))
    out = TensorBase.empty(src.shape, self.dtype, self.device)
    launch("triangle", self.device, (self.dtype,), src._native(), out._native(), int(diagonal),
           lower)
    out = from_storage(out._storage, self.shape, contiguous_strides(self.shape), 0, out.dtype)
    record(op, out, (self,), _triangle_vjp, diagonal=int(diagonal), lower=lower)
    return out


def _triangle_vjp(ctx: Node, g: Tensor) -> Tensor:
    return tril(g, ctx.diagonal) if ctx.lower else triu(g, ctx.diagonal)


def tril(self: Tensor, diagonal: int = 0) -> Tensor:
    """Keep the lower triangle (``col - row <= diagonal``) of the last two dims, zero the rest.

    Differentiable: the gradient is masked the same way.

    Example:
        >>> gt.ones(2, 2).tril().tolist()
        [[1.0, 0.0], [1.0, 1.0]]
    """
    return _triangle(self, diagonal, True, "tril")


def triu(self: Tensor, diagonal: int = 0) -> Tensor:
    """Keep the upper triangle (``col - row >= diagonal``) of the last two dims, zero the rest.

    Example:
        >>> gt.ones(2, 2).triu(1).tolist()
        [[0.0, 1.0], [0.0, 0.0]]
    """
    return _triangle(self, diagonal, False, "triu")


def diagonal(self: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """Return the view of the diagonal of dims ``dim1``/``dim2``, appended as the last dim.

    Differentiable (a view: the gradient lands on the diagonal).

    Example:
        >>> gt.arange(4).view(2, 2).diagonal().tolist()
        [0, 3]
    """
    d1, d2 = wrap_dim(dim1, self.ndim, "diagonal"), wrap_dim(dim2, self.ndim, "diagonal")
    check(d1 != d2, "diagonal", lambda: f"diagonal dims cannot be identical {dim1}, {dim2}",
          ValueError)
    n1, n2 = self.shape[d1], self.shape[d2]
    length = max(0, min(n1, n2 - offset) if offset >= 0 else min(n1 + offset, n2))
    start = self._offset
    if length:
        start += offset * self._strides[d2] if offset >= 0 else -offset * self._strides[d1]
    keep = [i for i in range(self.ndim) if i not in (d1, d2)]
    out = self._make_view(tuple(self.shape[i] for i in keep) + (length,),
                          tuple(self._strides[i] for i in keep)
                          + (self._strides[d1] + self._strides[d2],), start)
    record("diagonal", out, (self,), _diagonal_vjp, in_shape=self.shape,
           where=(offset, d1, d2))
    return out


def _diagonal_vjp(ctx: Node, g: Tensor) -> Tensor:
    z = zeros(ctx.in_shape, dtype=g.dtype, device=g.device)
    diagonal(z, *ctx.where).copy_(g)  # type: ignore[attr-defined]
    return z


def diag(self: Tensor, diagonal: int = 0) -> Tensor:
    """1-D input: a square matrix with it on a diagonal. 2-D input: a copy of a diagonal.

    Differentiable in both forms.

    Example:
        >>> gt.tensor([1, 2]).diag().tolist()
        [[1, 0], [0, 2]]
    """
    check(self.ndim in (1, 2), "diag", lambda: f"expected a 1-D or 2-D tensor, got {self.ndim}-D",
          ShapeError)
    if self.ndim == 2:
        return diagonal_of(self, diagonal).clone()
    n = self.shape[0] + abs(diagonal)
    out = zeros((n, n), dtype=self.dtype, device=self.device)
    if self.numel():
        with no_grad():
            diagonal_of(out, diagonal).copy_(self)
    record("diag", out, (self,), _diag_vjp, offset=diagonal)
    return out


def _diag_vjp(ctx: Node, g: Tensor) -> Tensor:
    return diagonal_of(g, ctx.offset)


def diagonal_of(t: Tensor, offset: int) -> Tensor:
    """The main-diagonal view of a matrix shifted by ``offset`` (helper for :meth:`diag`)."""
    return diagonal(t, offset, 0, 1)


def trace(self: Tensor) -> Tensor:
    """Sum of the main diagonal of a 2-D tensor (integers sum in int64); differentiable.

    Example:
        >>> gt.tensor([[1, 2], [3, 4]]).trace().item()
        5
    """
    check(self.ndim == 2, "trace", lambda: f"expected a 2-D tensor, got {self.ndim}-D",
          ShapeError)
    d = diagonal(self)
    dt = d.dtype if d.dtype.is_floating_point else int64
    out = zeros(1, dtype=dt, device=self.device)
    if d.numel():
        with no_grad():
            vals = d if d.dtype is dt else d.to(dt)
            scatter_add_(out, 0, zeros(d.numel(), dtype=int64, device=self.device), vals)
    out = out.reshape(())
    record("trace", out, (self,), _trace_vjp, in_shape=self.shape)
    return out


def _trace_vjp(ctx: Node, g: Tensor) -> Tensor:
    z = zeros(ctx.in_shape, dtype=g.dtype, device=g.device)
    diagonal(z).copy_(g)
    return z


# Functional forms, exported as gt.<name> (PyTorch's torch.<name>).
EXPORTS = ("tril", "triu", "diag", "diagonal", "trace")
