"""What the caching allocator needs of streams and events (CUDA's, or test fakes)."""

from __future__ import annotations

from typing import Protocol


class Event(Protocol):
    """A marker in a stream's queue: done once the work before it has run."""

    def query(self) -> bool:
        """Whether the work before the event has finished."""
        ...

    def synchronize(self) -> None:
        """Wait until the work before the event has finished."""
        ...


class Stream(Protocol):
    """What the allocator needs of a stream: its handle and a way to mark its queue."""

    handle: int

    def record_event(self) -> Event:
        """Return an event recorded after the work queued so far."""
        ...
