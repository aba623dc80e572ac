"""NumPy-style stacking and splitting: hstack, vstack (row_stack), dstack, column_stack,
tensor_split, hsplit, vsplit, dsplit.

Stacks are ``cat`` of views with enough dims; splits are ``narrow`` views, so
both differentiate through the ops they are made of.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...errors import ShapeError, check
from ...shape_rules import wrap_dim
from ...tensor_base import TensorBase
from ..arrangement import atleast_1d, atleast_2d, atleast_3d
from .copies import cat
from .views import narrow, tensor_list

if TYPE_CHECKING:
    from ...tensor import Tensor


def _at_least(tensors: Sequence[Tensor], ndim: int, op: str) -> list[Tensor]:
    viewed = (atleast_1d, atleast_2d, atleast_3d)[ndim - 1]
    return list(viewed(tensor_list(tensors, op)))


def hstack(tensors: Sequence[Tensor]) -> Tensor:
    """Concatenate along dim 1 (dim 0 for 1-D tensors).

    Example:
        >>> gt.hstack([gt.ones(2), gt.zeros(1)]).tolist()
        [1.0, 1.0, 0.0]
    """
    ts = _at_least(tensors, 1, "hstack")
    return cat(ts, 0 if ts[0].ndim == 1 else 1)


def vstack(tensors: Sequence[Tensor]) -> Tensor:
    """Concatenate along dim 0, 1-D tensors as rows.

    Example:
        >>> gt.vstack([gt.ones(2), gt.zeros(2)]).shape
        (2, 2)
    """
    return cat(_at_least(tensors, 2, "vstack"), 0)


def dstack(tensors: Sequence[Tensor]) -> Tensor:
    """Concatenate along dim 2, each tensor viewed with at least 3 dims.

    Example:
        >>> gt.dstack([gt.ones(2), gt.zeros(2)]).shape
        (1, 2, 2)
    """
    return cat(_at_least(tensors, 3, "dstack"), 2)


def column_stack(tensors: Sequence[Tensor]) -> Tensor:
    """Concatenate along dim 1, 0-d and 1-D tensors as columns.

    Example:
        >>> gt.column_stack([gt.ones(2), gt.zeros(2)]).tolist()
        [[1.0, 0.0], [1.0, 0.0]]
    """
    ts = [t.reshape(-1, 1) if t.ndim <= 1 else t for t in tensor_list(tensors, "column_stack")]
    return cat(ts, 1)


def _split_points(indices_or_sections: Any, n: int, op: str) -> list[int]:
    """The boundaries of the pieces (including 0 and ``n``)."""
    spec = indices_or_sections
    if isinstance(spec, TensorBase):
        check(spec.ndim <= 1 and not spec.dtype.is_floating_point, op, lambda: "expected a 0-d "
              f"or 1-D integer tensor for indices_or_sections, got {spec.ndim}-D {spec.dtype}",
              TypeError)
        spec = spec.tolist()
    if isinstance(spec, int):
        check(spec > 0, op, lambda: f"number of sections must be larger than 0, got {spec}",
              ValueError)
        size, extra = divmod(n, spec)
        points, at = [0], 0
        for i in range(spec):
            at += size + (i < extra)
            points.append(at)
        return points
    check(all(isinstance(i, int) for i in spec), op, "indices must be integers", TypeError)
    return [0, *(min(max(i + n if i < 0 else i, 0), n) for i in spec), n]


def tensor_split(input: Tensor, indices_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """Split into views along ``dim``: ``k`` near-equal pieces, or at the given indices.

    Args:
        input: the tensor to split.
        indices_or_sections: a number of pieces (the first ``n % k`` one longer), or
            the indices to cut before (a list or an integer tensor).
        dim: the dim to split.

    Example:
        >>> [p.tolist() for p in gt.arange(5).tensor_split(2)]
        [[0, 1, 2], [3, 4]]
    """
    check(input.ndim >= 1, "tensor_split", "expected at least a 1-D tensor", ShapeError)
    d = wrap_dim(dim, input.ndim, "tensor_split")
    points = _split_points(indices_or_sections, input.shape[d], "tensor_split")
    bounds = zip(points[:-1], points[1:], strict=True)
    return tuple(narrow(input, d, a, max(b - a, 0)) for a, b in bounds)


def _np_split(op: str, input: Tensor, spec: Any, dim: int, min_ndim: int) -> tuple[Tensor, ...]:
    check(input.ndim >= min_ndim, op, lambda: f"requires a tensor with at least {min_ndim} dims, "
          f"got {input.ndim}", ShapeError)
    if isinstance(spec, int):
        n = input.shape[dim]
        check(spec != 0 and n % spec == 0, op, lambda: f"the size of dim {dim} ({n}) is not "
              f"divisible by the number of sections ({spec})", ShapeError)
    return tensor_split(input, spec, dim)


def hsplit(input: Tensor, indices_or_sections: Any) -> tuple[Tensor, ...]:
    """Split along dim 1 (dim 0 of a 1-D tensor); a number of pieces must divide the size.

    Example:
        >>> len(gt.ones(2, 4).hsplit(2))
        2
    """
    return _np_split("hsplit", input, indices_or_sections, 0 if input.ndim == 1 else 1, 1)


def vsplit(input: Tensor, indices_or_sections: Any) -> tuple[Tensor, ...]:
    """Split along dim 0 of a tensor with at least 2 dims.

    Example:
        >>> len(gt.ones(4, 2).vsplit([1]))
        2
    """
    return _np_split("vsplit", input, indices_or_sections, 0, 2)


def dsplit(input: Tensor, indices_or_sections: Any) -> tuple[Tensor, ...]:
    """Split along dim 2 of a tensor with at least 3 dims.

    Example:
        >>> len(gt.ones(1, 1, 4).dsplit(4))
        4
    """
    return _np_split("dsplit", input, indices_or_sections, 2, 3)


row_stack = vstack
