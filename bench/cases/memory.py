"""The allocator: churn of mixed sizes, alloc+free cycles per size, large temporaries.

References allocate raw (NumPy's ``np.empty`` is malloc/free; PyTorch's CPU
allocator does not cache; CuPy uses its memory pool). The temporaries cases
run ``(a + b) * c`` with gtensor's caching allocator on and off
(``gt.memory.set_allocator_settings``), restoring the previous setting after.
"""

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
    digest: dict[str, Any] = {}
    allocs, raw = stats.get("allocation.all.allocated"), stats.get("num_device_alloc")
    if allocs and raw is not None:
        digest["cache_hit_rate"] = round(1 - raw / allocs, 4)
    digest.update((k, stats[k]) for k in STAT_KEYS if k in stats)
    return {"allocator_stats": digest}


def reset_stats(lib: Library) -> None:
    """Zero gtensor's accumulated and peak allocator counters, so a case reports only its own."""
    mem = getattr(lib.ns, "memory", None)
    if lib.name != "gtensor" or not hasattr(mem, "reset_accumulated_memory_stats"):
        return
    mem.reset_accumulated_memory_stats(lib.device)
    mem.reset_peak_memory_stats(lib.device)


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
    reset_stats(lib)

    def churn() -> None:
        ring: list[Any] = [None] * live
        for i, n in enumerate(sizes):
            ring[i % live] = lib.empty(n)

    return Workload(churn, items=count, extra=lambda: allocator_stats(lib))


_ALLOC_BYTES = {"512B": 512, "64KiB": 64 << 10, "2MiB": 2 << 20, "64MiB": 64 << 20}


def _alloc_free_case(label: str, nbytes: int) -> None:
    sizes = {p: {"nbytes": nbytes} for p in ("tiny", "quick", "full")}

    @case(f"memory.alloc_free_{label}", sizes=sizes)
    def alloc_free(lib: Library, nbytes: int) -> Workload:
        """Allocate one uninitialized float32 buffer and drop it (NumPy: np.empty, raw malloc).

        Example:
            >>> alloc_free(Library("numpy", "cpu"), 512).items
            1
        """
        n = nbytes // 4
        reset_stats(lib)
        return Workload(lambda: lib.empty(n), items=1, extra=lambda: allocator_stats(lib))


for _label, _nbytes in _ALLOC_BYTES.items():
    _alloc_free_case(_label, _nbytes)


def _caching(lib: Library) -> bool | None:
    """Return whether gtensor's allocator caches on ``lib.device`` (``None`` for others)."""
    if lib.name != "gtensor":
        return None
    return bool(lib.ns.memory.allocator_for(lib.device).config.caching)


def _temporaries(lib: Library, n: int, caching: bool) -> Workload:
    a, b, c = lib.randn(n, seed=1), lib.randn(n, seed=2), lib.randn(n, seed=3)
    before = _caching(lib)
    if before is not None and before != caching:
        lib.ns.memory.set_allocator_settings(f"caching:{int(caching)}")
    reset_stats(lib)

    def restore() -> dict[str, Any]:
        stats = allocator_stats(lib)
        if before is not None and before != caching:
            lib.ns.memory.set_allocator_settings(f"caching:{int(before)}")
        return {**stats, "caching": caching} if before is not None else stats

    return Workload(lambda: (a + b) * c, bytes=16 * n, extra=restore)


_TEMP_SIZES: dict[str, dict[str, Any]] = {"tiny": {"n": 1000}, "quick": {"n": 1 << 24},
                                          "full": {"n": 1 << 24}}


@case("memory.temporaries_cached", threaded=True, sizes=_TEMP_SIZES)
def temporaries_cached(lib: Library, n: int) -> Workload:
    """(a + b) * c on n float32 with gtensor's caching allocator on (64 MiB temporaries)."""
    return _temporaries(lib, n, caching=True)


@case("memory.temporaries_uncached", threaded=True, sizes=_TEMP_SIZES)
def temporaries_uncached(lib: Library, n: int) -> Workload:
    """(a + b) * c on n float32 with gtensor's caching off (caching:0); references unchanged."""
    return _temporaries(lib, n, caching=False)
