"""The raw alloc/free pair each device supplies to the caching allocator."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


class RawOutOfMemory(Exception):
    """The device could not provide the bytes asked for (the allocator then flushes and retries)."""


@runtime_checkable
class RawMemory(Protocol):
    """What the caching allocator needs from a device.

    ``alloc`` returns ``(address, buffer)`` where ``buffer`` is a ``uint8``
    array over the new bytes for host-backed memory and ``None`` on a GPU; it
    raises :class:`RawOutOfMemory` when the device is full.

    Example:
        >>> from gtensor.memory.raw_host import HostMemory
        >>> isinstance(HostMemory(), RawMemory)
        True
    """

    def alloc(self, nbytes: int) -> tuple[int, np.ndarray | None]:
        """Reserve ``nbytes`` bytes."""
        ...

    def free(self, ptr: int) -> None:
        """Give back what ``alloc`` returned at ``ptr``."""
        ...

    def capacity(self) -> int:
        """Total bytes of the device."""
        ...

    def free_bytes(self) -> int:
        """Bytes the device could still provide."""
        ...
