"""What the caching allocator needs of streams and events (CUDA's, or test fakes).

The memory layer sits below :mod:`gtensor.cuda`, which owns streams: an
allocation that names no stream asks the source registered with
:func:`set_current_stream_source` (``gtensor.cuda.current_stream``, registered
when :mod:`gtensor.cuda.streams` is imported) for its device's current stream.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..device import device


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


CurrentStreamSource = Callable[["device"], Stream]
"""Return the stream new work on a (concrete, cuda) device goes to."""


def _no_source(dev: device) -> Stream:
    raise RuntimeError(f"[allocate] no stream source for {dev}: import gtensor.cuda first")


_current_stream: CurrentStreamSource = _no_source


def set_current_stream_source(source: CurrentStreamSource) -> None:
    """Make ``source(dev)`` the stream an allocation on ``dev`` uses when it names none.

    Args:
        source: returns a device's current stream (anything with a ``handle``).

    Example:
        >>> import gtensor.cuda  # registers gtensor.cuda.current_stream
    """
    global _current_stream
    _current_stream = source


def current_stream_handle(dev: device) -> int:
    """Return the handle of ``dev``'s current stream (``0``, no stream, on the cpu).

    Example:
        >>> from gtensor.device import CPU
        >>> current_stream_handle(CPU)
        0
    """
    if dev.type == "cpu":
        return 0
    return _current_stream(dev).handle
