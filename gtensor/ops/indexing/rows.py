"""Index rows: the machinery every indexing op shares, from an index to element offsets.

An index becomes a view of the source plus int64 index rows over some of its
dims (:func:`plan_index`, :class:`IndexPlan`; a boolean mask stands for the
rows of its nonzero positions, :func:`mask_rows`); :func:`row_offsets` runs
the ``index_offsets`` kernel, which checks the rows on the device and turns
them into element offsets; :func:`gather_rows` and :func:`scatter_rows` run
the ``gather``/``scatter`` kernels at those offsets.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ...determinism import alert_not_deterministic
from ...dtypes import bfloat16, float32, int64
from ...errors import check
from ...shape_rules import broadcast_shapes
from ...tensor_base import TensorBase, contiguous_strides, from_storage
from .. import tracing
from ..creation import tensor, zeros
from ..dispatch import launch
from ..layout.views import basic_index, expand_to

if TYPE_CHECKING:
    from ...tensor import Tensor


def storage_flat(t: Tensor) -> Any:
    """Return ``t``'s whole storage as a 1-D native array of ``t``'s dtype (no copy).

    Example:
        >>> storage_flat(gt.arange(6)[2:]).shape
        (6,)
    """
    n = t._storage.nbytes // t.itemsize
    return from_storage(t._storage, (n,), (1,), 0, t.dtype)._native()


def int_rows(rows: list[Tensor], shape: tuple[int, ...], dev: Any) -> Tensor:
    """Stack int index tensors, broadcast to ``shape``, into a contiguous ``(k, n)`` int64 tensor.

    Example:
        >>> int_rows([gt.tensor([1, 2])], (2,), gt.device("cpu")).shape
        (1, 2)
    """
    n = math.prod(shape)
    out = TensorBase.empty((len(rows), n), int64, dev)
    for j, r in enumerate(rows):
        if n:
            row = out._make_view(shape, contiguous_strides(shape), j * n)
            row.copy_(expand_to(r, shape, "index"))
    return out


def row_offsets(rows: list[Tensor], shape: tuple[int, ...], sizes: tuple[int, ...],
                strides: tuple[int, ...], dims: tuple[int, ...], op: str, dev: Any,
                strict: bool = False) -> Tensor:
    """Return the ``(prod(shape),)`` int64 offsets ``sum(wrap(rows[j]) * strides[j])``.

    The ``index_offsets`` kernel checks the bounds: on the cpu it raises at
    once; on CUDA it records the error on the device, raised at the next
    synchronizing call.

    Args:
        rows: integer index tensors broadcastable to ``shape``.
        shape: the broadcast index shape.
        sizes, strides: size and stride of the dim each row indexes.
        dims: dim number each row indexes (for the error message).
        op: op name for errors.
        dev: the device.
        strict: negative indices are out of range instead of counting from the
            end (class indices, embedding rows).

    Raises:
        IndexError: ``[op] index 5 is out of bounds for dimension 0 with size 3``.

    Example:
        >>> rows = [gt.tensor([2, -3])]  # rows 2 and 0 of a (3, 2) tensor
        >>> row_offsets(rows, (2,), (3,), (2,), (0,), "take", gt.device("cpu")).tolist()
        [4, 0]
    """
    return tracing.library_call(
        "index_offsets", functools.partial(_row_offsets, shape=shape, sizes=tuple(sizes),
                                           strides=tuple(strides), dims=tuple(dims), op=op,
                                           dev=dev, strict=strict),
        tuple(rows), (math.prod(shape),), int64)


def _row_offsets(*rows: Tensor, shape: tuple[int, ...], sizes: tuple[int, ...],
                 strides: tuple[int, ...], dims: tuple[int, ...], op: str, dev: Any,
                 strict: bool) -> Tensor:
    """The library call of :func:`row_offsets`."""
    stacked = int_rows(list(rows), shape, dev)
    out = TensorBase.empty((stacked.shape[1],), int64, dev)
    launch("index_offsets", dev, (int64,), stacked._native(), sizes, strides, out._native(),
           opname=op, dims=dims, strict=strict)
    return out


def gather_rows(src: Tensor, offsets: Tensor, out_lead: Tensor) -> None:
    """``out_lead[b, ...] = src[...]`` shifted by ``offsets[b]`` elements.

    Example:
        >>> x, out = gt.arange(6).view(3, 2), gt.empty(2, 2, dtype=gt.int64)
        >>> gather_rows(x[0], gt.tensor([4, 0]), out)  # rows 2 and 0
        >>> out.tolist()
        [[4, 5], [0, 1]]
    """
    launch("gather", src.device, (src.dtype,), storage_flat(src), src._offset, src.shape,
           src._strides, offsets._native(), out_lead._native())


def scatter_rows(dst: Tensor, offsets: Tensor, values_lead: Tensor, mode: str) -> None:
    """Combine ``values_lead[b, ...]`` into ``dst[...]`` shifted by ``offsets[b]`` elements.

    Example:
        >>> x = gt.zeros(3, 2)
        >>> scatter_rows(x[0], gt.tensor([4, 4]), gt.ones(2, 2), "add")  # row 2, twice
        >>> x.tolist()
        [[0.0, 0.0], [0.0, 0.0], [2.0, 2.0]]
    """
    if mode == "add" and dst.device.type == "cuda" and dst.dtype.is_inexact:
        alert_not_deterministic("scatter_add", "adding floating point values at indices on "
                                "cuda (scatter_add_, index_add_, index_put_ with accumulate, "
                                "the gradients of gathers and indexing)")
    if dst.dtype is bfloat16 and dst.device.type != "cpu" and (
            mode == "prod" or mode != "copy" and (dst._storage.nbytes | dst._storage.ptr) % 4):
        _combine_wide(dst, offsets, values_lead, mode)
        return
    launch("scatter", dst.device, (dst.dtype, values_lead.dtype), storage_flat(dst), dst._offset,
           dst.shape, dst._strides, offsets._native(), values_lead._native(), mode)


def _combine_wide(dst: Tensor, offsets: Tensor, values_lead: Tensor, mode: str) -> None:
    """:func:`scatter_rows` combining into bfloat16 on a GPU, through float32.

    For what the bfloat16 scatter kernel cannot combine in place (``prod``, and a
    storage that does not split into the aligned 32-bit words its
    compare-and-swap needs): the storage is widened to float32,
    combined there, and rounded back once.
    """
    n = dst._storage.nbytes // dst.itemsize
    whole = from_storage(dst._storage, (n,), (1,), 0, dst.dtype)
    wide = whole.to(float32)
    target = from_storage(wide._storage, dst.shape, dst._strides, dst._offset, float32)
    scatter_rows(target, offsets, values_lead.to(float32), mode)
    whole.copy_(wide)


def as_index_tensor(item: Any, dev: Any, op: str) -> Tensor:
    """Convert a list, range, NumPy array or tensor used as an index to an int or bool tensor.

    The result is on ``dev``. A ``range`` (also nested in a list) is an int64
    index tensor of its values, as in PyTorch.

    Example:
        >>> as_index_tensor([0, 2], gt.device("cpu"), "getitem").dtype
        gtensor.int64
    """
    if not isinstance(item, TensorBase):
        arr = np.arange(item.start, item.stop, item.step) if isinstance(item, range) else \
            np.asarray(item)
        if arr.size == 0 and arr.dtype.kind == "f":
            arr = arr.astype(np.int64)
        check(arr.dtype.kind in "biu", op, lambda: "tensors used as indices must be long, int, "
              f"byte or bool tensors, got {arr.dtype}", IndexError)
        item = tensor(arr, device=dev)
    check(item.dtype.name == "bool" or item.dtype.name.startswith(("int", "uint")), op,
          lambda: "tensors used as indices must be long, int, byte or bool tensors, got "
          f"{item.dtype.name}", IndexError)
    return item if item.device == dev else item.to(dev)


def int_index(index: Any, dev: Any, op: str) -> Tensor:
    """:func:`as_index_tensor` for ops that take integer indices only (bool masks raise)."""
    idx = as_index_tensor(index, dev, op)
    check(idx.dtype.name != "bool", op, "expected an integer index tensor, got bool", TypeError)
    return idx


def mask_rows(mask: Tensor, op: str) -> list[Tensor]:
    """Return the ``mask.ndim`` int64 index rows of ``mask``'s nonzero positions.

    Example:
        >>> mask_rows(gt.tensor([True, False, True]), "getitem")[0].tolist()
        [0, 2]
    """
    src = mask.contiguous() if mask.ndim else mask.reshape(1)
    native = src._native()
    count = launch("nonzero", mask.device, (mask.dtype,), native)
    coords = TensorBase.empty((count, src.ndim), int64, mask.device)
    if count:
        launch("nonzero", mask.device, (mask.dtype,), native, coords._native())
    return [coords.select(1, j) for j in range(mask.ndim)]


def _is_advanced(item: Any) -> bool:
    """Tensors (0-d ones too: reading one on the host would block), lists, ranges, arrays, bools."""
    return isinstance(item, (TensorBase, list, tuple, range, np.ndarray, bool, np.bool_))


@dataclass
class IndexPlan:
    """Where ``x[index]`` reads: a source view, rest dims and one offset per index row.

    ``items`` is the index in a replayable form (boolean masks replaced by
    their index rows), so the same positions can be planned again on another
    tensor of the same shape (a gradient, an out-of-place copy) without a
    second ``nonzero``.
    """

    rest: Tensor
    offsets: Tensor
    bshape: tuple[int, ...]
    n_pre: int
    items: tuple[Any, ...]

    @property
    def shape(self) -> tuple[int, ...]:
        """Shape of ``x[index]``."""
        r = self.rest.shape
        return r[:self.n_pre] + self.bshape + r[self.n_pre:]

    def lead(self, t: Tensor) -> Tensor:
        """View a tensor shaped like the result as ``(n_rows, *rest)`` (reshape may copy)."""
        r = self.rest.shape
        n = math.prod(self.bshape)
        flat = t.reshape(r[:self.n_pre] + (n,) + r[self.n_pre:])
        order = [self.n_pre, *range(self.n_pre), *range(self.n_pre + 1, flat.ndim)]
        return flat.permute(order)


def _expand_items(self: Tensor, items: tuple[Any, ...], op: str) -> list[Any]:
    dev = self.device
    out: list[Any] = []
    for item in items:
        if _is_advanced(item):
            out.append(as_index_tensor(item, dev, op))
        else:
            out.append(item)
    n_ell = sum(i is Ellipsis for i in out)
    check(n_ell <= 1, op, "an index can only have a single ellipsis ('...')", IndexError)
    used = sum(i.ndim if isinstance(i, TensorBase) and i.dtype.name == "bool" else
               0 if i is None or i is Ellipsis else 1 for i in out)
    check(used <= self.ndim, op, lambda: f"too many indices for tensor of dimension {self.ndim}",
          IndexError)
    fill = [slice(None)] * (self.ndim - used)
    if n_ell:
        pos = out.index(Ellipsis)
        return out[:pos] + fill + out[pos + 1:]
    return out + fill


def plan_index(self: Tensor, index: Any, op: str) -> IndexPlan | None:
    """Plan ``self[index]``; None when the index is basic (a view answers it).

    Example:
        >>> x = gt.zeros(3, 2)
        >>> plan_index(x, ([0, 1, 1], slice(None)), "getitem").shape
        (3, 2)
        >>> plan_index(x, (slice(None), 0), "getitem") is None
        True
    """
    items = index if isinstance(index, tuple) else (index,)
    if not any(_is_advanced(i) for i in items):
        return None
    basic: list[Any] = []
    adv: list[tuple[int, Tensor, int]] = []  # (position in V, index row, source dim)
    canon: list[Any] = []
    d = 0
    for item in _expand_items(self, items, op):
        pos = len(basic)
        if isinstance(item, TensorBase) and item.dtype.name == "bool":
            for j, n in enumerate(item.shape):
                check(d + j < self.ndim and self.shape[d + j] == n, op, lambda: "boolean index "
                      f"did not match indexed tensor along dimension {d + j}; dimension is "
                      f"{self.shape[d + j]} but corresponding boolean dimension is {n}",
                      IndexError)
            if item.ndim == 0:
                canon.append(item)
                basic.append(None)
                adv.append((pos, zeros(int(bool(item.item())), dtype=int64,
                                       device=self.device), -1))
                continue
            for j, row in enumerate(mask_rows(item, op)):
                canon.append(row)
                basic.append(slice(None))
                adv.append((pos + j, row, d + j))
            d += item.ndim
        elif isinstance(item, TensorBase) or (isinstance(item, int) and not isinstance(item, bool)):
            canon.append(item)
            if not isinstance(item, TensorBase):
                n = self.shape[d]
                check(-n <= item < n, op, lambda: f"index {item} is out of bounds for dimension "
                      f"{d} with size {n}", IndexError)
                item = tensor(item, dtype=int64, device=self.device)
            basic.append(slice(None))
            adv.append((pos, item, d))
            d += 1
        else:
            canon.append(item)
            basic.append(item)
            d += item is not None
    view = basic_index(self, tuple(basic))
    positions = [p for p, _, _ in adv]
    bshape = broadcast_shapes(*(r.shape for _, r, _ in adv), op=op)
    offsets = row_offsets([r for _, r, _ in adv], bshape, tuple(view.shape[p] for p in positions),
                          tuple(view._strides[p] for p in positions),
                          tuple(dim for _, _, dim in adv), op, self.device)
    keep = [i for i in range(view.ndim) if i not in set(positions)]
    rest = view._make_view(tuple(view.shape[i] for i in keep),
                           tuple(view._strides[i] for i in keep), view._offset)
    adjacent = positions == list(range(positions[0], positions[0] + len(positions)))
    return IndexPlan(rest, offsets, bshape, positions[0] if adjacent else 0, tuple(canon))


class _Slot:
    """Placeholder for an index tensor inside a saved index template."""

    __slots__ = ()


_SLOT = _Slot()


def split_index(items: tuple[Any, ...]) -> tuple[tuple[Any, ...], tuple[Tensor, ...]]:
    """Split an index into a template (tensors replaced by a slot) and its tensors (to save).

    Example:
        >>> idx = gt.tensor([1])
        >>> split_index((slice(None), idx))[1] == (idx,)
        True
    """
    template = tuple(_SLOT if isinstance(i, TensorBase) else i for i in items)
    return template, tuple(i for i in items if isinstance(i, TensorBase))


def join_index(template: tuple[Any, ...], tensors: tuple[Any, ...]) -> tuple[Any, ...]:
    """Inverse of :func:`split_index`."""
    it = iter(tensors)
    return tuple(next(it) if i is _SLOT else i for i in template)
