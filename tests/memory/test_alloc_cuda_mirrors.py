"""gt.cuda.* memory functions address the CUDA device's allocator."""

import pytest

import gtensor.cuda.memory as cuda_memory
import gtensor.memory as mem
from gtensor.device import device

MiB = 1024 * 1024


def test_mirrors_read_the_cuda_allocator(fresh_allocators):
    fresh_allocators({"GTENSOR_CUDA_SIM_MEMORY": str(64 * MiB)})
    block = mem.allocate(3000, "cuda:0", stream=0)
    assert cuda_memory.memory_allocated(0) == 3072 == cuda_memory.memory_allocated("cuda:0")
    assert cuda_memory.memory_reserved(device("cuda", 0)) == 2 * MiB
    assert cuda_memory.max_memory_allocated(0) == 3072
    assert cuda_memory.max_memory_reserved(0) == 2 * MiB
    assert cuda_memory.memory_stats(0)["allocation.all.current"] == 1
    assert cuda_memory.mem_get_info(0) == (62 * MiB, 64 * MiB)
    assert "device cuda:0" in cuda_memory.memory_summary(0)
    assert len(cuda_memory.memory_snapshot(0)["segments"]) == 1
    mem.free(block)
    cuda_memory.reset_peak_memory_stats(0)
    cuda_memory.reset_accumulated_memory_stats(0)
    assert cuda_memory.max_memory_allocated(0) == 0
    cuda_memory.empty_cache(0)
    assert cuda_memory.memory_reserved(0) == 0
    cuda_memory.set_per_process_memory_fraction(0.5, 0)
    with pytest.raises(MemoryError, match="a limit of 32.00 MiB"):
        mem.allocate(40 * MiB, "cuda:0", stream=0)
    assert mem.memory_allocated("cpu") == 0


def test_mirrors_reject_a_cpu_device(fresh_allocators):
    with pytest.raises(ValueError, match=r"^\[cuda.memory_allocated\] expected a cuda device"):
        cuda_memory.memory_allocated("cpu")


def test_default_is_the_current_cuda_device(fresh_allocators):
    from gtensor.cuda import runtime

    block = mem.allocate(512, device("cuda", runtime.current_device()), stream=0)
    assert cuda_memory.memory_allocated() == 512
    mem.free(block)


def test_default_stream_is_the_current_stream(fresh_allocators):
    import gtensor.cuda as gcuda

    if not gcuda.is_available():
        pytest.skip("no CUDA device, real or simulated")
    side = gcuda.Stream()
    with gcuda.stream(side):
        block = mem.allocate(512, "cuda:0")
    assert block.stream == side.handle != 0
    mem.free(block)
