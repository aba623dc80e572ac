"""CUDA strided copy with dtype conversion, planned once per layout.

``CudaCopy.plan`` collapses the dims that both sides step through together,
picks one of three kernels and its grid, and returns ``run(src, so, out, oo)``
over flat buffers and element offsets; ``kernel(src, out, stream=None)``
keeps one plan per call signature. Kernel designs (sizes for a real GPU):

- **flat** (both sides contiguous after collapsing): 1-D grid of 256-thread
  blocks, grid-stride over chunks of 1024 elements; each thread loads its 4
  elements of a chunk (256 apart, so every load is coalesced across the warp)
  before storing any, so 4 loads are in flight; the one partial chunk is
  copied with bounds checks.
- **transpose** (one dim unit-stride in the destination, another in the
  source): those two dims form 32x32 tiles, batched over the other dims; 1-D
  grid of 256-thread blocks (32 columns x 8 rows), grid-stride over tiles. A
  block reads a tile with its 32 columns running along the source's
  unit-stride dim (4 elements per thread) into shared memory padded to 33
  columns, syncs, and writes the tile's columns with its 32 columns running
  along the destination's unit-stride dim, so both global sides are coalesced
  and the column reads from shared memory hit 32 different banks.
- **strided** (anything else): 1-D grid of 256-thread blocks, grid-stride over
  the destination's elements in C order; each step unravels its index once
  into both offsets (none for a contiguous destination, whose offset is the
  index).

Index arithmetic runs in 32 bits (a second compiled variant) when the element
count and both views' extents allow; buffer offsets are added in 64 bits. A
``bool`` destination stores ``value != 0``; a stride-0 source dim broadcasts.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache, partial
from typing import Any

import numpy as np
from numba import cuda, from_dtype

from ..common.dtype_groups import ALL, COMPLEX
from ..common.operands import nothing
from ..common.strided import Dims, collapse, is_c_contiguous, span
from ..registry import ANY, register
from ._elementwise_build import _JIT
from ._launch import MAX_BLOCKS, SIMULATED, PlannedLaunch, flat_operand, remembered
from .half import as_is, load_bf16, store_bf16

THREADS = 4 if SIMULATED else 256
"""Threads per block of the flat and strided kernels."""
UNROLL = 4
"""Elements a flat or transpose thread moves per step (written out in their bodies)."""
TILE = 4 if SIMULATED else 32
"""Side of a transpose tile, in elements."""
TILE_PAD = TILE + 1
"""Columns of a shared-memory tile: one spare, so a column's elements sit in different banks."""
TILE_ROWS = TILE // UNROLL
"""Rows of threads per transpose block: each thread moves ``UNROLL`` elements of a tile."""
TILE_MIN = max(2, TILE // 4)
"""Both transposed dims at least this long take the transpose kernel (shorter ones idle
most of a tile's threads)."""
NARROW_LIMIT = 2**31 - 2**27
"""Layouts whose element count, extents and strides stay below this use 32-bit index
arithmetic (a grid-stride step past the end stays below 2**31)."""


@cuda.jit(device=True)
def strided_offset(i, shape, off, strides):  # noqa: ANN001, ANN201
    """Element offset of the ``i``-th element (C order) of a strided view (``fill`` uses it)."""
    for d in range(len(shape) - 1, -1, -1):
        off += (i % shape[d]) * strides[d]
        i //= shape[d]
    return off


@cuda.jit(device=True)
def _at(offset, i):  # noqa: ANN001, ANN202
    # An unsigned index: Numba adds no negative-index wraparound to the access.
    return np.uint64(offset + i)


@cuda.jit(device=True)
def _nonzero(v):  # noqa: ANN001, ANN202
    return v != 0


@cuda.jit(device=True)
def _from_bf16(v):  # noqa: ANN001, ANN202
    return load_bf16(v)


@cuda.jit(device=True)
def _from_bf16_nonzero(v):  # noqa: ANN001, ANN202
    return load_bf16(v) != 0


@cuda.jit(device=True)
def _to_bf16(v):  # noqa: ANN001, ANN202
    return store_bf16(np.float32(v))


@cuda.jit(device=True)
def _real(v):  # noqa: ANN001, ANN202
    return v.real


@cuda.jit(device=True)
def _real_to_bf16(v):  # noqa: ANN001, ANN202
    return store_bf16(np.float32(v.real))


CONVERSIONS = {"as_is": as_is, "nonzero": _nonzero, "from_bf16": _from_bf16,
               "from_bf16_nonzero": _from_bf16_nonzero, "to_bf16": _to_bf16, "real": _real,
               "real_to_bf16": _real_to_bf16}
"""Each element's conversion on the way, by name: ``nonzero`` stores ``value != 0`` into a
bool destination; the ``bf16`` ones widen bfloat16 bits read or round to bfloat16 bits
written (bfloat16 buffers are ``uint16`` bits to the kernels); ``real`` keeps a complex
value's real part for a real destination, as NumPy's cast does."""


def _index_types(narrow: bool) -> tuple[Any, Any]:
    return (np.int32, np.uint32) if narrow else (np.int64, np.uint64)


@cache
def _flat_kernel(narrow: bool, mode: str) -> Any:
    idx, _ = _index_types(narrow)
    conv = CONVERSIONS[mode]

    @cuda.jit(**_JIT)
    def gtensor_copy_flat(n, dst, do, src, so):  # noqa: ANN001, ANN202
        t = idx(cuda.threadIdx.x)
        chunk = idx(THREADS * UNROLL)
        start = idx(idx(cuda.blockIdx.x) * chunk)
        step = idx(idx(cuda.gridDim.x) * chunk)
        last = idx(n - chunk)
        while start <= last:
            i = idx(start + t)
            v0 = src[_at(so, i)]
            v1 = src[_at(so, idx(i + THREADS))]
            v2 = src[_at(so, idx(i + 2 * THREADS))]
            v3 = src[_at(so, idx(i + 3 * THREADS))]
            dst[_at(do, i)] = conv(v0)
            dst[_at(do, idx(i + THREADS))] = conv(v1)
            dst[_at(do, idx(i + 2 * THREADS))] = conv(v2)
            dst[_at(do, idx(i + 3 * THREADS))] = conv(v3)
            start = idx(start + step)
        i = idx(start + t)
        while i < n:
            dst[_at(do, i)] = conv(src[_at(so, i)])
            i = idx(i + THREADS)

    return gtensor_copy_flat


@cache
def strided_put(narrow: bool, mode: str, dst_contiguous: bool) -> Any:
    """Device function ``put(i, shape, dst, do, dst_strides, src, so, src_strides)``: copy the
    ``i``-th element (C order over ``shape``) of a strided source to a strided destination.

    Each call unravels ``i`` once into both offsets (none for a contiguous
    destination, whose offset is ``i``); ``cat`` uses it too. ``mode`` names the
    element conversion (see ``CONVERSIONS``).
    """
    idx, uidx = _index_types(narrow)
    conv = CONVERSIONS[mode]

    @cuda.jit(device=True)
    def put(i, shape, dst, do, dst_strides, src, so, src_strides):  # noqa: ANN001, ANN202
        q = uidx(i)
        s_off = idx(0)
        d_off = idx(0)
        for d in range(len(shape) - 1, 0, -1):
            nq = uidx(q // shape[d])
            c = idx(q - nq * shape[d])
            q = nq
            s_off = idx(s_off + c * src_strides[d])
            if not dst_contiguous:
                d_off = idx(d_off + c * dst_strides[d])
        s_off = idx(s_off + idx(q) * src_strides[0])
        if dst_contiguous:
            d_off = i
        else:
            d_off = idx(d_off + idx(q) * dst_strides[0])
        dst[_at(do, d_off)] = conv(src[_at(so, s_off)])

    return put


@cache
def _strided_kernel(narrow: bool, mode: str, dst_contiguous: bool) -> Any:
    idx, _ = _index_types(narrow)
    put = strided_put(narrow, mode, dst_contiguous)

    @cuda.jit(**_JIT)
    def gtensor_copy_strided(n, shape, dst, do, dst_strides, src, so,  # noqa: ANN001, ANN202
                             src_strides):
        i = idx(idx(cuda.blockIdx.x) * idx(cuda.blockDim.x) + idx(cuda.threadIdx.x))
        step = idx(idx(cuda.gridDim.x) * idx(cuda.blockDim.x))
        while i < n:
            put(i, shape, dst, do, dst_strides, src, so, src_strides)
            i = idx(i + step)

    return gtensor_copy_strided


@cache
def _transpose_kernel(narrow: bool, mode: str, tile_dtype: np.dtype) -> Any:
    idx, uidx = _index_types(narrow)
    conv = CONVERSIONS[mode]
    tile_type = from_dtype(tile_dtype)

    @cuda.jit(**_JIT)
    def gtensor_copy_transpose(tiles, row_tiles, col_tiles, rows, cols,  # noqa: ANN001, ANN202
                               bshape, dst, do, dst_bstrides, d_rs, d_cs,
                               src, so, src_bstrides, s_rs, s_cs):
        # Tile element (r, c): r runs along the destination's unit-stride dim, c along the
        # source's. Each thread moves UNROLL elements TILE_ROWS apart in r on the read and
        # in c on the write.
        tile = cuda.shared.array((TILE, TILE_PAD), tile_type)
        lane = idx(uidx(cuda.threadIdx.x) % uidx(TILE))
        j0 = idx(uidx(cuda.threadIdx.x) // uidx(TILE))
        k = idx(cuda.blockIdx.x)
        while k < tiles:
            q = uidx(uidx(k) // col_tiles)
            c0 = idx(idx(k - q * col_tiles) * TILE)
            b = uidx(q // row_tiles)
            r0 = idx(idx(q - b * row_tiles) * TILE)
            s_base = idx(0)
            d_base = idx(0)
            for d in range(len(bshape) - 1, -1, -1):
                nb = uidx(b // bshape[d])
                i = idx(b - nb * bshape[d])
                b = nb
                s_base = idx(s_base + i * src_bstrides[d])
                d_base = idx(d_base + i * dst_bstrides[d])
            full = r0 + TILE <= rows and c0 + TILE <= cols
            c = idx(c0 + lane)
            if full:
                p = idx(s_base + idx(r0 + j0) * s_rs + c * s_cs)
                hop = idx(TILE_ROWS * s_rs)
                v0 = src[_at(so, p)]
                v1 = src[_at(so, idx(p + hop))]
                v2 = src[_at(so, idx(p + 2 * hop))]
                v3 = src[_at(so, idx(p + 3 * hop))]
                tile[j0, lane] = conv(v0)
                tile[j0 + TILE_ROWS, lane] = conv(v1)
                tile[j0 + 2 * TILE_ROWS, lane] = conv(v2)
                tile[j0 + 3 * TILE_ROWS, lane] = conv(v3)
            else:
                for u in range(UNROLL):
                    j = idx(j0 + u * TILE_ROWS)
                    r = idx(r0 + j)
                    if r < rows and c < cols:
                        tile[j, lane] = conv(src[_at(so, idx(s_base + r * s_rs + c * s_cs))])
            cuda.syncthreads()
            r = idx(r0 + lane)
            for u in range(UNROLL):
                j = idx(j0 + u * TILE_ROWS)
                c = idx(c0 + j)
                if full or (r < rows and c < cols):
                    dst[_at(do, idx(d_base + r * d_rs + c * d_cs))] = tile[lane, j]
            k = idx(k + idx(cuda.gridDim.x))
            if k < tiles:  # the same for the whole block: the next tile reuses `tile`
                cuda.syncthreads()

    return gtensor_copy_transpose


def _is_narrow(n: int, shape: Dims, *strides: Dims) -> bool:
    """True when every index the kernels form for this layout fits 32-bit arithmetic."""
    if n >= NARROW_LIMIT:
        return False
    for st in strides:
        lo, hi = span(shape, st)
        if -lo >= NARROW_LIMIT or hi >= NARROW_LIMIT or any(abs(s) >= NARROW_LIMIT for s in st):
            return False
    return True


def _blocks(items: int, per_block: int) -> int:
    """Blocks for a grid-stride loop over ``items``, ``per_block`` of them per block and step."""
    return max(1, min(MAX_BLOCKS, -(-items // per_block)))


def _transpose_dims(shape: Dims, dst_strides: Dims, src_strides: Dims) -> tuple[int, int] | None:
    """Return ``(row, col)``: a dim unit-stride in the destination and another in the source."""
    if len(shape) < 2:
        return None
    rows = [d for d in range(len(shape)) if dst_strides[d] == 1]
    if not rows or src_strides[rows[-1]] == 1:
        return None
    row = rows[-1]
    cols = [d for d in range(len(shape)) if src_strides[d] == 1]
    if not cols:
        return None
    col = cols[-1]
    if min(shape[row], shape[col]) < TILE_MIN:
        return None
    return row, col


class CudaCopy:
    """The CUDA ``copy`` kernel: ``kernel(src, out, stream=None)`` and ``plan``.

    ``bf16``: ``"src"`` or ``"dst"`` for the kernel converting from or to
    bfloat16 (that side's arrays are its ``uint16`` bits), ``"complex"`` and
    ``"complex_bf16"`` for those converting complex values to a real dtype and to
    bfloat16, None for the others.
    """

    __name__ = "gtensor_copy_cuda"

    def __init__(self, bf16: str | None = None) -> None:
        self._plans: dict[tuple[Any, ...], Callable[..., None]] = {}
        self._bf16 = bf16

    def __call__(self, src: Any, out: Any, stream: Any = None) -> None:
        """Copy ``src`` (broadcast to ``out``'s shape, any strides) into ``out``, converting dtype.

        Args:
            src: source device array (or NumPy array on the simulator), ``out``'s shape.
            out: destination array.
            stream: Numba stream to launch on (default stream when None).

        Example:
            >>> out = np.empty(3, np.float32); gtensor_copy_cuda(np.arange(3)[::-1], out)
            >>> out.tolist()
            [2.0, 1.0, 0.0]
        """
        if out.size == 0:
            return
        s_flat, s_off, s_strides = flat_operand(src)
        d_flat, d_off, d_strides = flat_operand(out)
        key = (out.shape, s_strides, d_strides, src.dtype, out.dtype, stream)
        run = remembered(self._plans, key, self.plan, tuple(out.shape), s_strides, d_strides,
                         np.dtype(src.dtype), np.dtype(out.dtype), stream)
        run(s_flat, s_off, d_flat, d_off)

    def plan(self, shape: Dims, src_strides: Dims, out_strides: Dims, src_dtype: np.dtype,
             out_dtype: np.dtype, stream: Any = None) -> Callable[..., None]:
        """Work out layout, kernel and grid once; return ``run(src, so, out, oo)``.

        Args:
            shape: the destination's shape (the source is broadcast to it).
            src_strides: the source's element strides over ``shape`` (0 broadcasts).
            out_strides: the destination's element strides.
            src_dtype: the source's dtype.
            out_dtype: the destination's dtype (a ``bool`` one stores ``value != 0``).
            stream: Numba stream to launch on (default stream when None).

        Returns:
            A function of the flat source buffer, the source's element offset, the
            flat destination buffer and its element offset.

        Example:
            >>> f32 = np.dtype(np.float32)
            >>> run = gtensor_copy_cuda.plan((4, 5), (1, 4), (5, 1), f32, f32)
            >>> out = np.empty(20, np.float32); run(np.arange(20, dtype=f32), 0, out, 0)
            >>> out.reshape(4, 5)[1].tolist()
            [1.0, 5.0, 9.0, 13.0, 17.0]
        """
        n = math.prod(shape)
        if n == 0:
            return nothing
        cshape, (ds, ss) = collapse(shape, [out_strides, src_strides])
        narrow = _is_narrow(n, cshape, ds, ss)
        idx, uidx = _index_types(narrow)
        to_bool = np.dtype(out_dtype).kind == "b"
        mode = "nonzero" if to_bool else "as_is"
        if self._bf16 == "src":
            mode = "from_bf16_nonzero" if to_bool else "from_bf16"
        elif self._bf16 == "dst":
            mode = "to_bf16"
        elif self._bf16 == "complex" and not to_bool:
            mode = "real"
        elif self._bf16 == "complex_bf16":
            mode = "real_to_bf16"
        if len(cshape) == 1 and ds == (1,) and ss == (1,):
            launch = PlannedLaunch(_flat_kernel(narrow, mode), 0, stream,
                                   _blocks(n, THREADS * UNROLL), THREADS)
            return partial(_run_flat, launch, idx(n))
        pair = _transpose_dims(cshape, ds, ss)
        if pair is not None:
            return _transpose_plan(cshape, ds, ss, pair, narrow, mode, np.dtype(out_dtype),
                                   stream)
        contiguous = is_c_contiguous(cshape, ds)
        launch = PlannedLaunch(_strided_kernel(narrow, mode, contiguous), 0, stream,
                               _blocks(n, THREADS), THREADS)
        shape_arg = tuple(uidx(s) for s in cshape)
        return partial(_run_strided, launch, idx(n), shape_arg, tuple(idx(s) for s in ds),
                       tuple(idx(s) for s in ss))


def _transpose_plan(shape: Dims, ds: Dims, ss: Dims, pair: tuple[int, int], narrow: bool,
                    mode: str, out_dtype: np.dtype, stream: Any) -> Callable[..., None]:
    row, col = pair
    idx, uidx = _index_types(narrow)
    batch = [d for d in range(len(shape)) if d not in pair]
    bshape, (bds, bss) = collapse([shape[d] for d in batch],
                                  [[ds[d] for d in batch], [ss[d] for d in batch]])
    rows, cols = shape[row], shape[col]
    row_tiles, col_tiles = -(-rows // TILE), -(-cols // TILE)
    tiles = row_tiles * col_tiles
    for b in bshape:
        tiles *= b
    launch = PlannedLaunch(_transpose_kernel(narrow, mode, out_dtype), 0, stream,
                           _blocks(tiles, 1), TILE * TILE_ROWS)
    sizes = (idx(tiles), uidx(row_tiles), uidx(col_tiles), idx(rows), idx(cols),
             tuple(uidx(b) for b in bshape))
    return partial(_run_transpose, launch, sizes,
                   (tuple(idx(s) for s in bds), idx(ds[row]), idx(ds[col])),
                   (tuple(idx(s) for s in bss), idx(ss[row]), idx(ss[col])))


def _run_flat(launch: Any, n: Any, src: Any, so: int, out: Any, oo: int) -> None:
    launch(n, out, oo, src, so)


def _run_strided(launch: Any, n: Any, shape: tuple[Any, ...], ds: tuple[Any, ...],
                 ss: tuple[Any, ...], src: Any, so: int, out: Any, oo: int) -> None:
    launch(n, shape, out, oo, ds, src, so, ss)


def _run_transpose(launch: Any, sizes: tuple[Any, ...], d_layout: tuple[Any, ...],
                   s_layout: tuple[Any, ...], src: Any, so: int, out: Any, oo: int) -> None:
    launch(*sizes, out, oo, *d_layout, src, so, *s_layout)


register("copy", "cuda", [("bfloat16", "bfloat16")])(CudaCopy())
register("copy", "cuda", [(c, "bfloat16") for c in COMPLEX])(CudaCopy("complex_bf16"))
register("copy", "cuda", [(c, d) for c in COMPLEX for d in (*ALL, "float16")])(
    CudaCopy("complex"))
register("copy", "cuda", [("bfloat16", ANY)])(CudaCopy("src"))
register("copy", "cuda", [(ANY, "bfloat16")])(CudaCopy("dst"))
gtensor_copy_cuda = register("copy", "cuda", [(ANY, ANY)])(CudaCopy())
