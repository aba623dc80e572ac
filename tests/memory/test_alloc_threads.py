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
