"""CUDA indexing kernels: index validation, gather and scatter by element offsets, nonzero.

Same contracts as ``kernels/cpu/indexing.py``, except when an index is out of
range: the host never waits for the check. The offsets kernel marks a bad
row with ``BAD_OFFSET`` (gather writes zeros there, scatter skips it, so
nothing outside the tensor is read or written) and records the first bad
position with an atomic min; a one-thread kernel then writes the error into
the host-mapped record of ``device_errors``, raised at the next synchronizing
call. The gather and scatter kernels themselves, and how they lay out
threads, are in ``_gather_scatter``: scatter reductions use atomics for
32/64-bit dtypes; ``prod`` and narrow dtypes (which CUDA has no atomics for)
run a one-thread kernel, so every duplicate index still combines exactly once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

from ..common import search_math
from ..common.index_layout import SCATTER_MODES
from ..registry import ANY, register
from ._gather_scatter import (
    ROW_THREADS,
    combine_kind,
    grid_blocks,
    layout,
    plan,
    planned_launch,
)
from ._launch import THREADS, address, flat_operand, on, stream_pointer, to_device, to_host
from .device_errors import (
    DIM,
    FLAG,
    KIND,
    KIND_INDEX,
    OP,
    SIMULATED,
    SIZE,
    VALUE,
    fence,
    op_code,
    record,
)

NONZERO_CHUNKS = 4 * THREADS
BAD = search_math.BAD_OFFSET
NO_ERROR = 2**63 - 1
_math = search_math.build(cuda.jit(device=True))
_row_offset = _math.row_offset
_bad_index = _math.bad_index
_first_bad: dict[tuple[int, int], Any] = {}


@cuda.jit
def gtensor_index_reset(first):  # noqa: ANN001
    first[0] = NO_ERROR


@cuda.jit
def gtensor_index_offsets(indices, sizes, strides, out, first, strict):  # noqa: ANN001
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < out.shape[0]:
        o = _row_offset(indices, sizes, strides, i, strict)
        if o == BAD:
            cuda.atomic.min(first, 0, i)
        out[i] = o
        i += step


@cuda.jit
def gtensor_index_report(indices, sizes, dims, first, record, op, strict):  # noqa: ANN001
    i = first[0]
    if i != NO_ERROR:
        first[0] = NO_ERROR
        if record[FLAG] == 0:
            j = _bad_index(indices, sizes, i, strict)
            record[OP] = op
            record[VALUE] = indices[j, i]
            record[DIM] = dims[j]
            record[SIZE] = sizes[j]
            record[KIND] = KIND_INDEX
            fence()
            record[FLAG] = 1


def _first_bad_slot(stream: Any) -> Any:
    """A one-element device buffer per (device, stream) for the first bad position."""
    key = (0 if SIMULATED else cuda.get_current_device().id, stream_pointer(stream))
    slot = _first_bad.get(key)
    if slot is None:
        slot = cuda.device_array(1, np.int64, stream=0 if stream is None else stream)
        (gtensor_index_reset[1, 1] if stream is None else gtensor_index_reset[1, 1, stream])(slot)
        _first_bad[key] = slot
    return slot


@register("index_offsets", "cuda", ["int64"])
def index_offsets(indices: Any, sizes: tuple[int, ...], strides: tuple[int, ...], out: Any, *,
                  opname: str, dims: tuple[int, ...], strict: bool = False,
                  stream: Any = None) -> None:
    """Write ``sum(wrap(indices[j, i]) * strides[j])`` into ``out[i]``, checking bounds.

    Args:
        indices: ``(k, n)`` int64 device index rows.
        sizes, strides: size and element stride of the dim each row indexes.
        out: ``(n,)`` int64 device offsets, overwritten (``BAD_OFFSET`` for bad rows).
        opname: op name for the error message.
        dims: dim number each row indexes, for the error message.
        strict: negative indices are out of range instead of counting from the end.
        stream: Numba stream (default stream when None).

    A bad index is recorded on the device and raised as ``IndexError`` at the
    next synchronizing call; this function never waits for the device.

    Example:
        >>> out = np.empty(2, np.int64)
        >>> index_offsets(np.array([[1, -1]]), (3,), (4,), out, opname="take", dims=(0,))
        >>> out.tolist()
        [4, 8]
    """
    n = out.shape[0]
    if n == 0:
        return
    sizes = tuple(int(v) for v in sizes)
    first = _first_bad_slot(stream)
    strict = bool(strict)
    types = (len(sizes), layout(indices), layout(out))
    planned_launch(gtensor_index_offsets, types, grid_blocks(n), ROW_THREADS, stream)(
        indices, sizes, tuple(int(v) for v in strides), out, first, strict)
    planned_launch(gtensor_index_report, types, 1, 1, stream)(
        indices, sizes, tuple(int(d) for d in dims), first, record(), op_code(opname), strict)


def _ints(values: Any) -> tuple[int, ...]:
    """``values`` as a tuple of Python ints (so launches see one argument type)."""
    return tuple(int(v) for v in values)


@register("gather", "cuda", [ANY])
def gather(src: Any, base: int, shape: tuple[int, ...], strides: tuple[int, ...], offsets: Any,
           out: Any, stream: Any = None) -> None:
    """``out[b, r...] = src[base + offsets[b] + sum(r[d] * strides[d])]``.

    Args:
        src: the source storage as a 1-D device array.
        base: element offset of the source view's origin.
        shape, strides: the rest dims ``R`` read per row, and their element strides.
        offsets: ``(n,)`` int64 device row offsets (validated by ``index_offsets``).
        out: device array of shape ``(n, *R)`` (any strides), ``src``'s dtype.
        stream: Numba stream (default stream when None).

    Example:
        >>> out = np.empty((2, 2))
        >>> gather(np.arange(6.0), 0, (2,), (1,), np.array([4, 0]), out); out.tolist()
        [[4.0, 5.0], [0.0, 1.0]]
    """
    if out.size == 0:
        return
    o_flat, o_off, o_strides = flat_operand(out)
    dtype = np.dtype(out.dtype)
    run = plan("gather", (dtype, dtype), (layout(src), layout(offsets)), _ints(shape),
               _ints(strides), tuple(out.shape), o_strides, stream)
    run(o_flat, o_off, src, int(base), offsets)


@register("scatter", "cuda", [(ANY, ANY)])
def scatter(dst: Any, base: int, shape: tuple[int, ...], strides: tuple[int, ...], offsets: Any,
            src: Any, mode: str, stream: Any = None) -> None:
    """Combine ``src[b, r...]`` into ``dst[base + offsets[b] + sum(r[d] * strides[d])]``.

    Args:
        dst: the destination storage as a 1-D device array, updated in place.
        base: element offset of the destination view's origin.
        shape, strides: the rest dims ``R`` written per row, and their element strides.
        offsets: ``(n,)`` int64 device row offsets (validated by ``index_offsets``).
        src: device array of shape ``(n, *R)`` (broadcast strides allowed), ``dst``'s dtype.
        mode: ``copy`` (one of the duplicate writes wins), ``add``, ``amax``, ``amin``, ``prod``.
        stream: Numba stream (default stream when None).

    Example:
        >>> dst = np.zeros(3)
        >>> scatter(dst, 0, (), (), np.array([0, 0, 2]), np.ones(3), "add"); dst.tolist()
        [2.0, 0.0, 1.0]
    """
    dtype = np.dtype(dst.dtype)
    _scatter(dst, base, shape, strides, offsets, src, mode, stream,
             "float16" if dtype == np.float16 else None)


@register("scatter", "cuda", [("bfloat16", "bfloat16")])
def scatter_bfloat16(dst: Any, base: int, shape: tuple[int, ...], strides: tuple[int, ...],
                     offsets: Any, src: Any, mode: str, stream: Any = None) -> None:
    """:func:`scatter` of bfloat16 operands given as their bits: ``copy`` moves the bits;
    ``add``, ``amax`` and ``amin`` combine in float32 and round once per combine.

    ``prod``, and a destination storage of an odd number of elements, are the
    caller's to widen (``ValueError`` here).

    Example:
        >>> import ml_dtypes
        >>> dst = np.zeros(2, ml_dtypes.bfloat16).view(np.uint16)
        >>> src = np.full(2, 1.5, ml_dtypes.bfloat16).view(np.uint16)
        >>> scatter_bfloat16(dst, 0, (), (), np.array([1, 1]), src, "add")
        >>> dst.view(ml_dtypes.bfloat16).astype(float).tolist()
        [0.0, 3.0]
    """
    _scatter(dst, base, shape, strides, offsets, src, mode, stream, "bfloat16")


def _scatter(dst: Any, base: int, shape: tuple[int, ...], strides: tuple[int, ...],
             offsets: Any, src: Any, mode: str, stream: Any, half: str | None) -> None:
    if mode not in SCATTER_MODES:
        raise ValueError(f"[scatter] unknown mode {mode!r}; expected one of {SCATTER_MODES}")
    if src.size == 0:
        return
    s_flat, s_off, s_strides = flat_operand(src)
    dtype = np.dtype(dst.dtype)
    kind = combine_kind(mode, dtype, half, words=dst.size % 2 == 0 and address(dst) % 4 == 0)
    if half == "bfloat16" and kind not in ("copy", "atomic16_bfloat16"):
        raise ValueError(f"[scatter] bfloat16 {mode} into {dst.size} elements: widen first")
    ind = dst
    if kind == "atomic_parts":
        ind = dst.view(np.dtype(f"f{dtype.itemsize // 2}"))
    elif kind.startswith("atomic16"):  # the values as their bits, the destination as words
        ind, s_flat = dst.view(np.uint32), s_flat.view(np.uint16)
    run = plan(kind, (np.dtype(s_flat.dtype), np.dtype(ind.dtype)), (layout(ind), layout(offsets)),
               _ints(shape), _ints(strides), tuple(src.shape), s_strides, stream)
    run(s_flat, s_off, ind, int(base), offsets, SCATTER_MODES.index(mode))


@cuda.jit
def gtensor_nonzero_count(x, chunk, counts):  # noqa: ANN001
    t = cuda.grid(1)
    if t < counts.shape[0]:
        c = 0
        for i in range(t * chunk, min((t + 1) * chunk, x.shape[0])):
            if x[i] != 0:
                c += 1
        counts[t] = c


@cuda.jit
def gtensor_nonzero_write(x, chunk, starts, shape, out):  # noqa: ANN001
    t = cuda.grid(1)
    if t < starts.shape[0]:
        pos = starts[t]
        for i in range(t * chunk, min((t + 1) * chunk, x.shape[0])):
            if x[i] != 0:
                rem = i
                for d in range(len(shape) - 1, -1, -1):
                    out[pos, d] = rem % shape[d]
                    rem //= shape[d]
                pos += 1


@register("nonzero", "cuda", [ANY])
def nonzero(x: Any, out: Any = None, stream: Any = None) -> int:
    """Count the nonzero elements of ``x``; with ``out``, write their coordinates in C order.

    Each thread scans one contiguous chunk; the host turns the chunk counts
    into start positions (it needs the total to size ``out`` anyway), so the
    coordinates come out in C order.

    Args:
        x: contiguous device array of rank >= 1.
        out: ``(count, x.ndim)`` int64 device array (any strides), or None to only count.
        stream: Numba stream (default stream when None).

    Returns:
        The number of nonzero elements.

    Example:
        >>> out = np.empty((2, 1), np.int64); nonzero(np.array([0, 3, 5]), out), out.tolist()
        (2, [[1], [2]])
    """
    n = x.size
    if n == 0:
        return 0
    s = 0 if stream is None else stream
    flat = x.reshape(n)
    chunk = -(-n // NONZERO_CHUNKS)
    nchunks = -(-n // chunk)
    counts = cuda.device_array(nchunks, np.int64, stream=s)
    on(gtensor_nonzero_count, nchunks, stream)(flat, chunk, counts)
    host = to_host(counts, stream)
    total = int(host.sum())
    if out is not None and total:
        starts = to_device(np.concatenate(([0], np.cumsum(host)[:-1])).astype(np.int64),
                           stream)
        shape = tuple(int(v) for v in x.shape)
        on(gtensor_nonzero_write, nchunks, stream)(flat, chunk, starts, shape, out)
    return total


@cuda.jit
def gtensor_divide_by_count(values, counts, integral):  # noqa: ANN001
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < values.shape[0]:
        c = counts[i]
        if c > 0:
            values[i] = values[i] // c if integral else values[i] / c
        i += step


@register("divide_by_count", "cuda", [(ANY, "int64")])
def divide_by_count(values: Any, counts: Any, stream: Any = None) -> None:
    """``values[i] /= counts[i]`` where ``counts[i] > 0`` (floor division for integers).

    Example:
        >>> v = np.array([4.0, 1.0]); divide_by_count(v, np.array([2, 0])); v.tolist()
        [2.0, 1.0]
    """
    if values.shape[0]:
        integral = np.dtype(values.dtype).kind in "iu"
        on(gtensor_divide_by_count, values.shape[0], stream)(values, counts, integral)
