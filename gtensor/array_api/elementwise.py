"""The array API's elementwise functions, by the standard's names, over gtensor's ops.

Unary functions whose results already follow the standard's special cases
(IEEE values at the domain edges) are gtensor's own. The binary ones promote
as the standard does first (a 0-d array counts as any array: see
:mod:`.data_types`); either operand may be a Python scalar. Where gtensor's
results differ from the standard's the wrapper fixes them with gtensor ops on
the array's device: ``sign`` of a NaN is NaN (0 in gtensor); ``floor``,
``ceil`` and ``trunc`` give a zero the sign of its input (``ceil(-0.5)`` is
``-0.0``; gtensor's kernels give ``+0.0``); ``clip`` keeps ``x``'s dtype;
``sign`` of a complex number is ``z / |z|``. ``real``, ``imag`` and ``conj``
take real floating arrays too (``imag`` of one is zeros).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..dtypes import dtype
from ..errors import DTypeError, check
from ..ops import complex_ops, float_math, ternary, unary
from ..ops import elementwise as ew
from ..ops.creation import zeros_like
from ..tensor_base import TensorBase
from .data_types import iinfo, promoted

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = [
    "abs", "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh", "bitwise_and",
    "bitwise_invert", "bitwise_left_shift", "bitwise_or", "bitwise_right_shift", "bitwise_xor",
    "ceil", "clip", "conj", "copysign", "cos", "cosh", "divide", "equal", "exp", "expm1",
    "floor", "floor_divide", "greater", "greater_equal", "hypot", "imag", "isfinite", "isinf",
    "isnan", "less", "less_equal", "log", "log10", "log1p", "log2", "logaddexp", "logical_and",
    "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "multiply", "negative",
    "nextafter", "not_equal", "positive", "pow", "real", "reciprocal", "remainder", "round",
    "sign", "signbit", "sin", "sinh", "sqrt", "square", "subtract", "tan", "tanh", "trunc",
]

Operand = Any  # a tensor or a Python scalar


def _named(op: Callable[..., Tensor], name: str, doc: str) -> Callable[..., Tensor]:
    """``op`` under the standard's ``name``, with ``doc``."""
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


def _binary(fn: Callable[[Any, Any], Tensor], name: str) -> Callable[[Operand, Operand], Tensor]:
    """The standard's ``name(x1, x2, /)``: ``fn`` after the standard's promotion."""
    return _named(lambda x1, x2, /: fn(*promoted(x1, x2)), name, f"Elementwise ``{name}`` with "
                  f"broadcasting and the standard's type promotion (gtensor's ``{fn.__name__}``).")


add = _binary(ew.add, "add")
atan2 = _binary(ew.atan2, "atan2")
bitwise_and = _binary(ew.bitwise_and, "bitwise_and")
bitwise_left_shift = _binary(ew.left_shift, "bitwise_left_shift")
bitwise_or = _binary(ew.bitwise_or, "bitwise_or")
bitwise_right_shift = _binary(ew.right_shift, "bitwise_right_shift")
bitwise_xor = _binary(ew.bitwise_xor, "bitwise_xor")
copysign = _binary(float_math.copysign, "copysign")
divide = _binary(ew.div, "divide")
equal = _binary(ew.eq, "equal")
floor_divide = _binary(ew.floor_divide, "floor_divide")
greater = _binary(ew.gt, "greater")
greater_equal = _binary(ew.ge, "greater_equal")
hypot = _binary(float_math.hypot, "hypot")
less = _binary(ew.lt, "less")
less_equal = _binary(ew.le, "less_equal")
logaddexp = _binary(float_math.logaddexp, "logaddexp")
logical_and = _binary(ew.logical_and, "logical_and")
logical_or = _binary(ew.logical_or, "logical_or")
logical_xor = _binary(ew.logical_xor, "logical_xor")
maximum = _binary(ew.maximum, "maximum")
minimum = _binary(ew.minimum, "minimum")
multiply = _binary(ew.mul, "multiply")
nextafter = _binary(float_math.nextafter, "nextafter")
not_equal = _binary(ew.ne, "not_equal")
pow = _binary(ew.pow, "pow")  # noqa: A001 - the standard's name
remainder = _binary(ew.remainder, "remainder")
subtract = _binary(ew.sub, "subtract")

abs = unary.abs  # noqa: A001 - the standard's name
acos = unary.acos
acosh = float_math.acosh
asin = unary.asin
asinh = float_math.asinh
atan = unary.atan
atanh = float_math.atanh
bitwise_invert = unary.bitwise_not
cos = unary.cos
cosh = unary.cosh
exp = unary.exp
expm1 = unary.expm1
isfinite = unary.isfinite
isinf = unary.isinf
isnan = unary.isnan
log = unary.log
log1p = unary.log1p
log2 = unary.log2
log10 = unary.log10
logical_not = unary.logical_not
negative = unary.neg
reciprocal = unary.reciprocal
round = unary.round  # noqa: A001 - the standard's name
signbit = float_math.signbit
sin = unary.sin
sinh = unary.sinh
sqrt = unary.sqrt
square = unary.square
tan = unary.tan
tanh = unary.tanh


def _signed_zero(fn: Callable[[Tensor], Tensor], name: str) -> Callable[[Tensor], Tensor]:
    """The standard's ``name(x, /)``: ``fn``, whose zeros take the sign of ``x``.

    Rounding toward an integer never changes a float's sign, so copying the
    sign of ``x`` onto the result fixes exactly its zeros (and keeps NaNs).
    """
    def op(x: Tensor, /) -> Tensor:
        out = fn(x)
        return float_math.copysign(out, x) if out.dtype.is_floating_point else out

    return _named(op, name, f"Elementwise ``{name}``; a zero result has the sign of its input.")


ceil = _signed_zero(unary.ceil, "ceil")
floor = _signed_zero(unary.floor, "floor")
trunc = _signed_zero(unary.trunc, "trunc")


def sign(x: Tensor, /) -> Tensor:
    """-1, 0 or 1 by the sign of each element, and NaN for NaN (gtensor's ``sign`` gives 0).

    Example:
        >>> sign(gt.tensor([-2.0, 0.0, float("nan")])).tolist()
        [-1.0, 0.0, nan]
    """
    if isinstance(x, TensorBase) and x.dtype.is_complex:
        return complex_ops.sgn(x)
    out = unary.sign(x)
    return ew.where(x.isnan(), x, out) if x.dtype.is_floating_point else out


def positive(x: Tensor, /) -> Tensor:
    """A copy of ``x`` (``+x``)."""
    check(isinstance(x, TensorBase), "positive", lambda: "expected an array, got "
          f"{type(x).__name__}", TypeError)
    return x.clone()


def real(x: Tensor, /) -> Tensor:
    """The real parts of a complex array (a new array); a real array is copied.

    Example:
        >>> import gtensor as gt
        >>> real(gt.tensor([1 + 2j])).tolist()
        [1.0]
    """
    return complex_ops.real(_array(x, "real")).clone()


def conj(x: Tensor, /) -> Tensor:
    """The complex conjugate; a real array is copied.

    Example:
        >>> import gtensor as gt
        >>> conj(gt.tensor([1 + 2j])).tolist()
        [(1-2j)]
    """
    x = _array(x, "conj")
    return complex_ops.conj(x) if x.dtype.is_complex else x.clone()


def imag(x: Tensor, /) -> Tensor:
    """The imaginary parts of a complex array (a new array); zeros for a real floating one.

    Example:
        >>> import gtensor as gt
        >>> imag(gt.tensor([1 + 2j])).tolist()
        [2.0]
    """
    x = _array(x, "imag")
    if x.dtype.is_complex:
        return complex_ops.imag(x).clone()
    check(x.dtype.is_floating_point, "imag", lambda: "expected a floating point array, got "
          f"{x.dtype.name}", DTypeError)
    return zeros_like(x)


def _array(x: Tensor, op: str) -> Tensor:
    check(isinstance(x, TensorBase), op, lambda: f"expected an array, got {type(x).__name__}",
          TypeError)
    return x


def _bound(value: Any, dt: dtype, upper: bool) -> Any:
    """A Python int bound for an integer dtype, in its range; None where it clips nothing."""
    if dt.category != 1 or isinstance(value, (TensorBase, bool)) or not isinstance(value, int):
        return value
    info = iinfo(dt)
    if (value >= info.max) if upper else (value <= info.min):
        return None
    return min(max(value, info.min), info.max)


def clip(x: Tensor, /, min: Operand = None, max: Operand = None) -> Tensor:  # noqa: A002
    """``x`` limited to ``[min, max]`` (either may be an array, a number or None), in ``x``'s dtype.

    gtensor's ``clamp`` promotes ``x`` with the bounds (PyTorch's rule); the
    standard keeps ``x``'s dtype, so the result is cast back, and an integer
    bound past the dtype's range is no bound.

    Example:
        >>> clip(gt.tensor([1, 5, 9], dtype=gt.int8), 2.5, 300).tolist()
        [2, 5, 9]
    """
    check(isinstance(x, TensorBase), "clip", lambda: f"expected an array, got "
          f"{type(x).__name__}", TypeError)
    lo, hi = _bound(min, x.dtype, False), _bound(max, x.dtype, True)
    if lo is None and hi is None:
        return x.clone()
    out = ternary.clamp(*promoted(x, lo, hi))
    return out if out.dtype is x.dtype else out.to(x.dtype)
