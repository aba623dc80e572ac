"""Per-stream reuse and record_stream on fake streams and events."""

from memory_fakes import FakeStream, MiB


def test_free_blocks_are_reused_only_on_their_stream(alloc):
    block = alloc.allocate(4096, stream=1)
    ptr = block.ptr
    alloc.free(block)
    other = alloc.allocate(4096, stream=2)
    assert other.ptr != ptr and other.stream == 2
    assert alloc.raw.allocs == 2  # a segment per stream
    same = alloc.allocate(4096, stream=1)
    assert same.ptr == ptr and alloc.raw.allocs == 2


def test_record_stream_delays_reuse_until_the_event_is_done(alloc):
    side = FakeStream(7)
    block = alloc.allocate(4096, stream=1)
    ptr = block.ptr
    alloc.record_stream(block, side)
    alloc.free(block)
    stats = alloc.memory_stats()
    assert stats["allocated_bytes.all.current"] == 0
    assert stats["active_bytes.all.current"] == 4096  # pending: still active
    assert len(side.events) == 1
    assert alloc.snapshot()["segments"][0]["blocks"][0]["state"] == "active_pending_free"
    waiting = alloc.allocate(4096, stream=1)
    assert waiting.ptr != ptr
    side.events[0].done = True
    reused = alloc.allocate(4096, stream=1)  # events are checked on the next allocation
    assert reused.ptr == ptr
    assert alloc.memory_stats()["active_bytes.all.current"] == 2 * 4096


def test_record_stream_on_own_stream_needs_no_event(alloc):
    own = FakeStream(3)
    block = alloc.allocate(512, stream=3)
    alloc.record_stream(block, own)
    alloc.free(block)
    assert own.events == []
    assert alloc.memory_stats()["active.all.current"] == 0


def test_every_recorded_stream_must_finish(alloc):
    s1, s2 = FakeStream(1), FakeStream(2)
    block = alloc.allocate(512)
    ptr = block.ptr
    alloc.record_stream(block, s1)
    alloc.record_stream(block, s2)
    alloc.record_stream(block, s2)
    alloc.free(block)
    assert len(s1.events) == len(s2.events) == 1
    s1.events[0].done = True
    assert alloc.allocate(512).ptr != ptr
    s2.events[0].done = True
    assert alloc.allocate(512).ptr == ptr


def test_empty_cache_waits_for_pending_work_then_releases(alloc):
    side = FakeStream(9)
    block = alloc.allocate(3 * MiB)
    alloc.record_stream(block, side)
    alloc.free(block)
    alloc.empty_cache()
    assert side.events[0].synchronized == 1
    assert alloc.raw.live == {}
    stats = alloc.memory_stats()
    assert stats["reserved_bytes.all.current"] == stats["active_bytes.all.current"] == 0


def test_empty_cache_keeps_segments_with_live_blocks(alloc):
    live = alloc.allocate(512)
    alloc.free(alloc.allocate(3 * MiB))
    alloc.empty_cache()
    assert list(alloc.raw.live) == [live.segment.ptr]
    assert alloc.memory_stats()["num_device_free"] == 1


def test_a_free_list_block_is_reused_while_other_blocks_wait(alloc):
    side = FakeStream(5)
    waiting = alloc.allocate(4096)
    cached = alloc.allocate(512)
    ptr = cached.ptr
    alloc.free(cached)
    alloc.record_stream(waiting, side)
    alloc.free(waiting)
    again = alloc.allocate(512)  # events pending: the slow path, same block
    assert again.ptr == ptr
    stats = alloc.memory_stats()
    assert stats["inactive_split.all.current"] == 1  # the tail only
    assert stats["active.all.current"] == 2 and stats["active.all.peak"] == 2
    assert stats["allocation.all.current"] == 1


def test_a_pinned_stream_keeps_its_free_segments_until_unpinned(alloc):
    alloc.pin_stream(5)  # a captured graph's stream: its memory stays with the graph
    alloc.free(alloc.allocate(3 * MiB, stream=5))
    kept = alloc.allocate(4096, stream=1)
    alloc.free(kept)
    alloc.empty_cache()
    assert [s["stream"] for s in alloc.snapshot()["segments"]] == [5]
    alloc.unpin_stream(5)
    alloc.empty_cache()
    assert alloc.snapshot()["segments"] == []
