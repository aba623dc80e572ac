"""The array API's manipulation and indexing functions over gtensor's layout ops.

Reshapes, permutations, broadcasts, squeezes and ``unstack`` return views;
``concat``, ``stack``, ``flip``, ``roll``, ``repeat`` and ``tile`` copy, as
in gtensor. ``reshape(copy=False)`` raises where only a copy can express the
result.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import ShapeError, check
from ..ops.indexing import along_dim
from ..ops.layout import copies, views
from ..shape_rules import broadcast_shapes, normalize_shape, wrap_dim

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = [
    "broadcast_arrays", "broadcast_to", "concat", "expand_dims", "flip", "moveaxis",
    "permute_dims", "repeat", "reshape", "roll", "squeeze", "stack", "take", "take_along_axis",
    "tile", "unstack",
]

Axes = int | Sequence[int]


def _axes(axis: Axes, ndim: int, op: str) -> list[int]:
    """``axis`` (an int or a sequence) as distinct non-negative dims of an ``ndim``-d array."""
    seq = [axis] if isinstance(axis, int) else list(axis)
    dims = [wrap_dim(a, ndim, op) for a in seq]
    check(len(set(dims)) == len(dims), op, lambda: f"repeated axis in {tuple(seq)}", ValueError)
    return dims


def broadcast_arrays(*arrays: Tensor) -> list[Tensor]:
    """Views of ``arrays`` broadcast to their common shape.

    Example:
        >>> [a.shape for a in broadcast_arrays(gt.ones(2, 1), gt.ones(3))]
        [(2, 3), (2, 3)]
    """
    shape = broadcast_shapes(*(a.shape for a in arrays), op="broadcast_arrays")
    return [views.broadcast_to(a, shape) for a in arrays]


def broadcast_to(x: Tensor, /, shape: Sequence[int]) -> Tensor:
    """A view of ``x`` broadcast to ``shape``."""
    return views.broadcast_to(x, tuple(shape))


def concat(arrays: Sequence[Tensor], /, *, axis: int | None = 0) -> Tensor:
    """Join arrays along an existing ``axis`` (flattened first when ``axis`` is None).

    Example:
        >>> concat([gt.ones(1, 2), gt.zeros(1, 2)], axis=None).tolist()
        [1.0, 1.0, 0.0, 0.0]
    """
    if axis is None:
        return copies.cat([a.reshape(-1) for a in arrays], 0)
    return copies.cat(list(arrays), axis)


def expand_dims(x: Tensor, /, *, axis: Axes = 0) -> Tensor:
    """A view of ``x`` with a size-1 dim inserted at ``axis`` (a position in the result).

    Example:
        >>> expand_dims(gt.ones(2), axis=-1).shape
        (2, 1)
    """
    count = 1 if isinstance(axis, int) else len(axis)
    out = x
    for d in sorted(_axes(axis, x.ndim + count, "expand_dims")):
        out = views.unsqueeze(out, d)
    return out


def flip(x: Tensor, /, *, axis: Axes | None = None) -> Tensor:
    """A copy of ``x`` with the order of elements reversed along ``axis`` (every axis if None)."""
    return copies.flip(x, list(range(x.ndim)) if axis is None else axis)


def moveaxis(x: Tensor, source: Axes, destination: Axes, /) -> Tensor:
    """A view of ``x`` with the axes ``source`` moved to the positions ``destination``.

    Example:
        >>> moveaxis(gt.ones(2, 3, 4), 0, -1).shape
        (3, 4, 2)
    """
    src = _axes(source, x.ndim, "moveaxis")
    dst = _axes(destination, x.ndim, "moveaxis")
    check(len(src) == len(dst), "moveaxis", lambda: f"source {source} and destination "
          f"{destination} must have the same number of axes", ValueError)
    order = [d for d in range(x.ndim) if d not in src]
    for d, s in sorted(zip(dst, src, strict=True)):
        order.insert(d, s)
    return views.permute(x, order)


def permute_dims(x: Tensor, /, axes: Sequence[int]) -> Tensor:
    """A view of ``x`` with its axes in the order ``axes``."""
    return views.permute(x, tuple(axes))


def repeat(x: Tensor, repeats: int | Tensor, /, *, axis: int | None = None) -> Tensor:
    """Each element repeated ``repeats`` times (an int or one count each) along ``axis``.

    With ``axis`` None the array is flattened first. Counts given as an array
    are read on the host once, to size the result.

    Example:
        >>> repeat(gt.tensor([1, 2]), gt.tensor([2, 1])).tolist()
        [1, 1, 2]
    """
    return copies.repeat_interleave(x, repeats, axis)


def reshape(x: Tensor, /, shape: Sequence[int], *, copy: bool | None = None) -> Tensor:
    """``x`` with a new ``shape`` (one entry may be -1): a view unless a copy is needed or asked.

    Raises:
        ValueError: with ``copy=False`` when no view has the new shape.

    Example:
        >>> reshape(gt.ones(2, 3), (3, 2), copy=False).shape
        (3, 2)
    """
    dims = normalize_shape((tuple(shape),), "reshape")
    if copy:
        return views.reshape(x.clone(), dims)
    out = views.reshape(x, dims)
    check(copy is None or out.numel() == 0 or out._storage is x._storage, "reshape", lambda:
          f"copy=False, but no view of shape {x.shape} with strides {x.stride()} has shape "
          f"{dims}", ValueError)
    return out


def roll(x: Tensor, /, shift: Axes, *, axis: Axes | None = None) -> Tensor:
    """A copy of ``x`` rotated by ``shift`` along ``axis`` (the flattened array if None)."""
    return copies.roll(x, shift, axis)


def squeeze(x: Tensor, /, axis: Axes) -> Tensor:
    """A view of ``x`` without the size-1 axes ``axis``; another size raises ``ValueError``.

    Example:
        >>> squeeze(gt.ones(1, 2, 1), axis=(0, 2)).shape
        (2,)
    """
    dims = _axes(axis, x.ndim, "squeeze")
    check(all(x.shape[d] == 1 for d in dims), "squeeze", lambda: f"axis {axis} of shape "
          f"{x.shape} has a size other than 1", ShapeError)
    return views.squeeze(x, dims)


def stack(arrays: Sequence[Tensor], /, *, axis: int = 0) -> Tensor:
    """Join same-shape arrays along a new ``axis``."""
    return copies.stack(list(arrays), axis)


def tile(x: Tensor, repetitions: Sequence[int], /) -> Tensor:
    """``x`` repeated ``repetitions[i]`` times along axis ``i`` (shorter forms pad with ones)."""
    return copies.tile(x, tuple(repetitions))


def unstack(x: Tensor, /, *, axis: int = 0) -> tuple[Tensor, ...]:
    """Views of ``x``'s slices along ``axis``.

    Example:
        >>> [t.tolist() for t in unstack(gt.tensor([[1, 2], [3, 4]]), axis=1)]
        [[1, 3], [2, 4]]
    """
    return views.unbind(x, axis)


def take(x: Tensor, indices: Tensor, /, *, axis: int | None = None) -> Tensor:
    """The elements of ``x`` at ``indices`` (1-D) along ``axis`` (optional for a 1-D ``x``).

    Example:
        >>> take(gt.tensor([[1, 2], [3, 4]]), gt.tensor([1, 1]), axis=1).tolist()
        [[2, 2], [4, 4]]
    """
    check(axis is not None or x.ndim == 1, "take", lambda: "axis is required for a "
          f"{x.ndim}-d array", ValueError)
    return along_dim.index_select(x, 0 if axis is None else axis, indices)


def take_along_axis(x: Tensor, indices: Tensor, /, *, axis: int = -1) -> Tensor:
    """``x``'s elements picked along ``axis`` by ``indices`` (same ndim, other axes broadcast).

    Example:
        >>> take_along_axis(gt.tensor([[10, 30, 20]]), gt.tensor([[2, 0]])).tolist()
        [[20, 10]]
    """
    return along_dim.take_along_dim(x, indices, axis)
