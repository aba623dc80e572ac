"""Tensor memory: one caching allocator per device, with PyTorch-style statistics.

Every byte of tensor memory comes from :func:`allocate` and goes back through
:func:`free`. The policy (512-byte rounding, small and large pools, best fit,
splitting and merging, per-stream reuse) and its settings
(``GTENSOR_ALLOC_CONF``) are described in :mod:`gtensor.memory.policy` and
:mod:`gtensor.memory.config`.

Example:
    >>> import gtensor.memory as mem
    >>> block = mem.allocate(1000, "cpu")
    >>> block.host.nbytes, mem.memory_allocated("cpu") >= 1024
    (1000, True)
    >>> mem.free(block)
"""

from ..errors import OutOfMemoryError
from .allocator import CachingAllocator
from .api import (
    allocate,
    allocator_for,
    dump_snapshot,
    empty_cache,
    free,
    max_memory_allocated,
    max_memory_reserved,
    mem_get_info,
    memory_allocated,
    memory_reserved,
    memory_snapshot,
    memory_stats,
    memory_summary,
    record_history,
    record_stream,
    reset_accumulated_memory_stats,
    reset_peak_memory_stats,
    set_allocator_settings,
    set_per_process_memory_fraction,
)
from .block import Block
from .config import AllocatorConfig, AllocatorConfigError
from .cuda_hooks import install_cuda_hooks

__all__ = [
    "AllocatorConfig",
    "AllocatorConfigError",
    "Block",
    "CachingAllocator",
    "OutOfMemoryError",
    "allocate",
    "allocator_for",
    "dump_snapshot",
    "empty_cache",
    "free",
    "install_cuda_hooks",
    "max_memory_allocated",
    "max_memory_reserved",
    "mem_get_info",
    "memory_allocated",
    "memory_reserved",
    "memory_snapshot",
    "memory_stats",
    "memory_summary",
    "record_history",
    "record_stream",
    "reset_accumulated_memory_stats",
    "reset_peak_memory_stats",
    "set_allocator_settings",
    "set_per_process_memory_fraction",
]
