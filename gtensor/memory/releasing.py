"""Giving memory back to the device: whole free segments, oversize ones, garbage collection.

A mixin of :class:`~gtensor.memory.allocator.CachingAllocator`: these run
with the allocator's lock held, when the cache is emptied, the settings
change, or a request finds the device full.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .policy import NO_SPLIT_LIMIT

if TYPE_CHECKING:
    from .block import Block, Segment
    from .config import AllocatorConfig
    from .pool import BlockPool
    from .raw import RawMemory
    from .stats import DeviceStats


class SegmentRelease:
    """Release cached segments of a caching allocator (see the module docstring)."""

    raw: RawMemory
    config: AllocatorConfig
    stats: DeviceStats
    _small: BlockPool
    _large: BlockPool
    _segments: dict[int, Segment]
    _pending: list[tuple[Block, list[Any]]]
    _max_split: int
    _limit: int | None
    _pinned: dict[int, int]  # stream handle -> pins: its segments stay reserved

    if TYPE_CHECKING:  # defined by the allocator
        def _record(self, action: str, addr: int, size: int, stream: int) -> None: ...
        def _process_events(self) -> None: ...
        def _flush(self, pool: BlockPool) -> None: ...
        def capacity(self) -> int: ...

    def _release_segment(self, block: Block) -> bool:
        """Return a wholly free block's segment to the device (False: its stream is pinned)."""
        segment = block.segment
        if segment.stream in self._pinned:
            return False
        if block.in_pool:
            (self._small if segment.small else self._large).remove(block)
        del self._segments[segment.ptr]
        segment.owner = None
        self.raw.free(segment.ptr)
        stats = self.stats
        stats.segment.decrease(segment.small, 1)
        stats.reserved_bytes.decrease(segment.small, segment.size)
        stats.num_device_free += 1
        if segment.size >= self._max_split:
            stats.oversize_segments.decrease(1)
        self._record("segment_free", segment.ptr, segment.size, segment.stream)
        return True

    def pin_stream(self, handle: int) -> None:
        """Keep the segments of stream ``handle`` until :meth:`unpin_stream`, even when free.

        A captured CUDA graph keeps writing into the blocks its capture used, freed
        or not: the capturing stream's memory must stay with the graph.

        Example:
            >>> from gtensor.memory import CachingAllocator
            >>> from gtensor.memory.raw_host import HostMemory
            >>> alloc = CachingAllocator(HostMemory(), "cpu")
            >>> alloc.pin_stream(7)
            >>> alloc.free(alloc.allocate(16, stream=7)); alloc.empty_cache()
            >>> alloc.memory_stats()["reserved_bytes.all.current"] > 0
            True
            >>> alloc.unpin_stream(7); alloc.empty_cache()
            >>> alloc.memory_stats()["reserved_bytes.all.current"]
            0
        """
        self._pinned[handle] = self._pinned.get(handle, 0) + 1

    def unpin_stream(self, handle: int) -> None:
        """Undo one :meth:`pin_stream` of ``handle``."""
        count = self._pinned.get(handle, 0) - 1
        if count > 0:
            self._pinned[handle] = count
        else:
            self._pinned.pop(handle, None)

    def _release_cached(self) -> None:
        for _, events in self._pending:
            for event in events:
                event.synchronize()
        self._process_events()
        self._flush(self._small)
        self._flush(self._large)
        for pool in (self._large, self._small):
            for block in list(pool):
                if not block.is_split():
                    self._release_segment(block)

    def _release_oversize(self, size: int, stream: int) -> bool:
        """Release oversize cached segments of ``stream`` adding up to the request."""
        limit = self._max_split
        if limit == NO_SPLIT_LIMIT:
            return False
        self._flush(self._large)
        chosen = self._large.oversize_to_release(stream, max(size, limit), limit)
        if not chosen:
            return False
        for block in chosen:
            self._release_segment(block)
        return True

    def _recount_oversize(self) -> None:
        limit = self._max_split
        segments = list(self._segments.values())
        blocks = [b for s in segments for b in s.blocks() if b.allocated]
        for stat, count in (
            (self.stats.oversize_segments, sum(s.size >= limit for s in segments)),
            (self.stats.oversize_allocations, sum(b.size >= limit for b in blocks)),
        ):
            stat.current = count
            stat.peak = max(stat.peak, count)

    def _collect_garbage(self) -> None:
        """Release the longest-unused free segments while reserved memory is over the threshold."""
        target = self.config.garbage_collection_threshold * (self._limit or self.capacity())
        reserved = self.stats.reserved_bytes.all
        if reserved.current <= target:
            return
        self._flush(self._small)
        self._flush(self._large)
        whole = [b for pool in (self._large, self._small) for b in pool if not b.is_split()]
        for block in sorted(whole, key=_freed_tick):
            if reserved.current <= target:
                break
            self._release_segment(block)



def _freed_tick(block: Block) -> int:
    return block.freed_tick
