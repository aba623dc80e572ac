"""CUDA softmax/log_softmax along one axis: teams of threads per line, one read for the stats.

Layouts as in ``axis_layout`` (``THREADS`` = 256 threads a block on a GPU):

- **one pass per line** (``gtensor_softmax``): each team's threads stride
  over their line keeping an online max and a rescaled float64 sum of
  ``exp(x - max)`` (``common.scalar_rows.online_add``; four loads in flight
  per thread), merge the ``(max, sum)`` pairs in a shared-memory tree, then
  read the line again (from cache) and write ``exp(x - max) / sum`` or
  ``x - max - log(sum)``. Row teams when the axis is contiguous (about 8
  elements a thread: ``dim=-1`` of 4096 x 4096 is a 256-thread block per row,
  4096 blocks; of 8192 x 1024, two rows of 128 threads a block), column teams
  of 32 adjacent lines and 8 threads per line otherwise.
- **split lines** when the teams cannot fill the GPU (fewer groups than
  ``target_blocks()``, 4 blocks per SM: 528 on an H200) and the lines are
  long: each line is cut into up to ``target / groups`` chunks of at least
  ``SPLIT_ITEMS`` elements a thread;
  ``gtensor_softmax_partial`` writes one ``(max, sum)`` pair per chunk, then
  ``gtensor_softmax_finish`` has every chunk's team merge its line's pairs
  (at most ``target`` of them, so the repeated merging costs less than a
  third launch would) and write its chunk. ``dim=0`` of 4096 x 4096: 128
  groups of 32 columns, each column cut into 5 chunks of 824 rows, 640 blocks.

Accumulation as before: the max in the input dtype, ``exp(x - max)`` in the
input dtype summed in float64 (float16/bfloat16: loads widened to float32 in
registers, results rounded once on store); a line with a NaN, a ``+inf`` or only ``-inf``
gives NaN everywhere, as the two-pass CPU kernel does.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache, partial
from typing import Any

import numpy as np
from numba import cuda, float64, from_dtype

from ..common.scalar_rows import online_add, online_merge, softmax_total
from ._elementwise_build import _JIT
from ._launch import SIMULATED, PlannedLaunch
from ._reduce_layout import THREADS, scratch, target_blocks
from .axis_layout import Teams, _eoff, _line, group_count, group_part, member, teams_for
from .half import half_io

ROW_ITEMS = 2 if SIMULATED else 8
SPLIT_ITEMS = 2 if SIMULATED else 32

_add = cuda.jit(device=True)(online_add)
_merge = cuda.jit(device=True)(online_merge)
_total = cuda.jit(device=True)(softmax_total)


@cuda.jit(device=True)
def _softmax_value(v, m, inv, shift, log):  # noqa: ANN001, ANN202
    return v - shift if log else math.exp(v - m) * inv


@cache
def _line_functions(half: str | None) -> tuple[Any, Any]:
    """``(online_range, store)`` device functions reading (and writing) ``half`` bits, or
    values of the input dtype when ``half`` is None."""
    ld, st = half_io(half)

    @cuda.jit(device=True)
    def online_range(x, px, sx, j, hi, step, m, s):  # noqa: ANN001, ANN202
        """Fold elements ``j, j + step, ... < hi`` of a line into ``(m, s)``, four loads at a
        time."""
        while j + 3 * step < hi:
            v0 = ld(x[px + j * sx])
            v1 = ld(x[px + (j + step) * sx])
            v2 = ld(x[px + (j + 2 * step) * sx])
            v3 = ld(x[px + (j + 3 * step) * sx])
            m, s = _add(m, s, v0)
            m, s = _add(m, s, v1)
            m, s = _add(m, s, v2)
            m, s = _add(m, s, v3)
            j += 4 * step
        while j < hi:
            m, s = _add(m, s, ld(x[px + j * sx]))
            j += step
        return m, s

    @cuda.jit(device=True)
    def store(x, px, sx, out, po, so, j, hi, step, m, total, log):  # noqa: ANN001, ANN202
        """Write elements ``j, j + step, ... < hi`` of the line's softmax, four at a time."""
        inv = 1.0 / total
        shift = m + math.log(total) if log else 0.0
        while j + 3 * step < hi:
            v0 = ld(x[px + j * sx])
            v1 = ld(x[px + (j + step) * sx])
            v2 = ld(x[px + (j + 2 * step) * sx])
            v3 = ld(x[px + (j + 3 * step) * sx])
            out[po + j * so] = st(_softmax_value(v0, m, inv, shift, log))
            out[po + (j + step) * so] = st(_softmax_value(v1, m, inv, shift, log))
            out[po + (j + 2 * step) * so] = st(_softmax_value(v2, m, inv, shift, log))
            out[po + (j + 3 * step) * so] = st(_softmax_value(v3, m, inv, shift, log))
            j += 4 * step
        while j < hi:
            out[po + j * so] = st(_softmax_value(ld(x[px + j * sx]), m, inv, shift, log))
            j += step

    return online_range, store


@cuda.jit(device=True)
def _team_merge(sm, ss, t, lane, per, lstride, m, s):  # noqa: ANN001, ANN202
    """Merge the ``(m, s)`` pairs of a team's lanes in shared memory; every lane gets the result."""
    sm[t] = m
    ss[t] = s
    cuda.syncthreads()
    h = per // 2
    while h > 0:
        if lane < h:
            a, b = _merge(sm[t], ss[t], sm[t + h * lstride], ss[t + h * lstride])
            sm[t] = a
            ss[t] = b
        cuda.syncthreads()
        h //= 2
    root = t - lane * lstride
    m = sm[root]
    s = ss[root]
    cuda.syncthreads()
    return m, s


@cache
def _kernels(dtype: np.dtype, half: str | None = None) -> tuple[Any, Any, Any]:
    """The one-pass, partial and finishing kernels for input dtype ``dtype`` (the bits of
    ``half``, whose values are float32)."""
    value = from_dtype(np.dtype(np.float32) if half else dtype)
    _online_range, _store = _line_functions(half)

    @cuda.jit(**_JIT)
    def gtensor_softmax(geo, kshape, x, xo, kxs, out, oo, kos, sx, so,  # noqa: ANN001, ANN202
                        ninf, log):
        sm = cuda.shared.array(THREADS, value)
        ss = cuda.shared.array(THREADS, float64)
        lines, per, lstride = geo[0], geo[2], geo[5]
        t = cuda.threadIdx.x
        team, lane = member(t, geo)
        g = cuda.blockIdx.x
        while g < group_count(geo):
            line, _, lo, hi = group_part(g, geo, team)
            m = ninf
            s = 0.0
            px = xo
            po = oo
            if line < lines:
                px, po = _line(line, kshape, xo, kxs, oo, kos)
                m, s = _online_range(x, px, sx, lo + lane, hi, per, m, s)
            m, s = _team_merge(sm, ss, t, lane, per, lstride, m, s)
            if line < lines:
                _store(x, px, sx, out, po, so, lo + lane, hi, per, m, _total(m, s), log)
            g += cuda.gridDim.x

    @cuda.jit(**_JIT)
    def gtensor_softmax_partial(geo, kshape, x, xo, kxs, sx, pm, ps,  # noqa: ANN001, ANN202
                                ninf):
        sm = cuda.shared.array(THREADS, value)
        ss = cuda.shared.array(THREADS, float64)
        lines, per, lstride, chunks = geo[0], geo[2], geo[5], geo[6]
        t = cuda.threadIdx.x
        team, lane = member(t, geo)
        g = cuda.blockIdx.x
        while g < group_count(geo):
            line, c, lo, hi = group_part(g, geo, team)
            m = ninf
            s = 0.0
            if line < lines:
                m, s = _online_range(x, _eoff(line, kshape, kxs, xo), sx, lo + lane, hi, per,
                                     m, s)
            m, s = _team_merge(sm, ss, t, lane, per, lstride, m, s)
            if line < lines and lane == 0:
                pm[line * chunks + c] = m
                ps[line * chunks + c] = s
            g += cuda.gridDim.x

    @cuda.jit(**_JIT)
    def gtensor_softmax_finish(geo, kshape, x, xo, kxs, out, oo, kos, sx, so,  # noqa: ANN001, ANN202
                               pm, ps, ninf, log):
        sm = cuda.shared.array(THREADS, value)
        ss = cuda.shared.array(THREADS, float64)
        lines, per, lstride, chunks = geo[0], geo[2], geo[5], geo[6]
        t = cuda.threadIdx.x
        team, lane = member(t, geo)
        g = cuda.blockIdx.x
        while g < group_count(geo):
            line, _, lo, hi = group_part(g, geo, team)
            m = ninf
            s = 0.0
            k = lane
            while line < lines and k < chunks:
                m, s = _merge(m, s, pm[line * chunks + k], ps[line * chunks + k])
                k += per
            m, s = _team_merge(sm, ss, t, lane, per, lstride, m, s)
            if line < lines:
                px, po = _line(line, kshape, xo, kxs, oo, kos)
                _store(x, px, sx, out, po, so, lo + lane, hi, per, m, _total(m, s), log)
            g += cuda.gridDim.x

    return gtensor_softmax, gtensor_softmax_partial, gtensor_softmax_finish


def softmax_teams(lines: int, length: int, kxs: tuple[int, ...], sx: int,
                  target: int | None = None) -> Teams:
    """Teams per line; long lines split into chunks when fewer than ``target`` blocks
    (default ``target_blocks()``) would run.

    Example:
        >>> softmax_teams(4096, 4096, (0, 0, 4096), 1, target=528).chunks
        1
    """
    target = target_blocks() if target is None else target
    teams = teams_for(lines, length, kxs, sx, ROW_ITEMS)
    groups = -(-lines // teams.lpb)
    chunks = min(-(-target // groups), length // (teams.per * SPLIT_ITEMS))
    if groups >= target or chunks < 2:
        return teams
    return teams.split(-(-length // (chunks * teams.per)) * teams.per)


def plan_softmax(kshape: tuple[int, ...], kxs: tuple[int, ...], kos: tuple[int, ...],
                 length: int, sx: int, so: int, dtype: np.dtype, log: bool,
                 stream: Any = None, half: str | None = None) -> Callable[..., None]:
    """Choose teams and kernels once; return ``run(xb, xo, ob, oo)`` over flat buffers.

    Args:
        kshape, kxs, kos: the other dims, collapsed, with input and output strides.
        length, sx, so: the axis length and the input's and output's axis strides.
        dtype: the input (and output) dtype.
        log: log_softmax instead of softmax.
        stream: the stream every launch goes to.
        half: ``"float16"`` or ``"bfloat16"`` when the buffers hold that type's bits.
    """
    lines = math.prod(kshape)
    teams = softmax_teams(lines, length, kxs, sx)
    one_pass, partial_stats, finish = _kernels(np.dtype(dtype), half)
    ninf = (np.float32 if half else np.dtype(dtype).type)(-np.inf)
    if teams.chunks == 1:
        launch = PlannedLaunch(one_pass, 0, stream, teams.blocks, THREADS)
        return partial(_one_pass, launch, teams.geometry, kshape, kxs, kos, sx, so, ninf, log)
    stats = PlannedLaunch(partial_stats, 0, stream, teams.blocks, THREADS)
    write = PlannedLaunch(finish, 0, stream, teams.blocks, THREADS)
    return partial(_split, stats, write, teams.geometry, kshape, kxs, kos, sx, so, ninf, log,
                   stream)


def _one_pass(launch: Any, geo: tuple[int, ...], kshape: tuple[int, ...], kxs: tuple[int, ...],
              kos: tuple[int, ...], sx: int, so: int, ninf: Any, log: bool, xb: Any, xo: int,
              ob: Any, oo: int) -> None:
    launch(geo, kshape, xb, xo, kxs, ob, oo, kos, sx, so, ninf, log)


def _split(stats: Any, write: Any, geo: tuple[int, ...], kshape: tuple[int, ...],
           kxs: tuple[int, ...], kos: tuple[int, ...], sx: int, so: int, ninf: Any, log: bool,
           stream: Any, xb: Any, xo: int, ob: Any, oo: int) -> None:
    n = geo[0] * geo[6]
    pm = scratch(n, ninf.dtype, stream)
    ps = scratch(n, np.dtype(np.float64), stream)
    stats(geo, kshape, xb, xo, kxs, sx, pm, ps, ninf)
    write(geo, kshape, xb, xo, kxs, ob, oo, kos, sx, so, pm, ps, ninf, log)

