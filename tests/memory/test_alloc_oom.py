"""The out-of-memory ladder: flush the cache, retry, then raise a readable typed error."""

import numpy as np
import pytest
from memory_fakes import MiB, make_allocator

import gtensor.memory as mem
from gtensor.device import device
from gtensor.errors import OutOfMemoryError


def test_cache_is_flushed_and_the_request_retried():
    alloc = make_allocator(capacity=64 * MiB)
    alloc.free(alloc.allocate(30 * MiB))
    big = alloc.allocate(40 * MiB)  # needs the cached 30 MiB back
    assert alloc.raw.failures == 1 and alloc.raw.frees == 1
    stats = alloc.memory_stats()
    assert stats["num_alloc_retries"] == 1 and stats["num_ooms"] == 0
    assert stats["reserved_bytes.all.current"] == 40 * MiB == big.size


def test_then_the_typed_error_with_a_readable_message():
    alloc = make_allocator(capacity=64 * MiB)
    kept = alloc.allocate(40 * MiB)
    small = alloc.allocate(1000)
    before = alloc.memory_stats()
    with pytest.raises(OutOfMemoryError) as info:
        alloc.allocate(30 * MiB)
    message = str(info.value)
    assert isinstance(info.value, MemoryError)
    assert message.startswith("[allocate] out of memory on fake: tried to allocate 30.00 MiB")
    assert "total capacity of 64.00 MiB" in message
    assert "of which 22.00 MiB is free" in message
    assert "40.00 MiB allocated" in message
    assert "2.00 MiB reserved but unallocated" in message
    assert "max_split_size_mb" in message and "empty_cache()" in message
    after = alloc.memory_stats()
    assert after["num_ooms"] == 1 and after["num_alloc_retries"] == 1
    for key in ("allocated_bytes.all.current", "reserved_bytes.all.current"):
        assert after[key] == before[key]
    assert kept.allocated and small.allocated
    alloc.free(kept)
    assert alloc.allocate(30 * MiB).size == 30 * MiB  # usable again


def test_oversize_cached_segments_are_released_first():
    alloc = make_allocator("max_split_size_mb:32", capacity=80 * MiB)
    alloc.free(alloc.allocate(60 * MiB))
    block = alloc.allocate(34 * MiB)  # the cached 60 MiB would waste 26 MiB: released
    assert block.size == 34 * MiB and alloc.raw.frees == 1
    assert alloc.memory_stats()["num_alloc_retries"] == 0


def test_oversize_release_adds_up_several_segments():
    alloc = make_allocator("max_split_size_mb:32", capacity=100 * MiB)
    a, b = alloc.allocate(34 * MiB), alloc.allocate(36 * MiB)
    alloc.free(a)
    alloc.free(b)
    alloc.allocate(38 * MiB)
    assert alloc.raw.frees == 2


def test_memory_fraction_caps_reserved_memory():
    alloc = make_allocator(capacity=100 * MiB)
    alloc.set_memory_fraction(0.5)
    assert alloc.limit == 50 * MiB
    alloc.allocate(40 * MiB)
    with pytest.raises(OutOfMemoryError, match="a limit of 50.00 MiB for this process"):
        alloc.allocate(20 * MiB)
    assert alloc.raw.failures == 0  # refused before asking the device


def test_simulated_cuda_device_runs_out_and_keeps_tensor_data(fresh_allocators):
    fresh_allocators({"GTENSOR_CUDA_SIM_MEMORY": str(8 * MiB)})
    cuda0 = device("cuda", 0)
    block = mem.allocate(3 * MiB, cuda0, stream=0)
    data = np.random.default_rng(0).integers(0, 255, size=block.requested, dtype=np.uint8)
    block.host[:] = data
    # Policy segments (20 MiB) do not fit; a segment of just the request does.
    assert block.size == 3 * MiB and mem.memory_reserved(cuda0) == 3 * MiB
    with pytest.raises(OutOfMemoryError, match=r"on cuda:0: tried to allocate 6.00 MiB\."):
        mem.allocate(6 * MiB, cuda0, stream=0)
    np.testing.assert_array_equal(block.host, data)
    assert mem.memory_stats(cuda0)["num_ooms"] == 1
    assert mem.memory_allocated("cpu") == 0  # other devices untouched
    mem.free(block)
    mem.empty_cache(cuda0)
    assert mem.allocate(6 * MiB, cuda0, stream=0).size == 6 * MiB
