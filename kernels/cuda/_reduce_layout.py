"""How a CUDA reduction spreads its outputs and reduced elements over threads and blocks.

Every reduction kernel (the folds and ``argmax``/``argmin``) runs blocks of
``THREADS`` threads cut into groups of ``lanes`` threads (a power of two), one
group per output; a block holds ``THREADS // lanes`` outputs. The lanes of a
group stride over the output's reduced elements and finish with a
shared-memory tree. :func:`choose` picks, once per call signature:

- ``cols``: which thread index runs along the outputs. Rows (reduced dims
  inner in memory): lanes are adjacent threads, so a group reads a contiguous
  run. Columns (the kept dims inner, e.g. ``sum(dim=0)`` of a C-contiguous
  matrix): outputs are adjacent threads, so a warp reads adjacent outputs
  and each lane walks the reduced dim.
- ``lanes``: up to ``THREADS`` (a block per output) for long reductions,
  fewer for short ones so that a block still holds useful work.
- ``chunks``: when the groups of outputs fill fewer than ``target_blocks()``
  blocks, each output's reduced range is cut into chunks reduced by separate
  blocks into a scratch buffer of partial accumulators, merged afterwards by
  a small kernel in a fixed order (the result does not depend on scheduling).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

from ._launch import MAX_BLOCKS, SIMULATED, multiprocessors

THREADS = 4 if SIMULATED else 256
BLOCKS_PER_SM = 4
SIMULATED_SMS = 1
ROW_ELEMS = 2 if SIMULATED else 4  # reduced elements per lane before a group gets wider
SPLIT_MIN = 2 if SIMULATED else 16  # fewest reduced elements per lane in one chunk
COL_WIDTH = 2 if SIMULATED else 32  # adjacent outputs per block row in the column layout


@dataclass(frozen=True)
class Layout:
    """One reduction's thread layout (see the module docstring)."""

    lanes: int
    cols: bool
    chunks: int
    size: int  # reduced elements per chunk
    blocks: int  # grid of the kernel that reads the input
    merge_blocks: int  # grid of the kernel that merges the chunks' partials


def target_blocks() -> int:
    """Blocks that fill the current GPU: ``BLOCKS_PER_SM`` per multiprocessor.

    Example:
        >>> target_blocks() >= BLOCKS_PER_SM
        True
    """
    if SIMULATED:
        return BLOCKS_PER_SM * SIMULATED_SMS
    return BLOCKS_PER_SM * multiprocessors()[0]


def _pow2_at_least(v: int) -> int:
    return 1 << max(0, v - 1).bit_length()


def choose(kshape: tuple[int, ...], kxs: tuple[int, ...], rxs: tuple[int, ...], n: int,
           target: int | None = None) -> Layout:
    """Pick the layout of a reduction planned by ``strided.reduction_plan``.

    Args:
        kshape: the collapsed kept dims.
        kxs: the input's strides over them.
        rxs: the input's strides over the collapsed reduced dims.
        n: the number of reduced elements per output.
        target: blocks that fill the GPU (default :func:`target_blocks`).

    Example:
        >>> lay = choose((1, 1, 1), (0, 0, 1), (0, 0, 1), 10**6, target=528)
        >>> lay.chunks > 1 and lay.lanes == THREADS
        True
    """
    target = target_blocks() if target is None else target
    outputs = 1
    for d in kshape:
        outputs *= d
    per_lane = _pow2_at_least(-(-n // ROW_ELEMS)) if n else 1
    cols = outputs > 1 and n > 1 and abs(kxs[-1]) < abs(rxs[-1])
    if cols:
        lanes = min(THREADS // min(COL_WIDTH, _pow2_at_least(kshape[-1])), per_lane)
    else:
        lanes = min(THREADS, per_lane)
    tiles = -(-outputs // (THREADS // lanes))
    chunks = 1
    if tiles < target:
        chunks = max(1, min(-(-target // tiles), n // (lanes * SPLIT_MIN)))
    size = -(-n // chunks) if n else 0
    if size:
        chunks = -(-n // size)  # no empty trailing chunk
    return Layout(lanes, cols, chunks, size if chunks > 1 else n,
                  max(1, min(MAX_BLOCKS, tiles * chunks)), max(1, min(MAX_BLOCKS, tiles)))


def group_of(t, lanes, cols):  # noqa: ANN001, ANN201 - compiled as a device function
    """Thread ``t``'s slot (its output within the block), lane, and the thread step between lanes.

    Example:
        >>> group_of(3, 2, False)
        (1, 1, 1)
    """
    width = THREADS // lanes
    if cols:
        return t % width, t // width, width
    slot = t // lanes
    return slot, t - slot * lanes, 1


def scratch(count: int | tuple[int, ...], dtype: np.dtype, stream: Any = None) -> Any:
    """A device temporary of ``count`` elements from the caching allocator (host on the simulator).

    On a GPU, ``cuda.device_array`` allocates through gtensor's Numba memory
    manager; the block goes back to the cache (for reuse on the same stream)
    when the array is dropped.

    Example:
        >>> scratch(3, np.dtype(np.float64)).shape
        (3,)
    """
    if SIMULATED:
        return np.empty(count, dtype)
    return cuda.device_array(count, dtype, stream=0 if stream is None else stream)
