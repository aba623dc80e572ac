"""Scalar bodies of the unary elementwise ops, written once for every target.

Each function maps one element to one element using only ``math``, builtins and
arithmetic, so Numba compiles it for the CPU (``njit``) and for CUDA (device
function), and the CUDA simulator runs it as plain Python. Domain edges (log of
0, sqrt of a negative, exp past the largest float, ...) are handled explicitly:
compiled code would return inf/nan anyway, but Python's ``math`` raises, and the
simulator runs Python. The guards are comparisons, valid on every target.

``UNARY`` lists every op: its scalar body, the input dtypes it is registered
for, and whether its output is boolean. Output dtype otherwise equals the input.
"""

from __future__ import annotations

import math

from .dtype_groups import ALL, COMPLEX, FLOAT, INT, NUMERIC, SIGNED, UNSIGNED, WITH_COMPLEX
from .scalar_special import digamma, erfinv, lgamma, trigamma

_BIG = 4503599627370496.0  # 2**52: every float at or above it is an integer
_EXP_MAX = 709.782712893384  # the largest float64 whose exp is finite (compared in float64:
#                             the simulator would round it to a float32 input's precision)
_COSH_MAX = 710.4758600739439  # the largest float64 whose cosh and sinh are finite


def neg(x):  # noqa: ANN001, ANN201 - scalar bodies are typed by Numba per signature
    return -x


def abs_(x):  # noqa: ANN001, ANN201
    return abs(x)


def sign(x):  # noqa: ANN001, ANN201
    if x > 0:
        return 1
    if x < 0:
        return -1
    return 0  # zeros and NaN, as PyTorch


def exp(x):  # noqa: ANN001, ANN201
    return math.inf if float(x) > _EXP_MAX else math.exp(x)


def exp2(x):  # noqa: ANN001, ANN201
    y = float(x)
    return math.inf if y >= 1024.0 else 2.0 ** y


def log(x):  # noqa: ANN001, ANN201
    if x > 0:
        return math.log(x)
    return -math.inf if x == 0 else math.nan


def log2(x):  # noqa: ANN001, ANN201
    if x > 0:
        return math.log2(x)
    return -math.inf if x == 0 else math.nan


def log10(x):  # noqa: ANN001, ANN201
    if x > 0:
        return math.log10(x)
    return -math.inf if x == 0 else math.nan


def log1p(x):  # noqa: ANN001, ANN201
    if x > -1:
        return math.log1p(x)
    return -math.inf if x == -1 else math.nan


def expm1(x):  # noqa: ANN001, ANN201
    return math.inf if float(x) > _EXP_MAX else math.expm1(x)


def sqrt(x):  # noqa: ANN001, ANN201
    return math.sqrt(x) if x >= 0 else math.nan


def rsqrt(x):  # noqa: ANN001, ANN201
    if x > 0:
        return 1.0 / math.sqrt(x)
    return math.copysign(math.inf, x) if x == 0 else math.nan


def square(x):  # noqa: ANN001, ANN201
    return x * x


def reciprocal(x):  # noqa: ANN001, ANN201
    if x == 0:
        return math.copysign(math.inf, x)
    return 1.0 / x


def sin(x):  # noqa: ANN001, ANN201
    return math.sin(x) if abs(x) != math.inf else math.nan


def cos(x):  # noqa: ANN001, ANN201
    return math.cos(x) if abs(x) != math.inf else math.nan


def tan(x):  # noqa: ANN001, ANN201
    return math.tan(x) if abs(x) != math.inf else math.nan


def asin(x):  # noqa: ANN001, ANN201
    return math.asin(x) if -1 <= x <= 1 else math.nan


def acos(x):  # noqa: ANN001, ANN201
    return math.acos(x) if -1 <= x <= 1 else math.nan


def atan(x):  # noqa: ANN001, ANN201
    return math.atan(x)


def sinh(x):  # noqa: ANN001, ANN201
    if abs(float(x)) > _COSH_MAX:
        return math.copysign(math.inf, x)
    return math.sinh(x)


def cosh(x):  # noqa: ANN001, ANN201
    return math.inf if abs(float(x)) > _COSH_MAX else math.cosh(x)


def tanh(x):  # noqa: ANN001, ANN201
    return math.tanh(x)


def sigmoid(x):  # noqa: ANN001, ANN201
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def relu(x):  # noqa: ANN001, ANN201
    return x if x > 0 or x != x else 0


def gelu(x):  # noqa: ANN001, ANN201
    return 0.5 * x * (1.0 + math.erf(x * 0.7071067811865476))


def gelu_tanh(x):  # noqa: ANN001, ANN201
    return 0.5 * x * (1.0 + math.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))


def silu(x):  # noqa: ANN001, ANN201
    if x >= 0:
        return x / (1.0 + math.exp(-x))
    e = math.exp(x)
    return x * e / (1.0 + e)


def softplus(x):  # noqa: ANN001, ANN201
    return x if x > 20 else math.log1p(math.exp(x))


def erf(x):  # noqa: ANN001, ANN201
    return math.erf(x)


# Rounding to an integer keeps the sign, so copysign gives a zero result x's sign (-0.5 -> -0.0).
def floor(x):  # noqa: ANN001, ANN201
    return math.copysign(float(math.floor(x)), x) if abs(x) < _BIG else x


def ceil(x):  # noqa: ANN001, ANN201
    return math.copysign(float(math.ceil(x)), x) if abs(x) < _BIG else x


def trunc(x):  # noqa: ANN001, ANN201
    if not abs(x) < _BIG:
        return x
    return math.copysign(float(math.floor(x)) if x >= 0 else float(math.ceil(x)), x)


def round_(x):  # noqa: ANN001, ANN201
    """Round half to even, like NumPy and PyTorch."""
    if not abs(x) < _BIG:
        return x
    r = float(math.floor(x))
    d = x - r
    if d > 0.5 or (d == 0.5 and r % 2.0 != 0.0):
        r += 1.0
    return math.copysign(r, x) if r == 0 else r


def identity(x):  # noqa: ANN001, ANN201
    return x


def logical_not(x):  # noqa: ANN001, ANN201
    return x == 0


def bitwise_not(x):  # noqa: ANN001, ANN201
    return ~x


def isnan(x):  # noqa: ANN001, ANN201
    return x != x


def isinf(x):  # noqa: ANN001, ANN201
    return x == x and x - x != 0


def isfinite(x):  # noqa: ANN001, ANN201
    return x - x == 0


def always(x):  # noqa: ANN001, ANN201
    return x == x


_FLOAT_ONLY = (
    exp, exp2, log, log2, log10, log1p, expm1, sqrt, rsqrt, reciprocal, sin, cos, tan,
    asin, acos, atan, sinh, cosh, tanh, sigmoid, gelu, gelu_tanh, silu, softplus, erf,
    lgamma, digamma, trigamma, erfinv,
)

# op name -> list of (scalar body, input dtypes, boolean output)
UNARY: dict[str, list[tuple[object, tuple[str, ...], bool]]] = {
    "neg": [(neg, WITH_COMPLEX, False)],
    "abs": [(abs_, WITH_COMPLEX, False)],
    "sign": [(sign, NUMERIC, False), (identity, ("bool",), False)],
    "square": [(square, WITH_COMPLEX, False)],
    "relu": [(relu, (*SIGNED, *FLOAT), False), (identity, UNSIGNED, False)],
    "floor": [(floor, FLOAT, False), (identity, INT, False)],
    "ceil": [(ceil, FLOAT, False), (identity, INT, False)],
    "trunc": [(trunc, FLOAT, False), (identity, INT, False)],
    "round": [(round_, FLOAT, False), (identity, INT, False)],
    "logical_not": [(logical_not, ALL, True)],
    "bitwise_not": [(bitwise_not, INT, False), (logical_not, ("bool",), False)],
    "isnan": [(isnan, (*ALL, *COMPLEX), True)],
    "isinf": [(isinf, NUMERIC, True), (isnan, ("bool",), True)],
    "isfinite": [(isfinite, WITH_COMPLEX, True), (always, ("bool",), True)],
    **{f.__name__: [(f, FLOAT, False)] for f in _FLOAT_ONLY},
}
