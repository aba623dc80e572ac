"""Advanced indexing (``x[idx]``, ``x[idx] = v``) on top of the offset gather/scatter kernels.

Every indexing op here and in ``index_ops.py``, ``scatter_gather.py`` and
``masking.py`` follows one plan: turn the index into a view ``V`` of the
source plus int64 index rows over some of ``V``'s dims; the ``index_offsets``
kernel checks the rows on the device and turns them into one element offset
per row; ``gather`` reads (or ``scatter`` writes) the remaining dims of ``V``
at each offset.

NumPy's rules: integer tensors, lists and boolean masks are advanced indices
(a ``k``-d mask stands for the ``k`` index rows of its ``nonzero``), and in
their presence plain ints count as advanced too. The advanced dims are
broadcast together; they replace the indexed dims in place when all advanced
indices are adjacent, else they come first. A 0-d integer tensor is an
advanced index of shape ``()``, as a 0-d NumPy array is: the result shapes are
those of a plain int, but the result is a copy (PyTorch reads the value on the
host and returns a view; reading device memory here would block).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import int64
from ..errors import check
from ..graph.grad_mode import no_grad
from ..graph.inplace import check_inplace
from ..graph.node import Node, needs_grad, record
from ..shape_rules import broadcast_shapes
from ..tensor_base import TensorBase, contiguous_strides, from_storage
from .creation import as_tensor, tensor, zeros
from .dispatch import launch
from .views import basic_index, expand_to

if TYPE_CHECKING:
    from ..tensor import Tensor


def storage_flat(t: Tensor) -> Any:
    """Return ``t``'s whole storage as a 1-D native array of ``t``'s dtype (no copy).

    Example:
        >>> storage_flat(gt.arange(6)[2:]).shape  # doctest: +SKIP
        (6,)
    """
    n = t._storage.nbytes // t.itemsize
    return from_storage(t._storage, (n,), (1,), 0, t.dtype)._native()


def int_rows(rows: list[Tensor], shape: tuple[int, ...], dev: Any) -> Tensor:
    """Stack int index tensors, broadcast to ``shape``, into a contiguous ``(k, n)`` int64 tensor.

    Example:
        >>> int_rows([gt.tensor([1, 2])], (2,), gt.device("cpu")).shape  # doctest: +SKIP
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
        >>> row_offsets([gt.tensor([1])], (1,), (3,), (4,), (0,), "take", dev)  # doctest: +SKIP
    """
    stacked = int_rows(rows, shape, dev)
    out = TensorBase.empty((stacked.shape[1],), int64, dev)
    launch("index_offsets", dev, (int64,), stacked._native(), tuple(sizes), tuple(strides),
           out._native(), opname=op, dims=tuple(dims), strict=strict)
    return out


def gather_rows(src: Tensor, offsets: Tensor, out_lead: Tensor) -> None:
    """``out_lead[b, ...] = src[...]`` shifted by ``offsets[b]`` elements.

    Example:
        >>> gather_rows(x[0], offs, out)  # doctest: +SKIP
    """
    launch("gather", src.device, (src.dtype,), storage_flat(src), src._offset, src.shape,
           src._strides, offsets._native(), out_lead._native())


def scatter_rows(dst: Tensor, offsets: Tensor, values_lead: Tensor, mode: str) -> None:
    """Combine ``values_lead[b, ...]`` into ``dst[...]`` shifted by ``offsets[b]`` elements.

    Example:
        >>> scatter_rows(x[0], offs, vals, "add")  # doctest: +SKIP
    """
    launch("scatter", dst.device, (dst.dtype, values_lead.dtype), storage_flat(dst), dst._offset,
           dst.shape, dst._strides, offsets._native(), values_lead._native(), mode)


def as_index_tensor(item: Any, dev: Any, op: str) -> Tensor:
    """Convert a list, NumPy array or tensor used as an index to an int or bool tensor on ``dev``.

    Example:
        >>> as_index_tensor([0, 2], gt.device("cpu"), "getitem").dtype  # doctest: +SKIP
        gtensor.int64
    """
    if not isinstance(item, TensorBase):
        arr = np.asarray(item)
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
        >>> mask_rows(gt.tensor([True, False, True]), "getitem")[0].tolist()  # doctest: +SKIP
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
    """Tensors (0-d ones too: reading one on the host would block), lists, arrays, bools."""
    return isinstance(item, (TensorBase, list, tuple, np.ndarray, bool, np.bool_))


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
        >>> plan_index(x, ([0, 1], slice(None)), "getitem").shape  # doctest: +SKIP
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
        >>> split_index((slice(None), idx))[1] == (idx,)  # doctest: +SKIP
        True
    """
    template = tuple(_SLOT if isinstance(i, TensorBase) else i for i in items)
    return template, tuple(i for i in items if isinstance(i, TensorBase))


def join_index(template: tuple[Any, ...], tensors: tuple[Any, ...]) -> tuple[Any, ...]:
    """Inverse of :func:`split_index`."""
    it = iter(tensors)
    return tuple(next(it) if i is _SLOT else i for i in template)


def _gather_plan(self: Tensor, plan: IndexPlan) -> Tensor:
    out = TensorBase.empty(plan.shape, self.dtype, self.device)
    if out.numel():
        gather_rows(plan.rest, plan.offsets, plan.lead(out))
    return out


def _index_vjp(ctx: Node, g: Tensor) -> Tensor:
    items = join_index(ctx.template, ctx.saved_tensors)
    return index_put(zeros(ctx.in_shape, dtype=g.dtype, device=g.device), items, g,
                     accumulate=True)


def advanced_getitem(self: Tensor, plan: IndexPlan) -> Tensor:
    """Materialize ``self[index]`` for an advanced index plan (a new contiguous tensor).

    Differentiable: the gradient is accumulated back at the same positions
    (repeated indices add up).

    Example:
        >>> advanced_getitem(x, plan_index(x, [0, 0], "getitem"))  # doctest: +SKIP
    """
    out = _gather_plan(self, plan)
    if needs_grad(self):
        template, tensors = split_index(plan.items)
        record("index", out, (self,), _index_vjp, save=tensors, template=template,
               in_shape=self.shape)
    return out


def _values_for(self: Tensor, value: Any, shape: tuple[int, ...], op: str) -> Any:
    """``value`` as a tensor of ``self``'s dtype and device that broadcasts to ``shape``."""
    v = value if isinstance(value, TensorBase) else as_tensor(value, dtype=self.dtype,
                                                          device=self.device)
    if v.dtype is not self.dtype or v.device != self.device:
        v = v.to(self.device, self.dtype)
    broadcast_shapes(v.shape, shape, op=op)
    check(v.ndim <= len(shape) or all(n == 1 for n in v.shape[:v.ndim - len(shape)]), op,
          lambda: f"shape mismatch: value of shape {v.shape} cannot be broadcast to {shape}",
          IndexError)
    return v.reshape(v.shape[v.ndim - len(shape):]) if v.ndim > len(shape) else v


def write_plan(self: Tensor, plan: IndexPlan, v: Tensor, mode: str) -> None:
    """Combine ``v`` (broadcastable to ``plan.shape``) into ``self`` at ``plan``; no recording."""
    shape = plan.shape
    if math.prod(shape):
        scatter_rows(plan.rest, plan.offsets, plan.lead(expand_to(v, shape, "setitem")), mode)
    self._bump_version()


def _index_put_vjp(ctx: Node, g: Tensor) -> tuple[Tensor | None, Tensor | None]:
    items = join_index(ctx.template, ctx.saved_tensors)
    grad_self = grad_values = None
    if ctx.needs_input_grad[0]:
        grad_self = g if ctx.accumulate else index_put(g, items, 0.0)
    if ctx.needs_input_grad[1]:
        grad_values = g[items]
    return grad_self, grad_values


def index_put(self: Tensor, indices: Any, values: Any, accumulate: bool = False) -> Tensor:
    """Out-of-place ``x[indices] = values`` (``+=`` with ``accumulate``, repeats adding up).

    Differentiable in ``self`` (zero gradient at overwritten positions) and in
    ``values`` (the gradient read back at ``indices``).

    Args:
        indices: an advanced index, as for ``x[indices]``.
        values: a tensor or number broadcastable to ``x[indices]``'s shape.
        accumulate: add into the existing values instead of overwriting.

    Example:
        >>> gt.zeros(3).index_put((gt.tensor([0, 0]),), gt.ones(2), True).tolist()
        [2.0, 0.0, 0.0]
    """
    return put_index(self, indices, values, accumulate, "index_put")


def put_index(self: Tensor, indices: Any, values: Any, accumulate: bool, op: str) -> Tensor:
    """:meth:`index_put` with the op name used in errors (``setitem`` for ``x[i] = v``)."""
    items = indices if isinstance(indices, tuple) else (indices,)
    with no_grad():
        out = self.clone()
        plan = plan_index(out, items, op)
    check(plan is not None, op, "expected an advanced index (tensors, lists or masks)",
          IndexError)
    assert plan is not None
    v = _values_for(self, values, plan.shape, op)
    with no_grad():
        write_plan(out, plan, v, "add" if accumulate else "copy")
    if needs_grad(self, v):
        template, tensors = split_index(plan.items)
        record("index_put", out, (self, v), _index_put_vjp, save=tensors, template=template,
               accumulate=accumulate)
    return out


def index_put_(self: Tensor, indices: Any, values: Any, accumulate: bool = False) -> Tensor:
    """In-place :func:`index_put` (differentiable on non-leaf tensors).

    Example:
        >>> gt.zeros(3).index_put_((gt.tensor([1]),), gt.tensor(5.0)).tolist()
        [0.0, 5.0, 0.0]
    """
    items = indices if isinstance(indices, tuple) else (indices,)
    self._check_writable("index_put_")
    if needs_grad(self, values):
        check_inplace(self, "index_put_")
        return self.copy_(index_put(self, items, values, accumulate))
    plan = plan_index(self, items, "index_put_")
    check(plan is not None, "index_put_", "expected an advanced index (tensors, lists or "
          "masks)", IndexError)
    assert plan is not None
    write_plan(self, plan, _values_for(self, values, plan.shape, "index_put_"),
               "add" if accumulate else "copy")
    return self


def advanced_setitem(self: Tensor, plan: IndexPlan, value: Any) -> None:
    """Write ``value`` (broadcast to the indexed shape) at an advanced index; bumps the version.

    With repeated indices one of the writes wins (the last one on the cpu).
    When recording, the write becomes ``self.copy_(index_put(self, index, value))``,
    so both the overwritten tensor and ``value`` get gradients.

    Example:
        >>> advanced_setitem(x, plan_index(x, [0, 2], "setitem"), 1.0)  # doctest: +SKIP
    """
    if needs_grad(self, value):
        check_inplace(self, "setitem")
        self.copy_(put_index(self, plan.items, value, False, "setitem"))
        return
    write_plan(self, plan, _values_for(self, value, plan.shape, "setitem"), "copy")


def getitem(self: Tensor, index: Any) -> Tensor:
    """NumPy-style indexing (``x[index]``): a view for basic indices, a copy for advanced ones.

    Example:
        >>> gt.arange(6).view(2, 3)[[1, 0], 1:].tolist()  # doctest: +SKIP
        [[4, 5], [1, 2]]
    """
    plan = plan_index(self, index, "getitem")
    return basic_index(self, index) if plan is None else advanced_getitem(self, plan)


def setitem(self: Tensor, index: Any, value: Any) -> None:
    """``x[index] = value``: write ``value`` (broadcast) into ``self[index]``; bumps the version."""
    self._check_writable("setitem")
    plan = plan_index(self, index, "setitem")
    if plan is None:
        basic_index(self, index).copy_(value)
    else:
        advanced_setitem(self, plan, value)


# Functional forms, exported as gt.<name> (PyTorch's torch.<name>).
EXPORTS = ("index_put",)
