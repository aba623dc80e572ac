"""Eight threads allocating and freeing on one allocator: no overlap, nothing lost."""

import threading

import numpy as np

from gtensor.memory.allocator import CachingAllocator
from gtensor.memory.raw_host import HostMemory

THREADS = 8
ROUNDS = 150


def test_eight_threads_hammering_alloc_and_free():
    alloc = CachingAllocator(HostMemory(capacity=256 << 20), "cpu")
    errors: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def work(seed: int) -> None:
        rng = np.random.default_rng(seed)
        held = []
        try:
            start.wait()
            for _ in range(ROUNDS):
                if held and rng.random() < 0.45:
                    block, tag = held.pop(int(rng.integers(len(held))))
                    # Another thread writing into our block would show here.
                    assert (block.host == tag).all()
                    alloc.free(block)
                else:
                    size = int(rng.choice([64, 700, 5000, 300_000, 3 << 20]))
                    block = alloc.allocate(size, stream=seed % 2)
                    tag = np.uint8(seed * 16 + len(held) % 16)
                    block.host[:] = tag
                    held.append((block, tag))
            for block, tag in held:
                assert (block.host == tag).all()
                alloc.free(block)
        except BaseException as exc:  # reported to the main thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    stats = alloc.memory_stats()
    assert stats["allocated_bytes.all.current"] == stats["allocation.all.current"] == 0
    assert stats["active_bytes.all.current"] == stats["requested_bytes.all.current"] == 0
    assert stats["allocation.all.allocated"] == stats["allocation.all.freed"] > THREADS * ROUNDS / 2
    alloc.empty_cache()
    assert alloc.memory_stats()["reserved_bytes.all.current"] == 0
    assert alloc.raw.free_bytes() == 256 << 20


def test_a_free_whose_list_a_flush_took_out_is_parked_again():
    """The lock-free free path: a flush between finding the free list and appending to it."""
    from memory_fakes import make_allocator

    alloc = make_allocator()
    pool = alloc._small

    class FlushOnGet(dict):
        """Free lists whose next lookup lets a flush run first (as another thread would)."""

        armed = False

        def get(self, key, default=None):
            found = super().get(key, default)
            if self.armed:
                self.armed = False
                pool.flush(alloc._small_counts)
            return found

    pool.free_lists = alloc._free_small = FlushOnGet()
    alloc._use(alloc.config)  # the request-size map refers to the free lists
    keep, victim = alloc.allocate(1000), alloc.allocate(1000)
    alloc.free(alloc.allocate(1000))  # the list for 1024-byte blocks exists
    pool.free_lists.armed = True
    alloc.free(victim)  # the flush takes the list out between the lookup and the append
    assert not pool.free_lists.armed
    assert [b is victim for b in pool.free_lists[1024]] == [True]  # parked again, once
    assert alloc.allocate(1000) is victim
    alloc.free(victim)
    alloc.free(keep)
    stats = alloc.memory_stats()
    assert stats["allocation.all.current"] == 0
    assert stats["active_bytes.all.current"] == 0
