"""One caching allocator per device, created on first use from the environment's settings."""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping

from ..device import cuda_is_simulated, device
from .allocator import CachingAllocator
from .config import (
    ALLOC_CONF_ENV,
    SIM_MEMORY_ENV,
    AllocatorConfig,
    parse_alloc_conf,
    parse_sim_memory,
)
from .history import History
from .raw import RawMemory
from .raw_cuda import CudaMemory
from .raw_host import HostMemory


class DeviceAllocators:
    """The allocators of a process, one per device.

    Settings are read from ``environ`` when the first allocator is made, so
    a bad ``GTENSOR_ALLOC_CONF`` raises on first use, not at import; a bad
    ``GTENSOR_CUDA_SIM_MEMORY`` raises only when a simulated ``cuda`` device
    is first used (and again on each try until it is fixed).

    Args:
        environ: where ``GTENSOR_ALLOC_CONF`` and ``GTENSOR_CUDA_SIM_MEMORY``
            are read (``os.environ`` by default).
        simulated: back ``cuda`` devices with host memory (``True``) or with
            ``cudaMalloc`` (``False``); ``None`` follows
            :func:`~gtensor.device.cuda_is_simulated`.

    Example:
        >>> allocators = DeviceAllocators({})
        >>> allocators.get(device("cpu")).config.caching
        True
    """

    def __init__(self, environ: Mapping[str, str] | None = None,
                 simulated: bool | None = None) -> None:
        self._environ = os.environ if environ is None else environ
        self._simulated = simulated
        self._config: AllocatorConfig | None = None
        self._allocators: dict[device, CachingAllocator] = {}
        self._lock = threading.Lock()
        self._history: tuple[int, bool] | None = None
        self._routes: dict[int, tuple[object, CachingAllocator, bool]] = {}

    def get(self, dev: device) -> CachingAllocator:
        """Return the allocator of ``dev``, making it on first use."""
        allocator = self._allocators.get(dev)
        if allocator is None:
            allocator = self._create(dev)
        return allocator

    def route(self, spec: object) -> tuple[object, CachingAllocator, bool] | None:
        """Return ``(spec, allocator, is_cpu)`` remembered for this very ``spec`` object, if any.

        Keyed by identity, so a device object needs no hashing on the way to
        its allocator; the entry keeps ``spec`` alive, so its id stays its own.
        """
        route = self._routes.get(id(spec))
        return route if route is not None and route[0] is spec else None

    def remember(self, spec: object, dev: device) -> tuple[object, CachingAllocator, bool]:
        """Look up the allocator of ``dev`` and remember it for the object ``spec``."""
        if len(self._routes) >= 64:  # callers building a fresh device object each time
            self._routes.clear()
        route = (spec, self.get(dev), dev.type == "cpu")
        self._routes[id(spec)] = route
        return route

    def existing(self) -> list[CachingAllocator]:
        """Return the allocators made so far."""
        return list(self._allocators.values())

    def set_history(self, enabled: bool, max_entries: int, stacks: bool) -> None:
        """Start (with fresh, empty traces) or stop recording on all devices, present and future."""
        with self._lock:
            self._history = (max_entries, stacks) if enabled else None
            for allocator in self._allocators.values():
                allocator.history = History(max_entries, stacks) if enabled else None

    def update_config(self, text: str) -> AllocatorConfig:
        """Apply ``GTENSOR_ALLOC_CONF``-style settings to every allocator, present and future.

        Keys not named keep their values. Returns the new settings.
        """
        with self._lock:
            config = self._config = parse_alloc_conf(text, base=self._load())
            allocators = list(self._allocators.values())
        for allocator in allocators:
            allocator.set_config(config)
        return config

    def _load(self) -> AllocatorConfig:
        if self._config is None:
            self._config = parse_alloc_conf(self._environ.get(ALLOC_CONF_ENV, ""))
        return self._config

    def _create(self, dev: device) -> CachingAllocator:
        with self._lock:
            allocator = self._allocators.get(dev)
            if allocator is not None:
                return allocator
            config = self._load()
            allocator = CachingAllocator(self._raw(dev), dev, config)
            if self._history is not None:
                allocator.history = History(*self._history)
            self._allocators[dev] = allocator
            return allocator

    def _raw(self, dev: device) -> RawMemory:
        if dev.type == "cpu":
            return HostMemory()
        if cuda_is_simulated() if self._simulated is None else self._simulated:
            return HostMemory(capacity=parse_sim_memory(self._environ.get(SIM_MEMORY_ENV)))
        return CudaMemory(dev.index or 0)
