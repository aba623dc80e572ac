"""``index_reduce``: reduce slices of ``source`` into ``self`` at ``index`` along ``dim``
(``prod``, ``mean``, ``amax``, ``amin``), as :func:`scatter_reduce` with ``index``
broadcast across the other dims, so it shares that op's kernels and gradients."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...errors import DTypeError, ShapeError, check
from ...graph.inplace import differentiable_inplace
from ...shape_rules import wrap_dim
from .rows import int_index
from .scatter_reduce import scatter_reduce, scatter_reduce_

if TYPE_CHECKING:
    from ...tensor import Tensor

_REDUCTIONS = ("prod", "mean", "amax", "amin")


def _full_index(op: str, self: Tensor, dim: int, index: Any, source: Tensor,
                reduce: str) -> tuple[int, Tensor]:
    check(reduce in _REDUCTIONS, op, lambda: f"reduce must be one of {list(_REDUCTIONS)}, "
          f"got {reduce!r}", ValueError)
    check(source.dtype is self.dtype, op, lambda: f"self and source must have the same dtype, "
          f"got {self.dtype.name} and {source.dtype.name}", DTypeError)
    d = wrap_dim(dim, self.ndim, op)
    idx = int_index(index, self.device, op)
    check(idx.ndim <= 1, op, lambda: f"index must be 1-D, got {idx.ndim} dims", ShapeError)
    src_shape = source.shape if source.ndim else (1,)
    check(source.ndim == self.ndim and idx.numel() == src_shape[d]
          and all(s == n for i, (s, n) in enumerate(zip(src_shape, self.shape, strict=True))
                  if i != d), op, lambda: f"source of shape {tuple(source.shape)} does not "
          f"match self of shape {tuple(self.shape)} with {idx.numel()} indices along dim {dim}",
          ShapeError)
    shape = [1] * self.ndim
    shape[d] = -1
    return d, idx.reshape(shape).expand(source.shape)  # type: ignore[attr-defined]


def index_reduce(self: Tensor, dim: int, index: Any, source: Tensor, reduce: str, *,
                 include_self: bool = True) -> Tensor:
    """Out-of-place :meth:`index_reduce_`.

    Example:
        >>> x = gt.ones(3)
        >>> x.index_reduce(0, gt.tensor([0, 0, 2]), gt.tensor([2.0, 3.0, 4.0]), "prod").tolist()
        [6.0, 1.0, 4.0]
    """
    d, idx = _full_index("index_reduce", self, dim, index, source, reduce)
    return scatter_reduce(self, d, idx, source, reduce, include_self=include_self)


@differentiable_inplace(index_reduce)
def index_reduce_(self: Tensor, dim: int, index: Any, source: Tensor, reduce: str, *,
                  include_self: bool = True) -> Tensor:
    """Reduce the slices of ``source`` into ``self`` at ``index`` along ``dim``, in place.

    Args:
        dim: the dim along which ``index`` picks slices of ``self``.
        index: 1-D integer indices, one per slice of ``source`` along ``dim``.
        source: the slices; the same shape as ``self`` except along ``dim``.
        reduce: ``"prod"``, ``"mean"``, ``"amax"`` or ``"amin"``.
        include_self: also reduce over the values already in ``self`` at the
            indexed slices.

    Example:
        >>> x = gt.zeros(2)
        >>> x.index_reduce_(0, gt.tensor([1, 1]), gt.tensor([2.0, 4.0]), "mean").tolist()
        [0.0, 2.0]
    """
    d, idx = _full_index("index_reduce_", self, dim, index, source, reduce)
    return scatter_reduce_(self, d, idx, source, reduce, include_self=include_self)
