"""Half-precision loads and stores for CPU kernels: float16 and bfloat16 as bits, float32 math.

Numba's CPU target has no float16 or bfloat16 type, so kernels take a half
tensor's buffer as ``uint16`` bits. ``load_*`` turns an element's bits into a
float32 (Python numbers, given as float32, and bools pass through);
``store_*`` rounds a float result to the nearest half value and returns its bits
(a bool result, from a comparison, passes through). The conversions are
``kernels.common.half_bits``; float16's vectorize with F16C instructions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import types
from numba.extending import intrinsic, overload, register_jitable

from ..common.half_bits import bf16_rounded, intrinsic_body, loader, storer
from ..common.scalar_rows import as_is

_f16_bits_to_f32 = intrinsic(intrinsic_body(types, "f16_bits_to_f32"))
_f32_to_f16_bits = intrinsic(intrinsic_body(types, "f32_to_f16_bits"))
_bits_to_f32 = intrinsic(intrinsic_body(types, "bits_to_f32"))
_bf16_bits = register_jitable(inline="always")(
    bf16_rounded(intrinsic(intrinsic_body(types, "f32_to_bits"))))


def load_f16(x):  # noqa: ANN001, ANN201 - compiled helper (see the overload)
    """float16 bits (or a number) as float32."""
    return x


def store_f16(v):  # noqa: ANN001, ANN201 - compiled helper (see the overload)
    """A float as float16 bits (a bool as is)."""
    return v


def load_bf16(x):  # noqa: ANN001, ANN201 - compiled helper (see the overload)
    """bfloat16 bits (or a number) as float32."""
    return x


def store_bf16(v):  # noqa: ANN001, ANN201 - compiled helper (see the overload)
    """A float as bfloat16 bits (a bool as is)."""
    return v


_OPTIONS = {"jit_options": {"error_model": "numpy"}, "inline": "always"}
overload(load_f16, **_OPTIONS)(loader(types, lambda x: _f16_bits_to_f32(x)))
overload(store_f16, **_OPTIONS)(storer(types, lambda v: _f32_to_f16_bits(np.float32(v))))
overload(load_bf16, **_OPTIONS)(
    loader(types, lambda x: _bits_to_f32(np.uint32(x) << np.uint32(16))))
overload(store_bf16, **_OPTIONS)(storer(types, lambda v: _bf16_bits(v)))


_IO = {None: (as_is, as_is), "float16": (load_f16, store_f16),
       "bfloat16": (load_bf16, store_bf16)}


def half_io(half: str | None) -> tuple[Any, Any]:
    """The ``(load, store)`` pair of a kernel over ``half`` bits; ``as_is`` twice for values.

    Example:
        >>> half_io("float16") == (load_f16, store_f16)
        True
    """
    return _IO[half]
