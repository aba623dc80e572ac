"""Thread layouts of the CUDA axis ops: which threads share a line, how long lines split.

A block of ``THREADS`` threads holds ``lpb`` teams of ``per`` threads (powers of
two, ``lpb * per == THREADS``); a team works on one line, or on one chunk of a
line when a line is split into ``chunks`` chunks of ``chunk`` elements. Thread
``t`` is team ``(t // tstride) % lpb`` and lane ``(t // lstride) % per``, and its
shared-memory slot is ``t``:

- row teams (``tstride = per``, ``lstride = 1``) are ``per`` adjacent threads;
  lane ``i`` takes elements ``i, i + per, ...`` of the line, so a warp reads
  consecutive addresses when the axis is the contiguous dim;
- column teams (``tstride = 1``, ``lstride = lpb``): adjacent threads are in
  adjacent lines at the same position along the axis, so a warp reads
  consecutive addresses when adjacent lines are adjacent in memory (the axis
  is not the contiguous dim).

Blocks grid-stride over ``groups = ceil(lines / lpb) * chunks``; group ``g`` is
chunk ``g % chunks`` of lines ``(g // chunks) * lpb + team``. Block size, the
column width and the blocks that fill the GPU (``target_blocks``) are the
reductions' (``_reduce_layout``).
"""

from __future__ import annotations

from dataclasses import dataclass

from numba import cuda

from ..common.offsets import element_offset, line_offsets
from ._launch import MAX_BLOCKS
from ._reduce_layout import COL_WIDTH, THREADS, _pow2_at_least

_line = cuda.jit(device=True)(line_offsets)
_eoff = cuda.jit(device=True)(element_offset)


@cuda.jit(device=True)
def member(t, geo):  # noqa: ANN001, ANN201
    """``(team, lane)`` of thread ``t`` under layout ``geo`` (``Teams.geometry``)."""
    per, lpb, tstride, lstride = geo[2], geo[3], geo[4], geo[5]
    return (t // tstride) % lpb, (t // lstride) % per


@cuda.jit(device=True)
def group_count(geo):  # noqa: ANN001, ANN201
    """How many groups (``lpb`` lines, one chunk each) the blocks stride over."""
    return (geo[0] + geo[3] - 1) // geo[3] * geo[6]


@cuda.jit(device=True)
def group_part(g, geo, team):  # noqa: ANN001, ANN201
    """``(line, chunk, lo, hi)``: the line, chunk index and element range of ``team`` in
    group ``g``."""
    length, lpb, chunks, chunk = geo[1], geo[3], geo[6], geo[7]
    c = g % chunks
    return g // chunks * lpb + team, c, c * chunk, min(length, c * chunk + chunk)


@dataclass(frozen=True)
class Teams:
    """One launch's layout: ``lines`` of ``length`` elements in teams, chunks per line.

    Example:
        >>> Teams(10, 8, 4, 1, 4, 1).geometry
        (10, 8, 4, 1, 4, 1, 1, 8)
    """

    lines: int
    length: int
    per: int
    lpb: int
    tstride: int
    lstride: int
    chunks: int = 1
    chunk: int = 0

    @property
    def geometry(self) -> tuple[int, ...]:
        """The kernels' layout argument: ``(lines, length, per, lpb, tstride, lstride,
        chunks, chunk)``."""
        return (self.lines, self.length, self.per, self.lpb, self.tstride, self.lstride,
                self.chunks, self.chunk or self.length)

    @property
    def blocks(self) -> int:
        """Blocks to launch: one per group, at most ``MAX_BLOCKS`` (they grid-stride)."""
        return max(1, min(MAX_BLOCKS, -(-self.lines // self.lpb) * self.chunks))

    def split(self, chunk: int) -> Teams:
        """The same teams over chunks of ``chunk`` elements each (the last may be shorter).

        Example:
            >>> Teams(1, 10, 4, 1, 4, 1).split(4).chunks
            3
        """
        return Teams(self.lines, self.length, self.per, self.lpb, self.tstride, self.lstride,
                     -(-self.length // chunk), chunk)


def along_rows(lines: int, kxs: tuple[int, ...], sx: int) -> bool:
    """True when threads should step along the axis (its stride is the smallest).

    Adjacent lines sit ``kxs[-1]`` apart (the innermost kept dim after collapsing).

    Example:
        >>> along_rows(4, (0, 0, 8), 1), along_rows(8, (0, 0, 1), 4)
        (True, False)
    """
    return lines == 1 or abs(sx) <= abs(kxs[-1])


def row_teams(lines: int, length: int, items: int) -> Teams:
    """Row teams sized so each thread takes about ``items`` elements of a line.

    Example:
        >>> row_teams(8192, 1024, 8).per in (4, 128)
        True
    """
    per = min(THREADS, _pow2_at_least(-(-length // items)))
    return Teams(lines, length, per, THREADS // per, per, 1)


def column_teams(lines: int, length: int) -> Teams:
    """Column teams: up to a warp of adjacent lines, the rest of the block along the axis.

    Example:
        >>> column_teams(3, 100).lpb in (2, 4)
        True
    """
    lpb = min(COL_WIDTH, _pow2_at_least(lines))
    return Teams(lines, length, THREADS // lpb, lpb, 1, lpb)


def teams_for(lines: int, length: int, kxs: tuple[int, ...], sx: int, items: int) -> Teams:
    """Row teams when the axis is the dim threads should step along, else column teams.

    Example:
        >>> teams_for(1, 50, (0, 0, 1), 1, 8).tstride == teams_for(1, 50, (0, 0, 1), 1, 8).per
        True
    """
    if along_rows(lines, kxs, sx):
        return row_teams(lines, length, items)
    return column_teams(lines, length)

