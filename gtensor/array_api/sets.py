"""The array API's set functions (``unique_*``) over gtensor's sort-based ``unique``.

The values come sorted; every NaN is a distinct value (sorted last) and
``-0.0`` equals ``0.0``. ``unique_all``'s first-occurrence indices are the
smallest flat index in each value's group (an ``amin`` scatter of the
positions over the inverse indices, on the array's device).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..dtypes import int64
from ..ops import creation, sorting
from ..ops.indexing import scatter_reduce

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = [
    "UniqueAllResult", "UniqueCountsResult", "UniqueInverseResult", "unique_all",
    "unique_counts", "unique_inverse", "unique_values",
]


class UniqueAllResult(NamedTuple):
    """``unique_all``'s values, first indices, inverse indices (``x``'s shape) and counts."""

    values: Tensor
    indices: Tensor
    inverse_indices: Tensor
    counts: Tensor


class UniqueCountsResult(NamedTuple):
    """``unique_counts``'s values and counts."""

    values: Tensor
    counts: Tensor


class UniqueInverseResult(NamedTuple):
    """``unique_inverse``'s values and inverse indices (``x``'s shape)."""

    values: Tensor
    inverse_indices: Tensor


def unique_all(x: Tensor, /) -> UniqueAllResult:
    """The distinct values of ``x``, where each first occurs, each element's value, and counts.

    Example:
        >>> unique_all(gt.tensor([3, 1, 3])).indices.tolist()
        [1, 0]
    """
    values, inverse, counts = sorting.unique(x, return_inverse=True, return_counts=True)
    n = x.numel()
    first = creation.full((values.shape[0],), n, dtype=int64, device=x.device)
    positions = creation.arange(n, dtype=int64, device=x.device)
    first = scatter_reduce.scatter_reduce(first, 0, inverse.reshape(-1), positions, "amin")
    return UniqueAllResult(values, first, inverse, counts)


def unique_counts(x: Tensor, /) -> UniqueCountsResult:
    """The distinct values of ``x`` and how often each occurs.

    Example:
        >>> unique_counts(gt.tensor([3, 1, 3])).counts.tolist()
        [1, 2]
    """
    values, counts = sorting.unique(x, return_counts=True)
    return UniqueCountsResult(values, counts)


def unique_inverse(x: Tensor, /) -> UniqueInverseResult:
    """The distinct values of ``x`` and, for each element, the index of its value.

    Example:
        >>> unique_inverse(gt.tensor([[3, 1], [1, 3]])).inverse_indices.tolist()
        [[1, 0], [0, 1]]
    """
    values, inverse = sorting.unique(x, return_inverse=True)
    return UniqueInverseResult(values, inverse)


def unique_values(x: Tensor, /) -> Tensor:
    """The distinct values of ``x``, sorted (a 1-d array).

    Example:
        >>> unique_values(gt.tensor([[3, 1], [1, 3]])).tolist()
        [1, 3]
    """
    return sorting.unique(x)
