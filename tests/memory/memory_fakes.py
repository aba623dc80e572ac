"""Fakes for allocator tests: a raw device handing out integer addresses, streams, events."""

from __future__ import annotations

from gtensor.memory.allocator import CachingAllocator
from gtensor.memory.config import parse_alloc_conf
from gtensor.memory.raw import RawOutOfMemory

MiB = 1024 * 1024


class FakeRaw:
    """Raw memory with a capacity, integer addresses and call counters."""

    GAP = 1 << 16

    def __init__(self, capacity: int = 1 << 40) -> None:
        self.limit = capacity
        self.live: dict[int, int] = {}
        self.allocs = 0
        self.frees = 0
        self.failures = 0
        self._next = 1 << 20

    @property
    def used(self) -> int:
        return sum(self.live.values())

    def alloc(self, nbytes: int) -> tuple[int, None]:
        if self.used + nbytes > self.limit:
            self.failures += 1
            raise RawOutOfMemory(nbytes)
        ptr = self._next
        self._next += nbytes + self.GAP
        self.live[ptr] = nbytes
        self.allocs += 1
        return ptr, None

    def free(self, ptr: int) -> None:
        del self.live[ptr]
        self.frees += 1

    def capacity(self) -> int:
        return self.limit

    def free_bytes(self) -> int:
        return self.limit - self.used


class FakeEvent:
    """An event that is done when a test says so (or after ``synchronize``)."""

    def __init__(self) -> None:
        self.done = False
        self.synchronized = 0

    def query(self) -> bool:
        return self.done

    def synchronize(self) -> None:
        self.synchronized += 1
        self.done = True


class FakeStream:
    """A stream with a handle that hands out :class:`FakeEvent` objects."""

    def __init__(self, handle: int) -> None:
        self.handle = handle
        self.events: list[FakeEvent] = []

    def record_event(self) -> FakeEvent:
        event = FakeEvent()
        self.events.append(event)
        return event


def make_allocator(conf: str = "", capacity: int = 1 << 40) -> CachingAllocator:
    """A caching allocator over :class:`FakeRaw` with ``GTENSOR_ALLOC_CONF``-style options."""
    return CachingAllocator(FakeRaw(capacity), "fake", parse_alloc_conf(conf))
