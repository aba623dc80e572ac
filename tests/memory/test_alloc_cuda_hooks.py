"""CuPy's allocator and Numba's memory manager route through gtensor's cache."""

import gc
import types

import pytest

import gtensor.memory as mem
from gtensor.device import cuda_is_simulated, device
from gtensor.memory import cuda_hooks
from gtensor.memory import streams as memory_streams

CUDA0 = device("cuda", 0)


def _fake_cupy(stream_ptr: int):
    class UnownedMemory:
        def __init__(self, ptr, size, owner, device_id=-1):
            self.ptr, self.size, self.owner, self.device_id = ptr, size, owner, device_id

    class MemoryPointer:
        def __init__(self, mem, offset):
            self.mem, self.ptr = mem, mem.ptr + offset

    cuda = types.SimpleNamespace(
        runtime=types.SimpleNamespace(getDevice=lambda: 0),
        get_current_stream=lambda: types.SimpleNamespace(ptr=stream_ptr),
        UnownedMemory=UnownedMemory,
        MemoryPointer=MemoryPointer,
        set_allocator=None,
    )
    return types.SimpleNamespace(cuda=cuda)


def test_cupy_allocations_count_in_gtensor_stats(fresh_allocators, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "cupy", _fake_cupy(stream_ptr=7))
    pointer = cuda_hooks.cupy_allocator(1000)
    assert pointer.mem.device_id == 0 and pointer.mem.size == 1000
    assert mem.memory_allocated(CUDA0) == 1024
    block = pointer.mem.owner.block
    assert block.stream == 7 and pointer.ptr == block.ptr
    del pointer, block
    gc.collect()
    assert mem.memory_allocated(CUDA0) == 0


def _fake_numba_cuda():
    class HostOnlyCUDAMemoryManager:
        def __init__(self, *args, **kwargs):
            self.context = kwargs["context"]
            self.resets = 0

        def reset(self):
            self.resets += 1

    class MemoryPointer:
        def __init__(self, context, pointer, size, owner=None, finalizer=None):
            self.context, self.pointer, self.size, self.finalizer = (
                context,
                pointer,
                size,
                finalizer,
            )

    return types.SimpleNamespace(
        HostOnlyCUDAMemoryManager=HostOnlyCUDAMemoryManager,
        MemoryPointer=MemoryPointer,
        MemoryInfo=lambda free, total: (free, total),
    )


def test_numba_memory_manager_allocates_from_the_cache(fresh_allocators, monkeypatch):
    import numba

    # Numba's allocations go on gtensor's current stream.
    monkeypatch.setattr(memory_streams, "_current_stream",
                        lambda dev: types.SimpleNamespace(handle=5))
    monkeypatch.setattr(numba, "cuda", _fake_numba_cuda(), raising=False)
    manager_class = cuda_hooks.numba_memory_manager()
    context = types.SimpleNamespace(device=types.SimpleNamespace(id=0))
    manager = manager_class(context=context)
    manager.initialize()
    assert manager.interface_version == 1
    pointer = manager.memalloc(3000)
    assert pointer.size == 3000 and pointer.pointer.value % 64 == 0
    assert mem.memory_allocated(CUDA0) == 3072
    assert mem.memory_snapshot(CUDA0)["segments"][0]["stream"] == 5
    free_bytes, total = manager.get_memory_info()
    assert total == mem.mem_get_info(CUDA0)[1]
    assert free_bytes == mem.mem_get_info(CUDA0)[0] + 2 * 1024 * 1024 - 3072
    pointer.finalizer()
    assert mem.memory_allocated(CUDA0) == 0
    manager.reset()
    assert mem.memory_reserved(CUDA0) == 0 and manager.resets == 1
    with pytest.raises(NotImplementedError, match=r"^\[numba_memory_manager\] IPC"):
        manager.get_ipc_handle(pointer)


@pytest.mark.skipif(not cuda_is_simulated(), reason="a real GPU installs the hooks")
def test_nothing_to_install_on_the_simulator(fresh_allocators):
    assert mem.install_cuda_hooks() is False


@pytest.mark.gpu
def test_real_gpu_cupy_and_numba_share_one_cache():
    cupy = pytest.importorskip("cupy")
    from numba import cuda

    assert mem.install_cuda_hooks() is True
    dev = device("cuda", cupy.cuda.runtime.getDevice())
    before = mem.memory_allocated(dev)
    x = cupy.arange(1 << 20, dtype=cupy.float32)
    assert mem.memory_allocated(dev) >= before + (4 << 20)
    y = cuda.device_array(1 << 18, dtype="float32")
    assert mem.memory_allocated(dev) >= before + (5 << 20)
    del x, y
    gc.collect()
    assert mem.memory_allocated(dev) == before
