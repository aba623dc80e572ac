"""Allocator churn: many short-lived tensors of mixed sizes."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..libraries import Library
from ..registry import Workload, case


def _sizes(count: int, seed: int = 0) -> list[int]:
    """Element counts from 16 to 1M float32 (64 B to 4 MiB), log-uniform, reproducible."""
    rng = np.random.default_rng(seed)
    return [int(v) for v in np.exp(rng.uniform(np.log(16), np.log(1 << 20), count))]


STAT_KEYS = (
    "allocation.all.allocated", "allocation.all.peak", "segment.all.allocated",
    "segment.all.peak", "reserved_bytes.all.peak", "num_device_alloc", "num_device_free",
    "num_alloc_retries", "num_ooms",
)


def allocator_stats(lib: Library) -> dict[str, Any]:
    """Return a digest of gtensor's allocator statistics when ``gt.memory.memory_stats`` exists.

    Returns:
        ``{"allocator_stats": {...}}`` with the :data:`STAT_KEYS` present and
        ``cache_hit_rate`` (the share of allocations served without a raw device
        allocation); empty for other libraries or before the statistics exist.
    """
    stats_fn = getattr(getattr(lib.ns, "memory", None), "memory_stats", None)
    if lib.name != "gtensor" or stats_fn is None:
        return {}
    stats = stats_fn(lib.device)
    digest = {k: stats[k] for k in STAT_KEYS if k in stats}
    allocs, raw = stats.get("allocation.all.allocated"), stats.get("num_device_alloc")
    if allocs and raw is not None:
        digest["cache_hit_rate"] = round(1 - raw / allocs, 4)
    return {"allocator_stats": digest}


@case("memory.allocator_churn", sizes={
    "tiny": {"count": 50, "live": 8}, "quick": {"count": 2000, "live": 32},
    "full": {"count": 20000, "live": 64}})
def allocator_churn(lib: Library, count: int, live: int) -> Workload:
    """Allocate and drop count float32 buffers of 64 B to 4 MiB, keeping `live` alive at once.

    Example:
        >>> allocator_churn(Library("numpy", "cpu"), 10, 2).items
        10
    """
    sizes = _sizes(count)

    def churn() -> None:
        ring: list[Any] = [None] * live
        for i, n in enumerate(sizes):
            ring[i % live] = lib.empty(n)

    return Workload(churn, items=count, extra=lambda: allocator_stats(lib))
