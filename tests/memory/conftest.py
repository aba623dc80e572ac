"""Fixtures for allocator tests."""

from __future__ import annotations

import pytest
from memory_fakes import FakeRaw

from gtensor.memory import api
from gtensor.memory.allocator import CachingAllocator
from gtensor.memory.config import AllocatorConfig
from gtensor.memory.registry import DeviceAllocators


@pytest.fixture
def alloc() -> CachingAllocator:
    return CachingAllocator(FakeRaw(), "fake", AllocatorConfig())


@pytest.fixture
def fresh_allocators(monkeypatch):
    """Give ``gtensor.memory``'s functions a fresh set of allocators; returns a factory.

    Call the result with an environment dict (and ``simulated=True`` to back
    ``cuda`` devices with host memory) before using the module-level API.
    """

    def install(environ: dict[str, str] | None = None, simulated: bool = True):
        allocators = DeviceAllocators(environ or {}, simulated=simulated)
        monkeypatch.setattr(api, "_allocators", allocators)
        return allocators

    install()
    return install
