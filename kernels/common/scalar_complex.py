"""Scalar bodies of the elementwise ops on complex numbers, written once for every target.

Numba types complex64 and complex128 natively on the CPU and on CUDA, so these
bodies use the arithmetic operators and ``cmath`` as the real ones use
``math``. Where Python's ``complex`` raises (division by zero, ``0 ** -1``:
the CUDA simulator runs Python) the bodies return IEEE's values instead, those
PyTorch gives: ``(1+1j) / 0 = inf+infj``, ``0 / 0 = nan+nanj``.

``COMPLEX_UNARY`` and ``COMPLEX_BINARY`` list each op's complex body, its
dtypes and whether its result is boolean, in the layout of ``scalar_unary``'s
tables, which they join. ``abs`` and ``angle`` write a real result: the
frontend hands them an output of the parts' dtype.
"""

from __future__ import annotations

import cmath
import math

from .dtype_groups import COMPLEX, FLOAT

_LN2 = math.log(2.0)
_LN10 = math.log(10.0)


def div(a, b):  # noqa: ANN001, ANN201 - scalar bodies are typed by Numba per signature
    """``a / b``; by zero, each part divided by 0.0 as IEEE does (Python's ``/`` raises)."""
    if b == 0:
        re = math.nan if a.real == 0 or a.real != a.real else math.copysign(math.inf, a.real)
        im = math.nan if a.imag == 0 or a.imag != a.imag else math.copysign(math.inf, a.imag)
        return complex(re, im)
    return a / b


def reciprocal(x):  # noqa: ANN001, ANN201
    if x == 0:
        return complex(math.inf, math.nan)
    return 1 / x


def rsqrt(x):  # noqa: ANN001, ANN201
    if x == 0:
        return complex(math.inf, math.nan)
    return 1 / cmath.sqrt(x)


def pow_complex(a, b):  # noqa: ANN001, ANN201
    """``exp(b * log(a))``, or repeated products for a whole exponent up to 64 in size
    (exact as PyTorch's); a zero base gives 1, 0 or ``inf+nanj`` (PyTorch)."""
    if a == 0:
        if b == 0:
            return a - a + 1
        if b.real > 0:
            return a - a
        return complex(math.inf, math.nan)
    if b.imag == 0 and abs(b.real) <= 64 and math.floor(b.real) == b.real:
        result = a - a + 1
        base = a
        e = int(abs(b.real))
        while e > 0:
            if e & 1:
                result = result * base
            base = base * base
            e >>= 1
        return result if b.real >= 0 else 1 / result
    return cmath.exp(b * cmath.log(a))


def conj(x):  # noqa: ANN001, ANN201
    return x.conjugate()


def sgn(x):  # noqa: ANN001, ANN201
    """``x / |x|``, and 0 at 0."""
    r = abs(x)
    return x - x if r == 0 else x / r


def angle(x):  # noqa: ANN001, ANN201
    return math.atan2(x.imag, x.real)


def angle_real(x):  # noqa: ANN001, ANN201
    """The angle of a real number: pi below 0, 0 above, nan at nan (PyTorch)."""
    if x != x:
        return x
    return math.pi if x < 0 else 0.0


def isinf(x):  # noqa: ANN001, ANN201
    return math.isinf(x.real) or math.isinf(x.imag)


def exp(x):  # noqa: ANN001, ANN201
    return cmath.exp(x)


def log(x):  # noqa: ANN001, ANN201
    if x == 0:
        return complex(-math.inf, math.atan2(x.imag, x.real))
    return cmath.log(x)


def log2(x):  # noqa: ANN001, ANN201
    """``log(x) / log(2)`` part by part (a complex division would turn infinities into nan)."""
    if x == 0:
        return complex(-math.inf, math.atan2(x.imag, x.real) / _LN2)
    y = cmath.log(x)
    return complex(y.real / _LN2, y.imag / _LN2)


def log10(x):  # noqa: ANN001, ANN201
    if x == 0:
        return complex(-math.inf, math.atan2(x.imag, x.real) / _LN10)
    y = cmath.log(x)
    return complex(y.real / _LN10, y.imag / _LN10)


def log1p(x):  # noqa: ANN001, ANN201
    """``log(1 + x)``, with the real part from ``log1p`` where ``|x|`` is small."""
    y = x + 1
    if y == 0:
        return complex(-math.inf, math.atan2(y.imag, y.real))
    if abs(x) < 0.5:
        # log|1 + x| = log1p(2 re + |x|^2) / 2, exact where 1 + x rounds away x's digits
        re = math.log1p(2.0 * x.real + x.real * x.real + x.imag * x.imag) * 0.5
        return complex(re, math.atan2(y.imag, y.real))
    return cmath.log(y)


def expm1(x):  # noqa: ANN001, ANN201
    """``exp(x) - 1`` as ``expm1(re) cos(im) - 2 sin(im/2)**2 + 1j exp(re) sin(im)``."""
    s = math.sin(0.5 * x.imag)
    return complex(math.expm1(x.real) * math.cos(x.imag) - 2.0 * s * s,
                   math.exp(x.real) * math.sin(x.imag))


def sqrt(x):  # noqa: ANN001, ANN201
    return cmath.sqrt(x)


def sin(x):  # noqa: ANN001, ANN201
    return cmath.sin(x)


def cos(x):  # noqa: ANN001, ANN201
    return cmath.cos(x)


def tan(x):  # noqa: ANN001, ANN201
    return cmath.tan(x)


def asin(x):  # noqa: ANN001, ANN201
    return cmath.asin(x)


def acos(x):  # noqa: ANN001, ANN201
    return cmath.acos(x)


def atan(x):  # noqa: ANN001, ANN201
    return cmath.atan(x)


def sinh(x):  # noqa: ANN001, ANN201
    return cmath.sinh(x)


def cosh(x):  # noqa: ANN001, ANN201
    return cmath.cosh(x)


def tanh(x):  # noqa: ANN001, ANN201
    return cmath.tanh(x)


def asinh(x):  # noqa: ANN001, ANN201
    if x.real != x.real and x.imag == 0:  # C99: nan + 0j keeps its zero (Numba gives nan)
        return x
    return cmath.asinh(x)


def acosh(x):  # noqa: ANN001, ANN201
    if x.real == 0 and x.imag != x.imag:  # C99: nan + pi/2 j (Numba gives nan + nanj)
        return complex(math.nan, 0.5 * math.pi)
    return cmath.acosh(x)


def atanh(x):  # noqa: ANN001, ANN201
    if x.real != x.real and abs(x.imag) != math.inf:  # C99: nan + nanj (Numba keeps pi/2)
        return complex(math.nan, math.nan)
    if x.real == 0 and x.imag != x.imag:  # C99: the zero stays
        return complex(x.real, math.nan)
    return cmath.atanh(x)


def logical_not(x):  # noqa: ANN001, ANN201
    return x == 0


def identity(x):  # noqa: ANN001, ANN201
    return x


_TRANSCENDENTAL = (exp, log, log2, log10, log1p, expm1, sqrt, sin, cos, tan, asin, acos, atan,
                   sinh, cosh, tanh, asinh, acosh, atanh)

# op name -> list of (scalar body, input dtypes, boolean output)
COMPLEX_UNARY: dict[str, list[tuple[object, tuple[str, ...], bool]]] = {
    "reciprocal": [(reciprocal, COMPLEX, False)],
    "rsqrt": [(rsqrt, COMPLEX, False)],
    "logical_not": [(logical_not, COMPLEX, True)],
    "conj": [(conj, COMPLEX, False), (identity, FLOAT, False)],
    "sgn": [(sgn, COMPLEX, False)],
    "angle": [(angle, COMPLEX, False), (angle_real, FLOAT, False)],
    "isinf": [(isinf, COMPLEX, True)],
    **{f.__name__: [(f, COMPLEX, False)] for f in _TRANSCENDENTAL},
}

COMPLEX_BINARY: dict[str, list[tuple[object, tuple[str, ...], bool]]] = {
    "div": [(div, COMPLEX, False)],
    "pow": [(pow_complex, COMPLEX, False)],
}
