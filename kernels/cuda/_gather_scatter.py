"""Gather/scatter kernels by row offsets: row tiles for one-run rows, a strided loop otherwise.

Both ops move elements between an *indexed* operand ``I`` (addressed at
``base + offsets[b] + rest offset``: the source of a gather, the destination
of a scatter) and a *dense* operand ``D`` of shape ``(n, *R)`` (the gather's
output, the scatter's values). The rest dims ``R`` are collapsed on the host
jointly for both operands; the layout is decided once per call signature
(:func:`plan`) and its launch once per kernel, dtypes, grid and stream.

**Row tiles** (``R`` collapses to one run of length ``L``, any strides): a
block of ``ROW_THREADS`` threads is ``ROW_THREADS / lanes`` row slots of
``lanes`` adjacent threads; every thread moves ``SLOTS`` = 4 elements per tile,
all four loads issued before the first store, so four are in flight. ``lanes``
and the direction of the four slots follow the layout (:func:`row_geometry`):

- *along*: rows of ``L >= SHORT_ROW`` elements: ``lanes = pow2(L / 4)`` (at
  most a block), slot ``u`` at column ``lane + u * lanes``, so a warp reads and
  writes runs of 32 adjacent elements of one row (coalesced when the row is
  unit-stride; ``x[idx]`` on a ``(M, 256)`` float32 matrix: 64 lanes, 4 rows per
  block, one ``offsets`` load per row);
- *short*: ``L < SHORT_ROW`` (gather along a dim, ``take``: ``L = 1``): ``lanes =
  pow2(L)``, the four slots on four rows ``THREADS / lanes`` apart;
- *down*: the dense operand's rows are unit-stride and its row runs are not
  (``x[:, idx]``: the output's lead dim is innermost), and the indexed rows are
  not unit-stride either: one thread per row, slots on four adjacent columns,
  so a warp writes 32 adjacent elements per slot.

Tiles are ``rows_tile x cols_tile`` elements; blocks of 256 threads walk tiles
(row-major) in a grid-stride loop with the grid capped at 8 blocks per SM (132
SMs on an H200), the tile coordinates advanced by additions (one division per
thread, none per element; per tile two multiplies place slot 0, the other slots
are additions). When the layout's counts and offsets stay below
``NARROW_LIMIT`` a second compiled variant does this math in 32 bits (each step
cast back to ``int32``, since Numba widens integer arithmetic to 64 bits); row
starts and buffer offsets are added in 64 bits, and accesses use unsigned
indices, so no negative-index wraparound is compiled in.

**Strided loop** (``R`` stays of rank >= 2 after collapsing): one thread per
element in a grid-stride loop; each element index is unravelled once over the
dims of ``(n, *R)`` (one division per dim, its remainder by a multiply).

**Combining** into the indexed operand: ``copy`` stores (among duplicate
offsets some write wins); ``add``, ``amax``, ``amin`` use ``cuda.atomic`` on
the dtypes in ``ATOMIC_KINDS`` (a complex ``add`` adds to the real and imaginary
parts, the destination given as its floats); float16 and bfloat16 combine
through a compare-and-swap loop on the 32-bit word holding the element (the
destination given as its words, the values as their bits: each combine
rounds once, as a native half atomic does); ``prod`` and the other dtypes run
the strided loop on one thread, which combines every duplicate exactly once, in order. A
row whose offset is ``BAD_OFFSET`` (an index found out of range) is read as
zeros by a gather and skipped by a scatter.

Grids are rounded up to powers of two, so the launch configurations stay few
(Numba keeps 128 of them, shared by all kernels).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from typing import Any

import numpy as np
from numba import cuda

from ..common import search_math
from ..common.strided import collapse
from ._launch import SIMULATED, PlannedLaunch, multiprocessors, remembered, stream_pointer
from .half import half_io

ROW_THREADS = 8 if SIMULATED else 256
SHORT_ROW = 8 if SIMULATED else 32
SLOTS = 4
BLOCKS_PER_SM = 8
SIMULATED_BLOCKS = 2
ATOMIC_KINDS = ("int32", "int64", "uint32", "uint64", "float32", "float64")
BAD = search_math.BAD_OFFSET
NARROW_LIMIT = 2**31 - 2**27
"""Row layouts whose counts and offsets stay below this take 32-bit index arithmetic."""

Run = Callable[..., None]
_plans: dict[tuple[Any, ...], Run] = {}
_launches: dict[tuple[Any, ...], PlannedLaunch] = {}


def pow2(n: int) -> int:
    """Smallest power of two >= ``n`` (1 for ``n <= 1``)."""
    return 1 << max(0, n - 1).bit_length()


def block_cap() -> int:
    """Most blocks one launch gets: ``BLOCKS_PER_SM`` per SM (2 when simulated)."""
    if SIMULATED:
        return SIMULATED_BLOCKS
    return BLOCKS_PER_SM * multiprocessors()[0]


def grid_blocks(n: int) -> int:
    """Blocks of ``ROW_THREADS`` for a grid-stride loop over ``n`` items (a power of two, capped).

    Example:
        >>> grid_blocks(1) == 1
        True
    """
    return min(block_cap(), pow2(-(-n // ROW_THREADS)))


def row_geometry(n: int, length: int, dense_row: int, dense_col: int, ind_col: int,
                 cap: int, threads: int = ROW_THREADS,
                 short_row: int = SHORT_ROW) -> tuple[int, tuple[int, ...]]:
    """Choose the row-tile mapping for ``n`` rows of ``length`` elements.

    Args:
        n, length: rows and elements per row.
        dense_row, dense_col: element strides of the dense operand's rows and columns.
        ind_col: element stride along a row of the indexed operand.
        cap: most blocks to launch.
        threads, short_row: block size and the row length below which rows are short.

    Returns:
        ``(blocks, geometry)``; ``geometry`` is the kernels' tuple ``(n, length,
        log2(lanes), row step, column step, rows_tile, cols_tile, row tiles,
        column tiles, row advance, column advance)``.

    Example:
        >>> row_geometry(10**6, 256, 256, 1, 1, 1056, 256, 32)[1][2:7]
        (6, 0, 64, 4, 256)
    """
    if length > 1 and dense_row == 1 and dense_col != 1 and ind_col != 1:
        lanes, dr, dc = 1, 0, 1
    elif length < short_row:
        lanes = pow2(length)
        dr, dc = threads // lanes, 0
    else:
        lanes = min(threads, pow2(-(-length // SLOTS)))
        dr, dc = 0, lanes
    per_pass = threads // lanes
    rows_tile = per_pass * (SLOTS if dr else 1)
    cols_tile = lanes * (SLOTS if dc else 1)
    tiles_r = -(-n // rows_tile)
    tiles_c = -(-length // cols_tile)
    blocks = min(cap, pow2(tiles_r * tiles_c))
    step_r, step_c = divmod(blocks, tiles_c)
    return blocks, (n, length, lanes.bit_length() - 1, dr, dc, rows_tile, cols_tile, tiles_r,
                    tiles_c, step_r, step_c)


@cuda.jit(device=True)
def _at(offset, i):  # noqa: ANN001, ANN202
    # An unsigned index: Numba adds no negative-index wraparound to the access.
    return np.uint64(offset + i)


@cuda.jit(device=True)
def _row_start(offsets, r, n, i_base):  # noqa: ANN001, ANN202
    """Where row ``r`` starts in the indexed operand (``BAD`` past the rows or for a bad row)."""
    if r >= n:
        return BAD
    o = offsets[r]
    return BAD if o == BAD else o + i_base


# Moves of one element between the operands: ``o`` is the row's start in the indexed
# operand (BAD for a bad row), ``i`` the element's offset from it; ``d`` is the element's
# offset in the dense operand from ``d_off``.
@cuda.jit(device=True)
def _read_indexed(dense, ind, o, d_off, d, i, zero):  # noqa: ANN001, ANN202
    if o == BAD:
        return zero
    return ind[_at(o, i)]


@cuda.jit(device=True)
def _read_dense(dense, ind, o, d_off, d, i, zero):  # noqa: ANN001, ANN202
    return dense[_at(d_off, d)]


@cuda.jit(device=True)
def _write_dense(dense, ind, o, d_off, d, i, v, mode):  # noqa: ANN001, ANN202
    dense[_at(d_off, d)] = v


@cuda.jit(device=True)
def _write_copy(dense, ind, o, d_off, d, i, v, mode):  # noqa: ANN001, ANN202
    if o != BAD:
        ind[_at(o, i)] = v


@cuda.jit(device=True)
def _write_atomic(dense, ind, o, d_off, d, i, v, mode):  # noqa: ANN001, ANN202
    if o == BAD:
        return
    if mode == 1:
        cuda.atomic.add(ind, _at(o, i), v)
    elif v != v:  # a NaN wins amax and amin; Numba's atomic max and min skip it, but keep
        ind[_at(o, i)] = v  # a NaN they find, so once stored it stays
    elif mode == 2:
        cuda.atomic.max(ind, _at(o, i), v)
    else:
        cuda.atomic.min(ind, _at(o, i), v)


@cuda.jit(device=True)
def _write_atomic_parts(dense, ind, o, d_off, d, i, v, mode):  # noqa: ANN001, ANN202
    """``add`` of a complex value into ``ind``, the destination's float parts: two atomics."""
    if o == BAD:
        return
    at = _at(o, i) * np.uint64(2)
    cuda.atomic.add(ind, at, v.real)
    cuda.atomic.add(ind, at + np.uint64(1), v.imag)


@cuda.jit(device=True)
def _write_serial_complex(dense, ind, o, d_off, d, i, v, mode):  # noqa: ANN001, ANN202
    """``_write_serial`` without the orderings, which complex numbers lack."""
    if o == BAD:
        return
    at = _at(o, i)
    if mode == 1:
        ind[at] = ind[at] + v
    elif mode == 4:
        ind[at] = ind[at] * v
    else:
        ind[at] = v


@cuda.jit(device=True)
def _write_serial(dense, ind, o, d_off, d, i, v, mode):  # noqa: ANN001, ANN202
    if o == BAD:
        return
    at = _at(o, i)
    cur = ind[at]
    if mode == 1:
        ind[at] = cur + v
    elif mode == 2:
        if v > cur or v != v:
            ind[at] = v
    elif mode == 3:
        if v < cur or v != v:
            ind[at] = v
    elif mode == 4:
        ind[at] = cur * v
    else:
        ind[at] = v


def _write_atomic16(half: str) -> Any:
    """The ``add``/``amax``/``amin`` of ``half`` bits ``v`` into element ``_at(o, i)`` of a
    16-bit destination given as its 32-bit words ``ind``: a compare-and-swap loop on the word."""
    load, store = half_io(half)

    @cuda.jit(device=True)
    def write(dense, ind, o, d_off, d, i, v, mode):  # noqa: ANN001, ANN202
        if o == BAD:
            return
        at = _at(o, i)
        word = at >> np.uint64(1)
        odd = (at & np.uint64(1)) != np.uint64(0)  # little-endian: the word's high half
        shift = np.uint32(16) if odd else np.uint32(0)
        keep = np.uint32(0xFFFF) if odd else np.uint32(0xFFFF0000)
        x = load(v)
        old = ind[word]
        while True:
            cur = load(np.uint16((old >> shift) & np.uint32(0xFFFF)))
            if mode == 1:
                new = cur + x
            elif mode == 2:
                if not (x > cur or x != x):
                    return
                new = x
            else:
                if not (x < cur or x != x):
                    return
                new = x
            swapped = np.uint32((old & keep) | (np.uint32(store(new)) << shift))
            seen = cuda.atomic.cas(ind, word, old, swapped)
            if seen == old:
                return
            old = seen

    return write


_MOVES = {"gather": (_read_indexed, _write_dense), "copy": (_read_dense, _write_copy),
          "atomic": (_read_dense, _write_atomic), "serial": (_read_dense, _write_serial),
          "atomic_parts": (_read_dense, _write_atomic_parts),
          "serial_complex": (_read_dense, _write_serial_complex),
          "atomic16_float16": (_read_dense, _write_atomic16("float16")),
          "atomic16_bfloat16": (_read_dense, _write_atomic16("bfloat16"))}
_NAMES = {"gather": "gtensor_gather", "copy": "gtensor_scatter_copy",
          "atomic": "gtensor_scatter_atomic", "serial": "gtensor_scatter_serial",
          "atomic_parts": "gtensor_scatter_atomic_parts",
          "serial_complex": "gtensor_scatter_serial_complex",
          "atomic16_float16": "gtensor_scatter_atomic_f16",
          "atomic16_bfloat16": "gtensor_scatter_atomic_bf16"}


@cache
def row_kernel(kind: str, narrow: bool) -> Any:
    """The row-tile kernel of ``kind`` (see the module doc), in 32-bit index math if ``narrow``.

    Offsets within a row and within the dense operand use the index type;
    row starts and buffer offsets stay 64-bit.
    """
    read, write = _MOVES[kind]
    idx = np.int32 if narrow else np.int64

    def kernel(geo, dense, d_off, d_row, d_col, ind, i_base, i_col, offsets,  # noqa: ANN001, ANN202
               zero, mode):
        n = idx(geo[0])
        length = idx(geo[1])
        dr = idx(geo[3])
        dc = idx(geo[4])
        rows_tile = idx(geo[5])
        cols_tile = idx(geo[6])
        tiles_r = idx(geo[7])
        tiles_c = idx(geo[8])
        d_row = idx(d_row)
        d_col = idx(d_col)
        i_col = idx(i_col)
        d_step = idx(dr * d_row + dc * d_col)
        i_step = idx(dc * i_col)
        t = idx(cuda.threadIdx.x)
        sub = idx(t >> geo[2])
        lane = idx(t & ((1 << geo[2]) - 1))
        rt = idx(idx(cuda.blockIdx.x) // tiles_c)
        ct = idx(idx(cuda.blockIdx.x) - rt * tiles_c)
        while rt < tiles_r:
            r0 = idx(rt * rows_tile + sub)
            r1 = idx(r0 + dr)
            r2 = idx(r1 + dr)
            r3 = idx(r2 + dr)
            c0 = idx(ct * cols_tile + lane)
            c1 = idx(c0 + dc)
            c2 = idx(c1 + dc)
            c3 = idx(c2 + dc)
            d0 = idx(r0 * d_row + c0 * d_col)
            d1 = idx(d0 + d_step)
            d2 = idx(d1 + d_step)
            d3 = idx(d2 + d_step)
            i0 = idx(c0 * i_col)
            i1 = idx(i0 + i_step)
            i2 = idx(i1 + i_step)
            i3 = idx(i2 + i_step)
            o0 = _row_start(offsets, r0, n, i_base)
            if dr == 0:
                o1 = o2 = o3 = o0
            else:
                o1 = _row_start(offsets, r1, n, i_base)
                o2 = _row_start(offsets, r2, n, i_base)
                o3 = _row_start(offsets, r3, n, i_base)
            ok0 = r0 < n and c0 < length
            ok1 = r1 < n and c1 < length
            ok2 = r2 < n and c2 < length
            ok3 = r3 < n and c3 < length
            v0 = v1 = v2 = v3 = zero
            if ok0:
                v0 = read(dense, ind, o0, d_off, d0, i0, zero)
            if ok1:
                v1 = read(dense, ind, o1, d_off, d1, i1, zero)
            if ok2:
                v2 = read(dense, ind, o2, d_off, d2, i2, zero)
            if ok3:
                v3 = read(dense, ind, o3, d_off, d3, i3, zero)
            if ok0:
                write(dense, ind, o0, d_off, d0, i0, v0, mode)
            if ok1:
                write(dense, ind, o1, d_off, d1, i1, v1, mode)
            if ok2:
                write(dense, ind, o2, d_off, d2, i2, v2, mode)
            if ok3:
                write(dense, ind, o3, d_off, d3, i3, v3, mode)
            rt = idx(rt + geo[9])
            ct = idx(ct + geo[10])
            if ct >= tiles_c:
                ct = idx(ct - tiles_c)
                rt = idx(rt + 1)

    kernel.__name__ = kernel.__qualname__ = f"{_NAMES[kind]}_rows{32 if narrow else 64}"
    return cuda.jit(kernel)


@cache
def strided_kernel(kind: str) -> Any:
    """The one-thread-per-element kernel of ``kind`` over collapsed rest dims of rank >= 1."""
    read, write = _MOVES[kind]

    def kernel(total, shape, dense, d_off, d_row, d_strides, ind, i_base, i_strides,  # noqa: ANN001, ANN202
               offsets, zero, mode):
        i = cuda.grid(1)
        step = cuda.gridsize(1)
        while i < total:
            r = i
            d = 0
            e = 0
            for k in range(len(shape) - 1, -1, -1):
                q = r // shape[k]
                c = r - q * shape[k]
                r = q
                d += c * d_strides[k]
                e += c * i_strides[k]
            d += r * d_row
            o = offsets[r]
            if o != BAD:
                o += i_base
            write(dense, ind, o, d_off, d, e, read(dense, ind, o, d_off, d, e, zero), mode)
            i += step

    kernel.__name__ = kernel.__qualname__ = _NAMES[kind]
    return cuda.jit(kernel)


def fits_32_bits(geo: tuple[int, ...], d_row: int, d_col: int, i_col: int) -> bool:
    """True when every in-row and dense offset the row kernel forms stays below ``NARROW_LIMIT``.

    Example:
        >>> fits_32_bits(row_geometry(10**6, 256, 256, 1, 1, 1056)[1], 256, 1, 1)
        True
    """
    n, length, rows_tile, cols_tile = geo[0], geo[1], geo[5], geo[6]
    rows = n + SLOTS * rows_tile
    cols = length + SLOTS * cols_tile
    return max(rows, abs(d_row) * rows + abs(d_col) * cols, abs(i_col) * cols) < NARROW_LIMIT


def planned_launch(kernel: Any, key: tuple[Any, ...], blocks: int, threads: int,
                   stream: Any) -> PlannedLaunch:
    """The launch of ``kernel`` for one argument-type key, grid and stream, made once.

    ``key`` must name everything that sets the types of the kernel's
    arguments (dtypes, tuple lengths, array layouts): the launch is
    specialized for the types of its first call.
    """
    full = (kernel, *key, blocks, threads, stream_pointer(stream))
    return remembered(_launches, full, PlannedLaunch, kernel, 0, stream, blocks, threads)


def layout(a: Any) -> str:
    """Numba's layout letter (``C``, ``F`` or ``A``) for a device array, as its type has it.

    A launch is specialized for the argument types of its first call, so the
    layouts of arrays that callers pass through unchanged belong in its key.

    Example:
        >>> layout(np.zeros((2, 3))[:, ::2]), layout(np.zeros(4))
        ('A', 'C')
    """
    if a.size and 0 in a.strides:
        return "A"
    if a.ndim == 1:
        return "C" if a.size <= 1 or a.strides[0] == a.dtype.itemsize else "A"
    flags = a.flags
    return "C" if flags["C_CONTIGUOUS"] else "F" if flags["F_CONTIGUOUS"] else "A"


def combine_kind(mode: str, dtype: np.dtype, half: str | None = None, words: bool = False
                 ) -> str:
    """Which scatter kernel combines ``mode`` for ``dtype``: copy, atomic or serial.

    ``half`` names a float16 or bfloat16 destination (``dtype`` its storage
    type); ``words``: whether its storage splits into whole 32-bit words, which
    the compare-and-swap combine of half types needs.

    Example:
        >>> combine_kind("add", np.dtype("float32")), combine_kind("prod", np.dtype("int64"))
        ('atomic', 'serial')
        >>> combine_kind("amax", np.dtype("uint16"), "bfloat16", words=True)
        'atomic16_bfloat16'
    """
    if mode == "copy":
        return "copy"
    if half is not None and words and mode in ("add", "amax", "amin"):
        return f"atomic16_{half}"
    if dtype.kind == "c":  # ``add`` on the float parts (the caller passes them), else one thread
        return "atomic_parts" if mode == "add" else "serial_complex"
    return "atomic" if mode != "prod" and dtype.name in ATOMIC_KINDS else "serial"


def plan(kind: str, dtypes: tuple[np.dtype, ...], layouts: tuple[str, ...],
         shape: tuple[int, ...], ind_strides: tuple[int, ...], dense_shape: tuple[int, ...],
         dense_strides: tuple[int, ...], stream: Any = None) -> Run:
    """Return ``run(dense, d_off, ind, i_base, offsets)`` for one call signature (memoized).

    Args:
        kind: ``gather``, or the scatter's :func:`combine_kind`.
        dtypes: the dense and indexed operands' dtypes.
        layouts: :func:`layout` of the indexed operand and of ``offsets``.
        shape, ind_strides: the rest dims ``R`` and the indexed operand's strides over them.
        dense_shape, dense_strides: the dense operand's ``(n, *R)`` shape and element strides.
        stream: Numba stream (default stream when None).

    Example:
        >>> f32 = np.dtype(np.float32)
        >>> run = plan("gather", (f32, f32), ("C", "C"), (4,), (1,), (3, 4), (4, 1))
        >>> out = np.empty(12, f32); run(out, 0, np.arange(8, dtype=f32), 0, np.array([4, 0, 4]))
        >>> out.reshape(3, 4)[:2].tolist()
        [[4.0, 5.0, 6.0, 7.0], [0.0, 1.0, 2.0, 3.0]]
    """
    key = (kind, dtypes, layouts, shape, ind_strides, dense_shape, dense_strides,
           stream_pointer(stream))
    return remembered(_plans, key, _make_plan, kind, (*dtypes, *layouts), shape, ind_strides,
                      dense_shape, dense_strides, stream)


def _make_plan(kind: str, types: tuple[Any, ...], shape: tuple[int, ...],
               ind_strides: tuple[int, ...], dense_shape: tuple[int, ...],
               dense_strides: tuple[int, ...], stream: Any) -> Run:
    n = int(dense_shape[0])
    cshape, (i_str, d_str) = collapse(shape, [ind_strides, dense_strides[1:]])
    zero = types[0].type(0)
    serial = kind.startswith("serial")
    if not serial and len(cshape) == 1:
        d_row, d_col, i_col = dense_strides[0], d_str[0], i_str[0]
        blocks, geo = row_geometry(n, cshape[0], d_row, d_col, i_col, block_cap())
        kernel = row_kernel(kind, fits_32_bits(geo, d_row, d_col, i_col))
        launch = planned_launch(kernel, types, blocks, ROW_THREADS, stream)
        return partial(_run_rows, launch, geo, d_row, d_col, i_col, zero)
    total = n * int(np.prod(cshape))
    blocks = 1 if serial else grid_blocks(total)
    threads = 1 if serial else ROW_THREADS
    launch = planned_launch(strided_kernel(kind), (*types, len(cshape)), blocks, threads, stream)
    return partial(_run_strided, launch, total, cshape, dense_strides[0], d_str, i_str, zero)


def _run_rows(launch: PlannedLaunch, geo: tuple[int, ...], d_row: int, d_col: int, i_col: int,
              zero: Any, dense: Any, d_off: int, ind: Any, i_base: int, offsets: Any,
              mode: int = 0) -> None:
    launch(geo, dense, d_off, d_row, d_col, ind, i_base, i_col, offsets, zero, mode)


def _run_strided(launch: PlannedLaunch, total: int, shape: tuple[int, ...], d_row: int,
                 d_strides: tuple[int, ...], i_strides: tuple[int, ...], zero: Any, dense: Any,
                 d_off: int, ind: Any, i_base: int, offsets: Any, mode: int = 0) -> None:
    launch(total, shape, dense, d_off, d_row, d_strides, ind, i_base, i_strides, offsets, zero,
           mode)
