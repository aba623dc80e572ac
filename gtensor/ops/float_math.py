"""Float functions composed of existing elementwise kernels (signbit, copysign, hypot...).

``signbit``, ``copysign``, ``nextafter``, ``hypot``, ``logaddexp``,
``asinh``, ``acosh`` and ``atanh`` each run a few elementwise kernels on the
tensor's device (no host round trip) and, when differentiable, record one
node whose VJP sits beside them, as PyTorch defines it. The sign bit is read
through an integer view of the same width (``x.view(int32)`` for float32), so
``signbit(-0.0)`` and the sign of a NaN are exact and ``nextafter`` steps one
unit in the last place by adding one to those bits. Integer inputs compute in
the default float dtype; the steps for float16 and bfloat16 run in float32 and
round once at the end.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import ml_dtypes

from ..dtypes import ALL_DTYPES, bool_, dtype, float32, get_default_dtype, result_type
from ..errors import DTypeError, check
from ..graph.grad_mode import no_grad
from ..graph.node import Node, record
from ..shape_rules import broadcast_shapes
from ..tensor_base import TensorBase
from . import elementwise as ew
from .creation import as_tensor, zeros
from .elementwise import takes_out
from .launch_plans import run_kernel
from .layout.views import expand_to, view_dtype

if TYPE_CHECKING:
    from ..tensor import Tensor

_LN2 = math.log(2.0)


def _float_dtype(op: str, *xs: Any) -> dtype:
    """The result dtype: the operands' common dtype, the default float for integers.

    Complex operands are refused (these functions are defined on real numbers).
    """
    dt = result_type(*xs)
    check(not dt.is_complex, op, lambda: f"not implemented for {dt.name}", DTypeError)
    return dt if dt.category == 2 else get_default_dtype()


def _compute_dtype(dt: dtype) -> dtype:
    """The dtype the steps of a composite run in: float32 for the half types (one rounding)."""
    return float32 if dt.is_half else dt


def _operand(x: Any, dt: dtype, dev: Any, op: str) -> Any:
    """``x`` in the dtype the steps for ``dt`` run in; numbers stay."""
    x = ew.as_operand(x, dev, op)
    kdt = _compute_dtype(dt)
    return x.to(kdt) if isinstance(x, TensorBase) and x.dtype is not kdt else x


def _bits_dtype(dt: dtype) -> dtype:
    """The signed integer dtype as wide as ``dt`` (the view that exposes its bits)."""
    return next(d for d in ALL_DTYPES if d.category == 1 and d.is_signed
                and d.itemsize == dt.itemsize)


def _as_tensor(x: Any, dt: dtype, dev: Any) -> Tensor:
    return x if isinstance(x, TensorBase) else as_tensor(x, dtype=dt, device=dev)


def signbit(input: Tensor) -> Tensor:
    """True where the sign bit is set: negative numbers, ``-0.0`` and NaNs carrying a minus sign.

    Example:
        >>> signbit(gt.tensor([-0.0, 0.0, -1.0])).tolist()
        [True, False, True]
    """
    check(isinstance(input, TensorBase), "signbit", lambda: "expected a tensor, got "
          f"{type(input).__name__}", TypeError)
    if input.dtype.category < 2:
        return input < 0 if input.dtype.is_signed else zeros(
            input.shape, dtype=bool_, device=input.device)
    with no_grad():
        return view_dtype(input.detach(), _bits_dtype(input.dtype)) < 0


@takes_out
def copysign(input: Any, other: Any) -> Tensor:
    """``|input|`` with the sign bit of ``other`` (elementwise, broadcasting; NaNs too).

    Differentiable in ``input`` (PyTorch's rule: 0 where ``input`` is 0).

    Example:
        >>> copysign(gt.tensor([1.0, 2.0]), gt.tensor([-0.0, 3.0])).tolist()
        [-1.0, 2.0]
    """
    dt = _float_dtype("copysign", input, other)
    dev = ew.device_of("copysign", (input, other))
    a = _as_tensor(_operand(input, dt, dev, "copysign"), _compute_dtype(dt), dev)
    b = _as_tensor(_operand(other, dt, dev, "copysign"), a.dtype, dev)
    bits = _bits_dtype(a.dtype)
    sign = -(1 << (8 * bits.itemsize - 1))  # only the sign bit set
    with no_grad():
        magnitude = view_dtype(a.detach(), bits) & ~sign
        signs = view_dtype(b.detach(), bits) & sign
        out = view_dtype(magnitude | signs, a.dtype)
    out = out.to(dt) if out.dtype is not dt else out
    if isinstance(input, TensorBase):
        record("copysign", out, (input, other), _copysign_vjp, save=(input, out))
    return out


def _copysign_vjp(ctx: Node, g: Tensor) -> tuple[Tensor, None]:
    x, out = ctx.saved_tensors
    zero = x == 0
    return g * ew.where(zero, 0.0, out / ew.where(zero, 1.0, x)), None


@takes_out
def nextafter(input: Any, other: Any) -> Tensor:
    """The next float after ``input`` toward ``other`` (``other`` itself when they are equal).

    Steps the bits of ``input`` by one, in the promoted float dtype; from zero
    it gives the smallest subnormal with the direction's sign; NaN in, NaN out.
    Not differentiable (as in PyTorch).

    Example:
        >>> nextafter(gt.tensor([1.0]), gt.tensor([2.0])).item() - 1.0 > 0
        True
    """
    dt = result_type(input, other)
    check(dt.category == 2, "nextafter", lambda: f"expected floating inputs, got {dt.name}",
          DTypeError)
    dev = ew.device_of("nextafter", (input, other))
    with no_grad():
        a = _as_tensor(ew.as_operand(input, dev, "nextafter"), dt, dev).detach().to(dt)
        b = _as_tensor(ew.as_operand(other, dev, "nextafter"), dt, dev).detach().to(dt)
        shape = broadcast_shapes(a.shape, b.shape, op="nextafter")
        a, b = expand_to(a, shape, "nextafter"), expand_to(b, shape, "nextafter")
        up = b > a
        bits = _bits_dtype(dt)
        # a positive float's bits grow toward +inf, a negative one's toward -inf
        step = (up == (a > 0)).to(bits) * 2 - 1
        out = view_dtype(view_dtype(a, bits) + step, dt)
        tiny = as_tensor(float(ml_dtypes.finfo(dt.numpy).smallest_subnormal), dtype=dt, device=dev)
        out = ew.where(a == 0, ew.where(up, tiny, -tiny), out)
        out = ew.where(a == b, b, out)
        return ew.where(a.isnan() | b.isnan(), math.nan, out)


@takes_out
def hypot(input: Any, other: Any) -> Tensor:
    """``sqrt(input**2 + other**2)`` without overflow or underflow in between; inf wins over NaN.

    Example:
        >>> hypot(gt.tensor([3e30], dtype=gt.float64), 4e30).item()
        5e+30
    """
    dt = _float_dtype("hypot", input, other)
    dev = ew.device_of("hypot", (input, other))
    a, b = _operand(input, dt, dev, "hypot"), _operand(other, dt, dev, "hypot")
    with no_grad():
        ax = _as_tensor(a, _compute_dtype(dt), dev).abs()
        bx = _as_tensor(b, ax.dtype, dev).abs()
        big, small = ew.maximum(ax, bx), ew.minimum(ax, bx)
        ratio = small / ew.where(big == 0, 1.0, big)
        out = big * (ratio * ratio + 1.0).sqrt()
        out = ew.where(ax.isinf() | bx.isinf(), math.inf, out)
    return record_binary("hypot", out.to(dt) if out.dtype is not dt else out, input, other,
                          _hypot_vjp)


def record_binary(op: str, out: Tensor, input: Any, other: Any, vjp: Any) -> Tensor:
    """Record ``out`` of a binary op: tensor operands and ``out`` saved, numbers kept."""
    inputs = (input, other)
    record(op, out, inputs, vjp, save=[*(t for t in inputs if isinstance(t, TensorBase)), out],
           scalars=[None if isinstance(t, TensorBase) else t for t in inputs])
    return out


def saved_binary(ctx: Node) -> tuple[Any, Any, Tensor]:
    """The operands and result saved by :func:`record_binary`."""
    *tensors, out = ctx.saved_tensors
    a, b = (tensors.pop(0) if s is None else s for s in ctx.scalars)
    return a, b, out


def _hypot_vjp(ctx: Node, g: Tensor) -> tuple[Any, Any]:
    a, b, out = saved_binary(ctx)
    scale = g / out
    return scale * a, scale * b


def log_add_exp(op: str, input: Any, other: Any, base2: bool) -> Tensor:
    """``log(exp(input) + exp(other))`` (``log2``/``exp2`` when ``base2``), recorded as ``op``.

    Integers compute in the default float; the result takes the promoted float dtype.
    """
    dt = _float_dtype(op, input, other)
    dev = ew.device_of(op, (input, other))
    a, b = _operand(input, dt, dev, op), _operand(other, dt, dev, op)
    with no_grad():
        big = ew.maximum(a, b)
        gap = -ew.sub(a, b).abs()
        if base2:
            out = ew.where(ew.eq(a, b), big + 1.0, big + gap.exp2().log1p() / _LN2)
        else:
            out = ew.where(ew.eq(a, b), big + _LN2, big + gap.exp().log1p())
    return record_binary(op, out.to(dt) if out.dtype is not dt else out, input, other,
                         _logaddexp2_vjp if base2 else _logaddexp_vjp)


@takes_out
def logaddexp(input: Any, other: Any) -> Tensor:
    """``log(exp(input) + exp(other))`` without overflow (``-inf`` when both are ``-inf``).

    Example:
        >>> logaddexp(gt.tensor([1000.0]), gt.tensor([1000.0])).item()
        1000.6931762695312
    """
    return log_add_exp("logaddexp", input, other, base2=False)


def _logaddexp_vjp(ctx: Node, g: Tensor) -> tuple[Any, Any]:
    # PyTorch's form: finite where an operand is infinite (1 toward the larger one)
    a, b, _ = saved_binary(ctx)
    return g / ((b - a).exp() + 1.0), g / ((a - b).exp() + 1.0)  # type: ignore[operator]


def _logaddexp2_vjp(ctx: Node, g: Tensor) -> tuple[Any, Any]:
    a, b, _ = saved_binary(ctx)
    return g / ((b - a).exp2() + 1.0), g / ((a - b).exp2() + 1.0)  # type: ignore[operator]


def _unary_float(x: Tensor, op: str) -> tuple[Tensor, dtype]:
    """``x`` (detached) in its compute dtype, and the result dtype."""
    check(isinstance(x, TensorBase), op, lambda: f"expected a tensor, got {type(x).__name__}",
          TypeError)
    dt = x.dtype if x.dtype.category == 2 else get_default_dtype()
    return x.detach().to(_compute_dtype(dt)), dt


def _large(dt: dtype) -> float:
    """Above this, ``sqrt(x*x + 1) == x`` in ``dt``, and ``log(2x)`` is exact enough."""
    return 1.0 / math.sqrt(float(ml_dtypes.finfo(dt.numpy).eps))


@takes_out
def asinh(input: Tensor) -> Tensor:
    """Inverse hyperbolic sine: ``log1p(a + a*a / (1 + sqrt(1 + a*a)))`` with ``input``'s sign.

    Example:
        >>> round(asinh(gt.tensor([1.0])).item(), 6)
        0.881374
    """
    if isinstance(input, TensorBase) and input.dtype.is_complex:
        return _complex_unary("asinh", input, _ASINH_GRAD)
    x, dt = _unary_float(input, "asinh")
    with no_grad():
        a = x.abs()
        square = a * a
        near = (a + square / ((square + 1.0).sqrt() + 1.0)).log1p()
        out = copysign(ew.where(a > _large(x.dtype), a.log() + _LN2, near), x)
    return _finish_unary("asinh", out, input, dt, _ASINH_GRAD)


@takes_out
def acosh(input: Tensor) -> Tensor:
    """Inverse hyperbolic cosine: ``log1p(t + sqrt(t * (t + 2)))`` for ``t = x - 1``; NaN below 1.

    Example:
        >>> acosh(gt.tensor([1.0])).item()
        0.0
    """
    if isinstance(input, TensorBase) and input.dtype.is_complex:
        # 1 / sqrt(z*z - 1) takes the other branch of the root in the left half-plane
        return _complex_unary("acosh", input,
                              lambda x, o, g: g / ((x - 1.0).sqrt() * (x + 1.0).sqrt()))
    x, dt = _unary_float(input, "acosh")
    with no_grad():
        t = x - 1.0
        near = (t + (t * (t + 2.0)).sqrt()).log1p()
        out = ew.where(x > _large(x.dtype), x.log() + _LN2, near)
        out = ew.where(x < 1.0, math.nan, out)
    return _finish_unary("acosh", out, input, dt, _ACOSH_GRAD)


@takes_out
def atanh(input: Tensor) -> Tensor:
    """Inverse hyperbolic tangent: ``log1p(2a / (1 - a)) / 2`` with ``input``'s sign.

    Example:
        >>> atanh(gt.tensor([0.0, 1.0])).tolist()
        [0.0, inf]
    """
    if isinstance(input, TensorBase) and input.dtype.is_complex:
        return _complex_unary("atanh", input, _ATANH_GRAD)
    x, dt = _unary_float(input, "atanh")
    with no_grad():
        a = x.abs()
        out = copysign((a * 2.0 / (1.0 - a)).log1p() * 0.5, x)
    return _finish_unary("atanh", out, input, dt, _ATANH_GRAD)


_ASINH_GRAD = lambda x, o, g: g * (x * x + 1.0).rsqrt()  # noqa: E731 - VJP rules (x, out, g)
_ACOSH_GRAD = lambda x, o, g: g * (x * x - 1.0).rsqrt()  # noqa: E731
_ATANH_GRAD = lambda x, o, g: g / (1.0 - x * x)  # noqa: E731


def _complex_unary(op: str, input: Tensor, rule: Any) -> Tensor:
    """A complex input's kernel, its gradient ``g * conj(f'(x))``: the rule at ``conj(x)``."""
    dt = input.dtype
    out = run_kernel(op, (input,), dt, input.device, (dt,))
    record(op, out, (input,), _unary_vjp, save=(input, out),
           rule=lambda x, o, g: rule(x.conj(), o.conj(), g))
    return out


def _finish_unary(op: str, out: Tensor, input: Tensor, dt: dtype, rule: Any) -> Tensor:
    """Round ``out`` to ``dt`` and record the VJP ``rule(x, out, g)`` of a unary op."""
    out = out.to(dt) if out.dtype is not dt else out
    record(op, out, (input,), _unary_vjp, save=(input, out), rule=rule)
    return out


def _unary_vjp(ctx: Node, g: Tensor) -> Tensor:
    x, out = ctx.saved_tensors
    return ctx.rule(x, out, g)


# Functional forms, exported as gt.<name> (PyTorch's torch.<name>).
EXPORTS = ("signbit", "copysign", "nextafter", "hypot", "logaddexp", "asinh", "acosh", "atanh")
