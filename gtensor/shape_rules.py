"""Shape rules shared by ops: broadcasting, dim wrapping, shape arguments."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .errors import ShapeError, SizeOverflowError

SIZE_LIMIT = 2**63
"""Element counts, byte sizes and dimensions must stay below this (a signed 64-bit size)."""


def broadcast_shapes(*shapes: Sequence[int], op: str = "broadcast_shapes") -> tuple[int, ...]:
    """Return the NumPy-style broadcast of ``shapes``.

    Raises:
        ShapeError: ``[op] shapes (2, 3) and (4,) are not broadcastable``.

    Example:
        >>> broadcast_shapes((2, 1), (3,))
        (2, 3)
    """
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for shape in shapes:
        for i, n in enumerate(shape, start=ndim - len(shape)):
            if n != 1:
                if out[i] not in (1, n):
                    raise ShapeError(f"[{op}] shapes " + " and ".join(
                        str(tuple(s)) for s in shapes) + " are not broadcastable")
                out[i] = n
    return tuple(out)


def broadcast_strides(shape: Sequence[int], strides: Sequence[int], target: Sequence[int],
                      op: str) -> tuple[int, ...]:
    """Return the strides that view ``shape`` as ``target`` (stride 0 on broadcast dims).

    Raises:
        ShapeError: when ``shape`` does not broadcast to ``target``.

    Example:
        >>> broadcast_strides((3,), (1,), (2, 3), "add")
        (0, 1)
    """
    lead = len(target) - len(shape)
    if lead < 0:
        raise ShapeError(f"[{op}] cannot broadcast shape {tuple(shape)} to {tuple(target)}")
    out = [0] * lead
    for n, s, want in zip(shape, strides, target[lead:], strict=True):
        if n == want:
            out.append(s)
        elif n == 1:
            out.append(0)
        else:
            raise ShapeError(f"[{op}] cannot broadcast shape {tuple(shape)} to {tuple(target)}")
    return tuple(out)


def normalize_shape(args: tuple[Any, ...], op: str) -> tuple[int, ...]:
    """Accept ``f(2, 3)``, ``f((2, 3))`` or ``f([2, 3])`` and return a tuple of ints.

    Example:
        >>> normalize_shape(((2, 3),), "zeros")
        (2, 3)
    """
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    shape = []
    for n in args:
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) and not hasattr(
                n, "__index__"):
            raise TypeError(f"[{op}] shape entries must be ints, got {type(n).__name__}")
        shape.append(int(n.__index__()))
    checked_numel(shape, op)
    return tuple(shape)


def keyword_sizes(args: tuple[Any, ...], keyword: Any, name: str, op: str) -> tuple[Any, ...]:
    """The sizes of ``f(name=(2, 3))``, PyTorch's keyword form of ``f(2, 3)``, as
    :func:`normalize_shape` takes them; ``args`` must then be empty.

    Example:
        >>> keyword_sizes((), (2, 3), "size", "zeros")
        ((2, 3),)
    """
    if args:
        raise TypeError(f"[{op}] got sizes both spread out and as the keyword {name}=")
    return (keyword,)


def checked_numel(shape: Sequence[int], op: str, itemsize: int = 1) -> int:
    """Return the element count of ``shape``, raising when a size does not fit in 64 bits.

    Negative entries (such as ``reshape``'s ``-1``) are left to the caller.

    Raises:
        SizeOverflowError: a dimension, the element count or the byte size
            (``itemsize`` bytes per element) reaches ``2**63``.

    Example:
        >>> checked_numel((2, 3), "empty", itemsize=4)
        6
    """
    numel = math.prod(shape)
    if -SIZE_LIMIT < numel * itemsize < SIZE_LIMIT and max(shape, default=0) < SIZE_LIMIT:
        return numel
    if max(shape) >= SIZE_LIMIT:
        what = f"has a dimension of {max(shape)}"
    elif itemsize == 1:
        what = f"has {abs(numel)} elements"
    else:
        what = f"needs {abs(numel) * itemsize} bytes of {itemsize}-byte elements"
    raise SizeOverflowError(f"[{op}] shape {tuple(shape)} {what}, more than a 64-bit size "
                            "can hold (2**63 - 1)")


def wrap_dim(dim: int, ndim: int, op: str) -> int:
    """Map a possibly negative ``dim`` into ``range(ndim)`` (0-d tensors accept -1 and 0).

    Raises:
        TypeError: ``dim`` is not an int; IndexError: it is out of range.

    Example:
        >>> wrap_dim(-1, 3, "sum")
        2
    """
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
        raise TypeError(f"[{op}] dim must be an int (or a tuple of ints), got "
                        f"{type(dim).__name__}")
    lo, hi = (-1, 0) if ndim == 0 else (-ndim, ndim - 1)
    if not lo <= dim <= hi:
        raise IndexError(f"[{op}] dimension out of range (expected to be in range of "
                         f"[{lo}, {hi}], but got {dim})")
    return int(dim) % max(ndim, 1)


def wrap_sized_dim(dim: int, ndim: int, op: str) -> int:
    """:func:`wrap_dim` for ops that need a dim with a size (0-d tensors have none).

    Raises:
        IndexError: the tensor is 0-d, or ``dim`` is out of range.

    Example:
        >>> wrap_sized_dim(-1, 2, "narrow")
        1
    """
    if ndim == 0:
        raise IndexError(f"[{op}] dimension specified as {dim} but tensor has no dimensions")
    return wrap_dim(dim, ndim, op)
