"""Allocator statistics, named as PyTorch's ``torch.cuda.memory_stats``.

The statistics that move on every allocation and free (allocations,
allocated, requested and inactive-split blocks and bytes) are plain ints in
one :class:`PoolCounters` per pool, changed by one method call per event (the
allocator's hot path logs its events and folds them in before any read, see
:mod:`gtensor.memory.event_log`); the
``all`` pool, the ``allocated`` totals and the ``active`` statistics are
derived from them when read. The rest (segments, reserved bytes, oversize
counts) change only when the device is called and stay :class:`Stat` objects.
"""

from __future__ import annotations

from .event_log import fold

POOLS = ("all", "small_pool", "large_pool")
POOL_STATS = (
    "allocation",
    "segment",
    "active",
    "inactive_split",
    "allocated_bytes",
    "reserved_bytes",
    "active_bytes",
    "inactive_split_bytes",
    "requested_bytes",
)
COUNTED_STATS = (
    "allocation",
    "allocated_bytes",
    "requested_bytes",
    "inactive_split",
    "inactive_split_bytes",
)
"""The statistics kept in :class:`PoolCounters`."""
PLAIN_STATS = ("oversize_allocations", "oversize_segments")
COUNTERS = ("num_alloc_retries", "num_ooms", "num_device_alloc", "num_device_free")


class Stat:
    """One quantity: its current value, peak, and totals added and removed.

    Example:
        >>> s = Stat(); s.increase(5); s.decrease(3); s.increase(1)
        >>> s.current, s.peak, s.allocated, s.freed
        (3, 5, 6, 3)
    """

    __slots__ = ("current", "peak", "allocated", "freed")

    def __init__(self) -> None:
        self.current = self.peak = self.allocated = self.freed = 0

    def increase(self, amount: int) -> None:
        """Add ``amount`` to the current value."""
        self.current += amount
        self.allocated += amount
        if self.current > self.peak:
            self.peak = self.current

    def decrease(self, amount: int) -> None:
        """Remove ``amount`` from the current value."""
        self.current -= amount
        self.freed += amount

    def reset_peak(self) -> None:
        """Set the peak to the current value."""
        self.peak = self.current

    def reset_accumulated(self) -> None:
        """Zero the totals added and removed."""
        self.allocated = self.freed = 0


class PoolStat:
    """A :class:`Stat` for all pools together and for each pool alone.

    Example:
        >>> p = PoolStat(); p.increase(True, 512)
        >>> p.all.current, p.small_pool.current, p.large_pool.current
        (512, 512, 0)
    """

    __slots__ = ("all", "small_pool", "large_pool")

    def __init__(self) -> None:
        self.all = Stat()
        self.small_pool = Stat()
        self.large_pool = Stat()

    def increase(self, small: bool, amount: int) -> None:
        """Add ``amount`` to ``all`` and to the block's pool."""
        self.all.increase(amount)
        (self.small_pool if small else self.large_pool).increase(amount)

    def decrease(self, small: bool, amount: int) -> None:
        """Remove ``amount`` from ``all`` and from the block's pool."""
        self.all.decrease(amount)
        (self.small_pool if small else self.large_pool).decrease(amount)

    def stats(self) -> tuple[Stat, Stat, Stat]:
        """Return the three stats in :data:`POOLS` order."""
        return self.all, self.small_pool, self.large_pool


def _fields(names: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f"{name}{suffix}" for name in names for suffix in ("", "_peak", "_freed", "_base"))


class PoolCounters:
    """The per-event statistics of one pool as plain ints.

    For each name in :data:`COUNTED_STATS` it keeps the current value
    (``allocation``), the peak (``allocation_peak``), the total removed
    (``allocation_freed``) and the current value at the last reset of the
    totals (``allocation_base``); the total added is
    ``current - base + freed``. ``pending``/``pending_bytes`` count freed
    blocks still waiting for stream work, so ``active = allocation + pending``;
    ``active_peak``/``active_bytes_peak`` are tracked only while blocks wait,
    at other times the active peaks are the allocation peaks.

    ``total`` holds the peaks of both pools together (its other fields are
    unused); ``other`` is the sibling pool.

    Example:
        >>> stats = DeviceStats()
        >>> stats.small.took(1024, 1000, False); stats.small.released(1024, 1000, True)
        >>> stats.small.allocated_bytes_peak, stats.small.inactive_split_bytes
        (1024, 1024)
    """

    __slots__ = (
        *_fields(COUNTED_STATS),
        "pending",
        "pending_base",
        "pending_bytes",
        "pending_bytes_base",
        "active_peak",
        "active_bytes_peak",
        "other",
        "total",
    )

    def __init__(self) -> None:
        for name in self.__slots__:
            setattr(self, name, 0)
        self.other: PoolCounters = self
        self.total: PoolCounters = self

    def took(self, size: int, nbytes: int, was_inactive_split: bool) -> None:
        """Count a block of ``size`` bytes handed out for ``nbytes``.

        ``was_inactive_split``: the block was an inactive block of a split
        segment (a cached block reused as it is).
        """
        # Written out rather than looped or shared: this runs on every allocation.
        other = self.other
        total = self.total
        value = self.allocation + 1
        self.allocation = value
        if value > self.allocation_peak:
            self.allocation_peak = value
        value += other.allocation
        if value > total.allocation_peak:
            total.allocation_peak = value
        value = self.allocated_bytes + size
        self.allocated_bytes = value
        if value > self.allocated_bytes_peak:
            self.allocated_bytes_peak = value
        value += other.allocated_bytes
        if value > total.allocated_bytes_peak:
            total.allocated_bytes_peak = value
        value = self.requested_bytes + nbytes
        self.requested_bytes = value
        if value > self.requested_bytes_peak:
            self.requested_bytes_peak = value
        value += other.requested_bytes
        if value > total.requested_bytes_peak:
            total.requested_bytes_peak = value
        if was_inactive_split:
            self.inactive_split -= 1
            self.inactive_split_freed += 1
            self.inactive_split_bytes -= size
            self.inactive_split_bytes_freed += size

    def released(self, size: int, requested: int, now_inactive_split: bool) -> None:
        """Count a free; ``now_inactive_split``: the block stays, inactive, in a split segment."""
        self.allocation -= 1
        self.allocation_freed += 1
        self.allocated_bytes -= size
        self.allocated_bytes_freed += size
        self.requested_bytes -= requested
        self.requested_bytes_freed += requested
        if now_inactive_split:
            self.add_inactive_split(1, size)

    def add_inactive_split(self, count: int, nbytes: int) -> None:
        """Count ``count`` more inactive blocks of split segments, ``nbytes`` together."""
        other = self.other
        total = self.total
        value = self.inactive_split + count
        self.inactive_split = value
        if value > self.inactive_split_peak:
            self.inactive_split_peak = value
        value += other.inactive_split
        if value > total.inactive_split_peak:
            total.inactive_split_peak = value
        value = self.inactive_split_bytes + nbytes
        self.inactive_split_bytes = value
        if value > self.inactive_split_bytes_peak:
            self.inactive_split_bytes_peak = value
        value += other.inactive_split_bytes
        if value > total.inactive_split_bytes_peak:
            total.inactive_split_bytes_peak = value

    def remove_inactive_split(self, count: int, nbytes: int) -> None:
        """Count ``count`` fewer inactive blocks of split segments, ``nbytes`` together."""
        self.inactive_split -= count
        self.inactive_split_freed += count
        self.inactive_split_bytes -= nbytes
        self.inactive_split_bytes_freed += nbytes

    def pend(self, size: int) -> None:
        """Count a freed block that waits for stream work (still active)."""
        self.pending += 1
        self.pending_bytes += size

    def unpend(self, size: int) -> None:
        """Count a waiting block whose stream work is done (no longer active)."""
        self.pending -= 1
        self.pending_bytes -= size

    def note_active_peaks(self) -> None:
        """Update the active peaks; called after an allocation while blocks wait."""
        other = self.other
        total = self.total
        for counts in (self, other):
            counts.active_peak = max(counts.active_peak, counts.allocation + counts.pending)
            counts.active_bytes_peak = max(
                counts.active_bytes_peak, counts.allocated_bytes + counts.pending_bytes
            )
        total.active_peak = max(
            total.active_peak, self.allocation + self.pending + other.allocation + other.pending
        )
        total.active_bytes_peak = max(
            total.active_bytes_peak,
            self.allocated_bytes + self.pending_bytes + other.allocated_bytes + other.pending_bytes,
        )

    def view(self, name: str) -> Stat:
        """Return one counted statistic of this pool as a :class:`Stat`."""
        stat = Stat()
        stat.current = getattr(self, name)
        stat.peak = getattr(self, f"{name}_peak")
        stat.freed = getattr(self, f"{name}_freed")
        stat.allocated = stat.current - getattr(self, f"{name}_base") + stat.freed
        return stat

    def active_view(self, bytes_: bool) -> Stat:
        """Return ``active`` (or ``active_bytes``) of this pool as a :class:`Stat`."""
        if bytes_:
            held, pending = self.view("allocated_bytes"), self.pending_bytes
            base, tracked_peak = self.pending_bytes_base, self.active_bytes_peak
        else:
            held, pending, base = self.view("allocation"), self.pending, self.pending_base
            tracked_peak = self.active_peak
        stat = Stat()
        stat.current = held.current + pending
        stat.peak = max(tracked_peak, held.peak)
        stat.allocated = held.allocated
        # Blocks leave ``active`` when their stream work is done, not when freed.
        stat.freed = held.freed - (pending - base)
        return stat

    def reset_peak(self) -> None:
        """Set every peak to its current value."""
        for name in COUNTED_STATS:
            setattr(self, f"{name}_peak", getattr(self, name))
        self.active_peak = self.allocation + self.pending
        self.active_bytes_peak = self.allocated_bytes + self.pending_bytes

    def reset_accumulated(self) -> None:
        """Zero the totals added and removed."""
        for name in COUNTED_STATS:
            setattr(self, f"{name}_base", getattr(self, name))
            setattr(self, f"{name}_freed", 0)
        self.pending_base = self.pending
        self.pending_bytes_base = self.pending_bytes


def _sum(a: Stat, b: Stat, peak: int) -> Stat:
    stat = Stat()
    stat.current = a.current + b.current
    stat.allocated = a.allocated + b.allocated
    stat.freed = a.freed + b.freed
    stat.peak = peak
    return stat


class DeviceStats:
    """Every statistic the allocator of one device keeps.

    Example:
        >>> d = DeviceStats(); d.large.took(2048, 2000, False)
        >>> d.as_dict()["allocated_bytes.large_pool.peak"], d.view("allocated_bytes").all.current
        (2048, 2048)
    """

    def __init__(self) -> None:
        self.small = PoolCounters()
        self.large = PoolCounters()
        self.total = PoolCounters()
        self.small.other, self.large.other = self.large, self.small
        self.small.total = self.large.total = self.total
        self.segment = PoolStat()
        self.reserved_bytes = PoolStat()
        self.oversize_allocations = Stat()
        self.oversize_segments = Stat()
        self.num_alloc_retries = 0
        self.num_ooms = 0
        self.num_device_alloc = 0
        self.num_device_free = 0
        self.log: list[int] = []  # hot-path events not counted yet (see event_log)

    def fold(self) -> None:
        """Count the logged hot-path events (:func:`~gtensor.memory.event_log.fold`)."""
        if self.log:
            fold(self.log, self.small, self.large)

    def pool(self, small: bool) -> PoolCounters:
        """Return the counters of the small or the large pool."""
        return self.small if small else self.large

    def view(self, name: str) -> PoolStat:
        """Return one statistic of :data:`POOL_STATS` as a :class:`PoolStat` (a copy if derived)."""
        self.fold()
        if name in ("segment", "reserved_bytes"):
            stat: PoolStat = getattr(self, name)
            return stat
        out = PoolStat()
        if name in ("active", "active_bytes"):
            bytes_ = name == "active_bytes"
            small, large = self.small.active_view(bytes_), self.large.active_view(bytes_)
            total = self.total
            held_peak = getattr(total, "allocated_bytes_peak" if bytes_ else "allocation_peak")
            peak = max(getattr(total, "active_bytes_peak" if bytes_ else "active_peak"), held_peak)
        else:
            small, large = self.small.view(name), self.large.view(name)
            peak = getattr(self.total, f"{name}_peak")
        out.all, out.small_pool, out.large_pool = _sum(small, large, peak), small, large
        return out

    def reset_peak(self) -> None:
        """Set every peak to its current value."""
        self.fold()
        for counts in (self.small, self.large):
            counts.reset_peak()
        for name in COUNTED_STATS:
            small, large = getattr(self.small, name), getattr(self.large, name)
            setattr(self.total, f"{name}_peak", small + large)
        self.total.active_peak = self.small.active_peak + self.large.active_peak
        self.total.active_bytes_peak = self.small.active_bytes_peak + self.large.active_bytes_peak
        for stat in self._plain_stats():
            stat.reset_peak()

    def reset_accumulated(self) -> None:
        """Zero the totals added and removed and the event counters."""
        self.fold()
        for counts in (self.small, self.large):
            counts.reset_accumulated()
        for stat in self._plain_stats():
            stat.reset_accumulated()
        for name in COUNTERS:
            setattr(self, name, 0)

    def _plain_stats(self) -> list[Stat]:
        return [
            self.oversize_allocations,
            self.oversize_segments,
            *self.segment.stats(),
            *self.reserved_bytes.stats(),
        ]

    def as_dict(self) -> dict[str, int]:
        """Return a flat dict keyed like PyTorch's (``"allocated_bytes.all.current"``), sorted."""
        out: dict[str, int] = {}
        for name in POOL_STATS:
            for pool, stat in zip(POOLS, self.view(name).stats(), strict=True):
                _put(out, f"{name}.{pool}", stat)
        for name in PLAIN_STATS:
            _put(out, name, getattr(self, name))
        for name in COUNTERS:
            out[name] = getattr(self, name)
        return dict(sorted(out.items()))


def _put(out: dict[str, int], prefix: str, stat: Stat) -> None:
    out[f"{prefix}.current"] = stat.current
    out[f"{prefix}.peak"] = stat.peak
    out[f"{prefix}.allocated"] = stat.allocated
    out[f"{prefix}.freed"] = stat.freed
