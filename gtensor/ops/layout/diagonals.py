"""Shape helpers composed of existing ops: ``diag_embed``, ``diagflat``, ``sum_to_size``,
``split_with_sizes`` and the ``unsafe_`` split names (gtensor's splits are already views
with their own history, so the unsafe forms are the same functions)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...errors import ShapeError, check
from ...shape_rules import normalize_shape, wrap_dim
from ..creation import zeros
from .copies import chunk, diag, split
from .writes import diagonal_scatter

if TYPE_CHECKING:
    from ...tensor import Tensor

unsafe_split = split
unsafe_chunk = chunk


def diag_embed(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """A tensor whose ``(dim1, dim2)`` diagonals (at ``offset``) hold ``input``'s last dim.

    Args:
        input: the values, at least 1-D; its last dim becomes the diagonal.
        offset: which diagonal (positive: above the main one).
        dim1, dim2: the two dims of the result that hold the matrices.

    Returns:
        A tensor with one more dim than ``input``; zero off the diagonal.

    Example:
        >>> gt.diag_embed(gt.tensor([[1, 2]])).tolist()
        [[[1, 0], [0, 2]]]
    """
    check(input.ndim >= 1, "diag_embed", "expected a tensor of at least 1 dim", ShapeError)
    nd = input.ndim + 1
    d1, d2 = wrap_dim(dim1, nd, "diag_embed"), wrap_dim(dim2, nd, "diag_embed")
    check(d1 != d2, "diag_embed", lambda: f"diagonal dimensions cannot be identical {dim1}, "
          f"{dim2}", ShapeError)
    n = input.shape[-1] + abs(offset)
    rest = iter(input.shape[:-1])
    shape = tuple(n if i in (d1, d2) else next(rest) for i in range(nd))
    base = zeros(shape, dtype=input.dtype, device=input.device)
    return diagonal_scatter(base, input, offset, d1, d2)


def diagflat(input: Tensor, offset: int = 0) -> Tensor:
    """A 2-D tensor with ``input`` (flattened) on its ``offset`` diagonal.

    Example:
        >>> gt.diagflat(gt.tensor([[1, 2]]), 1).tolist()
        [[0, 1, 0], [0, 0, 2], [0, 0, 0]]
    """
    return diag(input.reshape(-1), offset)


def split_with_sizes(self: Tensor, split_sizes: Sequence[int], dim: int = 0) -> tuple[Tensor, ...]:
    """Split along ``dim`` into pieces of exactly ``split_sizes`` (they must sum to its size).

    Example:
        >>> [p.tolist() for p in gt.arange(3).split_with_sizes([1, 2])]
        [[0], [1, 2]]
    """
    d = wrap_dim(dim, self.ndim, "split_with_sizes")
    sizes = [int(s) for s in split_sizes]
    check(all(s >= 0 for s in sizes) and sum(sizes) == self.shape[d], "split_with_sizes",
          lambda: f"split_sizes {sizes} must be non-negative and sum to the size of dim {dim} "
          f"({self.shape[d]})", ShapeError)
    return tuple(split(self, sizes, d))


def sum_to_size(self: Tensor, *size: Any) -> Tensor:
    """Sum ``self`` down to ``size``, which must broadcast to ``self``'s shape.

    Example:
        >>> gt.ones(2, 3).sum_to_size(1, 3).tolist()
        [[2.0, 2.0, 2.0]]
    """
    shape = normalize_shape(size, "sum_to_size")
    lead = self.ndim - len(shape)
    check(lead >= 0 and all(s in (1, n) for s, n in zip(shape, self.shape[lead:], strict=True)),
          "sum_to_size", lambda: f"size {shape} is not expandable to size {self.shape}",
          ShapeError)
    dims = list(range(lead)) + [lead + i for i, s in enumerate(shape)
                                if s == 1 and self.shape[lead + i] != 1]
    if not dims:
        return self
    out = self.sum(dims, keepdim=True)  # type: ignore[attr-defined]
    return out.reshape(shape) if lead else out
