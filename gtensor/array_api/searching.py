"""The array API's searching and sorting functions over gtensor's reductions and sorts.

Sorting is stable in every case (``stable=False`` allows what gtensor does
anyway), descending sorts keep equal elements in their order, and NaNs sort
last ascending and first descending. ``nonzero`` and ``searchsorted`` run
gtensor's kernels on the array's device; ``nonzero`` reads the count of
nonzero elements on the host to size its result (a data-dependent shape).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..dtypes import int64
from ..errors import ShapeError, check
from ..ops import elementwise as ew
from ..ops import reduction, sorting
from ..ops.indexing import along_dim, masked
from ..tensor_base import TensorBase
from .data_types import promoted, result_type
from .statistics import Axis, sum

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = [
    "argmax", "argmin", "argsort", "count_nonzero", "nonzero", "searchsorted", "sort", "where",
]


def argmax(x: Tensor, /, *, axis: int | None = None, keepdims: bool = False) -> Tensor:
    """The index of the first maximum along ``axis`` (of the flattened array when None).

    Example:
        >>> argmax(gt.tensor([[1, 7], [9, 2]]), axis=1).tolist()
        [1, 0]
    """
    return reduction.argmax(x, axis, keepdims)


def argmin(x: Tensor, /, *, axis: int | None = None, keepdims: bool = False) -> Tensor:
    """The index of the first minimum along ``axis`` (of the flattened array when None)."""
    return reduction.argmin(x, axis, keepdims)


def count_nonzero(x: Tensor, /, *, axis: Axis = None, keepdims: bool = False) -> Tensor:
    """How many elements along ``axis`` are not zero (int64).

    Example:
        >>> count_nonzero(gt.tensor([[0, 1], [2, 3]]), axis=0).tolist()
        [1, 2]
    """
    return sum(ew.ne(x, 0), axis=axis, dtype=int64, keepdims=keepdims)


def nonzero(x: Tensor, /) -> tuple[Tensor, ...]:
    """One int64 array of indices per axis, of the nonzero elements in row-major order.

    Example:
        >>> [t.tolist() for t in nonzero(gt.tensor([[0, 1], [2, 0]]))]
        [[0, 1], [1, 0]]
    """
    check(x.ndim > 0, "nonzero", "a 0-d array has no indices; reshape it to 1-d first",
          ShapeError)
    return masked.nonzero(x, as_tuple=True)  # type: ignore[return-value]


def searchsorted(x1: Tensor, x2: Any, /, *, side: str = "left",
                 sorter: Tensor | None = None) -> Tensor:
    """Where each value of ``x2`` would go in the sorted 1-D ``x1`` (or ``x1[sorter]``).

    Args:
        side: ``"left"``: before equal entries; ``"right"``: after them.
        sorter: indices that sort ``x1``.

    Example:
        >>> searchsorted(gt.tensor([1, 3, 5]), gt.tensor([3, 6]), side="right").tolist()
        [2, 3]
    """
    check(x1.ndim == 1, "searchsorted", lambda: f"expected a 1-d x1, got shape {x1.shape}",
          ShapeError)
    seq = x1 if sorter is None else along_dim.index_select(x1, 0, sorter)
    dt = result_type(seq, x2)
    if seq.dtype is not dt:
        seq = seq.to(dt)
    values = x2.to(dt) if isinstance(x2, TensorBase) and x2.dtype is not dt else x2
    return sorting.searchsorted(seq, values, side=side)


def where(condition: Tensor, x1: Any, x2: Any, /) -> Tensor:
    """``x1`` where ``condition`` is true, else ``x2`` (broadcast; the standard's promotion).

    Example:
        >>> where(gt.tensor([True, False]), gt.tensor([1, 2]), 0).tolist()
        [1, 0]
    """
    return ew.where(condition, *promoted(x1, x2))


def sort(x: Tensor, /, *, axis: int = -1, descending: bool = False, stable: bool = True
         ) -> Tensor:
    """``x`` sorted along ``axis`` (always stably).

    Example:
        >>> sort(gt.tensor([3, 1, 2]), descending=True).tolist()
        [3, 2, 1]
    """
    return sorting.sort(x, axis, descending).values


def argsort(x: Tensor, /, *, axis: int = -1, descending: bool = False, stable: bool = True
            ) -> Tensor:
    """The indices that sort ``x`` along ``axis``; equal elements keep their order.

    Example:
        >>> argsort(gt.tensor([1, 2, 1]), descending=True).tolist()
        [1, 0, 2]
    """
    return sorting.argsort(x, axis, descending)
