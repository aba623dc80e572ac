"""``gt.cuda``: CUDA devices, streams and events (real GPU or Numba's simulator).

Importing this module loads no CUDA library; each call does, on first use.
"""

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
