"""The caching policy on a fake raw device: pools, split and merge, best fit, max_split_size."""

import pytest
from memory_fakes import MiB, make_allocator

from gtensor.memory.block import Block


def _blocks(alloc):
    """(size, state) of every block, segment by segment."""
    return [[(b["size"], b["state"]) for b in s["blocks"]] for s in alloc.snapshot()["segments"]]


def test_small_request_carves_a_small_segment(alloc):
    block = alloc.allocate(1000)
    stats = alloc.memory_stats()
    assert (block.size, block.requested, block.stream) == (1024, 1000, 0)
    assert alloc.raw.live == {block.ptr: 2 * MiB}
    assert (
        stats["allocated_bytes.all.current"] == stats["allocated_bytes.small_pool.current"] == 1024
    )
    assert stats["requested_bytes.all.current"] == 1000
    assert stats["reserved_bytes.small_pool.current"] == 2 * MiB
    assert stats["reserved_bytes.large_pool.current"] == 0
    assert stats["inactive_split.all.current"] == 1
    assert stats["inactive_split_bytes.all.current"] == 2 * MiB - 1024
    assert block.host is None  # fake device is not host-backed


def test_next_small_request_is_cut_from_the_same_segment(alloc):
    first = alloc.allocate(1000)
    second = alloc.allocate(512)
    assert second.ptr == first.ptr + 1024
    assert alloc.raw.allocs == 1
    assert _blocks(alloc) == [
        [(1024, "active_allocated"), (512, "active_allocated"), (2 * MiB - 1536, "inactive")]
    ]


def test_freed_blocks_wait_unmerged_until_a_request_misses(alloc):
    a, b, c = alloc.allocate(512), alloc.allocate(512), alloc.allocate(512)
    start = a.ptr
    alloc.free(a)
    alloc.free(c)  # held in the 512-byte free list, not merged with the tail
    tail = 2 * MiB - 1536
    assert _blocks(alloc) == [
        [(512, "inactive"), (512, "active_allocated"), (512, "inactive"), (tail, "inactive")]
    ]
    assert alloc.memory_stats()["inactive_split.all.current"] == 3
    alloc.free(b)
    stats = alloc.memory_stats()
    assert stats["inactive_split.all.current"] == 4
    assert stats["inactive_split_bytes.all.current"] == 2 * MiB
    # No free 1 KiB block: the free lists are merged first, then best fit cuts the front.
    d = alloc.allocate(1024)
    assert d.ptr == start
    assert _blocks(alloc) == [[(1024, "active_allocated"), (2 * MiB - 1024, "inactive")]]
    assert alloc.memory_stats()["inactive_split.all.current"] == 1
    alloc.free(d)
    alloc.empty_cache()  # merges the free lists, then the whole segment goes back
    stats = alloc.memory_stats()
    assert stats["inactive_split.all.current"] == stats["inactive_split_bytes.all.current"] == 0
    assert stats["allocated_bytes.all.current"] == stats["reserved_bytes.all.current"] == 0
    assert alloc.raw.frees == 1


def test_same_size_reuses_the_freed_block_as_it_is(alloc):
    first = alloc.allocate(1000)
    alloc.free(first)
    again = alloc.allocate(700)  # same rounded size: the very block, no split or merge
    assert again is first and again.allocated and (again.size, again.requested) == (1024, 700)
    stats = alloc.memory_stats()
    assert stats["requested_bytes.all.current"] == 700
    assert stats["allocation.all.allocated"] == 2 and stats["allocation.all.freed"] == 1
    assert stats["inactive_split.all.current"] == 1  # only the tail
    other = alloc.allocate(1000, stream=1)  # another stream never takes it
    assert other.segment is not first.segment


def test_freed_memory_is_reused_without_raw_calls(alloc):
    block = alloc.allocate(4096)
    ptr = block.ptr
    alloc.free(block)
    again = alloc.allocate(4000)
    assert again.ptr == ptr and alloc.raw.allocs == 1


def test_mid_size_requests_share_a_20_mib_segment(alloc):
    a = alloc.allocate(3 * MiB)
    b = alloc.allocate(5 * MiB)
    assert alloc.raw.allocs == 1 and list(alloc.raw.live.values()) == [20 * MiB]
    assert b.ptr == a.ptr + 3 * MiB
    assert alloc.memory_stats()["reserved_bytes.large_pool.current"] == 20 * MiB


def test_large_request_rounds_segment_to_2_mib_and_keeps_small_tail(alloc):
    block = alloc.allocate(11 * MiB)
    # 12 MiB segment; a 1 MiB remainder is not worth a block of its own.
    assert list(alloc.raw.live.values()) == [12 * MiB]
    assert block.size == 12 * MiB
    assert alloc.memory_stats()["allocated_bytes.large_pool.current"] == 12 * MiB


def test_best_fit_picks_the_smallest_free_block_that_holds_the_request(alloc):
    a = alloc.allocate(3 * MiB)
    keep1 = alloc.allocate(2 * MiB)
    c = alloc.allocate(5 * MiB)
    keep2 = alloc.allocate(2 * MiB)
    alloc.free(a)
    alloc.free(c)
    free_sizes = sorted(
        b["size"] for b in alloc.snapshot()["segments"][0]["blocks"] if b["state"] == "inactive"
    )
    assert free_sizes == [3 * MiB, 5 * MiB, 8 * MiB]
    assert alloc.allocate(4 * MiB).ptr == c.ptr
    got = alloc.allocate(2 * MiB + MiB // 2)
    assert got.ptr == a.ptr and got.size == 3 * MiB  # 0.5 MiB tail stays with the block
    assert alloc.raw.allocs == 1
    del keep1, keep2


def test_max_split_size_keeps_oversize_blocks_whole():
    alloc = make_allocator("max_split_size_mb:32")
    big = alloc.allocate(40 * MiB)
    stats = alloc.memory_stats()
    assert stats["oversize_allocations.current"] == stats["oversize_segments.current"] == 1
    alloc.free(big)
    assert alloc.memory_stats()["oversize_allocations.current"] == 0
    small = alloc.allocate(8 * MiB)  # would split the 40 MiB block: takes a new segment
    assert small.ptr != big.ptr and alloc.raw.allocs == 2
    reused = alloc.allocate(38 * MiB)  # oversize, wastes under 20 MiB: reuses it whole
    assert reused.ptr == big.ptr and reused.size == 40 * MiB
    alloc.free(reused)
    fresh = alloc.allocate(33 * MiB)  # 40 - 33 < 20: reused
    assert fresh.ptr == big.ptr
    assert alloc.memory_stats()["max_split_size"] == 32 * MiB


def test_max_split_size_does_not_reuse_far_too_large_blocks():
    alloc = make_allocator("max_split_size_mb:32")
    alloc.free(alloc.allocate(60 * MiB))
    block = alloc.allocate(34 * MiB)
    assert block.size == 34 * MiB and alloc.raw.allocs == 2


def test_zero_byte_allocation(alloc):
    block = alloc.allocate(0)
    assert (block.size, block.requested) == (512, 0)
    alloc.free(block)
    assert alloc.memory_stats()["allocation.all.current"] == 0


def test_bad_arguments_raise_typed_errors(alloc):
    with pytest.raises(ValueError, match=r"^\[allocate\] nbytes must be >= 0"):
        alloc.allocate(-1)
    with pytest.raises(TypeError, match=r"^\[allocate\] nbytes must be an int, got float"):
        alloc.allocate(1.5)
    block = alloc.allocate(16)
    alloc.free(block)
    with pytest.raises(ValueError, match=r"^\[free\] .* is not allocated"):
        alloc.free(block)
    with pytest.raises(TypeError, match=r"^\[free\] expected a Block"):
        alloc.free(object())
    other = make_allocator().allocate(16)
    with pytest.raises(ValueError, match=r"^\[free\] .* does not belong to this allocator"):
        alloc.free(other)
    with pytest.raises(ValueError, match=r"^\[record_stream\]"):
        alloc.record_stream(block, object())
    with pytest.raises(ValueError, match=r"^\[set_per_process_memory_fraction\]"):
        alloc.set_memory_fraction(1.5)


def test_caching_off_passes_straight_through():
    alloc = make_allocator("caching:0")
    a = alloc.allocate(1000)
    b = alloc.allocate(1000)
    assert sorted(alloc.raw.live.values()) == [1000, 1000]
    assert a.size == 1000
    alloc.free(a)
    alloc.free(b)
    assert alloc.raw.live == {} and alloc.raw.frees == 2
    stats = alloc.memory_stats()
    assert stats["reserved_bytes.all.current"] == 0
    assert stats["reserved_bytes.all.peak"] == stats["allocated_bytes.all.peak"] == 2000
    assert isinstance(alloc.allocate(0), Block)


def test_garbage_collection_threshold_releases_old_free_segments():
    alloc = make_allocator("garbage_collection_threshold:0.5", capacity=100 * MiB)
    first, second = alloc.allocate(20 * MiB), alloc.allocate(20 * MiB)
    alloc.free(first)
    alloc.free(second)
    assert alloc.memory_stats()["reserved_bytes.all.current"] == 40 * MiB
    alloc.allocate(30 * MiB)  # 40 MiB reserved is under 50: nothing released yet
    assert alloc.raw.frees == 0
    alloc.allocate(20 * MiB + 512)  # cached blocks too small; 70 MiB > 50: release one
    assert alloc.raw.frees == 1
    assert first.ptr not in alloc.raw.live and second.ptr in alloc.raw.live  # oldest first


def test_stats_peaks_totals_and_resets(alloc):
    blocks = [alloc.allocate(512) for _ in range(4)]
    for block in blocks[:3]:
        alloc.free(block)
    stats = alloc.memory_stats()
    assert stats["allocation.all.current"] == 1
    assert stats["allocation.all.peak"] == 4
    assert stats["allocation.all.allocated"] == 4
    assert stats["allocation.all.freed"] == 3
    assert stats["allocated_bytes.all.peak"] == 2048
    alloc.reset_peak_stats()
    assert alloc.memory_stats()["allocated_bytes.all.peak"] == 512
    alloc.reset_accumulated_stats()
    stats = alloc.memory_stats()
    assert stats["allocation.all.allocated"] == stats["allocation.all.freed"] == 0
    assert stats["allocation.all.current"] == 1
    assert stats["num_device_alloc"] == 0
