"""One cache for the whole process on a real GPU: CuPy and Numba allocate through gtensor.

:func:`install_cuda_hooks` makes gtensor's caching allocator CuPy's allocator
(``cupy.cuda.set_allocator``) and Numba's external memory manager
(``numba.cuda.set_memory_manager``), so cuBLAS workspaces, CuPy temporaries
and Numba device arrays are counted in the same statistics as tensors.
"""

from __future__ import annotations

import ctypes
import functools
import threading
import weakref
from typing import Any

from ..device import cuda_is_simulated, device
from . import api
from .block import Block

_install_lock = threading.Lock()
_installed = False


class _BlockOwner:
    """Kept alive by CuPy's ``UnownedMemory``; frees the block when CuPy drops it."""

    __slots__ = ("block", "__weakref__")

    def __init__(self, block: Block) -> None:
        self.block = block
        weakref.finalize(self, api.free, block)


def cupy_allocator(nbytes: int) -> Any:
    """Allocate ``nbytes`` for CuPy on its current device and stream.

    Returns:
        A ``cupy.cuda.MemoryPointer`` whose memory goes back to gtensor's
        cache when CuPy releases it.

    Example:
        >>> import cupy  # doctest: +SKIP
        >>> cupy.cuda.set_allocator(cupy_allocator)  # doctest: +SKIP
    """
    import cupy

    index = cupy.cuda.runtime.getDevice()
    stream = cupy.cuda.get_current_stream().ptr
    block = api.allocate(nbytes, device("cuda", index), stream=stream)
    memory = cupy.cuda.UnownedMemory(block.ptr, nbytes, _BlockOwner(block), device_id=index)
    return cupy.cuda.MemoryPointer(memory, 0)


def numba_memory_manager() -> type:
    """Return Numba's external memory manager class backed by gtensor's allocator.

    Example:
        >>> from numba import cuda  # doctest: +SKIP
        >>> cuda.set_memory_manager(numba_memory_manager())  # doctest: +SKIP
    """
    from numba import cuda

    class GTensorNumbaMemoryManager(cuda.HostOnlyCUDAMemoryManager):
        """Numba EMM plugin: device arrays come from gtensor's caching allocator."""

        def _device(self) -> device:
            return device("cuda", self.context.device.id)

        def initialize(self) -> None:
            """Nothing to prepare: gtensor's allocator starts on first use."""

        def memalloc(self, size: int) -> Any:
            """Allocate ``size`` bytes on the context's device and gtensor's current stream."""
            block = api.allocate(size, self._device())
            return cuda.MemoryPointer(
                self.context,
                ctypes.c_void_p(block.ptr),
                size,
                finalizer=functools.partial(api.free, block),
            )

        def get_memory_info(self) -> Any:
            """Return free bytes (the device's plus gtensor's cached ones) and the total."""
            dev = self._device()
            device_free, total = api.mem_get_info(dev)
            cached = api.memory_reserved(dev) - api.memory_allocated(dev)
            return cuda.MemoryInfo(free=device_free + cached, total=total)

        def get_ipc_handle(self, memory: Any) -> Any:
            """IPC export is not supported for blocks of gtensor's cache."""
            raise NotImplementedError(
                "[numba_memory_manager] IPC handles are not supported for memory from "
                "gtensor's caching allocator"
            )

        def reset(self) -> None:
            """Release Numba's own host allocations and gtensor's cached device segments."""
            super().reset()
            api.empty_cache(self._device())

        @property
        def interface_version(self) -> int:
            """Numba's EMM interface version implemented here."""
            return 1

    return GTensorNumbaMemoryManager


def install_cuda_hooks() -> bool:
    """Make gtensor's allocator CuPy's allocator and Numba's memory manager (once).

    Call it on first real-GPU use, before Numba creates its CUDA context (a
    context made earlier keeps Numba's own allocator). On Numba's CUDA
    simulator there is nothing to install.

    Returns:
        ``True`` when the hooks are in place, ``False`` on the simulator.

    Example:
        >>> install_cuda_hooks()  # doctest: +SKIP
        True
    """
    global _installed
    if cuda_is_simulated():
        return False
    with _install_lock:
        if not _installed:
            import cupy
            from numba import cuda

            cupy.cuda.set_allocator(cupy_allocator)
            cuda.set_memory_manager(numba_memory_manager())
            _installed = True
    return True
