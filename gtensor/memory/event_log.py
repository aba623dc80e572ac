"""The allocator's event log: cached allocations and frees counted later, in order.

Reusing a cached block and freeing one back to its free list are the
allocator's hot path, taken by nearly every op. Counting them at once means
updating some forty statistics (current values, peaks, totals; per pool and
for both pools together) per event, which cost more than the rest of the
allocation. Instead each event appends two ints to a list in one ``extend``
(so that events of other threads cannot come between them), and
:func:`fold` applies the list to the :class:`~gtensor.memory.stats.PoolCounters`
before anything reads or changes them another way (a statistic is read, a
block is split or merged, a segment is reserved). Peaks depend on the order
of the events, so a long log is folded with running sums (a peak is the
largest prefix sum), which gives exactly what counting each event at once gives.

An event is the pair ``code, requested``:

- ``code = ±(size << 2 | small << 1 | split)``: ``+`` for a block handed out
  again, ``-`` for one freed into a free list; ``size`` is the block's size,
  ``small`` its pool, ``split`` whether its segment is split (an inactive
  block of a split segment is counted while it waits);
- ``requested``: the bytes asked for, ``+`` when handed out, ``-`` when freed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .stats import PoolCounters

FOLD_LIMIT = 16384
"""Entries (two per event) after which the allocator folds without waiting for a reader."""

_VECTOR_FROM = 256  # entries from which running sums beat one method call per event


def fold(log: list[int], small: PoolCounters, large: PoolCounters) -> None:
    """Apply the events of ``log`` to the small and large pool's counters and take them out.

    Events appended meanwhile (by the hot path of another thread, which takes
    no lock) stay in the log for the next fold.

    Example:
        >>> from gtensor.memory.stats import DeviceStats
        >>> stats = DeviceStats()
        >>> log = [512 << 2 | 2, 500, -(512 << 2 | 2), -500]
        >>> fold(log, stats.small, stats.large)
        >>> stats.small.allocation, stats.small.allocated_bytes_peak, log
        (0, 512, [])
    """
    count = len(log) & ~1
    if not count:
        return
    events = log[:count]  # one copy, then the folded entries leave the shared log
    del log[:count]
    if count < _VECTOR_FROM:
        for i in range(0, count, 2):
            code, requested = events[i], events[i + 1]
            if code > 0:
                counts = small if code & 2 else large
                counts.took(code >> 2, requested, bool(code & 1))
            else:
                code = -code
                counts = small if code & 2 else large
                counts.released(code >> 2, -requested, bool(code & 1))
    else:
        _fold_running(np.array(events, dtype=np.int64).reshape(-1, 2), small, large)


def _fold_running(events: np.ndarray, small: PoolCounters, large: PoolCounters) -> None:
    code, requested = events[:, 0], events[:, 1]
    sign = np.where(code > 0, 1, -1)
    magnitude = np.abs(code)
    size = magnitude >> 2
    in_small = (magnitude & 2) != 0
    split = magnitude & 1
    deltas = {
        "allocation": sign,
        "allocated_bytes": sign * size,
        "requested_bytes": requested,
        "inactive_split": -sign * split,
        "inactive_split_bytes": -sign * split * size,
    }
    total = small.total
    for name, delta in deltas.items():
        peak_name, freed_name = f"{name}_peak", f"{name}_freed"
        start = getattr(small, name) + getattr(large, name)
        combined_peak = start + int(np.cumsum(delta).max())
        if combined_peak > getattr(total, peak_name):
            setattr(total, peak_name, combined_peak)
        for counts, mask in ((small, in_small), (large, ~in_small)):
            mine = delta[mask]
            if not mine.size:
                continue
            running = np.cumsum(mine)
            current = getattr(counts, name)
            peak = current + int(running.max())
            if peak > getattr(counts, peak_name):
                setattr(counts, peak_name, peak)
            setattr(counts, name, current + int(running[-1]))
            setattr(counts, freed_name, getattr(counts, freed_name) - int(mine[mine < 0].sum()))
