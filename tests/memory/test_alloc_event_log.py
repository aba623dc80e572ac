"""The hot path's event log: folding it gives exactly the statistics of counting each event."""

import random

from gtensor.memory import event_log
from gtensor.memory.allocator import CachingAllocator
from gtensor.memory.stats import DeviceStats


def _events(count: int, seed: int) -> list[tuple[int, int]]:
    """A log of hand-outs and frees of blocks that are each handed out before freed."""
    rng = random.Random(seed)
    held: list[tuple[int, int]] = []  # (code, requested) of the blocks handed out
    log: list[tuple[int, int]] = []
    while len(log) < count:
        if held and (rng.random() < 0.5 or len(held) > 40):
            code, requested = held.pop(rng.randrange(len(held)))
            log.append((-code, -requested))
        else:
            size = 512 * rng.randint(1, 5000)
            code = size << 2 | (size <= 1 << 20) << 1 | rng.randint(0, 1)
            requested = rng.randint(size - 511, size)
            held.append((code, requested))
            log.append((code, requested))
    return log


def _counters(stats: DeviceStats) -> dict[str, int]:
    pools = {"small": stats.small, "large": stats.large, "total": stats.total}
    return {f"{pool}.{name}": getattr(counts, name)
            for pool, counts in pools.items() for name in counts.__slots__
            if name not in ("other", "total")}


def test_running_sums_match_counting_each_event():
    for seed in range(4):
        log = _events(3000, seed)
        one_by_one, at_once = DeviceStats(), DeviceStats()
        # a head start, so peaks and currents do not begin at zero
        for stats in (one_by_one, at_once):
            stats.small.took(4096, 4000, False)
            stats.large.took(1 << 22, 1 << 22, False)
            stats.small.add_inactive_split(2, 2048)
        for event in log:  # below the vector threshold: one event at a time
            event_log.fold(list(event), one_by_one.small, one_by_one.large)
        long = [entry for event in log for entry in event]
        assert len(long) >= event_log._VECTOR_FROM
        event_log.fold(long, at_once.small, at_once.large)
        assert long == []
        assert _counters(at_once) == _counters(one_by_one)
        assert at_once.as_dict() == one_by_one.as_dict()


def test_a_long_run_of_cached_reuse_is_counted(alloc: CachingAllocator):
    blocks = [alloc.allocate(1000) for _ in range(3)]
    for block in blocks:
        alloc.free(block)
    rounds = event_log.FOLD_LIMIT  # folds on the way, with events left over at the end
    for _ in range(rounds):
        a, b = alloc.allocate(1000), alloc.allocate(1000)
        alloc.recycle(a)
        alloc.recycle(b)
    assert alloc._log  # the last events wait for a reader
    stats = alloc.memory_stats()
    assert not alloc._log
    assert stats["allocation.all.current"] == 0
    assert stats["allocation.all.allocated"] == 3 + 2 * rounds
    assert stats["allocation.all.freed"] == 3 + 2 * rounds
    assert stats["allocation.all.peak"] == 3
    assert stats["allocated_bytes.small_pool.peak"] == 3 * 1024
    assert stats["requested_bytes.all.allocated"] == 1000 * (3 + 2 * rounds)
    # the three cached blocks and the rest of their segment
    assert stats["inactive_split.all.current"] == 4
    assert stats["inactive_split_bytes.all.current"] == 2 * 1024 * 1024
    alloc.reset_peak_stats()
    assert alloc.memory_stats()["allocation.all.peak"] == 0
