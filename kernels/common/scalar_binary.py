"""Scalar bodies of the binary and ternary elementwise ops, written once for every target.

Inputs of one call share a dtype (the frontend promotes first); the output has
that dtype too, except for comparisons and logical ops (boolean output).

Integer semantics, the same on every backend: arithmetic wraps around
(two's complement); ``floor_divide`` and ``remainder`` by zero give 0 (NumPy's
result, without its warning) and ``INT_MIN // -1`` wraps to ``INT_MIN``;
shifts by a negative amount or by 64 or more give 0 (``>>`` of a negative value
gives -1); ``pow`` with a negative exponent gives ``1 // base**-e`` truncated
toward zero (0 except for bases 1 and -1). Float division by zero follows IEEE
(inf or nan); float ``remainder`` by zero is nan.
"""

from __future__ import annotations

import math

from .dtype_groups import ALL, BOOL_INT, COMPLEX, FLOAT, INT, NUMERIC, WITH_COMPLEX

_BIG = 4503599627370496.0  # 2**52: every float at or above it is an integer


def add(a, b):  # noqa: ANN001, ANN201 - scalar bodies are typed by Numba per signature
    return a + b


def sub(a, b):  # noqa: ANN001, ANN201
    return a - b


def mul(a, b):  # noqa: ANN001, ANN201
    return a * b


def or_(a, b):  # noqa: ANN001, ANN201
    return a or b


def and_(a, b):  # noqa: ANN001, ANN201
    return a and b


def div(a, b):  # noqa: ANN001, ANN201
    return a / b


def floor_divide_int(a, b):  # noqa: ANN001, ANN201
    if b == 0:
        return a - a
    if b == -1:
        return -a
    return a // b


def remainder_int(a, b):  # noqa: ANN001, ANN201
    if b == 0 or b == -1:
        return a - a
    return a % b


def floor_divide_float(a, b):  # noqa: ANN001, ANN201
    """Python's (and NumPy's) float floor division, exact where ``floor(a / b)`` is not."""
    if b == 0 or a != a or b != b or abs(a) == math.inf:
        return a / b if b == 0 else a - a + math.nan
    return a // b


def remainder_float(a, b):  # noqa: ANN001, ANN201
    """Python's float modulo: the result takes the divisor's sign."""
    if b == 0 or a != a or b != b or abs(a) == math.inf:
        return a - a + math.nan
    return a % b


def pow_float(a, b):  # noqa: ANN001, ANN201
    """C99 ``pow``: a negative base to a non-integer power is nan, except ``-inf``."""
    if a == -math.inf and b == b and b != 0:
        odd = abs(b) < _BIG and b % 2.0 == 1.0
        if b > 0:
            return -math.inf if odd else math.inf
        return -0.0 if odd else 0.0
    if a == 0 and b < 0:
        odd = abs(b) < _BIG and b % 2.0 == 1.0
        return math.copysign(math.inf, a) if odd else math.inf
    if a < 0 and abs(b) < _BIG and float(math.floor(b)) != b:
        return math.nan
    return a ** b


def pow_int(a, b):  # noqa: ANN001, ANN201
    # every return has the type of ``result``: a branch returning ``a`` would unify a uint64
    # with int64, which Numba types as float64
    result = a - a + 1
    if b < 0:
        if a == 1:
            return result
        if a == -1:
            return result if b % 2 == 0 else result - 2
        return result - 1
    base = a
    e = b
    while e > 0:
        if e & 1:
            result = result * base
        base = base * base
        e >>= 1
    return result


def maximum(a, b):  # noqa: ANN001, ANN201
    if a != a:
        return a
    if b != b:
        return b
    return a if a > b else b


def minimum(a, b):  # noqa: ANN001, ANN201
    if a != a:
        return a
    if b != b:
        return b
    return a if a < b else b


def atan2(a, b):  # noqa: ANN001, ANN201
    return math.atan2(a, b)


def eq(a, b):  # noqa: ANN001, ANN201
    return a == b


def ne(a, b):  # noqa: ANN001, ANN201
    return a != b


def lt(a, b):  # noqa: ANN001, ANN201
    return a < b


def le(a, b):  # noqa: ANN001, ANN201
    return a <= b


def gt(a, b):  # noqa: ANN001, ANN201
    return a > b


def ge(a, b):  # noqa: ANN001, ANN201
    return a >= b


def logical_and(a, b):  # noqa: ANN001, ANN201
    return a != 0 and b != 0


def logical_or(a, b):  # noqa: ANN001, ANN201
    return a != 0 or b != 0


def logical_xor(a, b):  # noqa: ANN001, ANN201
    return (a != 0) != (b != 0)


def bitwise_and(a, b):  # noqa: ANN001, ANN201
    return a & b


def bitwise_or(a, b):  # noqa: ANN001, ANN201
    return a | b


def bitwise_xor(a, b):  # noqa: ANN001, ANN201
    return a ^ b


def left_shift(a, b):  # noqa: ANN001, ANN201
    if b < 0 or b >= 64:
        return a - a
    return a << b


def right_shift(a, b):  # noqa: ANN001, ANN201
    if b < 0 or b >= 64:
        return (a >> 63) >> 1  # -1 for a negative value, else 0, in the type of ``a >> b``
    return a >> b


def where(c, a, b):  # noqa: ANN001, ANN201
    return a if c else b


def clamp(x, lo, hi):  # noqa: ANN001, ANN201
    """``min(max(x, lo), hi)``; a nan anywhere gives nan (PyTorch)."""
    if x != x:
        return x
    if lo != lo:
        return lo
    if hi != hi:
        return hi
    y = lo if x < lo else x
    return hi if y > hi else y


def lerp(a, b, w):  # noqa: ANN001, ANN201
    """PyTorch's two-sided formula: exact at both ends."""
    if abs(w) < 0.5:
        return a + w * (b - a)
    return b - (b - a) * (1.0 - w)


def add_scaled(a, b, alpha):  # noqa: ANN001, ANN201
    """``a + alpha * b``: PyTorch's ``add(a, b, alpha=)`` in one pass."""
    return a + alpha * b


def addcmul(x, a, b, v):  # noqa: ANN001, ANN201
    return x + v * a * b


def addcdiv(x, a, b, v):  # noqa: ANN001, ANN201
    return x + v * (a / b)


# op name -> list of (scalar body, input dtypes, boolean output)
def threshold_backward(g, out):  # noqa: ANN001, ANN201
    """ReLU's gradient from its output: 0 where the output is <= 0, else ``g`` (PyTorch)."""
    return 0.0 if out <= 0 else g


BINARY: dict[str, list[tuple[object, tuple[str, ...], bool]]] = {
    "add": [(add, WITH_COMPLEX, False), (or_, ("bool",), False)],
    "sub": [(sub, WITH_COMPLEX, False)],
    "mul": [(mul, WITH_COMPLEX, False), (and_, ("bool",), False)],
    "div": [(div, FLOAT, False)],
    "floor_divide": [(floor_divide_int, INT, False), (floor_divide_float, FLOAT, False)],
    "remainder": [(remainder_int, INT, False), (remainder_float, FLOAT, False)],
    "pow": [(pow_int, INT, False), (pow_float, FLOAT, False)],
    "maximum": [(maximum, ALL, False)],
    "minimum": [(minimum, ALL, False)],
    "atan2": [(atan2, FLOAT, False)],
    "eq": [(eq, (*ALL, *COMPLEX), True)],
    "ne": [(ne, (*ALL, *COMPLEX), True)],
    "lt": [(lt, ALL, True)],
    "le": [(le, ALL, True)],
    "gt": [(gt, ALL, True)],
    "ge": [(ge, ALL, True)],
    "logical_and": [(logical_and, (*ALL, *COMPLEX), True)],
    "logical_or": [(logical_or, (*ALL, *COMPLEX), True)],
    "logical_xor": [(logical_xor, (*ALL, *COMPLEX), True)],
    "bitwise_and": [(bitwise_and, BOOL_INT, False)],
    "bitwise_or": [(bitwise_or, BOOL_INT, False)],
    "bitwise_xor": [(bitwise_xor, BOOL_INT, False)],
    "left_shift": [(left_shift, INT, False)],
    "right_shift": [(right_shift, INT, False)],
    "threshold_backward": [(threshold_backward, FLOAT, False)],
}

# Ternary ops: all inputs share the dtype, except ``where``'s boolean condition.
TERNARY: dict[str, list[tuple[object, tuple[str, ...], bool]]] = {
    "clamp": [(clamp, NUMERIC, False)],
    "lerp": [(lerp, FLOAT, False)],
    "add_scaled": [(add_scaled, FLOAT, False)],
}

# Ops with three tensor inputs and a trailing Python-number parameter.
TERNARY_SCALAR: dict[str, list[tuple[object, tuple[str, ...], bool]]] = {
    "addcmul": [(addcmul, NUMERIC, False)],
    "addcdiv": [(addcdiv, FLOAT, False)],
}
