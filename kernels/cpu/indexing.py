"""CPU indexing kernels: index validation, gather and scatter by element offsets, nonzero.

Every kernel works on a view's flat buffer plus int64 element offsets, so one
kernel serves every rank and every indexing op of the frontend. NumPy's
fancy indexing and ``ufunc.at`` are the fast path on the host.
"""

from __future__ import annotations

import numba
import numpy as np

from ..common import search_math
from ..common.index_layout import SCATTER_MODES, element_offsets, out_of_range
from ..registry import ANY, register

_AT = {"add": np.add, "amax": np.maximum, "amin": np.minimum, "prod": np.multiply}


_math = search_math.build(numba.njit)
_row_offset = _math.row_offset
_bad_index = _math.bad_index


@numba.njit(cache=True)
def gtensor_index_offsets_cpu(indices, sizes, strides, out, strict):  # noqa: ANN001, ANN201
    for i in range(out.shape[0]):
        o = _row_offset(indices, sizes, strides, i, strict)
        if o == search_math.BAD_OFFSET:
            return i
        out[i] = o
    return -1


@register("index_offsets", "cpu", ["int64"])
def index_offsets(indices: np.ndarray, sizes: tuple[int, ...], strides: tuple[int, ...],
                  out: np.ndarray, *, opname: str, dims: tuple[int, ...], strict: bool = False,
                  stream: object = None) -> None:
    """Write ``sum(wrap(indices[j, i]) * strides[j])`` into ``out[i]``, checking bounds.

    Args:
        indices: ``(k, n)`` int64 index rows (negative values count from the end).
        sizes: size of the dim each row indexes.
        strides: element stride of that dim.
        out: ``(n,)`` int64 offsets, overwritten.
        opname: op name for the error message.
        dims: dim number each row indexes, for the error message.
        strict: negative indices are out of range instead of counting from the end.
        stream: ignored on the CPU.

    Raises:
        IndexError: ``[op] index 7 is out of bounds for dimension 1 with size 5``.

    Example:
        >>> out = np.empty(2, np.int64)
        >>> index_offsets(np.array([[1, -1]]), (3,), (4,), out, opname="take", dims=(0,))
        >>> out.tolist()
        [4, 8]
    """
    if out.size == 0:
        return
    sizes_arr = np.asarray(sizes, np.int64)
    bad = gtensor_index_offsets_cpu(indices, sizes_arr, np.asarray(strides, np.int64), out,
                                    bool(strict))
    if bad >= 0:
        j = _bad_index(indices, sizes_arr, bad, bool(strict))
        raise out_of_range(opname, int(indices[j, bad]), dims[j], sizes[j])


@register("gather", "cpu", [ANY])
def gather(src: np.ndarray, base: int, shape: tuple[int, ...], strides: tuple[int, ...],
           offsets: np.ndarray, out: np.ndarray, stream: object = None) -> None:
    """``out[b, r...] = src[base + offsets[b] + sum(r[d] * strides[d])]``.

    Args:
        src: the source storage as a 1-D array.
        base: element offset of the source view's origin.
        shape, strides: the rest dims ``R`` read per row, and their element strides.
        offsets: ``(n,)`` int64 row offsets (validated by ``index_offsets``).
        out: array of shape ``(n, *R)`` (any strides), ``src``'s dtype.
        stream: ignored on the CPU.

    Example:
        >>> out = np.empty((2, 2))
        >>> gather(np.arange(6.0), 0, (2,), (1,), np.array([4, 0]), out); out.tolist()
        [[4.0, 5.0], [0.0, 1.0]]
    """
    if out.size == 0:
        return
    rest = element_offsets(shape, strides, base)
    out[...] = src[offsets.reshape((-1,) + (1,) * len(shape)) + rest]


@register("scatter", "cpu", [(ANY, ANY)])
def scatter(dst: np.ndarray, base: int, shape: tuple[int, ...], strides: tuple[int, ...],
            offsets: np.ndarray, src: np.ndarray, mode: str, stream: object = None) -> None:
    """Combine ``src[b, r...]`` into ``dst[base + offsets[b] + sum(r[d] * strides[d])]``.

    Args:
        dst: the destination storage as a 1-D array, updated in place.
        base: element offset of the destination view's origin.
        shape, strides: the rest dims ``R`` written per row, and their element strides.
        offsets: ``(n,)`` int64 row offsets (validated by ``index_offsets``).
        src: array of shape ``(n, *R)`` (broadcast strides allowed), ``dst``'s dtype.
        mode: ``copy`` (the last write wins), ``add``, ``amax``, ``amin`` or ``prod``.
        stream: ignored on the CPU.

    Example:
        >>> dst = np.zeros(3)
        >>> scatter(dst, 0, (), (), np.array([0, 0, 2]), np.ones(3), "add"); dst.tolist()
        [2.0, 0.0, 1.0]
    """
    if mode not in SCATTER_MODES:
        raise ValueError(f"[scatter] unknown mode {mode!r}; expected one of {SCATTER_MODES}")
    if src.size == 0:
        return
    where = offsets.reshape((-1,) + (1,) * len(shape)) + element_offsets(shape, strides, base)
    if mode == "copy":
        dst[where] = src
    else:
        _AT[mode].at(dst, where, src)


@register("nonzero", "cpu", [ANY])
def nonzero(x: np.ndarray, out: np.ndarray | None = None, stream: object = None) -> int:
    """Count the nonzero elements of ``x``; with ``out``, write their coordinates in C order.

    Args:
        x: contiguous array of any rank >= 1.
        out: ``(count, x.ndim)`` int64 array (any strides), or None to only count.
        stream: ignored on the CPU.

    Returns:
        The number of nonzero elements.

    Example:
        >>> out = np.empty((2, 1), np.int64); nonzero(np.array([0, 3, 5]), out)
        2
    """
    flat = np.flatnonzero(x)
    if out is not None and flat.size:
        out[...] = np.stack(np.unravel_index(flat, x.shape), axis=1)
    return int(flat.size)


@register("divide_by_count", "cpu", [(ANY, "int64")])
def divide_by_count(values: np.ndarray, counts: np.ndarray, stream: object = None) -> None:
    """``values[i] /= counts[i]`` where ``counts[i] > 0`` (floor division for integers).

    Finishes ``scatter_reduce(..., "mean")``: ``values`` holds sums, ``counts`` how many.

    Example:
        >>> v = np.array([4.0, 1.0]); divide_by_count(v, np.array([2, 0])); v.tolist()
        [2.0, 1.0]
    """
    div = np.floor_divide if values.dtype.kind in "iu" else np.true_divide
    div(values, counts, out=values, where=counts > 0, casting="unsafe")
