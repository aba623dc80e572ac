"""``gt.cuda``: CUDA devices, streams and events (real GPU or Numba's simulator).

Importing this module loads no CUDA library; each call does, on first use.
"""

from .memory import (
    empty_cache,
    max_memory_allocated,
    max_memory_reserved,
    mem_get_info,
    memory_allocated,
    memory_reserved,
    memory_snapshot,
    memory_stats,
    memory_summary,
    record_history,
    reset_accumulated_memory_stats,
    reset_peak_memory_stats,
    set_per_process_memory_fraction,
)
from .runtime import (
    current_device,
    device_count,
    is_available,
    is_simulated,
    set_device,
    synchronize,
)
from .streams import Event, Stream, current_stream, default_stream, stream

__all__ = [
    "empty_cache", "max_memory_allocated", "max_memory_reserved", "mem_get_info",
    "memory_allocated", "memory_reserved", "memory_snapshot", "memory_stats", "memory_summary",
    "record_history", "reset_accumulated_memory_stats", "reset_peak_memory_stats",
    "set_per_process_memory_fraction",
    "Event",
    "Stream",
    "current_device",
    "current_stream",
    "default_stream",
    "device_count",
    "is_available",
    "is_simulated",
    "set_device",
    "stream",
    "synchronize",
]
