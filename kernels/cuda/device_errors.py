"""Errors that kernels find on the device, raised on the host at the next synchronizing call.

A bounds check that copied a flag back to the host after every indexing op
would stall the stream. Instead a kernel that meets a bad index writes a
record (op, value, dim, size) into one small host-mapped buffer, which the
device writes directly, and the host reads it, without a copy, whenever it
synchronizes anyway (``gt.cuda.synchronize()``, ``.item()``, ``.cpu()``), as
PyTorch's device-side asserts surface. The first error wins until it is taken.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

from ..common.index_layout import out_of_range
from ..registry import register
from ._launch import SIMULATED

FLAG, OP, VALUE, DIM, SIZE, KIND = range(6)
KIND_INDEX = 1
_names: list[str] = []
_codes: dict[str, int] = {}
_record: Any = None


def op_code(name: str) -> int:
    """Return the small integer that stands for op ``name`` in a device error record.

    Example:
        >>> op_code("gather") == op_code("gather")
        True
    """
    code = _codes.get(name)
    if code is None:
        code = _codes[name] = len(_names)
        _names.append(name)
    return code


def record() -> Any:
    """Return the host-mapped int64 error record (a host array on the simulator)."""
    global _record
    if _record is None:
        if SIMULATED:
            buf = np.zeros(8, np.int64)
        else:
            buf = cuda.mapped_array(8, np.int64, portable=True)
            buf[:] = 0
        _record = buf
    return _record


if SIMULATED:
    @cuda.jit(device=True)
    def fence() -> None:
        """Order the record's fields before its flag (the simulator runs in order)."""
else:
    @cuda.jit(device=True)
    def fence() -> None:
        """Make the record's fields visible to the host before its flag."""
        cuda.threadfence_system()


@register("take_device_error", "cuda", [()])
def take_device_error(stream: Any = None) -> Exception | None:
    """Return (and clear) the first error a kernel recorded, or None.

    Call it only after the device work that may have recorded it has finished.

    Example:
        >>> take_device_error() is None
        True
    """
    rec = record()
    if rec[FLAG] == 0:
        return None
    op, value, dim, size = (int(rec[k]) for k in (OP, VALUE, DIM, SIZE))
    rec[:] = 0
    return out_of_range(_names[op], value, dim, size)
