"""Allocator statistics, named as PyTorch's ``torch.cuda.memory_stats``."""

from __future__ import annotations

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
        # Inlined Stat.increase: this runs several times per allocation.
        for stat in (self.all, self.small_pool if small else self.large_pool):
            stat.current += amount
            stat.allocated += amount
            if stat.current > stat.peak:
                stat.peak = stat.current

    def decrease(self, small: bool, amount: int) -> None:
        """Remove ``amount`` from ``all`` and from the block's pool."""
        for stat in (self.all, self.small_pool if small else self.large_pool):
            stat.current -= amount
            stat.freed += amount

    def stats(self) -> tuple[Stat, Stat, Stat]:
        """Return the three stats in :data:`POOLS` order."""
        return self.all, self.small_pool, self.large_pool


class DeviceStats:
    """Every statistic the allocator of one device keeps.

    Example:
        >>> d = DeviceStats(); d.allocated_bytes.increase(False, 2048)
        >>> d.as_dict()["allocated_bytes.large_pool.peak"]
        2048
    """

    def __init__(self) -> None:
        self.allocation = PoolStat()
        self.segment = PoolStat()
        self.active = PoolStat()
        self.inactive_split = PoolStat()
        self.allocated_bytes = PoolStat()
        self.reserved_bytes = PoolStat()
        self.active_bytes = PoolStat()
        self.inactive_split_bytes = PoolStat()
        self.requested_bytes = PoolStat()
        self.oversize_allocations = Stat()
        self.oversize_segments = Stat()
        self.num_alloc_retries = 0
        self.num_ooms = 0
        self.num_device_alloc = 0
        self.num_device_free = 0

    def _all_stats(self) -> list[Stat]:
        out = [getattr(self, name) for name in PLAIN_STATS]
        for name in POOL_STATS:
            out.extend(getattr(self, name).stats())
        return out

    def reset_peak(self) -> None:
        """Set every peak to its current value."""
        for stat in self._all_stats():
            stat.reset_peak()

    def reset_accumulated(self) -> None:
        """Zero the totals added and removed and the event counters."""
        for stat in self._all_stats():
            stat.reset_accumulated()
        for name in COUNTERS:
            setattr(self, name, 0)

    def as_dict(self) -> dict[str, int]:
        """Return a flat dict keyed like PyTorch's (``"allocated_bytes.all.current"``), sorted."""
        out: dict[str, int] = {}
        for name in POOL_STATS:
            for pool, stat in zip(POOLS, getattr(self, name).stats(), strict=True):
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
