"""Half-precision loads and stores for CUDA kernels: float16 and bfloat16 as bits, float32 math.

Kernels take a half tensor's buffer as ``uint16`` bits on both the GPU and
the simulator (Numba CUDA has no bfloat16 array type). ``load_*`` turns an
element's bits into a float32 in a register (Python numbers, given as
float32, and bools pass through); ``store_*`` rounds a float result to the
nearest half value and returns its bits (a bool result passes through). On a
GPU float16 converts with ``cvt`` instructions (LLVM's ``half`` type),
bfloat16 with integer shifts (rounded to nearest even, NaN kept NaN); nothing
goes through a float32 copy in memory. The simulator runs the same
conversions with NumPy scalars.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
from numba import cuda

from ..simulator import SIMULATED

_BF16 = np.dtype(ml_dtypes.bfloat16)


def _is_bits(x: Any) -> bool:
    return isinstance(x, np.uint16)


def load_f16(x):  # noqa: ANN001, ANN201 - device helper (see the overloads on a GPU)
    """float16 bits (or a number) as float32."""
    if _is_bits(x):
        return np.float32(x.view(np.float16))
    return x if isinstance(x, (bool, np.bool_)) else np.float32(x)


def store_f16(v):  # noqa: ANN001, ANN201 - device helper
    """A float as float16 bits (a bool as is)."""
    if isinstance(v, (bool, np.bool_)):
        return v
    with np.errstate(over="ignore"):
        return np.float16(np.float32(v)).view(np.uint16)


def load_bf16(x):  # noqa: ANN001, ANN201 - device helper
    """bfloat16 bits (or a number) as float32."""
    if _is_bits(x):
        return np.array(x).view(_BF16).astype(np.float32)[()]
    return x if isinstance(x, (bool, np.bool_)) else np.float32(x)


def store_bf16(v):  # noqa: ANN001, ANN201 - device helper
    """A float as bfloat16 bits (a bool as is)."""
    if isinstance(v, (bool, np.bool_)):
        return v
    return np.array(np.float32(v)).astype(_BF16).view(np.uint16)[()]


def half_io(half: str | None) -> tuple[Any, Any]:
    """The ``(load, store)`` pair of a kernel over ``half`` bits; ``as_is`` twice for values.

    Example:
        >>> half_io("bfloat16") == (load_bf16, store_bf16)
        True
    """
    return _IO[half]


if not SIMULATED:
    from numba import types
    from numba.cuda.extending import intrinsic, overload

    from ..common.half_bits import bf16_rounded, intrinsic_body, loader, storer

    _f16_bits_to_f32 = intrinsic(intrinsic_body(types, "f16_bits_to_f32"))
    _f32_to_f16_bits = intrinsic(intrinsic_body(types, "f32_to_f16_bits"))
    _bits_to_f32 = intrinsic(intrinsic_body(types, "bits_to_f32"))
    _bf16_bits = cuda.jit(device=True, inline="always")(
        bf16_rounded(intrinsic(intrinsic_body(types, "f32_to_bits"))))

    overload(load_f16, target="cuda")(
        loader(types, lambda x: _f16_bits_to_f32(x)))
    overload(store_f16, target="cuda")(
        storer(types, lambda v: _f32_to_f16_bits(np.float32(v))))
    overload(load_bf16, target="cuda")(
        loader(types, lambda x: _bits_to_f32(np.uint32(x) << np.uint32(16))))
    overload(store_bf16, target="cuda")(storer(types, lambda v: _bf16_bits(v)))


@cuda.jit(device=True)
def as_is(v):  # noqa: ANN001, ANN201 - device helper
    """The load and store of a kernel over values."""
    return v


_IO = {None: (as_is, as_is), "float16": (load_f16, store_f16),
       "bfloat16": (load_bf16, store_bf16)}
