"""Operand conversions shared by the CPU and CUDA kernel wrappers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np

from .strided import collapse


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


def convert_scalars(inputs: Sequence[Any], out: Any, value_start: int,
                    dtype: np.dtype | None = None) -> list[Any]:
    """Return ``inputs`` with every Python number converted by ``as_scalar``.

    ``dtype``: the numbers' dtype (default: :func:`scalar_dtype` of the call).

    Example:
        >>> convert_scalars([np.zeros(1, np.float32), 2], np.zeros(1, np.float32), 0)[1].dtype
        dtype('float32')
    """
    ops = []
    for x in inputs:
        if is_array(x):
            ops.append(x)
        else:
            dtype = dtype or scalar_dtype(inputs, out, value_start)
            ops.append(as_scalar(x, dtype))
    return ops


def scalar_converter(dtype: np.dtype) -> Callable[[Any], Any]:
    """Return a fast ``as_scalar`` for one dtype: NumPy's scalar type for floats.

    Example:
        >>> scalar_converter(np.dtype(np.float32))(0.5).dtype
        dtype('float32')
    """
    if dtype.kind in "fc":
        return dtype.type
    return partial(as_scalar, dtype=dtype)


Layout = tuple[int, tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...], bool]


def elementwise_layout(shape: Sequence[int], strides: Sequence[tuple[int, ...] | None],
                       out_strides: tuple[int, ...]) -> Layout:
    """Collapse an elementwise call's layout once per call signature.

    Args:
        shape: the output's shape (inputs are already broadcast to it).
        strides: each input's element strides, or None for a number.
        out_strides: the output's element strides.

    Returns:
        ``(n, shape, input_strides, out_strides, flat)``: the element count, the
        collapsed shape, each input's collapsed strides (zeros for a number), the
        output's, and whether every array is contiguous over one index.

    Example:
        >>> elementwise_layout((2, 3), [(3, 1), None], (3, 1))
        (6, (6,), ((1,), (0,)), (1,), True)
    """
    n = 1
    for d in shape:
        n *= d
    arrays = [s for s in strides if s is not None]
    cshape, cstrides = collapse(shape, [*arrays, out_strides])
    zero = (0,) * len(cshape)
    it = iter(cstrides)
    per_input = tuple(next(it) if s is not None else zero for s in strides)
    so = next(it)
    flat = len(cshape) == 1 and so == (1,) and all(s == (1,) for s in cstrides)
    return n, cshape, per_input, so, flat


def nothing(*args: Any) -> None:
    """The launch of an empty call: no element to compute."""
    return None


def pack_strided(args: Sequence[Any], strides: Sequence[tuple[int, ...]]) -> list[Any]:
    """Interleave ``(buffer, offset)`` pairs with each input's strides for a strided loop.

    Example:
        >>> pack_strided(["a", 0, "b", 2], [(1,), (0,)])
        ['a', 0, (1,), 'b', 2, (0,)]
    """
    packed: list[Any] = []
    for k, s in enumerate(strides):
        packed += (args[2 * k], args[2 * k + 1], s)
    return packed


def converting(run: Callable[..., None], numbers: tuple[int, ...],
               convert: Callable[[Any], Any], *args: Any) -> None:
    """Call ``run(*args)`` with the numbers at positions ``numbers`` converted (bound by plans).

    Example:
        >>> converting(print, (0,), float, 2, 0)
        2.0 0
    """
    values = list(args)
    for k in numbers:
        values[k] = convert(values[k])
    run(*values)


def with_numbers(run: Callable[..., None], strides: Sequence[tuple[int, ...] | None],
                 scalar_dtype: np.dtype | None) -> Callable[..., None]:
    """Wrap a plan's ``run`` so that Python numbers among its inputs take ``scalar_dtype``."""
    numbers = tuple(2 * k for k, s in enumerate(strides) if s is None)
    if not numbers or scalar_dtype is None:
        return run
    return partial(converting, run, numbers, scalar_converter(scalar_dtype))
