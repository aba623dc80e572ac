"""Special functions composed of elementwise ops: logit, xlogy, xlog1py, entr, sinc, erfc,
frexp, ldexp (and the in-place ``logit_``, ``xlogy_``, ``ldexp_``).

Each is a few elementwise kernels on the tensor's device; ``where`` keeps the
defined values at the special points (``xlogy(0, y) = 0``, ``sinc(0) = 1``).
``logit``, ``xlogy``, ``xlog1py``, ``entr`` and ``erfc`` record the derivative
PyTorch defines, special points included; ``sinc`` and ``ldexp`` differentiate
through their composition. ``erfc`` runs in float64: ``1 - erf`` below 3,
Laplace's continued fraction above, where ``1 - erf`` would cancel. ``frexp``
reads the exponent from the float's bits through an integer view, so it is
exact for every finite value, subnormals included.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, NamedTuple

from ..dtypes import float32, float64, get_default_dtype, int32, int64, result_type
from ..errors import DTypeError, check
from ..graph.grad_mode import no_grad
from ..graph.inplace import differentiable_inplace
from ..graph.node import Node, record
from ..tensor_base import TensorBase
from .creation import as_tensor
from .elementwise import device_of, takes_out, where

if TYPE_CHECKING:
    from ..tensor import Tensor

# float dtype: (bits dtype, mantissa bits, exponent field mask, field of [0.5, 1))
_LAYOUT = {float32: (int32, 23, 0xFF, 126), float64: (int64, 52, 0x7FF, 1022)}


class Frexp(NamedTuple):
    """``(mantissa, exponent)`` as returned by :func:`frexp`."""

    mantissa: Tensor
    exponent: Tensor


def write_inplace(op: str, self: Tensor, result: Tensor) -> Tensor:
    """Write an in-place op's out-of-place ``result`` into ``self`` (same dtype, as PyTorch)."""
    check(result.dtype is self.dtype, op, lambda: f"result type {result.dtype.name} can't be "
          f"cast to the desired output type {self.dtype.name}", DTypeError)
    return self.copy_(result)


def _floating(x: Tensor, op: str, complex_ok: bool = False) -> Tensor:
    """``x`` in a float dtype (integers in the default float); complex kept or refused."""
    if x.dtype.is_complex:
        check(complex_ok, op, lambda: f"not implemented for {x.dtype.name}", DTypeError)
        return x
    return x if x.dtype.is_floating_point else x.to(get_default_dtype())


def _logit_vjp(ctx: Node, g: Tensor) -> Tensor:
    """``g / (x (1 - x))``: nan outside ``[0, 1]``, or 0 outside ``[eps, 1 - eps]`` (PyTorch)."""
    (x,) = ctx.saved_tensors
    slope = g / (x * (1 - x))
    if ctx.eps is None:
        return where((x < 0) | (x > 1), math.nan, slope)
    return where((x < ctx.eps) | (x > 1 - ctx.eps), 0.0, slope)


@takes_out
def logit(input: Tensor, eps: float | None = None) -> Tensor:
    """``log(x / (1 - x))``, with ``x`` clamped to ``[eps, 1 - eps]`` when ``eps`` is given.

    Example:
        >>> gt.tensor([0.5, 0.75]).logit().tolist()
        [0.0, 1.0986123085021973]
    """
    x = _floating(input, "logit")
    eps = None if eps is None or eps < 0 else float(eps)
    with no_grad():
        inside = x if eps is None else x.clamp(eps, 1 - eps)
        out = (inside / (1 - inside)).log()
    record("logit", out, (x,), _logit_vjp, save=[x], eps=eps)
    return out


@differentiable_inplace(logit)
def logit_(self: Tensor, eps: float | None = None) -> Tensor:
    """In-place :func:`logit`."""
    return write_inplace("logit_", self, logit(self, eps))


def _xlogy_vjp(ctx: Node, g: Tensor) -> tuple[Tensor, Tensor]:
    """``(log(y), x / y)``, the first 0 where ``x`` is 0 and ``y <= 0`` (PyTorch)."""
    x, y = ctx.saved_tensors
    return g * where((x == 0) & (y <= 0), 0.0, y.log()), g * x / y


def _xlog1py_vjp(ctx: Node, g: Tensor) -> tuple[Tensor, Tensor]:
    """``(log1p(y), x / (1 + y))``, the first 0 where ``x`` is 0 and ``y <= -1`` (PyTorch)."""
    x, y = ctx.saved_tensors
    return g * where((x == 0) & (y <= -1), 0.0, y.log1p()), g * x / (y + 1)


def _xlog(op: str, input: Any, other: Any, log: str, vjp: Any) -> Tensor:
    """``input * log(other)`` (``log1p``), 0 where ``input`` is 0 unless ``other`` is nan."""
    check(isinstance(input, TensorBase) or isinstance(other, TensorBase), op,
          "expected at least one tensor", TypeError)
    dt = result_type(input, other)
    check(not dt.is_complex, op, lambda: f"not implemented for {dt.name}", DTypeError)
    dt = dt if dt.is_floating_point else get_default_dtype()
    dev = device_of(op, (input, other))
    x, y = (v.to(dt) if isinstance(v, TensorBase) else as_tensor(v, dtype=dt, device=dev)
            for v in (input, other))
    with no_grad():
        zero = x == 0
        logs = getattr(where(zero, 1.0, y), log)()
        out = where(y.isnan(), math.nan, where(zero, 0.0, x * logs))
    record(op, out, (x, y), vjp, save=[x, y])
    return out


@takes_out
def xlogy(input: Any, other: Any) -> Tensor:
    """``input * log(other)``, 0 where ``input`` is 0 (nan where ``other`` is nan).

    Example:
        >>> gt.xlogy(gt.tensor([0.0, 2.0]), gt.tensor([0.0, 1.0])).tolist()
        [0.0, 0.0]
    """
    return _xlog("xlogy", input, other, "log", _xlogy_vjp)


@differentiable_inplace(xlogy)
def xlogy_(self: Tensor, other: Any) -> Tensor:
    """In-place :func:`xlogy`."""
    return write_inplace("xlogy_", self, xlogy(self, other))


def xlog1py(input: Any, other: Any) -> Tensor:
    """``input * log1p(other)``, 0 where ``input`` is 0 (nan where ``other`` is nan).

    Example:
        >>> x, y = gt.tensor([0.0, 2.0]), gt.tensor([-1.0, 0.0])
        >>> gt.special.xlog1py(x, y).tolist()
        [0.0, 0.0]
    """
    return _xlog("xlog1py", input, other, "log1p", _xlog1py_vjp)


def _entr_vjp(ctx: Node, g: Tensor) -> Tensor:
    (x,) = ctx.saved_tensors
    return g * -(x.log() + 1)


def entr(input: Tensor) -> Tensor:
    """Elementwise entropy ``-x * log(x)``: 0 at 0, ``-inf`` below 0.

    Example:
        >>> gt.special.entr(gt.tensor([0.0, 1.0])).tolist()
        [0.0, -0.0]
    """
    x = _floating(input, "entr")
    with no_grad():
        positive = x > 0
        inside = where(positive, x, 1.0)
        out = where(positive, -inside * inside.log(), where(x == 0, 0.0, -math.inf))
        out = where(x.isnan(), x, out)
    record("entr", out, (x,), _entr_vjp, save=[x])
    return out


@takes_out
def sinc(input: Tensor) -> Tensor:
    """The normalized sinc ``sin(pi x) / (pi x)``, 1 at 0.

    Example:
        >>> gt.special.sinc(gt.tensor([0.0, 0.5]))
        tensor([1.0000, 0.6366])
    """
    x = _floating(input, "sinc", complex_ok=True)
    zero = x == 0
    scaled = where(zero, 1.0, x) * math.pi
    return where(zero, 1.0, scaled.sin() / scaled)


def _erfc_vjp(ctx: Node, g: Tensor) -> Tensor:
    (x,) = ctx.saved_tensors
    return g * (-(x * x)).exp() * (-2.0 / math.sqrt(math.pi))


@takes_out
def erfc(input: Tensor) -> Tensor:
    """The complementary error function ``1 - erf(x)``, accurate where it is tiny.

    Float64 results are within about 1e-12 relative (the cancellation in
    ``1 - erf`` just below 3); float32 ones are correctly rounded or one unit off.

    Example:
        >>> gt.special.erfc(gt.tensor([0.0])).tolist()
        [1.0]
    """
    x = _floating(input, "erfc")
    with no_grad():
        wide = x.to(float64)
        far = wide >= 3.0
        z = where(far, wide, 3.0)
        fraction = z
        for k in range(24 if x.dtype is float64 else 10, 0, -1):
            fraction = z + (k / 2) / fraction
        tail = (-(z * z)).exp() / (fraction * math.sqrt(math.pi))
        out = where(far, tail, 1.0 - wide.erf()).to(x.dtype)
    record("erfc", out, (x,), _erfc_vjp, save=[x])
    return out


@takes_out
def ndtr(input: Tensor) -> Tensor:
    """The standard normal distribution function ``0.5 * erfc(-x / sqrt(2))``.

    Accurate in the lower tail too (``ndtr(-10)`` is 7.6e-24, where PyTorch's
    ``(1 + erf(x / sqrt(2))) / 2`` gives 0).

    Example:
        >>> gt.special.ndtr(gt.tensor([0.0])).tolist()
        [0.5]
    """
    return erfc(_floating(input, "ndtr") * -math.sqrt(0.5)) * 0.5


def frexp(input: Tensor) -> Frexp:
    """Split each float into ``mantissa * 2**exponent`` with ``|mantissa|`` in ``[0.5, 1)``
    (``(x, 0)`` for 0, inf and nan); the exponent is int32.

    Example:
        >>> gt.tensor([8.0, -3.0]).frexp()
        Frexp(mantissa=tensor([ 0.5000, -0.7500]), exponent=tensor([4, 2], dtype=gtensor.int32))
    """
    check(input.dtype.is_floating_point, "frexp", lambda: "expected a floating point input, got "
          f"{input.dtype.name}", DTypeError)
    with no_grad():
        x = input.to(float32) if input.dtype.is_half else input
        bits_dt, width, field_mask, half_exp = _LAYOUT[x.dtype]
        subnormal = (x != 0) & (x.abs() < 2.0 ** -half_exp)
        lift = width + 2  # a power of two that makes every subnormal normal
        bits = where(subnormal, x * 2.0 ** lift, x).contiguous().view(bits_dt)
        field = (bits >> width) & field_mask
        exponent = field - half_exp - where(subnormal, lift, 0)
        mantissa = ((bits & ~(field_mask << width)) | (half_exp << width)).view(x.dtype)
        special = (field == field_mask) | (x == 0)
        mantissa = where(special, x, mantissa).to(input.dtype)
        exponent = where(special, 0, exponent).to(int32)
    return Frexp(mantissa, exponent)


@takes_out
def ldexp(input: Tensor, other: Tensor) -> Tensor:
    """``input * 2**other``.

    Example:
        >>> gt.ldexp(gt.tensor([1.0]), gt.tensor([3])).tolist()
        [8.0]
    """
    return input * (2.0 ** other)


@differentiable_inplace(ldexp)
def ldexp_(self: Tensor, other: Tensor) -> Tensor:
    """In-place :func:`ldexp`."""
    return write_inplace("ldexp_", self, ldexp(self, other))


# Functional forms, exported as gt.<name> (PyTorch's torch.<name>).
EXPORTS = ("logit", "logit_", "xlogy", "xlogy_", "frexp", "ldexp", "ldexp_")
