"""Views with free-form strides and the dim moves PyTorch names: as_strided, unfold, movedim,
swapdims, ravel, broadcast_tensors, flipud, fliplr, empty_strided.

``as_strided`` and ``unfold`` share the storage (their elements may overlap);
their gradients add each output element's gradient at the storage position
it reads, with ``index_add``, so overlapping windows sum as in PyTorch.
``flipud``/``fliplr`` copy, as ``flip`` does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...device import DeviceLike
from ...errors import ShapeError, check
from ...graph.node import Node, needs_grad, record
from ...shape_rules import broadcast_shapes, normalize_shape, wrap_dim
from ...storage import Storage
from ...tensor_base import contiguous_strides, from_storage
from ..creation import arange, creation_args, finish_creation, zeros
from ..indexing.along_dim import index_add, take
from .copies import flip
from .views import expand_to, permute, reshape, tensor_list, transpose

if TYPE_CHECKING:
    from ...tensor import Tensor


def positions(shape: tuple[int, ...], strides: tuple[int, ...], offset: int,
              device: Any) -> Tensor:
    """The int64 element positions ``offset + sum(i_d * strides[d])`` for every index of
    ``shape``.

    Example:
        >>> positions((2, 2), (1, 2), 0, "cpu").tolist()
        [[0, 2], [1, 3]]
    """
    out = zeros(shape, dtype="int64", device=device) + offset
    for d, (n, s) in enumerate(zip(shape, strides, strict=True)):
        if n > 1 and s:
            step = arange(n, dtype="int64", device=device) * s
            out = out + step.reshape((n,) + (1,) * (len(shape) - d - 1))
    return out


def _gather_back_vjp(ctx: Node, g: Tensor) -> Tensor:
    """Sum each output gradient at the position it read; read the input's positions back."""
    acc = zeros(ctx.extent, dtype=g.dtype, device=g.device)
    acc = index_add(acc, 0, ctx.out_pos.reshape(-1), g.reshape(-1))
    return take(acc, ctx.in_pos)


def _check_extent(op: str, shape: tuple[int, ...], strides: tuple[int, ...], offset: int,
                  extent: int) -> None:
    check(all(s >= 0 for s in strides), op, lambda: f"negative strides are not supported, got "
          f"{strides}", ShapeError)
    check(offset >= 0, op, lambda: f"negative storage offset {offset}", ShapeError)
    if math.prod(shape):
        last = offset + sum((n - 1) * s for n, s in zip(shape, strides, strict=True))
        check(last < extent, op, lambda: f"size {shape}, stride {strides} and storage offset "
              f"{offset} are out of bounds for a storage of size {extent}", ShapeError)


def as_strided(input: Tensor, size: Sequence[int], stride: Sequence[int],
               storage_offset: int | None = None) -> Tensor:
    """A view of ``input``'s storage with the given size, strides and storage offset.

    Strides and the offset count elements of the whole storage, as in PyTorch
    (the offset defaults to ``input``'s own). Elements may overlap; the
    gradient sums over them.

    Args:
        input: the tensor whose storage is viewed.
        size: the view's shape.
        stride: the step, in elements, of each dim.
        storage_offset: the first element's position in the storage.

    Returns:
        A view sharing ``input``'s storage.

    Example:
        >>> gt.arange(6).as_strided((2, 2), (1, 2)).tolist()
        [[0, 2], [1, 3]]
    """
    size, stride = normalize_shape((size,), "as_strided"), tuple(int(s) for s in stride)
    check(len(size) == len(stride), "as_strided", lambda: f"mismatch in length of strides and "
          f"shape: {len(stride)} strides for {len(size)} dims", ShapeError)
    offset = input._offset if storage_offset is None else int(storage_offset)
    extent = input._storage.nbytes // input.itemsize
    _check_extent("as_strided", size, stride, offset, extent)
    out = input._make_view(size, stride, offset)
    if needs_grad(input):
        record("as_strided", out, (input,), _gather_back_vjp, extent=extent,
               out_pos=positions(size, stride, offset, input.device),
               in_pos=positions(input.shape, input._strides, input._offset, input.device))
    return out


def unfold(self: Tensor, dimension: int, size: int, step: int) -> Tensor:
    """A view of every slice of length ``size`` along ``dimension``, ``step`` apart.

    The windows replace ``dimension`` (one entry each) and their elements form
    a new last dim of length ``size``; windows may overlap.

    Example:
        >>> gt.arange(5).unfold(0, 2, 2).tolist()
        [[0, 1], [2, 3]]
    """
    shape, strides = (self.shape, self._strides) if self.ndim else ((1,), (1,))
    d = wrap_dim(dimension, len(shape), "unfold")
    check(0 <= size <= shape[d], "unfold", lambda: f"maximum size for tensor at dimension {d} "
          f"is {shape[d]} but size is {size}", ShapeError)
    check(step > 0, "unfold", lambda: f"step is {step} but must be > 0", ValueError)
    windows = (shape[d] - size) // step + 1
    new_shape = shape[:d] + (windows,) + shape[d + 1:] + (size,)
    new_strides = strides[:d] + (strides[d] * step,) + strides[d + 1:] + (strides[d],)
    if not self.ndim:
        new_shape, new_strides = (size,), (1,)
    out = self._make_view(new_shape, new_strides, self._offset)
    if needs_grad(self):
        own = contiguous_strides(shape)
        own_new = own[:d] + (own[d] * step,) + own[d + 1:] + (own[d],)
        record("unfold", out, (self,), _gather_back_vjp, extent=max(1, self.numel()),
               out_pos=positions(new_shape, own_new if self.ndim else (1,), 0, self.device),
               in_pos=positions(self.shape, contiguous_strides(self.shape), 0, self.device))
    return out


def movedim(input: Tensor, source: int | Sequence[int], destination: int | Sequence[int]
            ) -> Tensor:
    """A view with the dims ``source`` moved to ``destination``, the others kept in order.

    Example:
        >>> gt.zeros(2, 3, 4).movedim(0, -1).shape
        (3, 4, 2)
    """
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    check(len(src) == len(dst), "movedim", lambda: f"Invalid source or destination dims: "
          f"source ({src} dims) should contain the same number of dims as destination "
          f"({dst} dims)", ShapeError)
    src = [wrap_dim(d, input.ndim, "movedim") for d in src]
    dst = [wrap_dim(d, input.ndim, "movedim") for d in dst]
    check(len(set(src)) == len(src) and len(set(dst)) == len(dst), "movedim",
          lambda: f"repeated dim in source {src} or destination {dst}", ShapeError)
    if not input.ndim:  # dims 0 and -1 of a 0-d tensor: nothing moves
        return permute(input, ())
    order = [-1] * input.ndim
    for s, t in zip(src, dst, strict=True):
        order[t] = s
    rest = iter(d for d in range(input.ndim) if d not in src)
    order = [next(rest) if o == -1 else o for o in order]
    return permute(input, order)


def swapdims(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """A view with dims ``dim0`` and ``dim1`` swapped (:func:`transpose`)."""
    return transpose(input, dim0, dim1)


def ravel(input: Tensor) -> Tensor:
    """The elements as one dim: a view when the layout allows, else a copy.

    Example:
        >>> gt.ones(2, 3).ravel().shape
        (6,)
    """
    return reshape(input, -1)


def broadcast_tensors(*tensors: Tensor) -> tuple[Tensor, ...]:
    """Each tensor as a view broadcast to their common shape.

    Example:
        >>> [t.shape for t in gt.broadcast_tensors(gt.ones(2, 1), gt.ones(3))]
        [(2, 3), (2, 3)]
    """
    ts = tensor_list(tensors, "broadcast_tensors")
    shape = broadcast_shapes(*(t.shape for t in ts), op="broadcast_tensors")
    return tuple(expand_to(t, shape, "broadcast_tensors") for t in ts)


def flipud(input: Tensor) -> Tensor:
    """``input`` with its first dim reversed (a copy, as ``flip``).

    Example:
        >>> gt.tensor([[1, 2], [3, 4]]).flipud().tolist()
        [[3, 4], [1, 2]]
    """
    check(input.ndim >= 1, "flipud", "input must be >= 1-d", ShapeError)
    return flip(input, 0)


def fliplr(input: Tensor) -> Tensor:
    """``input`` with its second dim reversed (a copy, as ``flip``).

    Example:
        >>> gt.tensor([[1, 2], [3, 4]]).fliplr().tolist()
        [[2, 1], [4, 3]]
    """
    check(input.ndim >= 2, "fliplr", "input must be >= 2-d", ShapeError)
    return flip(input, 1)


def empty_strided(size: Sequence[int], stride: Sequence[int], *, dtype: Any = None,
                  device: DeviceLike | None = None, requires_grad: bool = False) -> Tensor:
    """An uninitialised tensor with the given size and strides, over just enough storage.

    Example:
        >>> gt.empty_strided((2, 3), (1, 2)).stride()
        (1, 2)
    """
    size, dt, dev = creation_args((size,), dtype, device, "empty_strided")
    stride = tuple(int(s) for s in stride)
    check(len(size) == len(stride), "empty_strided", lambda: f"mismatch in length of strides "
          f"and shape: {len(stride)} strides for {len(size)} dims", ShapeError)
    check(all(s >= 0 for s in stride), "empty_strided", lambda: f"negative strides are not "
          f"supported, got {stride}", ShapeError)
    extent = 0 if not math.prod(size) else 1 + sum(
        (n - 1) * s for n, s in zip(size, stride, strict=True))
    storage = Storage.allocate(extent * dt.itemsize, dev)
    return finish_creation(from_storage(storage, size, stride, 0, dt), requires_grad)


moveaxis = movedim
