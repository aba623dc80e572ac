"""CUDA streams and events, on a real GPU and on the simulator.

On a GPU a :class:`Stream` wraps a CuPy stream (used by cuBLAS calls) and the
matching Numba external stream (used by kernel launches), so both libraries
queue on the same hardware stream. The simulator runs every launch eagerly,
so its streams and events keep the API and the ordering trivially.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..device import device as _device
from ..device import resolve
from ..memory.streams import set_current_stream_source
from . import runtime
from .device_errors import raise_pending

_sim_handles = itertools.count(1)


class Stream:
    """A queue of device work; kernels launched while it is current run on it in order.

    Args:
        device: the CUDA device (default: the current one).
        priority: CUDA stream priority (lower is higher priority; ignored on the simulator).

    Example:
        >>> s, x = gt.cuda.Stream(), gt.ones(2, device="cuda")
        >>> s.wait_stream(gt.cuda.current_stream())  # x was written on the default stream
        >>> with gt.cuda.stream(s):
        ...     y = x * 2
        >>> s.synchronize(); y.tolist()
        [2.0, 2.0]
    """

    def __init__(self, device: Any = None, priority: int = 0, *, _null: bool = False) -> None:
        runtime.ensure_initialized("Stream")
        self.device = resolve(device if device is not None else "cuda")
        self._cupy: Any = None
        if runtime.is_simulated():
            self.handle = 0 if _null else next(_sim_handles)
            self._numba = runtime.numba_cuda().default_stream() if _null else (
                runtime.numba_cuda().stream())
        else:
            cp = runtime.cupy()
            with cp.cuda.Device(self.device.index):
                self._cupy = cp.cuda.Stream.null if _null else cp.cuda.Stream(
                    non_blocking=True, priority=priority)
            self.handle = int(self._cupy.ptr)
            nb = runtime.numba_cuda()
            self._numba = nb.default_stream() if _null else nb.external_stream(self.handle)

    @property
    def numba(self) -> Any:
        """The Numba stream object that kernel launches take."""
        return self._numba

    @property
    def cupy(self) -> Any:
        """The CuPy stream (``None`` on the simulator)."""
        return self._cupy

    def synchronize(self) -> None:
        """Wait until all work queued on this stream has finished.

        Raises:
            IndexError: a kernel found a bad index (see :mod:`gtensor.cuda.device_errors`).
        """
        if self._cupy is not None:
            self._cupy.synchronize()
        raise_pending()

    def query(self) -> bool:
        """True when all work queued on this stream has finished."""
        return True if self._cupy is None else bool(self._cupy.done)

    def record_event(self, event: Event | None = None) -> Event:
        """Record ``event`` (a new one by default) on this stream and return it."""
        event = Event() if event is None else event
        event.record(self)
        return event

    def wait_event(self, event: Event) -> None:
        """Make future work on this stream wait for ``event``."""
        if self._cupy is not None and event._cupy is not None:
            self._cupy.wait_event(event._cupy)

    def wait_stream(self, other: Stream) -> None:
        """Make future work on this stream wait for the work queued on ``other`` so far."""
        self.wait_event(other.record_event())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Stream) and (self.handle, self.device) == (
            other.handle, other.device)

    def __hash__(self) -> int:
        return hash((self.handle, self.device))

    def __repr__(self) -> str:
        return f"<gtensor.cuda.Stream device={self.device} handle={self.handle:#x}>"


class Event:
    """A marker in a stream's work: wait on it, query it, or time between two of them.

    Args:
        enable_timing: keep timestamps for :meth:`elapsed_time`.

    Example:
        >>> start, end = gt.cuda.Event(enable_timing=True), gt.cuda.Event(enable_timing=True)
        >>> start.record(); y = gt.ones(2, device="cuda") + 1; end.record()
        >>> end.synchronize(); start.elapsed_time(end) >= 0.0
        True
    """

    def __init__(self, enable_timing: bool = False) -> None:
        runtime.ensure_initialized("Event")
        self.enable_timing = enable_timing
        self._cupy: Any = None
        self._time: float | None = None
        if not runtime.is_simulated():
            self._cupy = runtime.cupy().cuda.Event(disable_timing=not enable_timing)

    def record(self, stream: Stream | None = None) -> None:
        """Record the event on ``stream`` (default: the current stream)."""
        stream = current_stream() if stream is None else stream
        if self._cupy is not None:
            self._cupy.record(stream.cupy)
        else:
            self._time = time.perf_counter()

    def query(self) -> bool:
        """True when the work before the event has finished."""
        return True if self._cupy is None else bool(self._cupy.done)

    def synchronize(self) -> None:
        """Wait for the work before the event (raising errors kernels recorded by then)."""
        if self._cupy is not None:
            self._cupy.synchronize()
        raise_pending()

    def elapsed_time(self, end: Event) -> float:
        """Milliseconds between this event and ``end`` (both recorded, with timing)."""
        if not (self.enable_timing and end.enable_timing):
            raise RuntimeError("[elapsed_time] both events need enable_timing=True")
        if self._cupy is not None:
            return float(runtime.cupy().cuda.get_elapsed_time(self._cupy, end._cupy))
        if self._time is None or end._time is None:
            raise RuntimeError("[elapsed_time] both events must be recorded first")
        return (end._time - self._time) * 1e3


_local = threading.local()
_null_streams: dict[int, Stream] = {}


def default_stream(device: Any = None) -> Stream:
    """Return the default (null) stream of a CUDA device."""
    idx = resolve(device if device is not None else "cuda").index or 0
    s = _null_streams.get(idx)
    if s is None:
        s = _null_streams[idx] = Stream(_device("cuda", idx), _null=True)
    return s


def current_stream(device: Any = None) -> Stream:
    """Return the stream new work on ``device`` goes to (its default stream at start).

    Example:
        >>> gt.cuda.current_stream().handle
        0
    """
    idx = resolve(device if device is not None else "cuda").index or 0
    stack = getattr(_local, "current", {})
    s = stack.get(idx)
    return s if s is not None else default_stream(idx)


@contextmanager
def stream(s: Stream | None) -> Iterator[Stream | None]:
    """Make ``s`` the current stream of its device inside the ``with`` block.

    Example:
        >>> s = gt.cuda.Stream()
        >>> with gt.cuda.stream(s):
        ...     print(gt.cuda.current_stream() == s)
        True
        >>> gt.cuda.current_stream() == s
        False
    """
    if s is None:
        yield None
        return
    if not hasattr(_local, "current"):
        _local.current = {}
    idx = s.device.index or 0
    prev = _local.current.get(idx)
    _local.current[idx] = s
    try:
        if s.cupy is not None:
            with s.cupy:
                yield s
        else:
            yield s
    finally:
        _local.current[idx] = prev


set_current_stream_source(current_stream)  # allocations that name no stream use it
