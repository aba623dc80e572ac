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
from ..dtypes import float64
from ..kernels.common import transfers
from ..ops.dispatch import current_stream_of
from ..tensor_base import TensorBase


def scalar_buffer(numbers: list[float], dev: Any) -> TensorBase:
    """A new float64 tensor on ``dev`` holding ``numbers`` (written on the current stream).

    Example:
        >>> scalar_buffer([0.5, 2.0], gt.device("cuda")).tolist()  # doctest: +SKIP
        [0.5, 2.0]
    """
    buffer = TensorBase.empty((len(numbers),), float64, dev)
    write_scalars(buffer, numbers)
    return buffer


def write_scalars(buffer: TensorBase, numbers: list[float]) -> None:
    """Write ``numbers`` into contiguous float64 ``buffer``, queued on the current stream.

    On a GPU the copy is asynchronous: the numbers go from pageable host
    memory, which the driver stages before the call returns, so nothing waits
    for the device.

    Example:
        >>> write_scalars(buffer, [0.1])  # doctest: +SKIP
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
