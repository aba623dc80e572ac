"""The backend-neutral caching allocator of one device.

It reserves *segments* from the device's raw alloc/free pair, cuts them into
blocks by the policy in :mod:`gtensor.memory.policy`, and keeps freed blocks
in a small and a large pool for reuse on the stream that allocated them. A
block used on other streams (:meth:`CachingAllocator.record_stream`) is
reused only once the work queued on those streams at free time is done. When
the device is full it releases cached segments and retries, then tries a
segment of just the request, before it raises
:class:`~gtensor.errors.OutOfMemoryError`.

Freed blocks first wait, unmerged, in exact-size free lists (one per pool,
keyed by stream and size): a request of the same rounded size on the same
stream takes the most recently freed one back as it is, with no split or
merge. PyTorch instead merges every freed block with its free neighbours at
once. Here the merge is lazy: a request that finds no block of its exact size
first merges its pool's free lists into the pool, so best fit and splitting
see the same merged blocks as with an eager merge; releasing memory
(``empty_cache``, out of memory, ``max_split_size``, the garbage collection
threshold) merges everything first. Until then the statistics and snapshots
show the blocks as they are: inactive blocks of split segments, unmerged.

Taking a block from its free list and putting one back (nearly every op's
allocation and free) take no lock: a list ``pop`` or ``append`` is atomic, so
each freed block goes to exactly one caller, and the statistics of these
events are logged by one ``extend`` each (:mod:`.event_log`). Everything else
(splitting, merging, segments, cross-stream frees, statistics) holds the lock.
"""

from __future__ import annotations

import operator
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from ..errors import OutOfMemoryError
from .block import Block, Segment, take_front
from .config import AllocatorConfig
from .event_log import FOLD_LIMIT
from .history import History
from .policy import (
    NO_SPLIT_LIMIT,
    SMALL_SIZE,
    fits,
    is_small,
    round_size,
    segment_size,
    should_split,
)
from .pool import BlockPool, repark
from .raw import RawMemory, RawOutOfMemory
from .releasing import SegmentRelease
from .snapshot import segment_entry
from .stats import DeviceStats, PoolCounters, PoolStat
from .streams import Event, Stream
from .summary import oom_message

_R = TypeVar("_R")


class CachingAllocator(SegmentRelease):
    """Caching allocator for one device over a raw alloc/free pair.

    Args:
        raw: the device's raw memory (see :class:`~gtensor.memory.raw.RawMemory`).
        device: the device the blocks belong to.
        config: the policy options (``GTENSOR_ALLOC_CONF``).

    Thread-safe. The exact-size reuse path takes no lock (see the module
    notes). A :meth:`free` needing the lock that finds the allocator busy
    (another thread inside it, or a finalizer the garbage collector started
    inside a call of the same thread) is queued and done by the caller that
    holds it, before that call returns.

    Example:
        >>> from gtensor.memory.raw_host import HostMemory
        >>> alloc = CachingAllocator(HostMemory(), "cpu")
        >>> block = alloc.allocate(1000)
        >>> block.size, block.host.nbytes, alloc.memory_stats()["reserved_bytes.all.current"]
        (1024, 1000, 2097152)
        >>> alloc.free(block)
    """

    def __init__(self, raw: RawMemory, device: Any, config: AllocatorConfig | None = None) -> None:
        self.raw = raw
        self.device = device
        self.stats = DeviceStats()
        self._small_counts = self.stats.small
        self._large_counts = self.stats.large
        self._log = self.stats.log
        self._history: History | None = None
        self._small = BlockPool(small=True)
        self._large = BlockPool(small=False)
        self._free_small = self._small.free_lists
        self._free_large = self._large.free_lists
        self._segments: dict[int, Segment] = {}
        self._pinned: dict[int, int] = {}
        self._pending: list[tuple[Block, list[Event]]] = []
        self._lock = threading.RLock()
        self._busy = False
        self._deferred: list[Block] = []
        self._capacity: int | None = None
        self._limit: int | None = None
        self._tick = 0
        self._use(config or AllocatorConfig())

    def _switch_config(self, config: AllocatorConfig) -> None:
        self._release_cached()
        self._use(config)
        self._recount_oversize()

    def _use(self, config: AllocatorConfig) -> None:
        self.config = config
        self._caching = config.caching
        self._divisions = config.roundup_power2_divisions
        self._max_split = config.max_split_size
        # request size -> (rounded size, its pool's free lists or None for no reuse path)
        self._fits: dict[int, tuple[int, dict[int, list[Block]] | None]] = {}
        self._update_quick()

    @property
    def history(self) -> History | None:
        """The allocation history being recorded (``None`` when off)."""
        return self._history

    @history.setter
    def history(self, history: History | None) -> None:
        self._history = history
        self._update_quick()

    def _update_quick(self) -> None:
        """Whether hand-outs and frees may skip the lock (see the module notes): not while
        recording a history or waiting for other streams, and only with caching on."""
        plain = self._history is None and self._caching
        self._quick = plain and not self._pending
        self._quick_park = plain

    def _fit(self, nbytes: int) -> tuple[int, dict[int, list[Block]] | None]:
        """The rounded size of an ``nbytes`` request and the free lists it may reuse from."""
        size = round_size(nbytes, self._divisions)
        fit = (size, None if size >= self._max_split else
               self._free_small if size <= SMALL_SIZE else self._free_large)
        if len(self._fits) >= 4096:
            self._fits.clear()
        self._fits[nbytes] = fit
        return fit

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
        fit = self._fits.get(nbytes)
        if fit is None:
            fit = self._fit(nbytes)
        free_lists = fit[1]
        blocks = None if free_lists is None else free_lists.get(stream << 64 | fit[0])
        if blocks and self._quick:
            try:
                block = blocks.pop()  # atomic: each freed block goes to one caller
            except IndexError:  # another thread took the last one
                return self._locked(self._allocate, nbytes, stream)
            # Reuse the block as it is (written out here: this is the common case).
            block.cached = False
            block.allocated = True
            view = block.view
            if block.requested != nbytes:
                block.flat = None
                if view is not None:
                    start = block.ptr - block.segment.ptr
                    view = block.view = block.segment.buffer[start : start + nbytes]
            block.host = view
            block.requested = nbytes
            log = self._log  # counted later, in order (see event_log)
            log.extend((block.code, nbytes))
            if len(log) >= FOLD_LIMIT:
                self._fold_when_idle()
            return block
        return self._locked(self._allocate, nbytes, stream)

    def free(self, block: Block) -> None:
        """Give a block back; it is reused once the streams recorded on it are done.

        Raises:
            ValueError: when the block is not allocated (a double free) or
                belongs to another device.
        """
        if block.__class__ is not Block and not isinstance(block, Block):
            raise TypeError(f"[free] expected a Block, got {type(block).__name__}")
        if not block.allocated:
            raise ValueError(f"[free] {block!r} is not allocated (freed twice?)")
        if block.segment.owner is not self:
            raise ValueError(f"[free] {block!r} does not belong to this allocator ({self.device})")
        self.recycle(block)

    def recycle(self, block: Block) -> None:
        """:meth:`free` without the checks, for a caller that holds a block of this allocator."""
        if block.stream_uses or not self._quick_park or block.size >= self._max_split:
            lock = self._lock
            if lock.acquire(False):
                if self._busy:  # a finalizer inside this thread's own call: done when it ends
                    self._deferred.append(block)
                    lock.release()
                    return
                self._busy = True
                try:
                    self._free(block)
                finally:
                    self._busy = False
                    lock.release()
            else:
                self._deferred.append(block)
        else:
            self._park(block)
        if self._deferred:
            self._drain()

    def _park(self, block: Block) -> None:
        """Put a freed block into its exact-size free list, as it is.

        Without the lock: the list operations are atomic, and the block is
        this caller's until it is in the list (see :meth:`BlockPool.flush`).
        """
        block.allocated = False
        block.host = None
        block.cached = True
        block.freed_tick = self._tick = self._tick + 1
        key = block.key
        free_lists = self._free_small if block.segment.small else self._free_large
        log = self._log
        log.extend((-block.code, -block.requested))
        blocks = free_lists.get(key)
        if blocks is None:
            blocks = free_lists.setdefault(key, [])
        blocks.append(block)
        if free_lists.get(key) is not blocks:  # a flush took the list out meanwhile
            repark(block, blocks, free_lists, key)
        if len(log) >= FOLD_LIMIT:
            self._fold_when_idle()

    def _fold_when_idle(self) -> None:
        """Fold the event log now unless a call of the allocator is under way (it folds)."""
        lock = self._lock
        if lock.acquire(False):
            try:
                if not self._busy:
                    self.stats.fold()
            finally:
                lock.release()

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
        busy = self._enter()
        try:
            if block.stream_uses is None:
                block.stream_uses = {}
            block.stream_uses[handle] = stream
        finally:
            self._leave(busy)

    def empty_cache(self) -> None:
        """Wait for pending stream work, then return every wholly free segment to the device."""
        self._locked(self._release_cached)

    def set_config(self, config: AllocatorConfig) -> None:
        """Switch to new settings: the cache is emptied first and oversize counts redone.

        Blocks still allocated keep their sizes; ones made under caching and
        freed after ``caching:0`` go back to the device once their segment is free.
        """
        self._locked(self._switch_config, config)

    def set_memory_fraction(self, fraction: float) -> None:
        """Cap reserved memory at ``fraction`` of the device's capacity.

        Raises:
            ValueError: unless ``0 <= fraction <= 1``.
        """
        if not isinstance(fraction, (int, float)) or not 0.0 <= fraction <= 1.0:
            raise ValueError(
                f"[set_per_process_memory_fraction] fraction must be in [0, 1], got {fraction!r}"
            )
        busy = self._enter()
        try:
            self._limit = int(fraction * self.capacity())
        finally:
            self._leave(busy)

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
        self._locked(self.stats.reset_peak)

    def reset_accumulated_stats(self) -> None:
        """Zero the ``allocated``/``freed`` totals and the event counters."""
        self._locked(self.stats.reset_accumulated)

    def stat(self, name: str) -> PoolStat:
        """Return one statistic (``"allocated_bytes"``, ``"reserved_bytes"``, ...) for all pools.

        Example:
            >>> from gtensor.memory.raw_host import HostMemory
            >>> CachingAllocator(HostMemory(), "cpu").stat("allocated_bytes").all.current
            0
        """
        return self._locked(self.stats.view, name)

    def memory_stats(self) -> dict[str, int]:
        """Return the statistics as a flat dict with PyTorch's keys."""
        out = self._locked(self.stats.as_dict)
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
            ``active_pending_free``, ``inactive``, and ``cached``: whether an
            inactive block waits unmerged in a free list).
        """
        busy = self._enter()
        try:
            segments = [segment_entry(seg) for seg in sorted(self._segments.values(), key=_ptr)]
            trace = self.history.events() if self.history is not None else []
        finally:
            self._leave(busy)
        return {"segments": segments, "trace": trace}

    # ----------------------------------------------------------------- locking
    def _locked(self, fn: Callable[..., _R], *args: Any) -> _R:
        """Call ``fn(*args)`` with the lock held; frees queued meanwhile are done after."""
        busy = self._enter()
        try:
            return fn(*args)
        finally:
            self._leave(busy)

    def _enter(self) -> bool:
        """Take the lock; return whether this thread was already inside a call."""
        self._lock.acquire()
        busy = self._busy
        self._busy = True
        self.stats.fold()
        return busy

    def _leave(self, busy: bool) -> None:
        self._busy = busy
        self._lock.release()
        if self._deferred and not busy:
            self._drain()

    def _drain(self) -> None:
        """Do the queued frees; called after the lock is released, by whoever queued or held it."""
        lock = self._lock
        deferred = self._deferred
        # A free queued after the holder's last look finds the lock free here.
        while deferred and lock.acquire(False):
            if self._busy:
                lock.release()
                return
            self._busy = True
            try:
                while deferred:
                    block = deferred.pop()
                    if block.allocated:
                        self._free(block)
            finally:
                self._busy = False
                lock.release()

    # ----------------------------------------------------------------- allocation
    def _counts(self, small: bool) -> PoolCounters:
        return self._small_counts if small else self._large_counts

    def _allocate(self, nbytes: int, stream: int) -> Block:
        self.stats.fold()
        if self._pending:
            self._process_events()
        if not self._caching:
            size = max(nbytes, 1)
            small = is_small(size)
            chunk = self._new_segment(nbytes, size, size, stream, small)
            block = self._hand_out(chunk, size, nbytes)
        else:
            size = round_size(nbytes, self._divisions)
            small = is_small(size)
            pool = self._small if small else self._large
            blocks = pool.free_lists.get(stream << 64 | size)
            chunk = None
            if blocks:  # pending events kept the caller off its own fast path
                try:
                    chunk = blocks.pop()
                    chunk.cached = False
                except IndexError:  # another thread's hand-out took it
                    pass
            if chunk is None:
                self._flush(pool)
                chunk = pool.best_fit(stream, size)
                if chunk is not None and fits(chunk.size, size, self._max_split):
                    pool.remove(chunk)
                else:
                    chunk = self._new_segment(nbytes, size, segment_size(size), stream, small)
            block = self._hand_out(chunk, size, nbytes)
        if self._pending:
            self._counts(small).note_active_peaks()
        return block

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
        segment.owner = self
        self._segments[ptr] = segment
        stats.segment.increase(small, 1)
        stats.reserved_bytes.increase(small, alloc_size)
        stats.num_device_alloc += 1
        if alloc_size >= self._max_split:
            stats.oversize_segments.increase(1)
        self._record("segment_alloc", ptr, alloc_size, stream)
        return segment

    def _hand_out(self, chunk: Block, size: int, nbytes: int) -> Block:
        """Cut a block for ``nbytes`` off a free chunk (a new segment's or the pool's)."""
        segment = chunk.segment
        small = segment.small
        counts = self._counts(small)
        if chunk.is_split():
            counts.remove_inactive_split(1, chunk.size)
        if self._caching and should_split(chunk.size, size, small, self._max_split):
            block = take_front(chunk, size, nbytes)
            (self._small if small else self._large).add(chunk)
            counts.add_inactive_split(1, chunk.size)
        else:
            block = take_front(chunk, chunk.size, nbytes)
        block.allocated = True
        block.flat = None
        if segment.buffer is not None:
            start = block.ptr - segment.ptr
            block.host = block.view = segment.buffer[start : start + nbytes]
        size = block.size
        counts.took(size, nbytes, False)
        if size >= self._max_split:
            self.stats.oversize_allocations.increase(1)
        if self.history is not None:
            self._record("alloc", block.ptr, size, block.stream)
        return block

    # ----------------------------------------------------------------- free
    def _free(self, block: Block) -> None:
        self.stats.fold()
        small = block.segment.small
        counts = self._small_counts if small else self._large_counts
        size = block.size
        block.allocated = False
        block.host = None
        if size >= self._max_split:
            self.stats.oversize_allocations.decrease(1)
        if self.history is not None:
            self._record("free_requested", block.ptr, size, block.stream)
        if block.stream_uses:
            counts.released(size, block.requested, False)
            counts.pend(size)
            events = [stream.record_event() for stream in block.stream_uses.values()]
            block.stream_uses = None
            self._pending.append((block, events))
            self._quick = False
        elif self._caching:
            if self.history is not None:
                self._record("free_completed", block.ptr, size, block.stream)
            self._park(block)
        else:
            counts.released(size, block.requested, False)
            self._return(block)

    def _return(self, block: Block) -> None:
        """Pool a freed block whose stream work is done, merged with its free neighbours."""
        if self.history is not None:
            self._record("free_completed", block.ptr, block.size, block.stream)
        self._tick += 1
        self._merge(block, self._tick)

    def _merge(self, block: Block, tick: int) -> None:
        """Put a free block (not counted as inactive) into its pool, merged with free neighbours."""
        small = block.segment.small
        pool = self._small if small else self._large
        counts = self._counts(small)
        merged = pool.merge(block, counts, tick)
        if self._caching or merged.is_split() or not self._release_segment(merged):
            pool.put(merged, counts)

    def _flush(self, pool: BlockPool) -> None:
        """Merge the blocks waiting in the pool's free lists into it."""
        if pool.free_lists:
            pool.flush(self._counts(pool.small))

    def _process_events(self) -> None:
        waiting = []
        for block, events in self._pending:
            if all(event.query() for event in events):
                self._counts(block.segment.small).unpend(block.size)
                self._return(block)
            else:
                waiting.append((block, events))
        self._pending = waiting
        self._update_quick()

    # ----------------------------------------------------------------- reporting
    def _record(self, action: str, addr: int, size: int, stream: int) -> None:
        if self.history is not None:
            self.history.record(action, addr, size, stream)

    def _oom_message(self, nbytes: int) -> str:
        stats = self.stats
        held = stats.view("allocated_bytes").all.current, stats.reserved_bytes.all.current
        free = self.raw.free_bytes()
        return oom_message(self.device, nbytes, self.capacity(), self._limit, free, *held)


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
