"""Launch geometry and raw-buffer helpers shared by the CUDA kernels."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numba.core import config

SIMULATED = bool(config.ENABLE_CUDASIM)
THREADS = 32 if SIMULATED else 256
MAX_BLOCKS = 4 if SIMULATED else 65535


def grid(n: int) -> tuple[int, int]:
    """Return ``(blocks, threads)`` for a grid-stride loop over ``n`` items.

    Example:
        >>> grid(1000)[1] in (32, 256)
        True
    """
    blocks = max(1, min(MAX_BLOCKS, (n + THREADS - 1) // THREADS))
    return blocks, THREADS


def flat_operand(arr: Any) -> tuple[Any, int, tuple[int, ...]]:
    """Split a strided array into a 1-D buffer over its extent, an offset and element strides.

    Works for NumPy arrays (the simulator) and CUDA device arrays, without copying.

    Example:
        >>> buf, off, strides = flat_operand(np.arange(6.0).reshape(2, 3)[:, ::-1])
        >>> off, strides
        (2, (3, -1))
    """
    itemsize = arr.dtype.itemsize
    strides = tuple(int(s) // itemsize for s in arr.strides)
    shape = tuple(arr.shape)
    lo = sum(s * (n - 1) for s, n in zip(strides, shape, strict=True) if s < 0)
    hi = sum(s * (n - 1) for s, n in zip(strides, shape, strict=True) if s > 0)
    extent = 0 if 0 in shape else hi - lo + 1
    if isinstance(arr, np.ndarray):
        start = arr.__array_interface__["data"][0] + lo * itemsize
        flat = _host_flat(start, extent, arr)
    else:
        ptr = arr.__cuda_array_interface__["data"][0] + lo * itemsize
        flat = cuda.from_cuda_array_interface(
            {"shape": (extent,), "strides": None, "typestr": arr.dtype.str,
             "data": (ptr, False), "version": 3, "stream": None}, owner=arr, sync=False)
    return flat, -lo, strides


class _Host:
    def __init__(self, ptr: int, n: int, typestr: str, owner: Any) -> None:
        self._owner = owner
        self.__array_interface__ = {"shape": (n,), "typestr": typestr,
                                    "data": (ptr, False), "version": 3}


def _host_flat(ptr: int, n: int, owner: np.ndarray) -> np.ndarray:
    if n == 0:
        return np.empty(0, owner.dtype)
    return np.asarray(_Host(ptr, n, owner.dtype.str, owner))
