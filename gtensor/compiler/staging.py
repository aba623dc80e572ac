"""A compiled call's per-call scalars (an optimizer's learning rate, its step's bias
corrections) in device memory.

On cuda the fused kernels read these numbers from one small float64 buffer
instead of taking them as kernel arguments: a captured CUDA graph replays its
kernels with the arguments they were captured with, but reads the buffer as
each call wrote it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..cuda import runtime
from ..cuda.streams import Event
from ..kernels.common import transfers
from ..ops.dispatch import current_stream_of
from ..tensor_base import TensorBase


def write_scalars(buffer: TensorBase, numbers: list[float]) -> None:
    """Write ``numbers`` into contiguous float64 ``buffer``, queued on the current stream.

    On a GPU the copy is asynchronous: the numbers go from pageable host
    memory, which the driver stages before the call returns, so nothing waits
    for the device.

    Example:
        >>> buffer = gt.zeros(2, dtype=gt.float64, device="cuda")
        >>> write_scalars(buffer, [0.1, 0.9]); buffer.tolist()
        [0.1, 0.9]
    """
    host = np.asarray(numbers, np.float64)
    storage = buffer._storage
    start = buffer._offset * 8
    transfers.count("host_to_device")
    if storage.host is not None:  # the simulated device's memory is the host's
        storage.host[start:start + host.nbytes] = host.view(np.uint8)
        return
    cp = runtime.cupy()
    stream = current_stream_of(storage.device)
    cp.cuda.runtime.memcpyAsync(storage.ptr + start, host.ctypes.data, host.nbytes,
                                cp.cuda.runtime.memcpyHostToDevice,
                                0 if stream is None else stream.handle)


class StagedScalars:
    """A scalar buffer, written through two pinned host buffers taken in turn.

    A graph writes its one buffer at every call; a replay without a graph
    writes each call's new buffer the same way.

    On a GPU a copy from pinned memory never makes the host wait for the
    stream (one from pageable memory may), and a pinned buffer is written
    again only once the copy that last read it is done: the host may run up
    to two calls ahead of the device. On the simulator the numbers are
    written directly.

    Example:
        >>> buffer = gt.zeros(2, dtype=gt.float64, device="cuda")
        >>> staged = StagedScalars(buffer)
        >>> staged.write([0.01, 0.9]); staged.write([0.02, 0.8]); buffer.tolist()
        [0.02, 0.8]
    """

    def __init__(self, buffer: TensorBase) -> None:
        self.buffer = buffer
        self.slots: list[list[Any]] = []  # [pinned memory, its array, Event, in use]
        self.turn = 0
        if buffer._storage.host is None:
            cp = runtime.cupy()
            count = buffer._shape[0]
            for _ in range(2):
                memory = cp.cuda.alloc_pinned_memory(count * 8)
                self.slots.append([memory, np.frombuffer(memory, np.float64, count), Event(),
                                   False])

    def write(self, numbers: list[float], into: TensorBase | None = None) -> None:
        """Queue a write of ``numbers`` into the buffer (or ``into``, another of its size and
        device) on the current stream."""
        buffer = self.buffer if into is None else into
        if not self.slots:
            write_scalars(buffer, numbers)
            return
        slot = self.slots[self.turn]
        self.turn ^= 1
        memory, host, done, used = slot
        if used:
            done.synchronize()  # the copy that last read this pinned buffer is done
        host[:] = numbers
        storage = buffer._storage
        stream = current_stream_of(storage.device)
        cp = runtime.cupy()
        transfers.count("host_to_device")
        cp.cuda.runtime.memcpyAsync(storage.ptr + buffer._offset * 8, memory.ptr,
                                    host.nbytes, cp.cuda.runtime.memcpyHostToDevice,
                                    stream.handle)
        done.record(stream)
        slot[3] = True
