"""The process-wide count of host<->device copies, wherever they are made.

Every path that moves bytes between host and device (the storage layer,
kernels that read a count or a range back, interop) adds to this counter, so
``gt.transfer_count()`` sees all of them.
"""

from __future__ import annotations

_counts = {"host_to_device": 0, "device_to_host": 0}


def count(direction: str) -> None:
    """Count one copy in ``direction`` (``"host_to_device"`` or ``"device_to_host"``).

    Example:
        >>> before = counts()["device_to_host"]
        >>> count("device_to_host")
        >>> counts()["device_to_host"] - before
        1
    """
    _counts[direction] += 1


def counts() -> dict[str, int]:
    """Return the copies made so far in each direction.

    Example:
        >>> sorted(counts())
        ['device_to_host', 'host_to_device']
    """
    return dict(_counts)
