"""``exp`` for CPU kernels as plain arithmetic, so that loops calling it vectorize.

Numba compiles ``math.exp`` to a call of the C library's ``exp``: a loop
calling it stays scalar (LLVM vectorizes such calls only through Intel's SVML,
which the PyPI build of llvmlite does not link). :func:`exp` is the same
function as float64 arithmetic and bit casts: ``x = n ln 2 + r`` with ``n``
rounded by adding ``1.5 * 2**52``, ``exp(r)`` by its Taylor polynomial of
degree 11 on ``|r| <= ln(2) / 2``, and ``2**n`` built in the exponent bits.
Relative error below 1e-14 (a few float64 ulps);
inputs are clamped to ``[-708, 709]``, so ``exp(inf)`` is about 8e307 and
``exp(-inf)`` about 3e-308, and NaN stays NaN. A sigmoid over float32 runs
about 3x faster with it.

:func:`exp_nonpositive32` is the float32 counterpart for ``x <= 0`` (the
shifted logits of a softmax): Cephes' ``expf`` polynomial of degree 7 on
``|r| <= ln(2) / 2``, within 2 float32 ulps; 0 below -87 (where the result
would be subnormal), NaN for NaN. It runs 16 lanes wide where AVX-512 is there.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import intrinsic, register_jitable

from ..common.half_bits import intrinsic_body

_f64_to_bits = intrinsic(intrinsic_body(types, "f64_to_bits"))
_bits_to_f64 = intrinsic(intrinsic_body(types, "bits_to_f64"))
_f32_to_bits = intrinsic(intrinsic_body(types, "f32_to_bits"))
_bits_to_f32 = intrinsic(intrinsic_body(types, "bits_to_f32"))

_ROUND = 6755399441055744.0  # 1.5 * 2**52: adding it rounds to an integer in the low bits
_ROUND_BITS = 0x4338000000000000  # the bits of _ROUND
_LOG2E = 1.4426950408889634
_LN2_HI = 0.6931471803691238  # ln 2 = _LN2_HI + _LN2_LO, _LN2_HI with a short mantissa
_LN2_LO = 1.9082149292705877e-10
_INVERSE_FACTORIALS = (1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040,
                       1.0 / 40320, 1.0 / 362880, 1.0 / 3628800)


@register_jitable(inline="always")
def exp(x):  # noqa: ANN001, ANN201 - compiled helper
    """``e ** x`` as float64 arithmetic (see the module docstring for its range and error).

    Example:
        >>> from numba import njit
        >>> round(njit(lambda v: exp(v))(1.0), 9)
        2.718281828
    """
    x = max(min(x, 709.0), -708.0)  # min/max keep a NaN (it compares false)
    t = x * _LOG2E + _ROUND
    n = t - _ROUND
    r = x - n * _LN2_HI - n * _LN2_LO
    p = 1.0 / 39916800.0
    for k in range(10, -1, -1):  # Horner over 1 / k!, unrolled by the compiler
        p = p * r + _INVERSE_FACTORIALS[k]
    return p * _bits_to_f64((_f64_to_bits(t) - _ROUND_BITS + 1023) << 52)


_F = np.float32  # float32 constants keep the float32 kernel in float32
_ROUND32 = _F(12582912.0)  # 1.5 * 2**23
_EXPONENT32 = np.uint32(127 - 0x4B400000 + 2**32)  # minus the bits of _ROUND32, plus the bias
_LOW32 = _F(-87.0)
_LOG2E32 = _F(_LOG2E)
_LN2_HI32 = _F(0.693359375)
_LN2_LO32 = _F(-2.12194440e-4)
_EXPF = tuple(_F(c) for c in (1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3,
                              4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1))
_ONE32 = _F(1.0)
_ZERO32 = _F(0.0)
_SHIFT32 = np.uint32(23)


@register_jitable(inline="always")
def exp_nonpositive32(x):  # noqa: ANN001, ANN201 - compiled helper
    """``e ** x`` for float32 ``x <= 0`` as float32 arithmetic (see the module docstring).

    Example:
        >>> from numba import njit
        >>> round(float(njit(lambda v: exp_nonpositive32(v))(np.float32(-1.0))), 6)
        0.367879
    """
    c = _LOW32 if x < _LOW32 else x  # a NaN stays NaN (it compares false)
    t = c * _LOG2E32 + _ROUND32
    n = t - _ROUND32
    r = c - n * _LN2_HI32 - n * _LN2_LO32
    p = _EXPF[0]
    for k in range(1, 6):  # unrolled by the compiler
        p = p * r + _EXPF[k]
    p = p * r * r + r + _ONE32
    scale = _bits_to_f32((_f32_to_bits(t) + _EXPONENT32) << _SHIFT32)
    return _ZERO32 if x < _LOW32 else p * scale
