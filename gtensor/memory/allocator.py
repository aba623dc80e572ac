"""The backend-neutral caching allocator of one device.

It reserves *segments* from the device's raw alloc/free pair, cuts them into
blocks by the policy in :mod:`gtensor.memory.policy`, and keeps freed blocks
in a small and a large pool for reuse on the stream that allocated them. A
block used on other streams (:meth:`CachingAllocator.record_stream`) goes back
to its pool only once the work queued on those streams at free time is done.
When the device is full it releases cached segments and retries, then tries
a segment of just the request, before it raises
:class:`~gtensor.errors.OutOfMemoryError`.
"""

from __future__ import annotations

import operator
import threading
from threading import get_ident
from typing import Any, Protocol

from ..errors import OutOfMemoryError
from .block import Block, Segment, absorb_next, take_front
from .config import AllocatorConfig
from .history import History
from .policy import NO_SPLIT_LIMIT, fits, is_small, round_size, segment_size, should_split
from .pool import BlockPool
from .raw import RawMemory, RawOutOfMemory
from .stats import DeviceStats
from .summary import format_bytes


class Event(Protocol):
    """A marker in a stream's queue: done once the work before it has run."""

    def query(self) -> bool:
        """Whether the work before the event has finished."""
        ...

    def synchronize(self) -> None:
        """Wait until the work before the event has finished."""
        ...


class Stream(Protocol):
    """What the allocator needs of a stream: its handle and a way to mark its queue."""

    handle: int

    def record_event(self) -> Event:
        """Return an event recorded after the work queued so far."""
        ...


class CachingAllocator:
    """Caching allocator for one device over a raw alloc/free pair.

    Args:
        raw: the device's raw memory (see :class:`~gtensor.memory.raw.RawMemory`).
        device: the device the blocks belong to.
        config: the policy options (``GTENSOR_ALLOC_CONF``).

    Thread-safe. A :meth:`free` that runs inside another call of the same
    thread (a finalizer started by the garbage collector) is queued and done
    when that call ends.

    Example:
        >>> from gtensor.memory.raw_host import HostMemory
        >>> alloc = CachingAllocator(HostMemory(), "cpu")
        >>> block = alloc.allocate(1000)
        >>> block.size, block.host.nbytes, alloc.stats.reserved_bytes.all.current
        (1024, 1000, 2097152)
        >>> alloc.free(block)
    """

    def __init__(self, raw: RawMemory, device: Any, config: AllocatorConfig | None = None) -> None:
        self.raw = raw
        self.device = device
        self.config = config or AllocatorConfig()
        self.stats = DeviceStats()
        self.history: History | None = None
        self._small = BlockPool(small=True)
        self._large = BlockPool(small=False)
        self._segments: dict[int, Segment] = {}
        self._pending: list[tuple[Block, list[Event]]] = []
        self._lock = threading.RLock()
        self._holder: int | None = None
        self._deferred: list[Block] = []
        self._capacity: int | None = None
        self._limit: int | None = None
        self._tick = 0

    # ----------------------------------------------------------------- entry points
    def allocate(self, nbytes: int, stream: int = 0) -> Block:
        """Return a block of at least ``nbytes`` bytes for use on ``stream``.

        Args:
            nbytes: bytes wanted (``0`` gives an empty block).
            stream: handle of the stream the block is used on.

        Raises:
            OutOfMemoryError: when the device stays full after the cache is flushed.
        """
        if type(nbytes) is not int or nbytes < 0:
            nbytes = _checked_nbytes(nbytes)
        with self._lock:
            self._holder = get_ident()
            try:
                return self._allocate(nbytes, stream)
            finally:
                self._leave()

    def free(self, block: Block) -> None:
        """Give a block back; it is reused once the streams recorded on it are done.

        Raises:
            ValueError: when the block is not allocated (a double free) or
                belongs to another device.
        """
        if not isinstance(block, Block):
            raise TypeError(f"[free] expected a Block, got {type(block).__name__}")
        if not block.allocated:
            raise ValueError(f"[free] {block!r} is not allocated (freed twice?)")
        segment = block.segment
        if self._segments.get(segment.ptr) is not segment:
            raise ValueError(f"[free] {block!r} does not belong to this allocator ({self.device})")
        me = get_ident()
        if self._holder == me:
            self._deferred.append(block)
            return
        with self._lock:
            self._holder = me
            try:
                self._free(block)
            finally:
                self._leave()

    def record_stream(self, block: Block, stream: Stream) -> None:
        """Mark ``block`` as used on ``stream``: on free, its reuse waits for that stream.

        Example:
            >>> from gtensor.memory.raw_host import HostMemory
            >>> alloc = CachingAllocator(HostMemory(), "cpu")
            >>> block = alloc.allocate(16)
            >>> alloc.record_stream(block, type("S", (), {"handle": 0})())  # same stream
        """
        if not isinstance(block, Block) or not block.allocated:
            raise ValueError(f"[record_stream] expected an allocated Block, got {block!r}")
        handle = stream.handle
        if handle == block.stream:
            return
        with self._lock:
            if block.stream_uses is None:
                block.stream_uses = {}
            block.stream_uses[handle] = stream

    def empty_cache(self) -> None:
        """Wait for pending stream work, then return every wholly free segment to the device."""
        with self._lock:
            self._holder = get_ident()
            try:
                self._release_cached()
            finally:
                self._leave()

    def set_config(self, config: AllocatorConfig) -> None:
        """Switch to new settings: the cache is emptied first and oversize counts redone.

        Blocks still allocated keep their sizes; ones made under caching and
        freed after ``caching:0`` go back to the device once their segment is free.
        """
        with self._lock:
            self._holder = get_ident()
            try:
                self._release_cached()
                self.config = config
                self._recount_oversize()
            finally:
                self._leave()

    def set_memory_fraction(self, fraction: float) -> None:
        """Cap reserved memory at ``fraction`` of the device's capacity.

        Raises:
            ValueError: unless ``0 <= fraction <= 1``.
        """
        if not isinstance(fraction, (int, float)) or not 0.0 <= fraction <= 1.0:
            raise ValueError(
                f"[set_per_process_memory_fraction] fraction must be in [0, 1], got {fraction!r}"
            )
        with self._lock:
            self._limit = int(fraction * self.capacity())

    def capacity(self) -> int:
        """Total bytes of the device (read once)."""
        if self._capacity is None:
            self._capacity = self.raw.capacity()
        return self._capacity

    @property
    def limit(self) -> int | None:
        """The cap set by :meth:`set_memory_fraction`, if any."""
        return self._limit

    def reset_peak_stats(self) -> None:
        """Set every peak statistic to its current value."""
        with self._lock:
            self.stats.reset_peak()

    def reset_accumulated_stats(self) -> None:
        """Zero the ``allocated``/``freed`` totals and the event counters."""
        with self._lock:
            self.stats.reset_accumulated()

    def memory_stats(self) -> dict[str, int]:
        """Return the statistics as a flat dict with PyTorch's keys."""
        with self._lock:
            out = self.stats.as_dict()
            split = self.config.max_split_size
            out["max_split_size"] = -1 if split == NO_SPLIT_LIMIT else split
            return out

    def snapshot(self) -> dict[str, Any]:
        """Return the segments with their blocks, and the recorded trace.

        Returns:
            ``{"segments": [...], "trace": [...]}``; each segment has
            ``device``, ``address``, ``total_size``, ``stream``,
            ``segment_type`` (``"small"``/``"large"``), ``allocated_size``,
            ``active_size``, ``requested_size`` and ``blocks`` (``address``,
            ``size``, ``requested_size``, ``state`` in ``active_allocated``,
            ``active_pending_free``, ``inactive``).
        """
        with self._lock:
            segments = [_segment_entry(seg) for seg in sorted(self._segments.values(), key=_ptr)]
            trace = self.history.events() if self.history is not None else []
        return {"segments": segments, "trace": trace}

    # ----------------------------------------------------------------- allocation
    def _leave(self) -> None:
        while self._deferred:
            block = self._deferred.pop()
            if block.allocated:
                self._free(block)
        self._holder = None

    def _allocate(self, nbytes: int, stream: int) -> Block:
        if self._pending:
            self._process_events()
        config = self.config
        if not config.caching:
            size = max(nbytes, 1)
            small = is_small(size)
            chunk = self._new_segment(nbytes, size, size, stream, small)
            return self._hand_out(chunk, size, nbytes)
        size = round_size(nbytes, config.roundup_power2_divisions)
        small = is_small(size)
        pool = self._small if small else self._large
        chunk = pool.best_fit(stream, size)
        if chunk is not None and fits(chunk.size, size, config.max_split_size):
            pool.remove(chunk)
        else:
            chunk = self._new_segment(nbytes, size, segment_size(size), stream, small)
        return self._hand_out(chunk, size, nbytes)

    def _new_segment(
        self, nbytes: int, size: int, alloc_size: int, stream: int, small: bool
    ) -> Block:
        if self.config.garbage_collection_threshold:
            self._collect_garbage()
        segment = self._reserve(alloc_size, stream, small)
        if segment is None and self._release_oversize(size, stream):
            segment = self._reserve(alloc_size, stream, small)
        if segment is None:
            self.stats.num_alloc_retries += 1
            self._release_cached()
            segment = self._reserve(alloc_size, stream, small)
        if segment is None and alloc_size > size:
            # A nearly full (or small, simulated) device may still hold the request itself.
            segment = self._reserve(size, stream, small)
        if segment is None:
            self.stats.num_ooms += 1
            self._record("oom", 0, nbytes, stream)
            raise OutOfMemoryError(self._oom_message(nbytes))
        return segment.head

    def _reserve(self, alloc_size: int, stream: int, small: bool) -> Segment | None:
        stats = self.stats
        if self._limit is not None and stats.reserved_bytes.all.current + alloc_size > self._limit:
            return None
        try:
            ptr, buffer = self.raw.alloc(alloc_size)
        except RawOutOfMemory:
            return None
        segment = Segment(ptr, alloc_size, self.device, stream, small, buffer)
        self._segments[ptr] = segment
        stats.segment.increase(small, 1)
        stats.reserved_bytes.increase(small, alloc_size)
        stats.num_device_alloc += 1
        if alloc_size >= self.config.max_split_size:
            stats.oversize_segments.increase(1)
        self._record("segment_alloc", ptr, alloc_size, stream)
        return segment

    def _hand_out(self, chunk: Block, size: int, nbytes: int) -> Block:
        segment = chunk.segment
        small = segment.small
        stats = self.stats
        if chunk.is_split():
            stats.inactive_split.decrease(small, 1)
            stats.inactive_split_bytes.decrease(small, chunk.size)
        if self.config.caching and should_split(
            chunk.size, size, small, self.config.max_split_size
        ):
            block = take_front(chunk, size, nbytes)
            (self._small if small else self._large).add(chunk)
            stats.inactive_split.increase(small, 1)
            stats.inactive_split_bytes.increase(small, chunk.size)
        else:
            block = take_front(chunk, chunk.size, nbytes)
        block.allocated = True
        if segment.buffer is not None:
            start = block.ptr - segment.ptr
            block.host = segment.buffer[start : start + nbytes]
        size = block.size
        stats.allocation.increase(small, 1)
        stats.allocated_bytes.increase(small, size)
        stats.requested_bytes.increase(small, nbytes)
        stats.active.increase(small, 1)
        stats.active_bytes.increase(small, size)
        if size >= self.config.max_split_size:
            stats.oversize_allocations.increase(1)
        if self.history is not None:
            self._record("alloc", block.ptr, size, block.stream)
        return block

    # ----------------------------------------------------------------- free
    def _free(self, block: Block) -> None:
        small = block.segment.small
        stats = self.stats
        block.allocated = False
        block.host = None
        stats.allocation.decrease(small, 1)
        stats.allocated_bytes.decrease(small, block.size)
        stats.requested_bytes.decrease(small, block.requested)
        if block.size >= self.config.max_split_size:
            stats.oversize_allocations.decrease(1)
        if self.history is not None:
            self._record("free_requested", block.ptr, block.size, block.stream)
        if block.stream_uses:
            events = [stream.record_event() for stream in block.stream_uses.values()]
            block.stream_uses = None
            self._pending.append((block, events))
        else:
            self._return(block)

    def _return(self, block: Block) -> None:
        """Put a block whose stream work is done back into its pool, merged with free neighbours."""
        small = block.segment.small
        pool = self._small if small else self._large
        stats = self.stats
        stats.active.decrease(small, 1)
        stats.active_bytes.decrease(small, block.size)
        if self.history is not None:
            self._record("free_completed", block.ptr, block.size, block.stream)
        merged = block
        for neighbour in (block.prev, block.next):
            if neighbour is not None and neighbour.in_pool:
                pool.remove(neighbour)
                stats.inactive_split.decrease(small, 1)
                stats.inactive_split_bytes.decrease(small, neighbour.size)
                if neighbour is block.prev:
                    absorb_next(neighbour)
                    merged = neighbour
                else:
                    absorb_next(merged)
        merged.requested = 0
        self._tick += 1
        merged.freed_tick = self._tick
        if not self.config.caching and not merged.is_split():
            self._release_segment(merged)
            return
        if merged.is_split():
            stats.inactive_split.increase(small, 1)
            stats.inactive_split_bytes.increase(small, merged.size)
        pool.add(merged)

    def _process_events(self) -> None:
        waiting = []
        for block, events in self._pending:
            if all(event.query() for event in events):
                self._return(block)
            else:
                waiting.append((block, events))
        self._pending = waiting

    # ----------------------------------------------------------------- releasing
    def _release_segment(self, block: Block) -> None:
        """Return a wholly free block's segment to the device."""
        segment = block.segment
        if block.in_pool:
            (self._small if segment.small else self._large).remove(block)
        del self._segments[segment.ptr]
        self.raw.free(segment.ptr)
        stats = self.stats
        stats.segment.decrease(segment.small, 1)
        stats.reserved_bytes.decrease(segment.small, segment.size)
        stats.num_device_free += 1
        if segment.size >= self.config.max_split_size:
            stats.oversize_segments.decrease(1)
        self._record("segment_free", segment.ptr, segment.size, segment.stream)

    def _release_cached(self) -> None:
        for _, events in self._pending:
            for event in events:
                event.synchronize()
        self._process_events()
        for pool in (self._large, self._small):
            for block in list(pool):
                if not block.is_split():
                    self._release_segment(block)

    def _release_oversize(self, size: int, stream: int) -> bool:
        """Release oversize cached segments of ``stream`` adding up to the request."""
        limit = self.config.max_split_size
        if limit == NO_SPLIT_LIMIT:
            return False
        want = max(size, limit)
        candidates = [
            b for b in self._large.largest_first(stream) if not b.is_split() and b.size >= limit
        ]
        fitting = [b for b in candidates if b.size >= want]
        chosen = fitting[-1:]
        if not chosen:
            total = 0
            for block in candidates:
                chosen.append(block)
                total += block.size
                if total >= want:
                    break
            if total < want:
                return False
        for block in chosen:
            self._release_segment(block)
        return True

    def _recount_oversize(self) -> None:
        limit = self.config.max_split_size
        counts = (
            (self.stats.oversize_segments, [s for s in self._segments.values() if s.size >= limit]),
            (
                self.stats.oversize_allocations,
                [
                    b
                    for s in self._segments.values()
                    for b in s.blocks()
                    if b.allocated and b.size >= limit
                ],
            ),
        )
        for stat, items in counts:
            stat.current = len(items)
            stat.peak = max(stat.peak, stat.current)

    def _collect_garbage(self) -> None:
        """Release the longest-unused free segments while reserved memory is over the threshold."""
        target = self.config.garbage_collection_threshold * (self._limit or self.capacity())
        reserved = self.stats.reserved_bytes.all
        if reserved.current <= target:
            return
        whole = [b for pool in (self._large, self._small) for b in pool if not b.is_split()]
        for block in sorted(whole, key=_freed_tick):
            if reserved.current <= target:
                break
            self._release_segment(block)

    # ----------------------------------------------------------------- reporting
    def _record(self, action: str, addr: int, size: int, stream: int) -> None:
        if self.history is not None:
            self.history.record(action, addr, size, stream)

    def _oom_message(self, nbytes: int) -> str:
        stats = self.stats
        allocated = stats.allocated_bytes.all.current
        unallocated = stats.reserved_bytes.all.current - allocated
        limit = ""
        if self._limit is not None:
            limit = f" and a limit of {format_bytes(self._limit)} for this process"
        return (
            f"[allocate] out of memory on {self.device}: tried to allocate "
            f"{format_bytes(nbytes)}. "
            f"The device has a total capacity of {format_bytes(self.capacity())}{limit}, "
            f"of which {format_bytes(self.raw.free_bytes())} is free. "
            f"gtensor holds {format_bytes(allocated)} allocated and "
            f"{format_bytes(unallocated)} reserved but unallocated. "
            "If reserved but unallocated memory is large, set "
            "GTENSOR_ALLOC_CONF=max_split_size_mb:<N> to avoid fragmentation; "
            "gtensor.memory.empty_cache() returns cached segments to the device."
        )


def _checked_nbytes(nbytes: object) -> int:
    try:
        value = operator.index(nbytes)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"[allocate] nbytes must be an int, got {type(nbytes).__name__}") from None
    if value < 0:
        raise ValueError(f"[allocate] nbytes must be >= 0, got {value}")
    return value


def _ptr(segment: Segment) -> int:
    return segment.ptr


def _freed_tick(block: Block) -> int:
    return block.freed_tick


def _block_state(block: Block) -> str:
    if block.allocated:
        return "active_allocated"
    return "inactive" if block.in_pool else "active_pending_free"


def _segment_entry(segment: Segment) -> dict[str, Any]:
    blocks = [
        {
            "address": b.ptr,
            "size": b.size,
            "requested_size": b.requested,
            "state": _block_state(b),
        }
        for b in segment.blocks()
    ]
    return {
        "device": str(segment.device),
        "address": segment.ptr,
        "total_size": segment.size,
        "stream": segment.stream,
        "segment_type": "small" if segment.small else "large",
        "allocated_size": sum(b["size"] for b in blocks if b["state"] == "active_allocated"),
        "active_size": sum(b["size"] for b in blocks if b["state"] != "inactive"),
        "requested_size": sum(b["requested_size"] for b in blocks),
        "blocks": blocks,
    }
