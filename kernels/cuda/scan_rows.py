"""CUDA cumsum/cumprod along one axis: tiled team scans, and a scan of chunk totals for long lines.

Layouts as in ``axis_layout`` (``THREADS`` = 256 threads a block on a GPU):

- **contiguous axis** (``gtensor_scan_tiles``): row teams of ``per`` threads
  (about ``ITEMS`` = 8 elements a thread; 256 threads for long lines, several
  lines a block for short ones) sweep their line in tiles of ``per * ITEMS``
  elements: coalesced loads into a shared tile (padded one slot in
  ``ITEMS + 1`` against bank conflicts), each thread scans its ``ITEMS``
  consecutive elements, a Hillis-Steele scan over the team's thread totals,
  each thread adds the running carry and the totals before it, coalesced
  stores; the carry moves on to the next tile.
- **other axes** (``gtensor_scan_lines``): a thread scans one line (or one
  chunk of it) serially; adjacent threads take adjacent lines, so a warp's
  loads are consecutive when the lines are adjacent in memory.
- **few long lines** (fewer groups than ``target_blocks()``, 4 blocks per SM):
  each line is cut into chunks (``SCAN_CHUNK`` elements for row teams; for
  threads per line, enough chunks for ``target`` blocks of threads); three
  launches:
  ``gtensor_chunk_totals`` writes each chunk's total (a team reduces it),
  ``gtensor_scan_tiles`` scans each line's totals into running totals, and
  the scan kernel starts each chunk from the running total before it. A
  64M-element vector: 4096 chunks of 16384, 4096 blocks in the first and
  last launches.

Accumulation as before: float64 for floats, int64 for integers and bools,
cast on store. Integer results are exact; float results differ from a serial
running sum by rounding only.

CuPy's CUB scan is not used: CuPy runs CUB's device scan only in place over a
flattened contiguous array of the result dtype (``cupy.cumsum`` with
``axis=None``), so a scan into ``out`` is a cast copy plus the scan, four
passes over memory against the three of the chunked plan above, and float32
would accumulate in float32 rather than float64.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache, partial
from typing import Any

import numpy as np
from numba import cuda, from_dtype

from ..common.codegen import rebound
from ..common.scalar_rows import scan_row
from ._elementwise_build import _JIT
from ._launch import MAX_BLOCKS, SIMULATED, PlannedLaunch
from ._reduce_layout import THREADS, scratch, target_blocks
from .axis_layout import (
    Teams,
    _eoff,
    _line,
    along_rows,
    column_teams,
    group_count,
    group_part,
    member,
    row_teams,
)
from .half import half_io

ITEMS = 2 if SIMULATED else 8
SCAN_CHUNK = THREADS * ITEMS * (2 if SIMULATED else 8)
TILE = THREADS * (ITEMS + 1)
"""Shared tile slots of a block: one padding slot after each thread's ``ITEMS``."""
LINE_CHUNK = 2 if SIMULATED else 64
"""Fewest elements a thread scans serially when a line is split across threads."""

@cache
def _row_scan(half: str | None) -> Any:
    """The serial line scan as a device function over values (``half`` None) or half bits."""
    ld, st = half_io(half)
    return cuda.jit(device=True)(rebound(scan_row, half or "values", {"ld": ld, "st": st}))


@cuda.jit(device=True)
def _combine(a, b, is_prod):  # noqa: ANN001, ANN202
    return a * b if is_prod else a + b


@cache
def _kernels(acc_dtype: np.dtype, half: str | None = None) -> tuple[Any, Any, Any]:
    """The tiled scan, the serial scan and the chunk-total kernels for one accumulator dtype
    (over ``half`` bits: loads widened, results rounded on store)."""
    acc = from_dtype(acc_dtype)
    pad = ITEMS + 1
    ld, st = half_io(half)
    _scan_row = _row_scan(half)

    @cuda.jit(**_JIT)
    def gtensor_scan_tiles(geo, kshape, x, xo, kxs, out, oo, kos, sx, so,  # noqa: ANN001, ANN202
                           inc, ident, is_prod):
        tile = cuda.shared.array(TILE, acc)
        sums = cuda.shared.array(THREADS, acc)
        lines, per, chunks = geo[0], geo[2], geo[6]
        t = cuda.threadIdx.x
        team, lane = member(t, geo)
        base = team * per * pad
        mine = base + lane * pad
        g = cuda.blockIdx.x
        while g < group_count(geo):
            line, c, start, hi = group_part(g, geo, team)
            valid = line < lines
            px = xo
            po = oo
            carry = ident
            if valid:
                px, po = _line(line, kshape, xo, kxs, oo, kos)
                if c > 0:
                    carry = inc[line * chunks + c - 1]
            while start < hi:
                for r in range(ITEMS):
                    i = r * per + lane
                    tile[base + i + i // ITEMS] = ident
                    if valid and start + i < hi:
                        tile[base + i + i // ITEMS] = ld(x[px + (start + i) * sx])
                cuda.syncthreads()
                run = tile[mine]
                for r in range(1, ITEMS):
                    run = _combine(run, tile[mine + r], is_prod)
                    tile[mine + r] = run
                sums[t] = run
                cuda.syncthreads()
                d = 1
                while d < per:
                    before = ident
                    if lane >= d:
                        before = sums[t - d]
                    cuda.syncthreads()
                    if lane >= d:
                        sums[t] = _combine(before, sums[t], is_prod)
                    cuda.syncthreads()
                    d *= 2
                prefix = carry
                if lane > 0:
                    prefix = _combine(carry, sums[t - 1], is_prod)
                for r in range(ITEMS):
                    tile[mine + r] = _combine(prefix, tile[mine + r], is_prod)
                carry = _combine(carry, sums[t - lane + per - 1], is_prod)
                cuda.syncthreads()
                for r in range(ITEMS):
                    i = r * per + lane
                    if valid and start + i < hi:
                        out[po + (start + i) * so] = st(tile[base + i + i // ITEMS])
                cuda.syncthreads()
                start += per * ITEMS
            g += cuda.gridDim.x

    @cuda.jit(**_JIT)
    def gtensor_scan_lines(geo, kshape, x, xo, kxs, out, oo, kos, sx, so,  # noqa: ANN001, ANN202
                           inc, ident, is_prod):
        lines, length, chunks, chunk = geo[0], geo[1], geo[6], geo[7]
        k = cuda.grid(1)
        while k < lines * chunks:
            line = k % lines
            c = k // lines
            px, po = _line(line, kshape, xo, kxs, oo, kos)
            carry = ident
            if c > 0:
                carry = inc[line * chunks + c - 1]
            lo = c * chunk
            _scan_row(x, px + lo * sx, sx, out, po + lo * so, so, min(length, lo + chunk) - lo,
                      carry, is_prod)
            k += cuda.gridsize(1)

    @cuda.jit(**_JIT)
    def gtensor_chunk_totals(geo, kshape, x, xo, kxs, sx, tot, ident,  # noqa: ANN001, ANN202
                             is_prod):
        red = cuda.shared.array(THREADS, acc)
        lines, per, lstride, chunks = geo[0], geo[2], geo[5], geo[6]
        t = cuda.threadIdx.x
        team, lane = member(t, geo)
        g = cuda.blockIdx.x
        while g < group_count(geo):
            line, c, lo, hi = group_part(g, geo, team)
            total = ident
            if line < lines:
                px = _eoff(line, kshape, kxs, xo)
                j = lo + lane
                while j < hi:
                    total = _combine(total, ld(x[px + j * sx]), is_prod)
                    j += per
            red[t] = total
            cuda.syncthreads()
            h = per // 2
            while h > 0:
                if lane < h:
                    red[t] = _combine(red[t], red[t + h * lstride], is_prod)
                cuda.syncthreads()
                h //= 2
            if line < lines and lane == 0:
                tot[line * chunks + c] = red[t]
            cuda.syncthreads()
            g += cuda.gridDim.x

    return gtensor_scan_tiles, gtensor_scan_lines, gtensor_chunk_totals


def scan_teams(lines: int, length: int, kxs: tuple[int, ...], sx: int,
               target: int | None = None) -> tuple[Teams, bool]:
    """The scan's layout and whether row teams scan tiles (else a thread scans a line).

    Lines are split into chunks when they alone would run fewer than ``target``
    blocks (default ``target_blocks()``). A thread per line is written as teams
    of one thread.

    Example:
        >>> scan_teams(1, 1 << 26, (0, 0, 1), 1, target=528)[0].chunks > 1
        True
    """
    target = target_blocks() if target is None else target
    if along_rows(lines, kxs, sx):
        teams = row_teams(lines, length, ITEMS)
        if -(-lines // teams.lpb) < target and length >= 2 * SCAN_CHUNK:
            return teams.split(SCAN_CHUNK), True
        return teams, True
    teams = Teams(lines, length, 1, 1, 1, 1)
    chunks = min(-(-target * THREADS // lines), length // LINE_CHUNK)
    return (teams.split(-(-length // chunks)) if chunks >= 2 else teams), False


def plan_scan(kshape: tuple[int, ...], kxs: tuple[int, ...], kos: tuple[int, ...],
              length: int, sx: int, so: int, ident: Any, is_prod: bool,
              stream: Any = None, half: str | None = None) -> Callable[..., None]:
    """Choose layout and kernels once; return ``run(xb, xo, ob, oo)`` over flat buffers.

    Args:
        kshape, kxs, kos: the other dims, collapsed, with input and output strides.
        length, sx, so: the axis length and the input's and output's axis strides.
        ident: the accumulator's identity (its dtype is the accumulator's).
        is_prod: cumprod instead of cumsum.
        stream: the stream every launch goes to.
        half: ``"float16"`` or ``"bfloat16"`` when the buffers hold that type's bits.
    """
    lines = math.prod(kshape)
    teams, tiled = scan_teams(lines, length, kxs, sx)
    tiles, serial, totals = _kernels(np.dtype(ident.dtype), half)
    if tiled:
        scan = PlannedLaunch(tiles, 0, stream, teams.blocks, THREADS)
        chunked = teams
    else:
        threads = lines * teams.chunks
        scan = PlannedLaunch(serial, 0, stream, min(MAX_BLOCKS, -(-threads // THREADS)), THREADS)
        chunked = column_teams(lines, length).split(teams.chunk) if teams.chunks > 1 else teams
    if teams.chunks == 1:
        return partial(_scan_once, scan, teams.geometry, kshape, kxs, kos, sx, so, ident, is_prod)
    reduce = PlannedLaunch(totals, 0, stream, chunked.blocks, THREADS)
    inner = row_teams(lines, teams.chunks, ITEMS)
    # the chunk offsets scan the float totals (accumulator values, never half bits)
    offsets = PlannedLaunch(_kernels(np.dtype(ident.dtype))[0], 0, stream, inner.blocks, THREADS)
    return partial(_scan_chunks, reduce, offsets, scan, chunked.geometry, inner.geometry,
                   teams.geometry, kshape, kxs, kos, sx, so, ident, is_prod, stream)


def _scan_once(scan: Any, geo: tuple[int, ...], kshape: tuple[int, ...], kxs: tuple[int, ...],
               kos: tuple[int, ...], sx: int, so: int, ident: Any, is_prod: bool, xb: Any,
               xo: int, ob: Any, oo: int) -> None:
    # ``xb`` stands in for the chunk offsets, which a line in one chunk never reads
    scan(geo, kshape, xb, xo, kxs, ob, oo, kos, sx, so, xb, ident, is_prod)


def _scan_chunks(reduce: Any, offsets: Any, scan: Any, chunked: tuple[int, ...],
                 inner: tuple[int, ...], geo: tuple[int, ...], kshape: tuple[int, ...],
                 kxs: tuple[int, ...], kos: tuple[int, ...], sx: int, so: int, ident: Any,
                 is_prod: bool, stream: Any, xb: Any, xo: int, ob: Any, oo: int) -> None:
    lines, chunks = geo[0], geo[6]
    tot = scratch(lines * chunks, ident.dtype, stream)
    inc = scratch(lines * chunks, ident.dtype, stream)
    reduce(chunked, kshape, xb, xo, kxs, sx, tot, ident, is_prod)
    rows = (1, 1, lines)
    strides = (0, 0, chunks)
    offsets(inner, rows, tot, 0, strides, inc, 0, strides, 1, 1, tot, ident, is_prod)
    scan(geo, kshape, xb, xo, kxs, ob, oo, kos, sx, so, inc, ident, is_prod)
