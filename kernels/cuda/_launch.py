"""Launch geometry and raw-buffer helpers shared by the CUDA kernels."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numba.core import config

from ..common.strided import element_strides, host_flat, span

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
    strides = element_strides(arr)
    if isinstance(arr, np.ndarray):
        flat, off = host_flat(arr)
        return flat, off, strides
    lo, hi = span(arr.shape, strides)
    extent = 0 if arr.size == 0 else hi - lo + 1
    ptr = arr.__cuda_array_interface__["data"][0] + lo * arr.dtype.itemsize
    flat = cuda.from_cuda_array_interface(
        {"shape": (extent,), "strides": None, "typestr": arr.dtype.str,
         "data": (ptr, False), "version": 3, "stream": None}, owner=arr, sync=False)
    return flat, -lo, strides
