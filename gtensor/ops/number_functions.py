"""Everyday elementwise functions composed of existing kernels: nan_to_num, fmod, heaviside,
float_power, deg2rad, rad2deg, frac, positive, logaddexp2, clamp_min, clamp_max, isposinf,
isneginf, isreal, isin (and the in-place forms PyTorch has).

``fmod`` follows C (the result takes the dividend's sign, unlike ``remainder``):
``|x| mod |y|`` with ``x``'s sign, exact as ``remainder`` is. ``logaddexp2`` and
``fmod`` record the derivatives PyTorch defines; the others differentiate
through their composition (``heaviside`` and the predicates have none).
``isin`` sorts the test values and looks each element up with ``searchsorted``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import ml_dtypes

from ..dtypes import bool_, complex128, float64, get_default_dtype, result_type
from ..errors import DivisionByZeroError, DTypeError, check
from ..graph.grad_mode import no_grad
from ..graph.inplace import differentiable_inplace
from ..graph.node import Node
from ..tensor_base import TensorBase
from . import elementwise as ew
from .complex_ops import view_as_complex, view_as_real
from .creation import as_tensor, zeros
from .elementwise import takes_out
from .float_math import log_add_exp, record_binary, saved_binary, signbit
from .sorting import searchsorted, sort
from .special_functions import erfc, sinc, write_inplace
from .ternary import clamp

if TYPE_CHECKING:
    from ..tensor import Tensor

_LN2 = math.log(2.0)


def _tensor_arg(op: str, x: Any) -> Tensor:
    check(isinstance(x, TensorBase), op, lambda: f"expected a tensor, got {type(x).__name__}",
          TypeError)
    return x


def _real_float(op: str, x: Tensor) -> Tensor:
    """``x`` in a real float dtype: integers and bools in the default float."""
    _tensor_arg(op, x)
    check(not x.dtype.is_complex, op, lambda: f"not implemented for {x.dtype.name}", DTypeError)
    return x if x.dtype.is_floating_point else x.to(get_default_dtype())


@takes_out
def nan_to_num(input: Tensor, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> Tensor:
    """Replace NaN with ``nan`` and infinities with ``posinf``/``neginf`` (by default the
    dtype's largest and lowest finite values).

    Example:
        >>> gt.tensor([float("nan"), float("inf"), 1.0]).nan_to_num().tolist()
        [0.0, 3.4028234663852886e+38, 1.0]
    """
    _tensor_arg("nan_to_num", input)
    if input.dtype.is_complex:  # the real and imaginary parts each, as in PyTorch
        return view_as_complex(nan_to_num(view_as_real(input), nan, posinf, neginf))
    if not input.dtype.is_floating_point:
        return input.clone()
    info = ml_dtypes.finfo(input.dtype.numpy)
    hi = float(info.max) if posinf is None else posinf
    lo = float(info.min) if neginf is None else neginf
    out = ew.where(input == math.inf, hi, input)
    out = ew.where(input == -math.inf, lo, out)
    return ew.where(input.isnan(), nan, out)  # type: ignore[attr-defined]


@differentiable_inplace(nan_to_num)
def nan_to_num_(self: Tensor, nan: float = 0.0, posinf: float | None = None,
                neginf: float | None = None) -> Tensor:
    """In-place :func:`nan_to_num`.

    Example:
        >>> gt.tensor([float("nan")]).nan_to_num_(1.0).tolist()
        [1.0]
    """
    return self.copy_(nan_to_num(self, nan, posinf, neginf))


def _fmod_vjp(ctx: Node, g: Tensor) -> tuple[Any, Any]:
    a, b, _ = saved_binary(ctx)
    grad_b = -g * (a / b).trunc() if isinstance(b, TensorBase) else None
    return g, grad_b


@takes_out
def fmod(input: Tensor, other: Any) -> Tensor:
    """The C remainder of ``input / other``: it has ``input``'s sign (``remainder`` has
    ``other``'s).

    Example:
        >>> gt.fmod(gt.tensor([-3.0, 3.0]), 2).tolist()
        [-1.0, 1.0]
    """
    _tensor_arg("fmod", input)
    with no_grad():
        try:
            r = ew.remainder(input.abs(), abs(other))  # type: ignore[attr-defined]
        except DivisionByZeroError:
            raise DivisionByZeroError("[fmod] integer division by zero") from None
        out = ew.where(signbit(input), -r, r)  # fmod(-0.0, y) is -0.0, as in C
        out = out if out.dtype is r.dtype else out.to(r.dtype)
    return record_binary("fmod", out, input, other, _fmod_vjp)


@differentiable_inplace(fmod)
def fmod_(self: Tensor, other: Any) -> Tensor:
    """In-place :func:`fmod`.

    Example:
        >>> gt.tensor([-3.0]).fmod_(2).tolist()
        [-1.0]
    """
    return write_inplace("fmod_", self, fmod(self, other))


@takes_out
def heaviside(input: Tensor, values: Any) -> Tensor:
    """0 where ``input < 0``, 1 where ``input > 0`` and ``values`` where ``input == 0``.

    Not differentiable (as in PyTorch).

    Example:
        >>> gt.heaviside(gt.tensor([-1.0, 0.0, 2.0]), gt.tensor(0.5)).tolist()
        [0.0, 0.5, 1.0]
    """
    _tensor_arg("heaviside", input)
    vdt = values.dtype if isinstance(values, TensorBase) else input.dtype
    check(vdt is input.dtype, "heaviside", lambda: "heaviside is not implemented for tensors "
          f"with different dtypes ({input.dtype.name} and {vdt.name})", DTypeError)
    with no_grad():
        step = ew.where(input > 0, 1, 0).to(input.dtype)
        return ew.where(input == 0, values, step).to(input.dtype)


def heaviside_(self: Tensor, values: Any) -> Tensor:
    """In-place :func:`heaviside`.

    Example:
        >>> gt.tensor([0.0, 3.0]).heaviside_(gt.tensor(0.5)).tolist()
        [0.5, 1.0]
    """
    return self.copy_(heaviside(self, values))


def _double(x: Any) -> Any:
    if not isinstance(x, TensorBase):
        return x
    return x.to(complex128 if x.dtype.is_complex else float64)


@takes_out
def float_power(input: Any, exponent: Any) -> Tensor:
    """``input ** exponent`` computed in double precision (float64, or complex128).

    Example:
        >>> gt.float_power(gt.tensor([2]), 3).dtype
        gtensor.float64
    """
    check(isinstance(input, TensorBase) or isinstance(exponent, TensorBase), "float_power",
          "expected at least one tensor operand", TypeError)
    if isinstance(input, TensorBase):
        return ew.pow(_double(input), _double(exponent))
    base = complex128 if isinstance(input, complex) else float64
    return ew.pow(as_tensor(input, dtype=base, device=exponent.device), _double(exponent))


def float_power_(self: Tensor, exponent: Any) -> Tensor:
    """In-place :func:`float_power`: ``self`` must already be float64 (or complex128).

    Example:
        >>> gt.tensor([2.0], dtype=gt.float64).float_power_(2).tolist()
        [4.0]
    """
    want = complex128 if self.dtype.is_complex or (
        isinstance(exponent, TensorBase) and exponent.dtype.is_complex) else float64
    check(self.dtype is want, "float_power_", lambda: f"the base given to float_power_ has dtype "
          f"{self.dtype.name} but the operation's result requires dtype {want.name}", DTypeError)
    return ew.pow_(self, _double(exponent))  # type: ignore[attr-defined]


@takes_out
def deg2rad(input: Tensor) -> Tensor:
    """Degrees to radians (integers in the default float).

    Example:
        >>> gt.deg2rad(gt.tensor([180.0])).tolist()
        [3.1415927410125732]
    """
    return _real_float("deg2rad", input) * (math.pi / 180.0)


@takes_out
def rad2deg(input: Tensor) -> Tensor:
    """Radians to degrees (integers in the default float).

    Example:
        >>> gt.rad2deg(gt.tensor([math.pi])).tolist()
        [180.0]
    """
    return _real_float("rad2deg", input) * (180.0 / math.pi)


@takes_out
def frac(input: Tensor) -> Tensor:
    """The fractional part ``input - trunc(input)`` (with ``input``'s sign).

    Example:
        >>> gt.frac(gt.tensor([-1.5, 2.25])).tolist()
        [-0.5, 0.25]
    """
    _tensor_arg("frac", input)
    check(input.dtype.is_floating_point, "frac", lambda: f"expected a floating point tensor, "
          f"got {input.dtype.name}", DTypeError)
    return input - input.trunc()  # type: ignore[attr-defined]


def _float_inplace(op: str, fn: Any) -> Any:
    def inplace(self: Tensor) -> Tensor:
        return write_inplace(op, self, fn(self))
    inplace.__name__ = op
    inplace.__doc__ = f"In-place :func:`{op[:-1]}`."
    return differentiable_inplace(fn)(inplace)


deg2rad_ = _float_inplace("deg2rad_", deg2rad)
rad2deg_ = _float_inplace("rad2deg_", rad2deg)
frac_ = _float_inplace("frac_", frac)
sinc_ = _float_inplace("sinc_", sinc)
erfc_ = _float_inplace("erfc_", erfc)


def positive(input: Tensor) -> Tensor:
    """``input`` itself (``+input``); refused for bool tensors as in PyTorch.

    Example:
        >>> x = gt.ones(2); gt.positive(x) is x
        True
    """
    _tensor_arg("positive", input)
    check(input.dtype is not bool_, "positive", "the `+` operator, on a bool tensor is not "
          "supported", DTypeError)
    return input


@takes_out
def logaddexp2(input: Tensor, other: Any) -> Tensor:
    """``log2(2**input + 2**other)`` without overflow.

    Example:
        >>> gt.logaddexp2(gt.tensor([3.0]), gt.tensor([3.0])).item()
        4.0
    """
    _tensor_arg("logaddexp2", input)
    return log_add_exp("logaddexp2", input, other, base2=True)


def clamp_min(input: Tensor, min: Any) -> Tensor:  # noqa: A002
    """``clamp(input, min=min)``.

    Example:
        >>> gt.clamp_min(gt.tensor([-1.0, 2.0]), 0).tolist()
        [0.0, 2.0]
    """
    return clamp(input, min=min)


def clamp_max(input: Tensor, max: Any) -> Tensor:  # noqa: A002
    """``clamp(input, max=max)``.

    Example:
        >>> gt.clamp_max(gt.tensor([-1.0, 2.0]), 0).tolist()
        [-1.0, 0.0]
    """
    return clamp(input, max=max)


@differentiable_inplace(clamp_min)
def clamp_min_(self: Tensor, min: Any) -> Tensor:  # noqa: A002
    """In-place :func:`clamp_min`.

    Example:
        >>> gt.tensor([-1.0]).clamp_min_(0).tolist()
        [0.0]
    """
    return self.copy_(clamp(self, min=min))


@differentiable_inplace(clamp_max)
def clamp_max_(self: Tensor, max: Any) -> Tensor:  # noqa: A002
    """In-place :func:`clamp_max`.

    Example:
        >>> gt.tensor([3.0]).clamp_max_(1).tolist()
        [1.0]
    """
    return self.copy_(clamp(self, max=max))


def _infinity(op: str, input: Tensor, value: float) -> Tensor:
    _tensor_arg(op, input)
    if not input.dtype.is_floating_point:
        return zeros(input.shape, dtype=bool_, device=input.device)
    with no_grad():
        return input == value


def isposinf(input: Tensor) -> Tensor:
    """True where ``input`` is ``+inf``.

    Example:
        >>> gt.isposinf(gt.tensor([math.inf, -math.inf])).tolist()
        [True, False]
    """
    return _infinity("isposinf", input, math.inf)


def isneginf(input: Tensor) -> Tensor:
    """True where ``input`` is ``-inf``.

    Example:
        >>> gt.isneginf(gt.tensor([math.inf, -math.inf])).tolist()
        [False, True]
    """
    return _infinity("isneginf", input, -math.inf)


def isreal(input: Tensor) -> Tensor:
    """True where the imaginary part is 0 (everywhere for a real tensor).

    Example:
        >>> gt.isreal(gt.tensor([1 + 0j, 1j])).tolist()
        [True, False]
    """
    _tensor_arg("isreal", input)
    with no_grad():
        if input.dtype.is_complex:
            return input.imag == 0  # type: ignore[attr-defined]
        return zeros(input.shape, dtype=bool_, device=input.device) == 0


def isin(elements: Any, test_elements: Any, *, assume_unique: bool = False,
         invert: bool = False) -> Tensor:
    """True where an element of ``elements`` is among ``test_elements`` (False with ``invert``).

    Args:
        elements: a tensor (or a number, with a tensor ``test_elements``).
        test_elements: the values to look for: a tensor or a number.
        assume_unique: accepted for PyTorch compatibility (the result is the same).
        invert: return the opposite.

    Example:
        >>> gt.isin(gt.tensor([1, 2, 3]), gt.tensor([2, 5])).tolist()
        [False, True, False]
    """
    check(isinstance(elements, TensorBase) or isinstance(test_elements, TensorBase), "isin",
          "expected at least one of elements and test_elements to be a tensor", TypeError)
    dev = ew.device_of("isin", (elements, test_elements))
    dt = result_type(elements, test_elements)
    with no_grad():
        x = as_tensor(elements, device=dev).to(dt)
        pool = as_tensor(test_elements, device=dev).to(dt).reshape(-1)
        if pool.numel() == 0:
            found = zeros(x.shape, dtype=bool_, device=dev)
        else:
            ordered = sort(pool).values
            at = searchsorted(ordered, x).clamp_(max=pool.numel() - 1)  # type: ignore[attr-defined]
            found = ordered[at] == x
    return ~found if invert else found
