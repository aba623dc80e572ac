"""A readable table of allocator statistics (``memory_summary``)."""

from __future__ import annotations

from collections.abc import Mapping

_UNITS = ("B", "KiB", "MiB", "GiB", "TiB")

_ROWS = (
    ("Allocated memory", "allocated_bytes", True),
    ("Active memory", "active_bytes", True),
    ("Requested memory", "requested_bytes", True),
    ("Reserved memory", "reserved_bytes", True),
    ("Non-releasable memory", "inactive_split_bytes", True),
    ("Allocations", "allocation", False),
    ("Active allocs", "active", False),
    ("Reserved segments", "segment", False),
    ("Non-releasable allocs", "inactive_split", False),
)
_POOL_LABELS = (
    ("all", ""),
    ("large_pool", "      from large pool"),
    ("small_pool", "      from small pool"),
)
_COLUMNS = ("current", "peak", "allocated", "freed")
_WIDTH = 80


def format_bytes(nbytes: int) -> str:
    """Return ``nbytes`` in the largest binary unit that keeps it at 1 or more.

    Example:
        >>> format_bytes(512), format_bytes(3 * 1024 * 1024)
        ('512 B', '3.00 MiB')
    """
    value = float(nbytes)
    for unit in _UNITS:
        if abs(value) < 1024 or unit == _UNITS[-1]:
            return f"{int(value)} B" if unit == "B" else f"{value:.2f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def _line(cells: tuple[str, ...]) -> str:
    name, *values = cells
    return "| " + f"{name:<25}" + "".join(f"| {v:>10} " for v in values) + "|"


def format_summary(device: object, stats: Mapping[str, int], abbreviated: bool = False) -> str:
    """Render ``stats`` (as from ``memory_stats``) as a table.

    Args:
        device: shown in the title.
        stats: the flat statistics dict.
        abbreviated: leave out the per-pool rows.

    Example:
        >>> from gtensor.memory.stats import DeviceStats
        >>> format_summary("cpu", DeviceStats().as_dict()).splitlines()[1].strip("| ")
        'gtensor memory summary, device cpu'
    """
    rule, thin = "|" + "=" * (_WIDTH - 2) + "|", "|" + "-" * (_WIDTH - 2) + "|"
    title = f"gtensor memory summary, device {device}"
    lines = [rule, "|" + title.center(_WIDTH - 2) + "|", thin]
    lines.append(_line(("Metric", "Cur Usage", "Peak Usage", "Tot Alloc", "Tot Freed")))
    for label, key, is_bytes in _ROWS:
        lines.append(thin)
        pools = _POOL_LABELS[:1] if abbreviated else _POOL_LABELS
        for pool, suffix in pools:
            cells = [stats[f"{key}.{pool}.{column}"] for column in _COLUMNS]
            shown = [format_bytes(c) if is_bytes else str(c) for c in cells]
            lines.append(_line((suffix or label, *shown)))
    lines.append(thin)
    for label, key in (
        ("Oversize allocations", "oversize_allocations"),
        ("Oversize segments", "oversize_segments"),
    ):
        cells = [str(stats[f"{key}.{column}"]) for column in _COLUMNS]
        lines.append(_line((label, *cells)))
    lines.append(thin)
    counters = (
        f"Alloc retries: {stats['num_alloc_retries']}   OOMs: {stats['num_ooms']}   "
        f"Device allocs: {stats['num_device_alloc']}   Device frees: {stats['num_device_free']}"
    )
    lines.append("| " + f"{counters:<{_WIDTH - 4}}" + " |")
    lines.append(rule)
    return "\n".join(lines)


def oom_message(
    device: object,
    nbytes: int,
    capacity: int,
    limit: int | None,
    device_free: int,
    allocated: int,
    reserved: int,
) -> str:
    """Return the message of an :class:`~gtensor.errors.OutOfMemoryError`.

    Example:
        >>> oom_message("cpu", 2048, 4096, None, 0, 1024, 4096).split(". ")[0]
        '[allocate] out of memory on cpu: tried to allocate 2.00 KiB'
    """
    cap = f" and a limit of {format_bytes(limit)} for this process" if limit is not None else ""
    return (
        f"[allocate] out of memory on {device}: tried to allocate "
        f"{format_bytes(nbytes)}. "
        f"The device has a total capacity of {format_bytes(capacity)}{cap}, "
        f"of which {format_bytes(device_free)} is free. "
        f"gtensor holds {format_bytes(allocated)} allocated and "
        f"{format_bytes(reserved - allocated)} reserved but unallocated. "
        "If reserved but unallocated memory is large, set "
        "GTENSOR_ALLOC_CONF=max_split_size_mb:<N> to avoid fragmentation; "
        "gtensor.memory.empty_cache() returns cached segments to the device."
    )
