"""Layout helpers: collapse strided operands to the fewest dims, view host memory flat.

Strides here are in elements, not bytes. Two adjacent dims merge when, for every
operand, stepping the outer dim equals stepping the inner dim over its full
length; size-1 dims are dropped. This turns most real layouts (contiguous,
broadcast scalars, row broadcasts, transposes) into rank 1 or 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


def element_strides(arr: Any) -> tuple[int, ...]:
    """Return ``arr``'s strides in elements.

    Example:
        >>> element_strides(np.zeros((2, 3), np.float32))
        (3, 1)
    """
    item = arr.dtype.itemsize
    return tuple(int(s) // item for s in arr.strides)


def collapse(
    shape: Sequence[int], strides: Sequence[Sequence[int]]
) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    """Merge dims that every operand steps through contiguously.

    Args:
        shape: common shape of the operands.
        strides: one stride tuple (in elements) per operand.

    Returns:
        ``(shape, strides)`` with as few dims as possible (at least one).

    Example:
        >>> collapse((2, 3, 4), [(12, 4, 1), (0, 0, 0)])
        ((24,), [(1,), (0,)])
    """
    dims = [i for i, n in enumerate(shape) if n != 1]
    if not dims or 0 in shape:
        return (int(np.prod(shape, dtype=np.int64)),), [(1,) for _ in strides]
    out_shape = [int(shape[dims[0]])]
    out_strides = [[int(s[dims[0]])] for s in strides]
    for d in dims[1:]:
        n = int(shape[d])
        if all(o[-1] == s[d] * n for o, s in zip(out_strides, strides, strict=True)):
            out_shape[-1] *= n
            for o, s in zip(out_strides, strides, strict=True):
                o[-1] = s[d]
        else:
            out_shape.append(n)
            for o, s in zip(out_strides, strides, strict=True):
                o.append(int(s[d]))
    return tuple(out_shape), [tuple(o) for o in out_strides]


PAD_RANK = 3


def is_c_contiguous(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """True when element ``strides`` lay ``shape`` out in C order without gaps.

    Example:
        >>> is_c_contiguous((2, 3), (3, 1)), is_c_contiguous((2, 3), (1, 2))
        (True, False)
    """
    expected = 1
    for n, s in zip(reversed(shape), reversed(strides), strict=True):
        if n != 1 and s != expected:
            return False
        expected *= n
    return True


class _HostBuffer:
    def __init__(self, ptr: int, n: int, typestr: str, owner: Any) -> None:
        self._owner = owner
        self.__array_interface__ = {"shape": (n,), "typestr": typestr,
                                    "data": (ptr, False), "version": 3}


def span(shape: Sequence[int], strides: Sequence[int]) -> tuple[int, int]:
    """Return the offsets (in elements, from the first element) of the lowest and highest
    elements a strided view touches.

    Example:
        >>> span((2, 3), (3, -1))
        (-2, 3)
    """
    lo = sum(s * (n - 1) for s, n in zip(strides, shape, strict=True) if s < 0)
    hi = sum(s * (n - 1) for s, n in zip(strides, shape, strict=True) if s > 0)
    return lo, hi


def host_flat(arr: np.ndarray) -> tuple[np.ndarray, int]:
    """View the memory spanned by a strided NumPy array as a 1-D array, without copying.

    Returns:
        ``(flat, offset)``: element ``idx`` of ``arr`` is
        ``flat[offset + sum(idx[d] * element_strides(arr)[d])]``.

    Example:
        >>> flat, off = host_flat(np.arange(6.0)[::-2])
        >>> float(flat[off]), off
        (5.0, 4)
    """
    lo, hi = span(arr.shape, element_strides(arr))
    if arr.size == 0:
        return np.empty(1, arr.dtype), 0
    start = arr.__array_interface__["data"][0] + lo * arr.dtype.itemsize
    flat = np.asarray(_HostBuffer(start, hi - lo + 1, arr.dtype.str, arr))
    return flat, -lo


def reduction_layout(
    shape: Sequence[int], x_strides: Sequence[int], out_strides: Sequence[int],
    axes: Sequence[int],
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Split a reduction into collapsed kept dims and collapsed reduced dims.

    Args:
        shape: the input's shape.
        x_strides: the input's element strides.
        out_strides: element strides of the output over the kept dims (in order).
        axes: the reduced dims (non-negative, unique).

    Returns:
        ``(kept_shape, kept_x_strides, kept_out_strides, red_shape, red_strides)``.

    Example:
        >>> reduction_layout((4, 5), (5, 1), (1,), (1,))
        ((4,), (5,), (1,), (5,), (1,))
    """
    axes_set = set(axes)
    kept = [d for d in range(len(shape)) if d not in axes_set]
    red = [d for d in range(len(shape)) if d in axes_set]
    k_shape, (k_x, k_out) = collapse(
        [shape[d] for d in kept], [[x_strides[d] for d in kept], list(out_strides)]
    )
    r_shape, (r_x,) = collapse([shape[d] for d in red], [[x_strides[d] for d in red]])
    return k_shape, k_x, k_out, r_shape, r_x


Dims = tuple[int, ...]


def reduction_operands(
    x: Any, out: Any, axes: Sequence[int]
) -> tuple[Dims, Dims, Dims, Dims, Dims, int]:
    """Plan a reduction of array ``x`` over ``axes`` into ``out`` (reduced dims dropped or kept).

    Returns:
        See :func:`reduction_plan`.

    Example:
        >>> x = np.zeros((4, 5)); out = np.zeros(4)
        >>> reduction_operands(x, out, (1,))
        ((1, 1, 4), (0, 0, 5), (0, 0, 1), (1, 1, 5), (0, 0, 1), 5)
    """
    return reduction_plan(*reduction_arrays(x, out, axes))


def reduction_arrays(x: Any, out: Any, axes: Sequence[int]) -> tuple[Dims, Dims, Dims, Dims]:
    """Return ``(shape, x_strides, out_strides, axes)`` of arrays, as ``plan`` methods take them.

    ``axes`` come back sorted, unique and non-negative; ``out_strides`` cover the
    kept dims only (``out`` may keep the reduced dims with size 1).

    Example:
        >>> reduction_arrays(np.zeros((4, 5)), np.zeros((4, 1)), (-1,))
        ((4, 5), (5, 1), (1,), (1,))
    """
    ndim = len(x.shape)
    axes = tuple(sorted({a % ndim for a in axes})) if ndim else ()
    ostr = element_strides(out)
    if len(out.shape) == ndim and ndim:
        ostr = tuple(s for d, s in enumerate(ostr) if d not in axes)
    return tuple(x.shape), element_strides(x), ostr, axes


def reduction_plan(shape: Dims, x_strides: Dims, out_strides: Dims,
                   axes: Dims) -> tuple[Dims, Dims, Dims, Dims, Dims, int]:
    """Plan a reduction over sorted unique ``axes`` from shapes and element strides alone.

    Args:
        shape: the input's shape.
        x_strides: the input's element strides.
        out_strides: the output's element strides over the kept dims, in order.
        axes: the reduced dims (sorted, unique, non-negative).

    Returns:
        ``(kshape, kxs, kos, rshape, rxs, n)``: collapsed kept dims with the
        input's and output's element strides, collapsed reduced dims with the
        input's strides, and the number of reduced elements. Both groups are
        padded with leading size-1 dims to ``PAD_RANK``, so one compiled
        kernel serves every layout of up to that many collapsed dims.

    Example:
        >>> reduction_plan((4, 5), (5, 1), (1,), (1,))
        ((1, 1, 4), (0, 0, 5), (0, 0, 1), (1, 1, 5), (0, 0, 1), 5)
    """
    kshape, kxs, kos, rshape, rxs = reduction_layout(shape, x_strides, out_strides, axes)
    pad = PAD_RANK - len(kshape)
    if pad > 0:
        kshape, kxs, kos = (1,) * pad + kshape, (0,) * pad + kxs, (0,) * pad + kos
    pad = PAD_RANK - len(rshape)
    if pad > 0:
        rshape, rxs = (1,) * pad + rshape, (0,) * pad + rxs
    n = 1
    for d in axes:
        n *= int(shape[d])
    return kshape, kxs, kos, rshape, rxs, n


def axis_operands(x: Any, out: Any, axis: int) -> tuple[Dims, Dims, Dims, int, int, int]:
    """Plan an op along one ``axis`` of ``x`` writing ``out`` of the same shape.

    Returns:
        See :func:`axis_plan`.

    Example:
        >>> axis_operands(np.zeros((4, 5)), np.zeros((4, 5)), 1)
        ((1, 1, 4), (0, 0, 5), (0, 0, 5), 5, 1, 1)
    """
    return axis_plan(tuple(x.shape), element_strides(x), element_strides(out), axis)


def axis_plan(shape: Dims, x_strides: Dims, out_strides: Dims,
              axis: int) -> tuple[Dims, Dims, Dims, int, int, int]:
    """Plan an op along one ``axis`` from the shape and the element strides alone.

    Returns:
        ``(kshape, kxs, kos, length, sx, so)``: the other dims collapsed and
        padded to ``PAD_RANK`` with the input's and output's element strides, the
        axis length and the axis strides of input and output.

    Example:
        >>> axis_plan((4, 5), (5, 1), (5, 1), 1)
        ((1, 1, 4), (0, 0, 5), (0, 0, 5), 5, 1, 1)
    """
    ndim = len(shape)
    axis = axis % ndim if ndim else 0
    xs, os_ = x_strides, out_strides
    kept = [d for d in range(ndim) if d != axis]
    kshape, (kxs, kos) = collapse([shape[d] for d in kept],
                                  [[xs[d] for d in kept], [os_[d] for d in kept]])
    pad = PAD_RANK - len(kshape)
    if pad > 0:
        kshape, kxs, kos = (1,) * pad + kshape, (0,) * pad + kxs, (0,) * pad + kos
    if not ndim:
        return kshape, kxs, kos, 1, 0, 0
    return kshape, kxs, kos, int(shape[axis]), xs[axis], os_[axis]
