"""Random allocate, free, record_stream and empty_cache against a model; stats exact each step."""

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from memory_fakes import FakeStream, MiB, make_allocator

from gtensor.errors import OutOfMemoryError
from gtensor.memory.policy import is_small, round_size

SIZES = st.one_of(
    st.integers(0, 4096),
    st.integers(4096, MiB + 4096),
    st.integers(MiB, 24 * MiB),
)
CONFIGS = st.sampled_from(["", "max_split_size_mb:24", "roundup_power2_divisions:4", "caching:0"])


class AllocatorModel(RuleBasedStateMachine):
    """The model: which blocks are live, which wait on events, and the peak of allocated bytes."""

    @initialize(conf=CONFIGS)
    def start(self, conf):
        self.alloc = make_allocator(conf, capacity=96 * MiB)
        self.divisions = self.alloc.config.roundup_power2_divisions
        self.live = []
        self.pending = []  # (block, stream) waiting for the side stream's event
        self.side = FakeStream(99)
        self.peak = 0
        self.active_peak = 0
        self.base = {}  # counted stats' current values at the last reset of the totals

    @rule(nbytes=SIZES, stream=st.sampled_from([0, 1]))
    def allocate(self, nbytes, stream):
        self._allocate_and_track(nbytes, stream)

    def _allocate_and_track(self, nbytes, stream):
        before = self.alloc.memory_stats()
        try:
            block = self.alloc.allocate(nbytes, stream)
        except OutOfMemoryError:
            after = self.alloc.memory_stats()
            assert after["num_ooms"] == before["num_ooms"] + 1
            assert after["allocated_bytes.all.current"] == before["allocated_bytes.all.current"]
            self.pending = []  # the flush waited for every stream
            return
        if self.alloc.memory_stats()["num_alloc_retries"] > before["num_alloc_retries"]:
            self.pending = []
        if self.alloc.config.caching:
            assert block.size >= round_size(nbytes, self.divisions)
        else:
            assert block.size == max(nbytes, 1)
        assert (block.requested, block.stream) == (nbytes, stream)
        self.live.append(block)
        self.peak = max(self.peak, sum(b.size for b in self.live))
        self.active_peak = max(self.active_peak, len(self.live) + len(self.pending))

    @precondition(lambda self: self.live)
    @rule(index=st.integers(0, 10**6), side=st.booleans())
    def free(self, index, side):
        block = self.live.pop(index % len(self.live))
        if side:
            self.alloc.record_stream(block, self.side)
            self.pending.append(block)
        self.alloc.free(block)

    @precondition(lambda self: self.side.events)
    @rule()
    def finish_side_work(self):
        for event in self.side.events:
            event.done = True
        self.side.events.clear()
        self.pending = []
        self._allocate_and_track(0, 0)  # finished events are collected on the next allocation
        self.alloc.free(self.live.pop())

    @rule()
    def empty_cache(self):
        self.alloc.empty_cache()
        self.pending = []
        assert self.alloc.memory_stats()["inactive_split_bytes.all.current"] == sum(
            b["size"]
            for s in self.alloc.snapshot()["segments"]
            for b in s["blocks"]
            if b["state"] == "inactive" and len(s["blocks"]) > 1
        )

    @rule()
    def reset_peaks(self):
        self.alloc.reset_peak_stats()
        stats = self.alloc.memory_stats()
        for key in (k for k in stats if k.endswith(".peak")):
            assert stats[key] == stats[key[: -len("peak")] + "current"], key
        self.peak = stats["allocated_bytes.all.current"]
        self.active_peak = stats["active.all.current"]

    @rule()
    def reset_totals(self):
        self.alloc.reset_accumulated_stats()
        stats = self.alloc.memory_stats()
        self.base = {k[: -len(".current")]: v for k, v in stats.items() if k.endswith(".current")}

    @invariant()
    def totals_and_peaks_agree_with_current_values(self):
        stats = self.alloc.memory_stats()
        for key, current in stats.items():
            if not key.endswith(".current"):
                continue
            name = key[: -len(".current")]
            added, removed = stats[f"{name}.allocated"], stats[f"{name}.freed"]
            assert added - removed == current - self.base.get(name, 0), name
            assert stats[f"{name}.peak"] >= current, name
        assert stats["active.all.peak"] == self.active_peak

    @invariant()
    def stats_match_the_model(self):
        stats = self.alloc.memory_stats()
        snapshot = self.alloc.snapshot()["segments"]
        for pool, small in (("all", None), ("small_pool", True), ("large_pool", False)):
            live = [b for b in self.live if small is None or is_small(b.size) == small]
            segs = [s for s in snapshot if small is None or (s["segment_type"] == "small") == small]
            blocks = [b for s in segs for b in s["blocks"]]
            split = [b for s in segs if len(s["blocks"]) > 1 for b in s["blocks"]]
            inactive_split = [b for b in split if b["state"] == "inactive"]
            active = [b for b in blocks if b["state"] != "inactive"]
            assert stats[f"allocation.{pool}.current"] == len(live)
            assert stats[f"allocated_bytes.{pool}.current"] == sum(b.size for b in live)
            assert stats[f"requested_bytes.{pool}.current"] == sum(b.requested for b in live)
            assert stats[f"segment.{pool}.current"] == len(segs)
            assert stats[f"reserved_bytes.{pool}.current"] == sum(s["total_size"] for s in segs)
            assert stats[f"active.{pool}.current"] == len(active)
            assert stats[f"active_bytes.{pool}.current"] == sum(b["size"] for b in active)
            assert stats[f"inactive_split.{pool}.current"] == len(inactive_split)
            assert stats[f"inactive_split_bytes.{pool}.current"] == sum(
                b["size"] for b in inactive_split
            )
        assert stats["allocated_bytes.all.peak"] == self.peak
        assert stats["active.all.current"] == len(self.live) + len(self.pending)
        assert stats["reserved_bytes.all.current"] == self.alloc.raw.used
        if not self.base:  # the event counters restart at a reset of the totals
            assert stats["num_device_alloc"] - stats["num_device_free"] == len(self.alloc.raw.live)

    @invariant()
    def segments_are_tiled_and_merged(self):
        for segment in self.alloc.snapshot()["segments"]:
            blocks = segment["blocks"]
            address = segment["address"]
            for block in blocks:
                assert block["address"] == address
                address += block["size"]
            assert address == segment["address"] + segment["total_size"]
            # Free neighbours are merged unless one of them still waits in a free list.
            for left, right in zip(blocks, blocks[1:], strict=False):
                if left["state"] == right["state"] == "inactive":
                    assert left["cached"] or right["cached"]


AllocatorModel.TestCase.settings = settings(max_examples=40, stateful_step_count=30, deadline=None)
TestAllocatorModel = AllocatorModel.TestCase
