"""Ops that write values into a region of a tensor: select_scatter, slice_scatter,
diagonal_scatter, masked_scatter(_), put(_), fill_diagonal_, triu_, tril_.

The ``*_scatter`` ops copy ``input`` and write ``src`` through a view of the
copy, so autograd's in-place machinery gives both gradients (``input``'s is
zero in the written region, ``src``'s is read back from it). ``masked_scatter``
and ``put`` write through an advanced index (``index_put``); the in-place
forms follow :func:`~gtensor.graph.inplace.differentiable_inplace`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...dtypes import int64
from ...errors import DTypeError, ShapeError, check, check_same_device
from ...graph.inplace import differentiable_inplace
from ...shape_rules import broadcast_shapes, wrap_dim
from ...tensor_base import TensorBase
from ..creation import arange, as_tensor
from ..indexing.subscript import index_put_, put_index
from .copies import tril, triu
from .views import basic_index, diagonal, expand_to, select

if TYPE_CHECKING:
    from ...tensor import Tensor


def _scatter_into(op: str, input: Tensor, src: Tensor, region: Callable[[Tensor], Tensor]
                  ) -> Tensor:
    """A copy of ``input`` with ``region(copy)`` overwritten by ``src`` (same shape)."""
    check(isinstance(src, TensorBase), op, lambda: f"expected src to be a tensor, got "
          f"{type(src).__name__}", TypeError)
    check_same_device(op, input.device, src.device)
    out = input.clone()
    view = region(out)
    check(view.shape == src.shape, op, lambda: f"expected src to have a size equal to the "
          f"slice of self: src size {src.shape}, slice size {view.shape}", ShapeError)
    view.copy_(src)
    return out


def select_scatter(input: Tensor, src: Tensor, dim: int, index: int) -> Tensor:
    """A copy of ``input`` with ``input.select(dim, index)`` replaced by ``src``.

    Example:
        >>> gt.zeros(2, 2).select_scatter(gt.ones(2), 0, 1).tolist()
        [[0.0, 0.0], [1.0, 1.0]]
    """
    return _scatter_into("select_scatter", input, src, lambda t: select(t, dim, index))


def slice_scatter(input: Tensor, src: Tensor, dim: int = 0, start: int | None = None,
                  end: int | None = None, step: int = 1) -> Tensor:
    """A copy of ``input`` with the slice ``start:end:step`` along ``dim`` replaced by ``src``.

    Example:
        >>> gt.zeros(4).slice_scatter(gt.ones(2), start=2).tolist()
        [0.0, 0.0, 1.0, 1.0]
    """
    d = wrap_dim(dim, input.ndim, "slice_scatter")
    check(step > 0, "slice_scatter", lambda: f"slice step must be positive, got {step}",
          ValueError)
    index = (slice(None),) * d + (slice(start, end, step),)
    return _scatter_into("slice_scatter", input, src, lambda t: basic_index(t, index))


def diagonal_scatter(input: Tensor, src: Tensor, offset: int = 0, dim1: int = 0,
                     dim2: int = 1) -> Tensor:
    """A copy of ``input`` with ``input.diagonal(offset, dim1, dim2)`` replaced by ``src``.

    Example:
        >>> gt.zeros(2, 2).diagonal_scatter(gt.ones(2)).tolist()
        [[1.0, 0.0], [0.0, 1.0]]
    """
    return _scatter_into("diagonal_scatter", input, src,
                         lambda t: diagonal(t, offset, dim1, dim2))


def _masked_source(op: str, mask: Any, source: Any, shape: tuple[int, ...], dev: Any,
                   dtype: Any) -> tuple[Tensor, Tensor]:
    """The mask broadcast to ``shape`` and the leading ``source`` values it takes."""
    check(isinstance(mask, TensorBase) and mask.dtype.name == "bool", op,
          lambda: f"expected a bool mask tensor, got {getattr(mask, 'dtype', type(mask))}",
          TypeError)
    check(isinstance(source, TensorBase), op, lambda: f"expected source to be a tensor, got "
          f"{type(source).__name__}", TypeError)
    check_same_device(op, dev, mask.device, source.device)
    check(source.dtype is dtype, op, lambda: f"expected self and source to have the same "
          f"dtype, got {dtype.name} and {source.dtype.name}", DTypeError)
    mask = expand_to(mask, shape, op)
    k = int(mask.sum().item())
    check(source.numel() >= k, op, lambda: f"expected source to have at least as many "
          f"elements as ones in mask ({k}), got {source.numel()}", ShapeError)
    return mask, source.reshape(-1)[:k]


def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """A copy of ``input`` whose elements where ``mask`` is True take ``source``'s values,
    in row-major order.

    Example:
        >>> gt.zeros(3).masked_scatter(gt.tensor([True, False, True]),
        ...                            gt.tensor([1.0, 2.0])).tolist()
        [1.0, 0.0, 2.0]
    """
    shape = broadcast_shapes(input.shape, getattr(mask, "shape", ()), op="masked_scatter")
    mask, values = _masked_source("masked_scatter", mask, source, shape, input.device,
                                  input.dtype)
    base = expand_to(input, shape, "masked_scatter")
    return put_index(base, (mask,), values, False, "masked_scatter")


@differentiable_inplace(masked_scatter)
def masked_scatter_(self: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """In-place :func:`masked_scatter` (``mask`` broadcast to ``self``).

    Example:
        >>> gt.zeros(2).masked_scatter_(gt.tensor([False, True]), gt.ones(1)).tolist()
        [0.0, 1.0]
    """
    check(broadcast_shapes(self.shape, getattr(mask, "shape", ()), op="masked_scatter_")
          == self.shape, "masked_scatter_", lambda: f"mask of shape {mask.shape} does not "
          f"broadcast to {self.shape}", ShapeError)
    mask, values = _masked_source("masked_scatter_", mask, source, self.shape, self.device,
                                  self.dtype)
    return index_put_(self, (mask,), values)


def put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of ``input`` with ``source`` written at the flat (row-major) ``index``.

    Negative indices count from the end; with ``accumulate`` repeats add up.

    Example:
        >>> gt.zeros(2, 2).put(gt.tensor([3]), gt.tensor([5.0])).tolist()
        [[0.0, 0.0], [0.0, 5.0]]
    """
    check(isinstance(index, TensorBase) and index.dtype is int64, "put",
          lambda: f"expected an int64 index tensor, got {getattr(index, 'dtype', type(index))}",
          DTypeError)
    check(isinstance(source, TensorBase) and source.numel() == index.numel(), "put",
          lambda: f"source and index should have the same number of elements, got "
          f"{getattr(source, 'shape', source)} and {index.shape}", ShapeError)
    flat = put_index(input.reshape(-1), (index.reshape(-1),), source.reshape(-1), accumulate,
                     "put")
    return flat.reshape(input.shape)


@differentiable_inplace(put)
def put_(self: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """In-place :func:`put`.

    Example:
        >>> gt.zeros(3).put_(gt.tensor([-1]), gt.tensor([2.0])).tolist()
        [0.0, 0.0, 2.0]
    """
    return self.copy_(put(self, index, source, accumulate))


def fill_diagonal_(self: Tensor, fill_value: Any, wrap: bool = False) -> Tensor:
    """Fill the main diagonal (``[i, i, ..., i]``) with ``fill_value``, in place.

    A tall matrix with ``wrap`` restarts the diagonal every ``cols + 1`` rows, as NumPy does.

    Example:
        >>> gt.zeros(2, 3).fill_diagonal_(1.0).tolist()
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    """
    check(self.ndim >= 2, "fill_diagonal_", lambda: f"dimensions must larger than 1, got "
          f"{self.ndim}", ShapeError)
    check(self.ndim == 2 or len(set(self.shape)) == 1, "fill_diagonal_",
          lambda: f"all dimensions of input must be of equal length, got {self.shape}",
          ShapeError)
    rows, cols = self.shape[0], self.shape[1]
    if self.ndim == 2 and wrap and rows > cols + 1:
        flat = arange(0, rows * cols, cols + 1, dtype=int64, device=self.device)
        index: tuple[Tensor, ...] = (flat // cols, flat % cols)
    else:
        i = arange(min(self.shape), dtype=int64, device=self.device)
        index = (i,) * self.ndim
    value = fill_value if isinstance(fill_value, TensorBase) else as_tensor(
        fill_value, dtype=self.dtype, device=self.device)
    return index_put_(self, index, value)


@differentiable_inplace(triu)
def triu_(self: Tensor, diagonal: int = 0) -> Tensor:
    """In-place :func:`triu`.

    Example:
        >>> gt.ones(2, 2).triu_().tolist()
        [[1.0, 1.0], [0.0, 1.0]]
    """
    return self.copy_(triu(self, diagonal))


@differentiable_inplace(tril)
def tril_(self: Tensor, diagonal: int = 0) -> Tensor:
    """In-place :func:`tril`.

    Example:
        >>> gt.ones(2, 2).tril_().tolist()
        [[1.0, 0.0], [1.0, 1.0]]
    """
    return self.copy_(tril(self, diagonal))
