"""``gt.cuda`` memory statistics: :mod:`gtensor.memory`'s functions on the current CUDA device.

Each function takes an optional ``device`` (``"cuda:N"``, a ``device`` or an
ordinal ``N``); ``None`` means the current CUDA device, as in ``torch.cuda``.
"""

from __future__ import annotations

from typing import Any

from .. import memory as _memory
from ..device import DeviceLike, device, resolve

CudaDeviceLike = DeviceLike | int | None


def _cuda(spec: CudaDeviceLike, op: str) -> device:
    if spec is None:
        return resolve("cuda")
    if isinstance(spec, int) and not isinstance(spec, bool):
        return device("cuda", spec)
    dev = resolve(spec)
    if dev.type != "cuda":
        raise ValueError(f"[cuda.{op}] expected a cuda device, got {dev}")
    return dev


def memory_allocated(device: CudaDeviceLike = None) -> int:
    """Return the bytes currently handed out on a CUDA device.

    Example:
        >>> memory_allocated("cuda:0") >= 0
        True
    """
    return _memory.memory_allocated(_cuda(device, "memory_allocated"))


def max_memory_allocated(device: CudaDeviceLike = None) -> int:
    """Return the peak of :func:`memory_allocated` since start or the last reset.

    Example:
        >>> max_memory_allocated(0) >= memory_allocated(0)
        True
    """
    return _memory.max_memory_allocated(_cuda(device, "max_memory_allocated"))


def memory_reserved(device: CudaDeviceLike = None) -> int:
    """Return the bytes the cache holds from a CUDA device.

    Example:
        >>> memory_reserved("cuda:0") >= memory_allocated("cuda:0")
        True
    """
    return _memory.memory_reserved(_cuda(device, "memory_reserved"))


def max_memory_reserved(device: CudaDeviceLike = None) -> int:
    """Return the peak of :func:`memory_reserved` since start or the last reset.

    Example:
        >>> max_memory_reserved(0) >= memory_reserved(0)
        True
    """
    return _memory.max_memory_reserved(_cuda(device, "max_memory_reserved"))


def memory_stats(device: CudaDeviceLike = None) -> dict[str, Any]:
    """Return all statistics of a CUDA device (keys as :func:`gtensor.memory.memory_stats`).

    Example:
        >>> memory_stats("cuda:0")["num_ooms"] >= 0
        True
    """
    return _memory.memory_stats(_cuda(device, "memory_stats"))


def reset_peak_memory_stats(device: CudaDeviceLike = None) -> None:
    """Set every peak statistic of a CUDA device to its current value.

    Example:
        >>> reset_peak_memory_stats("cuda:0")
    """
    _memory.reset_peak_memory_stats(_cuda(device, "reset_peak_memory_stats"))


def reset_accumulated_memory_stats(device: CudaDeviceLike = None) -> None:
    """Zero the totals and counters of a CUDA device's statistics.

    Example:
        >>> reset_accumulated_memory_stats("cuda:0")
    """
    _memory.reset_accumulated_memory_stats(_cuda(device, "reset_accumulated_memory_stats"))


def empty_cache(device: CudaDeviceLike = None) -> None:
    """Return a CUDA device's cached, wholly free segments to the device.

    Example:
        >>> empty_cache("cuda:0")
    """
    _memory.empty_cache(_cuda(device, "empty_cache"))


def memory_summary(device: CudaDeviceLike = None, abbreviated: bool = False) -> str:
    """Return a readable table of a CUDA device's statistics.

    Example:
        >>> "cuda:0" in memory_summary("cuda:0")
        True
    """
    return _memory.memory_summary(_cuda(device, "memory_summary"), abbreviated)


def set_per_process_memory_fraction(fraction: float, device: CudaDeviceLike = None) -> None:
    """Cap what this process reserves on a CUDA device at ``fraction`` of its capacity.

    Example:
        >>> set_per_process_memory_fraction(1.0, "cuda:0")
    """
    _memory.set_per_process_memory_fraction(
        fraction, _cuda(device, "set_per_process_memory_fraction")
    )


def mem_get_info(device: CudaDeviceLike = None) -> tuple[int, int]:
    """Return ``(free, total)`` bytes of a CUDA device.

    Example:
        >>> free_bytes, total = mem_get_info("cuda:0")
    """
    return _memory.mem_get_info(_cuda(device, "mem_get_info"))


def memory_snapshot(device: CudaDeviceLike = None) -> dict[str, Any]:
    """Return the segments, blocks and recorded events of a CUDA device.

    Example:
        >>> sorted(memory_snapshot("cuda:0"))
        ['device_traces', 'segments']
    """
    return _memory.memory_snapshot(_cuda(device, "memory_snapshot"))


record_history = _memory.record_history

__all__ = [
    "empty_cache",
    "max_memory_allocated",
    "max_memory_reserved",
    "mem_get_info",
    "memory_allocated",
    "memory_reserved",
    "memory_snapshot",
    "memory_stats",
    "memory_summary",
    "record_history",
    "reset_accumulated_memory_stats",
    "reset_peak_memory_stats",
    "set_per_process_memory_fraction",
]
