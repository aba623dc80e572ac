"""The process-wide allocation and statistics functions, addressed by device.

Names follow ``torch.cuda``'s memory API. Each function takes a ``device``
(``"cpu"`` by default here; :mod:`gtensor.cuda.memory` mirrors them with the
current CUDA device as default).
"""

from __future__ import annotations

import json
import os
from typing import Any

from ..device import DeviceLike, device, resolve
from .allocator import CachingAllocator
from .block import Block
from .config import AllocatorConfig
from .registry import DeviceAllocators
from .streams import Stream, current_stream_handle
from .summary import format_summary

_allocators = DeviceAllocators()


def _device(spec: DeviceLike | int, op: str) -> device:
    if type(spec) is device and (spec.index is not None or spec.type == "cpu"):
        return spec
    if isinstance(spec, int) and not isinstance(spec, bool):
        return device("cuda", spec)
    if not isinstance(spec, (str, device)):
        raise TypeError(f"[{op}] expected a device, got {type(spec).__name__}")
    return resolve(spec)


def allocator_for(spec: DeviceLike | int) -> CachingAllocator:
    """Return the caching allocator of a device (made on first use).

    Example:
        >>> allocator_for("cpu").device
        device(type='cpu')
    """
    return _allocators.get(_device(spec, "allocator_for"))


def _stream_handle(dev: device, stream: Stream | int | None) -> int:
    if stream is None:
        return current_stream_handle(dev)
    if isinstance(stream, int):
        return stream
    return stream.handle


def allocate(nbytes: int, device: DeviceLike, stream: Stream | int | None = None) -> Block:
    """Return a block of at least ``nbytes`` bytes on ``device``.

    Args:
        nbytes: bytes wanted; ``0`` gives an empty block.
        device: where the memory lives.
        stream: the stream it is used on (an object with ``.handle`` or the
            handle itself); ``None`` means the device's current stream.

    Returns:
        A :class:`Block`; on host-backed devices ``block.host`` views its bytes.

    Raises:
        OutOfMemoryError: when the device stays full after the cache is flushed.

    Example:
        >>> block = allocate(100, "cpu")
        >>> block.host.nbytes, block.size
        (100, 512)
        >>> free(block)
    """
    route = _allocators.route(device)
    if route is None:
        dev = _device(device, "allocate")
        if dev is not device and not (type(device) is str and device == str(dev)):
            # "cuda" or an index: the current device may change, so look it up each time
            return _allocators.get(dev).allocate(nbytes, _stream_handle(dev, stream))
        route = _allocators.remember(device, dev)
    allocator = route[1]
    if stream is None and route[2]:
        return allocator.allocate(nbytes, 0)
    return allocator.allocate(nbytes, _stream_handle(allocator.device, stream))


def free(block: Block) -> None:
    """Give a block back to its device's cache (once per block).

    Example:
        >>> free(allocate(8, "cpu"))
    """
    try:
        owner = block.segment.owner  # the allocator that made it
    except AttributeError:
        raise TypeError(f"[free] expected a Block, got {type(block).__name__}") from None
    if owner is None:
        raise ValueError(f"[free] {block!r} is not allocated (freed twice?)")
    owner.free(block)


def record_stream(block: Block, stream: Stream) -> None:
    """Delay reuse of ``block`` after its free until the work queued on ``stream`` is done.

    Example:
        >>> block = allocate(8, "cpu")
        >>> record_stream(block, type("NullStream", (), {"handle": 0})())
        >>> free(block)
    """
    if not isinstance(block, Block):
        raise TypeError(f"[record_stream] expected a Block, got {type(block).__name__}")
    _allocators.get(block.device).record_stream(block, stream)


def memory_allocated(device: DeviceLike | int = "cpu") -> int:
    """Return the bytes currently handed out on ``device`` (block sizes, after rounding).

    Example:
        >>> block = allocate(1000, "cpu")
        >>> memory_allocated("cpu") >= 1024
        True
        >>> free(block)
    """
    return allocator_for(device).stat("allocated_bytes").all.current


def max_memory_allocated(device: DeviceLike | int = "cpu") -> int:
    """Return the peak of :func:`memory_allocated` since start or the last reset.

    Example:
        >>> max_memory_allocated("cpu") >= memory_allocated("cpu")
        True
    """
    return allocator_for(device).stat("allocated_bytes").all.peak


def memory_reserved(device: DeviceLike | int = "cpu") -> int:
    """Return the bytes held from the device by the cache (allocated or not).

    Example:
        >>> memory_reserved("cpu") >= memory_allocated("cpu")
        True
    """
    return allocator_for(device).stat("reserved_bytes").all.current


def max_memory_reserved(device: DeviceLike | int = "cpu") -> int:
    """Return the peak of :func:`memory_reserved` since start or the last reset.

    Example:
        >>> max_memory_reserved("cpu") >= memory_reserved("cpu")
        True
    """
    return allocator_for(device).stat("reserved_bytes").all.peak


def memory_stats(device: DeviceLike | int = "cpu") -> dict[str, Any]:
    """Return all statistics of ``device`` as a flat dict with PyTorch's keys.

    Keys are ``<stat>.<pool>.<metric>`` for the stats ``allocation``,
    ``segment``, ``active``, ``inactive_split``, ``allocated_bytes``,
    ``reserved_bytes``, ``active_bytes``, ``inactive_split_bytes`` and
    ``requested_bytes``, pools ``all``, ``small_pool``, ``large_pool``, and
    metrics ``current``, ``peak``, ``allocated``, ``freed``; plus
    ``oversize_allocations.*``, ``oversize_segments.*``, ``num_alloc_retries``,
    ``num_ooms``, ``num_device_alloc``, ``num_device_free`` and
    ``max_split_size`` (``-1`` when unset).

    Example:
        >>> memory_stats("cpu")["num_ooms"]
        0
    """
    return allocator_for(device).memory_stats()


def reset_peak_memory_stats(device: DeviceLike | int = "cpu") -> None:
    """Set every peak statistic of ``device`` to its current value.

    Example:
        >>> reset_peak_memory_stats("cpu")
        >>> max_memory_allocated("cpu") == memory_allocated("cpu")
        True
    """
    allocator_for(device).reset_peak_stats()


def reset_accumulated_memory_stats(device: DeviceLike | int = "cpu") -> None:
    """Zero the ``allocated``/``freed`` totals and the retry and OOM counters of ``device``.

    Example:
        >>> reset_accumulated_memory_stats("cpu")
        >>> memory_stats("cpu")["allocation.all.freed"]
        0
    """
    allocator_for(device).reset_accumulated_stats()


def empty_cache(device: DeviceLike | int = "cpu") -> None:
    """Return the cached, wholly free segments of ``device`` to the device.

    Example:
        >>> free(allocate(64 << 20, "cpu")); empty_cache("cpu")
    """
    allocator_for(device).empty_cache()


def memory_summary(device: DeviceLike | int = "cpu", abbreviated: bool = False) -> str:
    """Return a readable table of the statistics of ``device``.

    Example:
        >>> "Allocated memory" in memory_summary("cpu")
        True
    """
    allocator = allocator_for(device)
    return format_summary(allocator.device, allocator.memory_stats(), abbreviated)


def set_per_process_memory_fraction(fraction: float, device: DeviceLike | int = "cpu") -> None:
    """Cap the memory this process reserves on ``device`` at ``fraction`` of its capacity.

    Requests past the cap raise :class:`~gtensor.errors.OutOfMemoryError`
    (after the cache is flushed), as a full device would.

    Example:
        >>> set_per_process_memory_fraction(1.0, "cpu")
    """
    allocator_for(device).set_memory_fraction(fraction)


def set_allocator_settings(settings: str) -> AllocatorConfig:
    """Change the allocator's settings at run time, in ``GTENSOR_ALLOC_CONF`` syntax.

    Named keys change on every device (the caches are emptied first); the
    others keep their values. Useful to compare caching on and off in one
    process.

    Returns:
        The settings now in force.

    Example:
        >>> set_allocator_settings("caching:0").caching
        False
        >>> set_allocator_settings("caching:1").caching
        True
    """
    return _allocators.update_config(settings)


def mem_get_info(device: DeviceLike | int = "cpu") -> tuple[int, int]:
    """Return ``(free, total)`` bytes of the device itself, outside gtensor's cache.

    Example:
        >>> free_bytes, total = mem_get_info("cpu")
        >>> total >= free_bytes >= 0
        True
    """
    allocator = allocator_for(device)
    return allocator.raw.free_bytes(), allocator.capacity()


def record_history(enabled: bool = True, max_entries: int = 100_000, stacks: bool = False) -> None:
    """Start or stop recording allocator events on every device, for :func:`memory_snapshot`.

    Args:
        enabled: start (with an empty trace) or stop recording.
        max_entries: events kept per device; older ones are dropped.
        stacks: also record the Python stack of each event (slower).

    Example:
        >>> record_history(True); record_history(False)
    """
    if not isinstance(max_entries, int) or max_entries < 1:
        raise ValueError(
            f"[record_history] max_entries must be a positive int, got {max_entries!r}"
        )
    _allocators.set_history(bool(enabled), max_entries, bool(stacks))


def memory_snapshot(device: DeviceLike | int | None = None) -> dict[str, Any]:
    """Return the segments, blocks and recorded events of one device or of all.

    Args:
        device: the device; ``None`` covers every device used so far.

    Returns:
        ``{"segments": [...], "device_traces": {device name: [events]}}``,
        plain JSON data (see :meth:`CachingAllocator.snapshot` and
        :class:`~gtensor.memory.history.History` for the fields).

    Example:
        >>> snap = memory_snapshot("cpu")
        >>> sorted(snap)
        ['device_traces', 'segments']
    """
    allocators = _allocators.existing() if device is None else [allocator_for(device)]
    out: dict[str, Any] = {"segments": [], "device_traces": {}}
    for allocator in allocators:
        snap = allocator.snapshot()
        out["segments"].extend(snap["segments"])
        out["device_traces"][str(allocator.device)] = snap["trace"]
    return out


def dump_snapshot(path: str | os.PathLike[str], device: DeviceLike | int | None = None) -> None:
    """Write :func:`memory_snapshot` to ``path`` as JSON (for ``python -m gtensor.memory.viz``).

    Example:
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "snap.json")
        >>> dump_snapshot(path, "cpu"); os.path.exists(path)
        True
    """
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(memory_snapshot(device), handle)
