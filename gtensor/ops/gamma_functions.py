"""The log-gamma and digamma functions and the inverse error function, composed of
elementwise kernels in float64: lgamma, digamma, erfinv (and their in-place forms).

- ``lgamma``: Lanczos' approximation (g = 7, nine terms) for ``x >= 0.5``,
  the reflection ``log(pi / |sin(pi x)|) - lgamma(1 - x)`` below. Within
  about 1e-15 of the true value (absolute; relative away from the zeros at
  1 and 2); ``inf`` at the poles.
- ``digamma``: the asymptotic series from 10 up, the recurrence
  ``psi(x) = psi(x + 10) - sum 1 / (x + k)`` below it, the reflection
  ``psi(1 - x) - pi / tan(pi x)`` below 0.5; ``-inf``/``inf`` at ``+0``/``-0`` and
  NaN at the negative integers, as in PyTorch. Its derivative, the trigamma
  function, is built the same way.
- ``erfinv``: Giles' single-precision approximation refined by Newton steps
  on ``erf`` (on ``erfc`` where ``|y| > 0.5``, so the steps keep their
  precision as ``|y|`` nears 1).

``sin(pi x)`` and ``tan(pi x)`` are taken of ``x - round(x)``, exact for any
``x``. Results round once to the input's dtype (integers give the default
float). Each records the derivative PyTorch defines.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..dtypes import float64, get_default_dtype
from ..errors import DTypeError, check
from ..graph.grad_mode import no_grad
from ..graph.inplace import differentiable_inplace
from ..graph.node import Node, record
from ..tensor_base import TensorBase
from .elementwise import where
from .float_math import signbit
from .special_functions import erfc, write_inplace

if TYPE_CHECKING:
    from ..tensor import Tensor

_LANCZOS_G = 7.0
_LANCZOS = (0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012,
            9.9843695780195716e-6, 1.5056327351493116e-7)
_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)
# the asymptotic series of digamma and trigamma: coefficients of y**-2k and y**-(2k+1)
_DIGAMMA_SERIES = (1 / 12, -1 / 120, 1 / 252, -1 / 240, 1 / 132, -691 / 32760, 1 / 12)
_TRIGAMMA_SERIES = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6)
_SHIFT = 10  # the asymptotic series is used from here up
_NEWTON_STEPS = 4
# Giles' erfinv polynomials in w = -log(1 - y*y): central (w < 5) and tail
_ERFINV_CENTRAL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                   0.00021858087, -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_ERFINV_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844,
                0.00573950773, -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)


def _wide(op: str, input: Tensor) -> tuple[Tensor, object]:
    """``input`` (detached) in float64, and the dtype of the result."""
    check(isinstance(input, TensorBase), op, lambda: f"expected a tensor, got "
          f"{type(input).__name__}", TypeError)
    check(not input.dtype.is_complex, op, lambda: f"not implemented for {input.dtype.name}",
          DTypeError)
    dt = input.dtype if input.dtype.is_floating_point else get_default_dtype()
    return input.detach().to(float64), dt


def _polynomial(coefficients: tuple[float, ...], x: Tensor) -> Tensor:
    out = x * coefficients[0] + coefficients[1]
    for c in coefficients[2:]:
        out = out * x + c
    return out


def _pi_fraction(x: Tensor) -> Tensor:
    """``pi * (x - round(x))``: the angle ``pi x`` reduced to ``[-pi/2, pi/2]`` exactly."""
    return (x - x.round()) * math.pi  # type: ignore[attr-defined]


def _lanczos_lgamma(x: Tensor) -> Tensor:
    """``lgamma(x)`` for ``x >= 0.5``."""
    z = x - 1.0
    total = z * 0.0 + _LANCZOS[0]
    for i, c in enumerate(_LANCZOS[1:], start=1):
        total = total + c / (z + i)
    t = z + (_LANCZOS_G + 0.5)
    return (z + 0.5) * (t.log() - 1.0) - _LANCZOS_G + _HALF_LOG_2PI + total.log()


def _lgamma64(x: Tensor) -> Tensor:
    reflect = x < 0.5
    y = where(reflect, 1.0 - x, x)
    right = _lanczos_lgamma(y)
    sine = _pi_fraction(x).sin().abs()
    out = where(reflect, math.log(math.pi) - sine.log() - right, right)
    return where(x.isinf(), math.inf, out)  # type: ignore[attr-defined]


def _shifted(x: Tensor, series: tuple[float, ...], odd: bool) -> tuple[Tensor, Tensor]:
    """``y = x + 10`` where ``x < 10`` (else ``x``), and the asymptotic series' sum at ``y``
    (of ``y**-2k`` terms, or ``y**-(2k+1)`` with ``odd``)."""
    y = where(x < _SHIFT, x + _SHIFT, x)
    inv2 = 1.0 / (y * y)
    tail = _polynomial(series[::-1], inv2) * inv2
    return y, (tail / y if odd else tail)


def _digamma64(x: Tensor) -> Tensor:
    reflect = x < 0.5
    z = where(reflect, 1.0 - x, x)
    y, tail = _shifted(z, _DIGAMMA_SERIES, False)
    out = y.log() - 0.5 / y - tail
    small = z < _SHIFT
    for k in range(_SHIFT):
        out = out - where(small, 1.0 / (z + k), 0.0)
    out = where(reflect, out - math.pi / _pi_fraction(x).tan(), out)
    pole = (x <= 0) & (x == x.round())  # type: ignore[attr-defined]
    at_zero = where(signbit(x), math.inf, -math.inf)
    out = where(pole, where(x == 0, at_zero, math.nan), out)
    return where(x == -math.inf, math.nan, out)


def _trigamma64(x: Tensor) -> Tensor:
    reflect = x < 0.5
    z = where(reflect, 1.0 - x, x)
    y, tail = _shifted(z, _TRIGAMMA_SERIES, True)
    out = 1.0 / y + 0.5 / (y * y) + tail
    small = z < _SHIFT
    for k in range(_SHIFT):
        out = out + where(small, 1.0 / ((z + k) * (z + k)), 0.0)
    sine = _pi_fraction(x).sin()
    return where(reflect, (math.pi * math.pi) / (sine * sine) - out, out)


def _unary(op: str, input: Tensor, fn: object, vjp: object) -> Tensor:
    x, dt = _wide(op, input)
    with no_grad():
        out = fn(x).to(dt)  # type: ignore[operator]
    record(op, out, (input,), vjp, save=[input, out])
    return out


def _lgamma_vjp(ctx: Node, g: Tensor) -> Tensor:
    x, _ = ctx.saved_tensors
    return g * digamma(x)


def _digamma_vjp(ctx: Node, g: Tensor) -> Tensor:
    x, _ = ctx.saved_tensors
    return g * _trigamma64(x.to(float64)).to(g.dtype)


def lgamma(input: Tensor) -> Tensor:
    """The log of the absolute value of the gamma function.

    Example:
        >>> gt.lgamma(gt.tensor([1.0, 3.0, 0.5])).tolist()
        [0.0, 0.6931471824645996, 0.5723649263381958]
    """
    return _unary("lgamma", input, _lgamma64, _lgamma_vjp)


def digamma(input: Tensor) -> Tensor:
    """The digamma function, the derivative of :func:`lgamma`.

    Example:
        >>> gt.digamma(gt.tensor([1.0])).item()
        -0.5772156715393066
    """
    return _unary("digamma", input, _digamma64, _digamma_vjp)


def _erfinv64(y: Tensor) -> Tensor:
    a = y.abs()  # type: ignore[attr-defined]
    inside = a < 1.0
    a_in = where(inside, a, 0.0)
    w = -((1.0 - a_in) * (1.0 + a_in)).log()
    central = _polynomial(_ERFINV_CENTRAL, w - 2.5)
    tail = _polynomial(_ERFINV_TAIL, where(w < 5.0, 5.0, w).sqrt() - 3.0)
    x = where(w < 5.0, central, tail) * a_in
    near_one = a_in > 0.5
    log_complement = (1.0 - a_in).log()
    for _ in range(_NEWTON_STEPS):
        slope = (-(x * x)).exp() * (2.0 / math.sqrt(math.pi))  # erf'(x)
        tail = erfc(x)
        # near 1, Newton on log(erfc(x)) = log(1 - a), nearly linear in the tail
        step = where(near_one, (log_complement - tail.log()) * tail, x.erf() - a_in)
        x = x - step / slope
    x = where(inside, x, where(a == 1.0, math.inf, math.nan))
    return where(signbit(y), -x, x)


def _erfinv_vjp(ctx: Node, g: Tensor) -> Tensor:
    _, out = ctx.saved_tensors
    return g * (out * out).exp() * (math.sqrt(math.pi) / 2.0)


def erfinv(input: Tensor) -> Tensor:
    """The inverse error function on ``[-1, 1]`` (``inf`` at the ends, NaN outside).

    Example:
        >>> round(gt.erfinv(gt.tensor([0.5], dtype=gt.float64)).item(), 12)
        0.476936276204
    """
    return _unary("erfinv", input, _erfinv64, _erfinv_vjp)


@differentiable_inplace(lgamma)
def lgamma_(self: Tensor) -> Tensor:
    """In-place :func:`lgamma`.

    Example:
        >>> gt.tensor([1.0]).lgamma_().tolist()
        [0.0]
    """
    return write_inplace("lgamma_", self, lgamma(self))


@differentiable_inplace(digamma)
def digamma_(self: Tensor) -> Tensor:
    """In-place :func:`digamma`.

    Example:
        >>> round(gt.tensor([1.0], dtype=gt.float64).digamma_().item(), 12)
        -0.577215664902
    """
    return write_inplace("digamma_", self, digamma(self))


@differentiable_inplace(erfinv)
def erfinv_(self: Tensor) -> Tensor:
    """In-place :func:`erfinv`.

    Example:
        >>> gt.tensor([0.0]).erfinv_().tolist()
        [0.0]
    """
    return write_inplace("erfinv_", self, erfinv(self))
