"""Bit-level conversions between half types and float32 (and float bit casts), for CPU and CUDA.

Each backend wraps these in its own Numba ``intrinsic`` and ``overload``
decorators (``kernels.cpu.half``, ``kernels.cuda.half``): the LLVM code is the
same on both. float16 converts with LLVM's ``half`` type (F16C or ``cvt``
instructions); bfloat16 is the top half of a float32's bits, rounded to
nearest even on the way down, NaN kept NaN.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir

IR_CONVERSIONS: dict[str, tuple[str, str, Any]] = {
    "f16_bits_to_f32": ("float32", "uint16", lambda b, v: b.fpext(
        b.bitcast(v, ir.HalfType()), ir.FloatType())),
    "f32_to_f16_bits": ("uint16", "float32", lambda b, v: b.bitcast(
        b.fptrunc(v, ir.HalfType()), ir.IntType(16))),
    "bits_to_f32": ("float32", "uint32", lambda b, v: b.bitcast(v, ir.FloatType())),
    "f32_to_bits": ("uint32", "float32", lambda b, v: b.bitcast(v, ir.IntType(32))),
    "bits_to_f64": ("float64", "int64", lambda b, v: b.bitcast(v, ir.DoubleType())),
    "f64_to_bits": ("int64", "float64", lambda b, v: b.bitcast(v, ir.IntType(64))),
}
"""name -> (result type, argument type, LLVM builder of the result from the argument)."""


def intrinsic_body(types: Any, name: str) -> Any:
    """The typing function of intrinsic ``name`` for a Numba ``intrinsic`` decorator.

    Example:
        >>> from numba import types
        >>> callable(intrinsic_body(types, "bits_to_f32"))
        True
    """
    result, arg, build = IR_CONVERSIONS[name]

    def typer(typingctx: Any, value: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return build(builder, args[0])
        return getattr(types, result)(getattr(types, arg)), codegen

    typer.__name__ = name
    return typer


def loader(types: Any, convert: Any) -> Any:
    """Overload body of a half load: bits through ``convert``, numbers to float32, bools as is.

    Example:
        >>> from numba import types
        >>> loader(types, None)(types.boolean)(True)
        True
    """
    def impl(x):  # noqa: ANN001, ANN202 - Numba matches an overload's signature, bare
        if isinstance(x, types.Integer) and x.bitwidth == 16 and not x.signed:
            return convert
        if isinstance(x, (types.Float, types.Integer)):
            return lambda x: np.float32(x)
        return lambda x: x
    return impl


def storer(types: Any, convert: Any) -> Any:
    """Overload body of a half store: a bool result as is, anything else through ``convert``.

    Example:
        >>> from numba import types
        >>> storer(types, None)(types.boolean)(False)
        False
    """
    def impl(v):  # noqa: ANN001, ANN202
        if isinstance(v, types.Boolean):
            return lambda v: v
        return convert
    return impl


def bf16_rounded(f32_to_bits: Any) -> Any:
    """The scalar function rounding a float to bfloat16 bits, over a backend's bit cast.

    Example:
        >>> int(bf16_rounded(lambda v: v.view(np.uint32))(1.0))
        16256
    """
    uint16, uint32 = np.uint16, np.uint32

    def rounded(v: Any) -> Any:
        b = f32_to_bits(np.float32(v))
        if (b & uint32(0x7FFFFFFF)) > uint32(0x7F800000):  # NaN: keep it NaN
            return uint16((b >> uint32(16)) | uint32(0x40))
        b = b + uint32(0x7FFF) + ((b >> uint32(16)) & uint32(1))
        return uint16(b >> uint32(16))
    return rounded
