"""Views: new shape/strides/offset over the same storage, never a copy.

``reshape`` is the one exception: it copies only when no view can express the
result, exactly as in PyTorch. Besides the reshapes, permutations, expands and
basic indexing, ``split``/``chunk`` (narrow views), ``meshgrid`` (expanded
views) and ``diagonal`` live here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ...dtypes import as_dtype, dtype
from ...errors import ShapeError, check, check_same_device
from ...graph.node import Node, record
from ...shape_rules import (
    broadcast_shapes,
    keyword_sizes,
    normalize_shape,
    wrap_dim,
    wrap_sized_dim,
)
from ...tensor_base import TensorBase, contiguous_strides, from_storage
from ..copy import broadcast_view, clone
from ..creation import zeros

if TYPE_CHECKING:
    from ...tensor import Tensor


def _reshape_vjp(ctx: Node, g: Tensor) -> Tensor:
    return g.reshape(ctx.in_shape)


def _permute_vjp(ctx: Node, g: Tensor) -> Tensor:
    return permute(g, ctx.inverse)


def _broadcast_vjp(ctx: Node, g: Tensor) -> Tensor:
    return g  # the engine sums broadcast dims back to the input's shape


def _reindex_vjp(ctx: Node, g: Tensor) -> Tensor:
    z = zeros(ctx.in_shape, dtype=g.dtype, device=g.device)
    ctx.reindex(z).copy_(g)
    return z


def _reshaped(out: Tensor, src: Tensor, name: str) -> Tensor:
    record(name, out, (src,), _reshape_vjp, in_shape=src.shape)
    return out


def _reindexed(out: Tensor, src: Tensor, name: str, reindex: Any) -> Tensor:
    record(name, out, (src,), _reindex_vjp, in_shape=src.shape, reindex=reindex)
    return out


def _infer_shape(shape: tuple[int, ...], numel: int, op: str) -> tuple[int, ...]:
    neg = [i for i, n in enumerate(shape) if n == -1]
    check(len(neg) <= 1, op, "only one dimension can be inferred", ShapeError)
    check(all(n >= -1 for n in shape), op, lambda: f"invalid shape dimension in {shape}",
          ShapeError)
    if neg:
        rest = math.prod(n for n in shape if n != -1)
        check(rest != 0 and numel % rest == 0, op,
              lambda: f"shape {shape} is invalid for input of size {numel}", ShapeError)
        shape = shape[:neg[0]] + (numel // rest,) + shape[neg[0] + 1:]
    check(math.prod(shape) == numel, op,
          lambda: f"shape {shape} is invalid for input of size {numel}", ShapeError)
    return shape


def _view_strides(old_shape: tuple[int, ...], old_strides: tuple[int, ...],
                  new_shape: tuple[int, ...]) -> tuple[int, ...] | None:
    """Strides that make ``new_shape`` a view of the old layout, or None (PyTorch's rule)."""
    if math.prod(old_shape) == 0 or not new_shape:
        return contiguous_strides(new_shape)
    if not old_shape:
        old_shape, old_strides = (1,), (1,)
    new_strides = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base = old_strides[-1]
    tensor_numel = view_numel = 1
    for d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[d]
        if d == 0 or (old_shape[d - 1] != 1 and old_strides[d - 1] != tensor_numel * chunk_base):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new_strides[view_d] = view_numel * chunk_base
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if d > 0:
                chunk_base = old_strides[d - 1]
                tensor_numel = view_numel = 1
    return tuple(new_strides) if view_d == -1 else None


def view(self: Tensor, *shape: Any, size: Any = None) -> Tensor:
    """Return a view with a new shape (one dim may be -1), or with a new dtype.

    ``view(dtype)`` reinterprets the bytes, as PyTorch does (see :func:`view_dtype`).
    A shape view raises if the layout forbids it.

    Example:
        >>> gt.arange(6).view(2, -1).shape
        (2, 3)
    """
    if size is not None:
        shape = keyword_sizes(shape, size, "size", "view")
    if len(shape) == 1 and isinstance(shape[0], (dtype, str, np.dtype, type)):
        return view_dtype(self, as_dtype(shape[0]))
    new_shape = _infer_shape(normalize_shape(shape, "view"), self.numel(), "view")
    strides = _view_strides(self.shape, self._strides, new_shape)
    check(strides is not None, "view", lambda: f"view size {new_shape} is not compatible with "
          f"input tensor's size {self.shape} and stride {self._strides}; use .reshape(...)",
          ShapeError)
    return _reshaped(self._make_view(new_shape, strides, self._offset), self,  # type: ignore[arg-type]
                     "view")


def view_dtype(self: Tensor, dt: dtype) -> Tensor:
    """Reinterpret ``self``'s bytes as ``dt``: a view without gradient, as in PyTorch.

    With the same itemsize, shape and strides stay. Otherwise the last dim
    (of stride 1) is rescaled by the itemsize ratio, and the other strides
    and the storage offset with it; each must divide evenly.

    Raises:
        GTensorError: ``[view] self.stride(-1) must be 1 to view float32 as int16 ...``.

    Example:
        >>> gt.zeros(2, 2).view(gt.int16).shape
        (2, 4)
    """
    old, new = self.itemsize, dt.itemsize
    shape, strides, offset = list(self.shape), list(self._strides), self._offset
    if old != new:
        what = f"to view {self.dtype.name} as {dt.name} (different element sizes)"
        check(self.ndim > 0, "view", f"self.dim() cannot be 0 {what}")
        check(strides[-1] == 1, "view", lambda: f"self.stride(-1) must be 1 {what}, but got "
              f"{strides[-1]}")
        if old > new:
            k = old // new
            shape[-1] *= k
            strides = [s * k for s in strides[:-1]] + [1]
            offset *= k
        else:
            k = new // old
            check(shape[-1] % k == 0, "view", lambda: f"self.size(-1) must be divisible by {k} "
                  f"{what}, but got {shape[-1]}")
            for d, s in enumerate(strides[:-1]):
                check(s % k == 0, "view", lambda: f"self.stride({d}) must be divisible by {k} "
                      f"{what}, but got {s}")
            check(offset % k == 0, "view", lambda: "self.storage_offset() must be divisible by "
                  f"{k} {what}, but got {offset}")
            shape[-1] //= k
            strides = [s // k for s in strides[:-1]] + [1]
            offset //= k
    return from_storage(self._storage, tuple(shape), tuple(strides), offset, dt)


def reshape(self: Tensor, *sizes: Any, shape: Any = None) -> Tensor:
    """Return a tensor with a new shape: a view when possible, else a contiguous copy.

    Example:
        >>> gt.ones(2, 3).T.reshape(6).shape
        (6,)
    """
    if shape is not None:
        sizes = keyword_sizes(sizes, shape, "shape", "reshape")
    new_shape = _infer_shape(normalize_shape(sizes, "reshape"), self.numel(), "reshape")
    strides = _view_strides(self.shape, self._strides, new_shape)
    if strides is not None:
        return _reshaped(self._make_view(new_shape, strides, self._offset), self, "reshape")
    return self.contiguous().view(new_shape)


def transpose(self: Tensor, dim0: int, dim1: int) -> Tensor:
    """Return a view with dims ``dim0`` and ``dim1`` swapped."""
    d0, d1 = wrap_dim(dim0, self.ndim, "transpose"), wrap_dim(dim1, self.ndim, "transpose")
    order = list(range(self.ndim))
    if self.ndim:
        order[d0], order[d1] = order[d1], order[d0]
    return permute(self, order)


def permute(self: Tensor, *order: Any, dims: Any = None) -> Tensor:
    """Return a view with the dims reordered.

    Example:
        >>> gt.ones(2, 3, 4).permute(2, 0, 1).shape
        (4, 2, 3)
    """
    given = order if dims is None else keyword_sizes(order, dims, "dims", "permute")
    order = [wrap_dim(d, self.ndim, "permute") for d in normalize_shape(given, "permute")]
    check(len(order) == self.ndim and len(set(order)) == self.ndim, "permute",
          lambda: f"dims {tuple(given)} are not a permutation of {self.ndim} dims", ShapeError)
    out = self._make_view(tuple(self.shape[d] for d in order),
                          tuple(self._strides[d] for d in order), self._offset)
    inverse = [0] * len(order)
    for i, d in enumerate(order):
        inverse[d] = i
    record("permute", out, (self,), _permute_vjp, inverse=inverse)
    return out


def reverse_dims(self: Tensor) -> Tensor:
    """The view with every dim reversed (``Tensor.T``)."""
    return permute(self, list(reversed(range(self.ndim))))


def matrix_transpose(self: Tensor) -> Tensor:
    """The view with the last two dims swapped (``Tensor.mT``)."""
    check(self.ndim >= 2, "mT", lambda: f"expected a tensor with >= 2 dims, got {self.ndim}",
          ShapeError)
    return transpose(self, -2, -1)


def t(self: Tensor) -> Tensor:
    """Transpose a tensor of at most 2 dims."""
    check(self.ndim <= 2, "t", lambda: f"expects a tensor with <= 2 dims, got {self.ndim}",
          ShapeError)
    return reverse_dims(self)


def expand(self: Tensor, *sizes: Any, size: Any = None) -> Tensor:
    """Return a view broadcasting size-1 dims to ``sizes`` (-1 keeps a dim).

    Example:
        >>> gt.ones(3, 1).expand(3, 4).stride()
        (1, 0)
    """
    if size is not None:
        sizes = keyword_sizes(sizes, size, "size", "expand")
    sizes = normalize_shape(sizes, "expand")
    check(len(sizes) >= self.ndim, "expand", lambda: f"the number of sizes provided "
          f"({len(sizes)}) must be greater or equal to the number of dimensions ({self.ndim})",
          ShapeError)
    lead = len(sizes) - self.ndim
    target = tuple(
        self.shape[i - lead] if n == -1 and i >= lead else n for i, n in enumerate(sizes))
    check(all(n >= 0 for n in target), "expand", lambda: f"invalid size {sizes}", ShapeError)
    return expand_to(self, target, "expand")


def expand_to(t: Tensor, shape: tuple[int, ...], op: str) -> Tensor:
    """Differentiable broadcast view of ``t`` with ``shape`` (see :func:`broadcast_view`)."""
    out = broadcast_view(t, shape, op)
    if out is not t:
        record(op, out, (t,), _broadcast_vjp)
    return out


def expand_as(self: Tensor, other: Tensor) -> Tensor:
    """Expand to ``other``'s shape."""
    return expand(self, other.shape)


def broadcast_to(self: Tensor, *shape: Any) -> Tensor:
    """Return a view broadcast to ``shape`` (NumPy's rules)."""
    shape = normalize_shape(shape, "broadcast_to")
    check(broadcast_shapes(self.shape, shape, op="broadcast_to") == shape, "broadcast_to",
          lambda: f"cannot broadcast shape {self.shape} to {shape}", ShapeError)
    return expand_to(self, shape, "broadcast_to")


def squeeze(self: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    """Remove size-1 dims (all, or the given ones; non-1 dims named are kept)."""
    if dim is None:
        dims = {i for i, n in enumerate(self.shape) if n == 1}
    else:
        named = (dim,) if isinstance(dim, int) else tuple(dim)
        dims = {wrap_dim(d, self.ndim, "squeeze") for d in named}
        dims = {d for d in dims if self.ndim and self.shape[d] == 1}
    keep = [i for i in range(self.ndim) if i not in dims]
    out = self._make_view(tuple(self.shape[i] for i in keep),
                          tuple(self._strides[i] for i in keep), self._offset)
    return _reshaped(out, self, "squeeze")


def unsqueeze(self: Tensor, dim: int) -> Tensor:
    """Insert a size-1 dim at ``dim``."""
    d = wrap_dim(dim, self.ndim + 1, "unsqueeze")
    stride = self._strides[d] * self.shape[d] if d < self.ndim else 1
    out = self._make_view(self.shape[:d] + (1,) + self.shape[d:],
                          self._strides[:d] + (stride,) + self._strides[d:], self._offset)
    return _reshaped(out, self, "unsqueeze")


def flatten(self: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Merge dims ``start_dim..end_dim`` into one (a view when the layout allows)."""
    if self.ndim == 0:
        return reshape(self, 1)
    s, e = wrap_dim(start_dim, self.ndim, "flatten"), wrap_dim(end_dim, self.ndim, "flatten")
    check(s <= e, "flatten", "start_dim cannot come after end_dim", ShapeError)
    merged = math.prod(self.shape[s:e + 1])
    return reshape(self, self.shape[:s] + (merged,) + self.shape[e + 1:])


def unflatten(self: Tensor, dim: int, sizes: Sequence[int]) -> Tensor:
    """Split dim ``dim`` into ``sizes`` (one entry may be -1)."""
    d = wrap_sized_dim(dim, self.ndim, "unflatten")
    sizes = _infer_shape(normalize_shape((sizes,), "unflatten"), self.shape[d], "unflatten")
    return view(self, self.shape[:d] + sizes + self.shape[d + 1:])


def narrow(self: Tensor, dim: int, start: int, length: int) -> Tensor:
    """Return the view ``self[..., start:start+length, ...]`` along ``dim``."""
    d = wrap_sized_dim(dim, self.ndim, "narrow")
    n = self.shape[d]
    if isinstance(start, TensorBase):  # a 0-d integer tensor, as PyTorch accepts
        check(start.numel() == 1 and not start.dtype.is_inexact, "narrow",
              "start must be an int or a 0-d integer tensor", TypeError)
        start = int(start.item())
    if start < 0:
        start += n
    check(0 <= start <= n and 0 <= length and start + length <= n, "narrow",
          lambda: f"start ({start}) + length ({length}) exceeds dimension size ({n})", IndexError)
    shape = self.shape[:d] + (length,) + self.shape[d + 1:]
    out = self._make_view(shape, self._strides, self._offset + start * self._strides[d])
    return _reindexed(out, self, "narrow", lambda z: narrow(z, d, start, length))


def narrow_copy(self: Tensor, dim: int, start: int, length: int) -> Tensor:
    """Return a copy of :func:`narrow` (its own contiguous storage).

    Example:
        >>> gt.arange(5).narrow_copy(0, 1, 2).tolist()
        [1, 2]
    """
    return clone(narrow(self, dim, start, length))


def select(self: Tensor, dim: int, index: int) -> Tensor:
    """Return the view at ``index`` along ``dim``, with that dim removed."""
    d = wrap_dim(dim, self.ndim, "select")
    check(self.ndim > 0, "select", "cannot select on a 0-d tensor", IndexError)
    n = self.shape[d]
    check(-n <= index < n, "select", lambda: f"index {index} is out of bounds for dimension "
          f"{d} with size {n}", IndexError)
    index %= n
    out = self._make_view(self.shape[:d] + self.shape[d + 1:],
                          self._strides[:d] + self._strides[d + 1:],
                          self._offset + index * self._strides[d])
    return _reindexed(out, self, "select", lambda z: select(z, d, index))


def unbind(self: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """Return the views along ``dim``, that dim removed."""
    d = wrap_sized_dim(dim, self.ndim, "unbind")
    return tuple(select(self, d, i) for i in range(self.shape[d]))


def _is_basic(item: Any) -> bool:
    return item is None or item is Ellipsis or isinstance(item, slice) or (
        isinstance(item, int) and not isinstance(item, bool)) or (
        hasattr(item, "__index__") and not isinstance(item, (bool, TensorBase))
        and not hasattr(item, "__len__"))


def basic_index(self: Tensor, index: Any) -> Tensor:
    """Apply ints, slices (any step, including negative), ``None`` and ``...`` as a view.

    Example:
        >>> gt.arange(10)[8:2:-2].tolist()
        [8, 6, 4]
    """
    items = index if isinstance(index, tuple) else (index,)
    for item in items:
        check(_is_basic(item), "getitem", lambda: "only integers, slices (`:`), ellipsis "
              "(`...`), None and integer or bool tensors are valid indices (got "
              f"{type(item).__name__})", IndexError)
    n_ell = sum(i is Ellipsis for i in items)
    check(n_ell <= 1, "getitem", "an index can only have a single ellipsis ('...')", IndexError)
    consumed = sum(i is not None and i is not Ellipsis for i in items)
    check(consumed <= self.ndim, "getitem", lambda: f"too many indices for tensor of dimension "
          f"{self.ndim}", IndexError)
    if n_ell:
        pos = items.index(Ellipsis)
        items = items[:pos] + (slice(None),) * (self.ndim - consumed) + items[pos + 1:]
    else:
        items = items + (slice(None),) * (self.ndim - consumed)
    shape, strides, offset, d = [], [], self._offset, 0
    for item in items:
        if item is None:
            shape.append(1)
            strides.append(0)
            continue
        n, s = self.shape[d], self._strides[d]
        if isinstance(item, slice):
            try:
                start, stop, step = item.indices(n)
            except (TypeError, ValueError) as err:  # a zero step, or bounds that are not ints
                raise IndexError(f"[getitem] invalid slice {item}: {err}") from None
            length = len(range(start, stop, step))
            if length:
                offset += start * s
            shape.append(length)
            strides.append(s * step)
        else:
            i = item.__index__()
            check(-n <= i < n, "getitem", lambda: f"index {i} is out of bounds for dimension "
                  f"{d} with size {n}", IndexError)
            offset += (i % n) * s
        d += 1
    out = self._make_view(tuple(shape), tuple(strides), offset)
    return _reindexed(out, self, "getitem", lambda z: basic_index(z, index))


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


def tensor_list(tensors: Sequence[Tensor], op: str) -> list[Tensor]:
    """Check ``tensors`` is a non-empty sequence of tensors on one device; return a list."""
    ts = list(tensors)
    check(len(ts) > 0, op, "expected a non-empty sequence of tensors", ValueError)
    check(all(isinstance(t, TensorBase) for t in ts), op, "expected a sequence of tensors",
          TypeError)
    check_same_device(op, *(t.device for t in ts))
    return ts


def meshgrid(*tensors: Any, indexing: str = "ij") -> tuple[Tensor, ...]:
    """Return coordinate grids (expanded views) from 1-D tensors.

    Args:
        *tensors: 1-D (or 0-d) tensors, or one sequence of them.
        indexing: ``"ij"`` (matrix) or ``"xy"`` (Cartesian: first two dims swapped).

    Example:
        >>> [g.shape for g in gt.meshgrid(gt.ones(2), gt.ones(3))]
        [(2, 3), (2, 3)]
    """
    ts = list(tensors[0]) if len(tensors) == 1 and not isinstance(tensors[0], TensorBase) \
        else list(tensors)
    ts = tensor_list(ts, "meshgrid")
    check(indexing in ("ij", "xy"), "meshgrid", lambda: "indexing must be 'ij' or 'xy', got "
          f"{indexing!r}", ValueError)
    check(all(t.ndim <= 1 for t in ts), "meshgrid", "expects 0-d or 1-d tensors", ShapeError)
    flat = [t.reshape(-1) for t in ts]
    swap = indexing == "xy" and len(flat) >= 2
    order = [1, 0, *range(2, len(flat))] if swap else list(range(len(flat)))
    shape = tuple(flat[i].shape[0] for i in order)
    out = []
    for i, t in enumerate(flat):
        pos = order.index(i)
        view = t.view(tuple(t.shape[0] if j == pos else 1 for j in range(len(flat))))
        out.append(expand_to(view, shape, "meshgrid"))
    return tuple(out)


# Functional forms, exported as gt.<name> (PyTorch's torch.<name>).
EXPORTS = ("diagonal",)
