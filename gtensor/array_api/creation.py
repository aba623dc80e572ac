"""The array API's creation functions, over gtensor's constructors.

``asarray`` shares memory with the object it is given whenever the standard's
``copy=None`` allows (gtensor tensors, NumPy arrays on cpu, CUDA array
interface and DLPack producers) and copies only to change dtype or device.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..device import DeviceLike, resolve
from ..dtypes import as_dtype, get_default_dtype, int64
from ..errors import check
from ..ops import creation, interop
from ..ops.layout import copies, views
from ..tensor_base import TensorBase

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = [
    "arange", "asarray", "empty", "empty_like", "eye", "from_dlpack", "full", "full_like",
    "linspace", "meshgrid", "ones", "ones_like", "tril", "triu", "zeros", "zeros_like",
]

Shape = int | Sequence[int]


def _placed(t: Tensor, dtype: Any, device: DeviceLike | None, copy: bool | None,
            op: str) -> Tensor:
    """``t`` in ``dtype`` on ``device``: itself when both match and ``copy`` is not True."""
    dev = t.device if device is None else resolve(device, op)
    dt = t.dtype if dtype is None else as_dtype(dtype)
    same = dev == t.device and dt is t.dtype
    check(same or copy is not False, op, lambda: f"copy=False, but a {t.dtype.name} array on "
          f"{t.device} must be copied to become {dt.name} on {dev}", ValueError)
    if same and not copy:
        return t
    return t.to(device=dev, dtype=dt, copy=True)


def _shares_memory(obj: Any) -> bool:
    """True for objects ``asarray`` wraps without a copy (arrays and array protocols)."""
    return isinstance(obj, (np.ndarray, np.generic)) or hasattr(
        obj, "__cuda_array_interface__") or hasattr(obj, "__dlpack__")


def asarray(obj: Any, /, *, dtype: Any = None, device: DeviceLike | None = None,
            copy: bool | None = None) -> Tensor:
    """``obj`` as a tensor: arrays, buffers, Python scalars or nested sequences of them.

    Args:
        dtype: the result's dtype (inferred: bool, int64, or the default float
            dtype for Python values; an array's own dtype).
        device: the result's device (an array's own, else cpu).
        copy: True always copies; False never does (``ValueError`` when a copy
            is needed); None copies only when it must.

    Example:
        >>> import numpy as np
        >>> a = np.zeros(3); asarray(a).data_ptr() == a.ctypes.data
        True
    """
    if isinstance(obj, TensorBase):
        return _placed(obj, dtype, device, copy, "asarray")
    if isinstance(obj, np.generic):
        obj = np.asarray(obj)
    elif isinstance(obj, (bytes, bytearray, memoryview)):
        obj = np.frombuffer(obj, dtype=np.uint8)
    if _shares_memory(obj):
        return _placed(creation.as_tensor(obj), dtype, device, copy, "asarray")
    check(copy is not False, "asarray", lambda: f"copy=False, but a {type(obj).__name__} "
          "must be copied into an array", ValueError)
    return creation.tensor(obj, dtype=dtype, device=device)


def arange(start: float, /, stop: float | None = None, step: float = 1, *, dtype: Any = None,
           device: DeviceLike | None = None) -> Tensor:
    """``start, start + step, ...`` before ``stop``; empty when ``step`` leads away from it.

    Example:
        >>> arange(5, 1).tolist()
        []
    """
    if stop is None:
        start, stop = 0, start
    check(step != 0, "arange", "step must be nonzero", ValueError)
    if dtype is None:
        ints = all(isinstance(v, int) for v in (start, stop, step))
        dtype = int64 if ints else get_default_dtype()
    if math.ceil((stop - start) / step) <= 0:
        return creation.empty(0, dtype=dtype, device=device)
    return creation.arange(start, stop, step, dtype=dtype, device=device)


def empty(shape: Shape, *, dtype: Any = None, device: DeviceLike | None = None) -> Tensor:
    """An uninitialised tensor of ``shape``.

    Example:
        >>> empty((2, 3)).shape
        (2, 3)
    """
    return creation.empty(shape, dtype=dtype, device=device)


def empty_like(x: Tensor, /, *, dtype: Any = None, device: DeviceLike | None = None) -> Tensor:
    """An uninitialised tensor shaped like ``x`` (its dtype and device unless given)."""
    return creation.empty_like(x, dtype=dtype, device=device)


def eye(n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None,
        device: DeviceLike | None = None) -> Tensor:
    """Ones on the ``k``-th diagonal (above the main one for ``k > 0``), zeros elsewhere.

    Example:
        >>> eye(2, 3, k=1).tolist()
        [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    """
    cols = n_rows if n_cols is None else n_cols
    out = creation.zeros(n_rows, cols, dtype=dtype, device=device)
    if -n_rows < k < cols:
        creation.fill_(views.diagonal(out, k), 1)
    return out


def from_dlpack(x: Any, /, *, device: DeviceLike | None = None,
                copy: bool | None = None) -> Tensor:
    """A tensor over a DLPack producer's memory (copied only to change device, or for copy=True).

    Example:
        >>> import numpy as np
        >>> from_dlpack(np.arange(3.0)).tolist()
        [0.0, 1.0, 2.0]
    """
    return _placed(interop.from_dlpack(x), None, device, copy, "from_dlpack")


def full(shape: Shape, fill_value: bool | int | float, *, dtype: Any = None,
         device: DeviceLike | None = None) -> Tensor:
    """``fill_value`` everywhere (dtype from it: bool, int64 or the default float).

    Example:
        >>> full(2, True).tolist()
        [True, True]
    """
    return creation.full(shape, fill_value, dtype=dtype, device=device)


def full_like(x: Tensor, /, fill_value: bool | int | float, *, dtype: Any = None,
              device: DeviceLike | None = None) -> Tensor:
    """``fill_value`` everywhere, shaped like ``x`` (its dtype and device unless given)."""
    return creation.full_like(x, fill_value, dtype=dtype, device=device)


def linspace(start: float, stop: float, /, num: int, *, dtype: Any = None,
             device: DeviceLike | None = None, endpoint: bool = True) -> Tensor:
    """``num`` evenly spaced values from ``start`` to ``stop`` (excluded when not ``endpoint``).

    Example:
        >>> linspace(0, 1, 4, endpoint=False).tolist()
        [0.0, 0.25, 0.5, 0.75]
    """
    if endpoint:
        return creation.linspace(start, stop, num, dtype=dtype, device=device)
    check(isinstance(num, int) and num >= 0, "linspace", lambda: "number of steps must be a "
          f"non-negative int, got {num}", ValueError)
    return creation.linspace(start, stop, num + 1, dtype=dtype, device=device)[:num]


def meshgrid(*arrays: Tensor, indexing: str = "xy") -> list[Tensor]:
    """Coordinate grids from 1-D arrays (expanded views), Cartesian (``"xy"``) by default.

    Example:
        >>> [g.shape for g in meshgrid(gt.ones(2), gt.ones(3))]
        [(3, 2), (3, 2)]
    """
    return list(views.meshgrid(*arrays, indexing=indexing)) if arrays else []


def ones(shape: Shape, *, dtype: Any = None, device: DeviceLike | None = None) -> Tensor:
    """A tensor of ones.

    Example:
        >>> ones(2, dtype=gt.int8).tolist()
        [1, 1]
    """
    return creation.ones(shape, dtype=dtype, device=device)


def ones_like(x: Tensor, /, *, dtype: Any = None, device: DeviceLike | None = None) -> Tensor:
    """Ones shaped like ``x`` (its dtype and device unless given)."""
    return creation.ones_like(x, dtype=dtype, device=device)


def tril(x: Tensor, /, *, k: int = 0) -> Tensor:
    """The lower triangle (``col - row <= k``) of each matrix, zeros above."""
    return copies.tril(x, k)


def triu(x: Tensor, /, *, k: int = 0) -> Tensor:
    """The upper triangle (``col - row >= k``) of each matrix, zeros below."""
    return copies.triu(x, k)


def zeros(shape: Shape, *, dtype: Any = None, device: DeviceLike | None = None) -> Tensor:
    """A tensor of zeros.

    Example:
        >>> zeros((1, 2)).tolist()
        [[0.0, 0.0]]
    """
    return creation.zeros(shape, dtype=dtype, device=device)


def zeros_like(x: Tensor, /, *, dtype: Any = None, device: DeviceLike | None = None) -> Tensor:
    """Zeros shaped like ``x`` (its dtype and device unless given)."""
    return creation.zeros_like(x, dtype=dtype, device=device)

