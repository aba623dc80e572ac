"""Operand conversions shared by the CPU and CUDA kernel wrappers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


def is_array(x: Any) -> bool:
    """True for NumPy arrays and CUDA device arrays, False for Python numbers.

    Example:
        >>> is_array(np.zeros(2)), is_array(2.0)
        (True, False)
    """
    return isinstance(x, np.ndarray) or hasattr(x, "__cuda_array_interface__")


def scalar_dtype(inputs: Sequence[Any], out: Any, value_start: int = 0) -> np.dtype:
    """Return the dtype Python-number operands take: the first value array's dtype, else ``out``'s.

    Args:
        inputs: the kernel's inputs.
        out: the output array.
        value_start: index of the first value operand (1 for ``where``'s condition).

    Example:
        >>> scalar_dtype([np.zeros(2, np.int8), 3], np.zeros(2, bool))
        dtype('int8')
    """
    for x in inputs[value_start:]:
        if is_array(x):
            return np.dtype(x.dtype)
    return np.dtype(out.dtype)


def as_scalar(value: Any, dtype: np.dtype) -> Any:
    """Convert a Python number to a NumPy scalar of ``dtype``, wrapping integers like C.

    Example:
        >>> int(as_scalar(300, np.dtype(np.uint8)))
        44
    """
    return np.asarray(value).astype(dtype)[()]


def convert_scalars(inputs: Sequence[Any], out: Any, value_start: int) -> list[Any]:
    """Return ``inputs`` with every Python number converted by ``as_scalar``.

    Example:
        >>> convert_scalars([np.zeros(1, np.float32), 2], np.zeros(1, np.float32), 0)[1].dtype
        dtype('float32')
    """
    dtype = None
    ops = []
    for x in inputs:
        if is_array(x):
            ops.append(x)
        else:
            dtype = dtype or scalar_dtype(inputs, out, value_start)
            ops.append(as_scalar(x, dtype))
    return ops
