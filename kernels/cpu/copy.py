"""CPU strided copy with dtype conversion.

NumPy's ``copyto`` walks the destination in order, so copying a transposed
matrix reads the source with a large stride and misses the cache on every
element. Same-dtype 2-D transposes therefore go through a tiled kernel that
copies 64x64 blocks (parallel over block rows for large matrices).
"""

from __future__ import annotations

import numba
import numpy as np

from ..registry import ANY, register

_TILE = 64
_PARALLEL_MIN = 1 << 16


def _tiled(src, out):  # noqa: ANN001, ANN202 - compiled per dtype
    rows, cols = out.shape
    for bi in numba.prange((rows + _TILE - 1) // _TILE):
        i0 = bi * _TILE
        i1 = min(i0 + _TILE, rows)
        for j0 in range(0, cols, _TILE):
            j1 = min(j0 + _TILE, cols)
            for i in range(i0, i1):
                for j in range(j0, j1):
                    out[i, j] = src[i, j]


_tiled_serial = numba.njit(cache=True)(_tiled)
_tiled_parallel = numba.njit(cache=True, parallel=True)(_tiled)


def _is_transposed_2d(src: np.ndarray, out: np.ndarray) -> bool:
    return (src.ndim == 2 and src.dtype == out.dtype and out.flags.c_contiguous
            and src.strides[0] == src.itemsize and src.shape[0] > 1 and src.shape[1] > 1
            and src.strides[1] >= src.shape[0] * src.itemsize and out.size >= _TILE * _TILE)


@register("copy", "cpu", [(ANY, ANY)])
def gtensor_copy_cpu(src: np.ndarray, out: np.ndarray, stream: object = None) -> None:
    """Copy ``src`` (broadcast to ``out``'s shape, any strides) into ``out``, converting dtype.

    Args:
        src: source array, same shape as ``out`` (strides may be 0 or negative).
        out: destination array.
        stream: ignored on the CPU.

    Example:
        >>> out = np.empty(3, np.float32); gtensor_copy_cpu(np.arange(3), out)
    """
    if src.dtype.kind == "c" and out.dtype.kind != "c":  # the real part, or nonzero for bool
        src = src != 0 if out.dtype.kind == "b" else src.real
    if _is_transposed_2d(src, out) and src.dtype.kind in "fiub" and src.dtype != np.float16:
        (_tiled_parallel if out.size >= _PARALLEL_MIN else _tiled_serial)(src, out)
        return
    np.copyto(out, src, casting="unsafe")
