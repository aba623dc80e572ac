"""Raw host memory: 64-byte aligned NumPy buffers, large ones on transparent huge pages.

Backs the ``cpu`` device and, with a set capacity, the simulated ``cuda``
device (``GTENSOR_CUDA_SIM_MEMORY``), so out-of-memory paths can be tested
without a GPU.
"""

from __future__ import annotations

import mmap
import os
import threading

import numpy as np

from .policy import MiB
from .raw import RawOutOfMemory

ALIGNMENT = 64
HUGE_PAGE = 2 * MiB
HUGE_THRESHOLD = 4 * MiB
"""Buffers of this size and up are mapped 2 MiB aligned and advised as huge pages."""


def _aligned_small(nbytes: int) -> np.ndarray:
    raw = np.empty(nbytes + ALIGNMENT - 1, dtype=np.uint8)
    start = -raw.ctypes.data % ALIGNMENT
    return raw[start : start + nbytes]


def _aligned_huge(nbytes: int) -> np.ndarray:
    mapping = mmap.mmap(-1, nbytes + HUGE_PAGE)
    whole = np.frombuffer(mapping, dtype=np.uint8)
    start = -whole.ctypes.data % HUGE_PAGE
    advice = getattr(mmap, "MADV_HUGEPAGE", None)
    if advice is not None:
        try:
            mapping.madvise(advice, start, nbytes)
        except OSError:
            pass
    return whole[start : start + nbytes]


def aligned_buffer(nbytes: int) -> np.ndarray:
    """Return a fresh ``uint8`` buffer of ``nbytes`` starting on a 64-byte boundary.

    Buffers of 4 MiB and more come from an anonymous mapping, 2 MiB aligned
    and advised ``MADV_HUGEPAGE`` where the platform has it.

    Raises:
        MemoryError: when the host cannot provide the memory (or the size is
            past what the platform can address).

    Example:
        >>> aligned_buffer(100).ctypes.data % 64, aligned_buffer(100).nbytes
        (0, 100)
    """
    try:
        return _aligned_huge(nbytes) if nbytes >= HUGE_THRESHOLD else _aligned_small(nbytes)
    except (OSError, OverflowError, ValueError) as exc:
        raise MemoryError(f"cannot allocate {nbytes} bytes on the host: {exc}") from exc


def physical_memory() -> int:
    """Return the host's physical memory in bytes (0 when the platform does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return 0


class HostMemory:
    """Raw host memory for the allocator, with an optional capacity.

    Args:
        capacity: bytes this device may hold at once; ``None`` means the
            host's physical memory, without a check of its own.

    Example:
        >>> mem = HostMemory(capacity=4096)
        >>> ptr, buf = mem.alloc(1024)
        >>> buf.nbytes, ptr % 64, mem.free_bytes()
        (1024, 0, 3072)
        >>> mem.free(ptr)
    """

    def __init__(self, capacity: int | None = None) -> None:
        self._limit = capacity
        self._buffers: dict[int, np.ndarray] = {}
        self._used = 0
        self._lock = threading.Lock()

    def alloc(self, nbytes: int) -> tuple[int, np.ndarray]:
        """Reserve ``nbytes`` bytes; raise :class:`RawOutOfMemory` past the capacity."""
        with self._lock:
            if self._limit is not None and self._used + nbytes > self._limit:
                raise RawOutOfMemory(nbytes)
            try:
                buffer = aligned_buffer(max(nbytes, 1))[:nbytes]
            except MemoryError as exc:
                raise RawOutOfMemory(nbytes) from exc
            ptr = buffer.ctypes.data
            self._buffers[ptr] = buffer
            self._used += nbytes
        return ptr, buffer

    def free(self, ptr: int) -> None:
        """Drop the buffer at ``ptr``."""
        with self._lock:
            self._used -= self._buffers.pop(ptr).nbytes

    def capacity(self) -> int:
        """Total bytes: the set capacity, or the host's physical memory."""
        return self._limit if self._limit is not None else physical_memory()

    def free_bytes(self) -> int:
        """Bytes still available under the capacity."""
        return max(self.capacity() - self._used, 0)
