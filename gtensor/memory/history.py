"""Opt-in trace of allocator events, kept for :func:`gtensor.memory.memory_snapshot`."""

from __future__ import annotations

import itertools
import traceback
from collections import deque
from typing import Any

ACTIONS = (
    "alloc",
    "free_requested",
    "free_completed",
    "segment_alloc",
    "segment_free",
    "oom",
)

_sequence = itertools.count()


class History:
    """A bounded list of allocator events.

    Each event is a dict with ``action`` (one of :data:`ACTIONS`), ``addr``,
    ``size``, ``stream``, ``seq`` (a process-wide counter, so events of all
    devices interleave in order) and, when stacks are recorded, ``frames``
    (``"file:line:function"`` strings, innermost last).

    Args:
        max_entries: how many events to keep; older ones are dropped.
        stacks: whether to record the Python stack of each event.

    Example:
        >>> h = History(max_entries=2)
        >>> for addr in (1, 2, 3):
        ...     h.record("alloc", addr, 512, 0)
        >>> [e["addr"] for e in h.events()]
        [2, 3]
    """

    def __init__(self, max_entries: int = 100_000, stacks: bool = False) -> None:
        self._events: deque[dict[str, Any]] = deque(maxlen=max_entries)
        self._stacks = stacks

    def record(self, action: str, addr: int, size: int, stream: int) -> None:
        """Append one event."""
        event: dict[str, Any] = {
            "action": action,
            "addr": addr,
            "size": size,
            "stream": stream,
            "seq": next(_sequence),
        }
        if self._stacks:
            frames = traceback.extract_stack()[:-3]
            event["frames"] = [f"{f.filename}:{f.lineno}:{f.name}" for f in frames[-16:]]
        self._events.append(event)

    def events(self) -> list[dict[str, Any]]:
        """Return a copy of the recorded events, oldest first."""
        return list(self._events)
