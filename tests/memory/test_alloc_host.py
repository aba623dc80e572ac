"""Host-backed memory and the module-level API on cpu: alignment, views, finalizers."""

import gc
import weakref

import numpy as np
import pytest

import gtensor.memory as mem
from gtensor.device import device as gt_device
from gtensor.errors import OutOfMemoryError
from gtensor.memory.allocator import CachingAllocator
from gtensor.memory.config import AllocatorConfig
from gtensor.memory.raw import RawOutOfMemory
from gtensor.memory.raw_host import HUGE_PAGE, HostMemory, aligned_buffer

MiB = 1024 * 1024


def test_aligned_buffers():
    for nbytes in (1, 100, 4096, 3 * MiB):
        buffer = aligned_buffer(nbytes)
        assert buffer.nbytes == nbytes and buffer.dtype == np.uint8
        assert buffer.ctypes.data % 64 == 0
        buffer[:] = 7  # writable
    huge = aligned_buffer(8 * MiB)
    assert huge.ctypes.data % HUGE_PAGE == 0  # huge-page aligned mapping


def test_host_capacity_is_enforced_and_freed():
    raw = HostMemory(capacity=MiB)
    ptr, _ = raw.alloc(MiB)
    assert raw.free_bytes() == 0
    with pytest.raises(RawOutOfMemory):
        raw.alloc(1)
    raw.free(ptr)
    assert raw.free_bytes() == MiB


def test_block_host_views_the_segment_without_copying():
    alloc = CachingAllocator(HostMemory(), "cpu")
    a, b = alloc.allocate(1000), alloc.allocate(300)
    assert a.host.nbytes == 1000 and b.host.nbytes == 300
    assert a.host.ctypes.data == a.ptr and b.host.ctypes.data == b.ptr
    assert a.ptr % 64 == 0 and b.ptr == a.ptr + 1024
    segment = a.segment.buffer
    a.host[:] = 1
    b.host[:] = 2
    assert (segment[:1000] == 1).all() and (segment[1024:1324] == 2).all()
    empty = alloc.allocate(0)
    assert empty.host.nbytes == 0 and empty.host.dtype == np.uint8
    alloc.free(a)
    assert a.host is None


def test_api_allocates_on_cpu_and_counts(fresh_allocators):
    block = mem.allocate(5000, "cpu")
    assert block.device == "cpu" and block.stream == 0
    assert mem.memory_allocated() == 5120 and mem.memory_reserved() == 2 * MiB
    assert mem.max_memory_allocated() == 5120 and mem.max_memory_reserved() == 2 * MiB
    mem.free(block)
    assert mem.memory_allocated() == 0 and mem.max_memory_allocated() == 5120
    mem.reset_peak_memory_stats()
    assert mem.max_memory_allocated() == 0
    mem.empty_cache()
    assert mem.memory_reserved() == 0 and mem.max_memory_reserved() == 2 * MiB
    summary = mem.memory_summary()
    assert "device cpu" in summary and "| Reserved memory" in summary
    assert "from small pool" in summary and "from small pool" not in mem.memory_summary(
        abbreviated=True
    )
    with pytest.raises(TypeError, match=r"^\[free\] expected a Block"):
        mem.free(None)
    with pytest.raises(TypeError, match=r"^\[allocate\] expected a device"):
        mem.allocate(8, 3.0)


def test_memory_fraction_on_cpu(fresh_allocators):
    mem.set_per_process_memory_fraction(0.0, "cpu")
    with pytest.raises(OutOfMemoryError, match="a limit of 0 B for this process"):
        mem.allocate(1, "cpu")


class _Node:
    """Stands for a tensor whose storage frees its block in a finalizer."""

    def __init__(self, nbytes: int, parents=()):
        self.block = mem.allocate(nbytes, "cpu")
        self.parents = list(parents)
        weakref.finalize(self, mem.free, self.block)


def test_no_bytes_left_after_a_graph_and_its_tensors_are_gone(fresh_allocators):
    x = _Node(4096)
    y = _Node(8192, [x])
    z = _Node(3 * MiB, [x, y])
    z.parents.append(z)  # a cycle: only the collector frees it
    assert mem.memory_allocated() > 0
    del x, y, z
    gc.collect()
    assert mem.memory_allocated() == 0
    assert mem.memory_stats()["active.all.current"] == 0


@pytest.mark.parametrize("caching", [True, False])
def test_free_from_a_finalizer_inside_an_allocation(caching):
    """The collector may run a tensor finalizer while the same thread is inside allocate.

    With caching, the freed block goes straight to its free list (no lock, no
    pool change); without, the free needs the pool and waits for the call to end.
    """
    seen: list[bool] = []
    victims = []

    class FreeingRaw(HostMemory):
        def alloc(self, nbytes):
            if victims and not seen:
                alloc.free(victims[0])  # as a finalizer would, mid-allocation
                seen.append(victims[0].allocated)
            return super().alloc(nbytes)

    alloc = CachingAllocator(FreeingRaw(), "cpu", AllocatorConfig(caching=caching))
    victim = alloc.allocate(512)
    victims.append(victim)
    big = alloc.allocate(5 * MiB)
    assert seen == [not caching]  # queued only when the free needs the pool
    assert not victim.allocated
    stats = alloc.memory_stats()
    assert stats["allocation.all.current"] == 1
    assert stats["allocated_bytes.all.current"] == big.size
    if caching:
        assert alloc.allocate(512).ptr == victim.ptr  # reused from its free list


def test_device_lookups_are_remembered_only_for_fixed_devices(fresh_allocators):
    allocators = fresh_allocators()
    cpu = gt_device("cpu")
    mem.free(mem.allocate(8, cpu))
    mem.free(mem.allocate(8, "cpu"))
    assert allocators.route(cpu)[1] is allocators.route("cpu")[1] is mem.allocator_for("cpu")
    block = mem.allocate(8, "cuda")  # follows the current CUDA device: looked up every time
    assert allocators.route("cuda") is None and block.device == gt_device("cuda:0")
    mem.free(block)
