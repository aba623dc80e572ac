"""Unary elementwise ops, each declared with its dtype rule and its VJP side by side."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from ..autograd.inplace import differentiable_inplace
from ..autograd.node import Node, record
from ..dtypes import bool_, dtype, get_default_dtype
from ..errors import DTypeError, check
from ..tensor import Tensor, tensor_method
from .creation import zeros_like
from .elementwise import compute_dtype, finish, run_kernel
from .ternary import where

_SQRT_2 = math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_LN2 = math.log(2.0)
_LN10 = math.log(10.0)


@dataclass(frozen=True)
class UnarySpec:
    """A unary op: its kernel name, how it types its result, and its VJP ``(x, out, g)``."""
    name: str
    kind: str  # "float": ints become the default float; "floating": float input only;
    #            "same": keep; "bool": bool result; "int": integer or bool input only
    vjp: Callable[[Tensor, Tensor, Tensor], Tensor] | None = None
    kernel: str | None = None


def check_floating(x: Tensor, op: str) -> None:
    """Refuse integer and bool inputs, as PyTorch's activations without an integer kernel do."""
    check(x.dtype.is_floating_point, op, lambda: f"not implemented for dtype {x.dtype.name}; "
          "expected a floating point tensor", DTypeError)


def _result(spec: UnarySpec, x: Tensor) -> tuple[dtype, dtype]:
    dt = x.dtype
    if spec.kind == "floating":
        check_floating(x, spec.name)
    if spec.kind == "float" and dt.category < 2:
        dt = get_default_dtype()
    if spec.kind == "int":
        check(dt.category < 2, spec.name, lambda: f"not supported for dtype {dt.name}; "
              "expected integer or bool tensors", DTypeError)
    kdt = compute_dtype(dt)
    return kdt, bool_ if spec.kind == "bool" else dt


def unary(spec: UnarySpec, x: Tensor, out: Tensor | None = None) -> Tensor:
    """Apply unary op ``spec`` to ``x`` (recording its VJP when grad is on).

    Example:
        >>> unary(UNARY["exp"], gt.zeros(2)).tolist()  # doctest: +SKIP
        [1.0, 1.0]
    """
    check(isinstance(x, Tensor), spec.name, lambda: f"expected a Tensor, got "
          f"{type(x).__name__}", TypeError)
    kdt, want = _result(spec, x)
    src = x if x.dtype is kdt else x.to(kdt)  # type: ignore[attr-defined]
    result = run_kernel(spec.kernel or spec.name, (src,), bool_ if want is bool_ else kdt,
                        x.device, (kdt,))
    if want is not bool_ and result.dtype is not want:
        result = result.to(want)  # type: ignore[attr-defined]
    if spec.vjp is not None and want.is_floating_point:
        record(spec.name, result, (x,), _vjp_of(spec), save=(x, result))
    return finish(result, want, out, spec.name) if out is not None else result


def _vjp_of(spec: UnarySpec) -> Callable[[Node, Tensor], Tensor]:
    rule = spec.vjp

    def vjp(ctx: Node, g: Tensor) -> Tensor:
        x, out = ctx.saved_tensors
        return rule(x, out, g)  # type: ignore[misc,arg-type]

    return vjp


def _zero(x: Tensor, out: Tensor, g: Tensor) -> Tensor:
    return zeros_like(g)


def sgn(x: Tensor) -> Tensor:
    """-1, 0 or 1 with 0 at nan: the sign PyTorch's gradients (``abs``, norms) use."""
    return (x > 0).to(x.dtype) - (x < 0).to(x.dtype)  # type: ignore[attr-defined,operator]


def _relu_grad(x: Tensor, out: Tensor, g: Tensor) -> Tensor:
    """PyTorch's ``threshold_backward``: 0 where the output is <= 0 (so at 0), else ``g``."""
    return where(out <= 0, 0.0, g)


def _gelu_grad(x: Tensor, out: Tensor, g: Tensor) -> Tensor:
    cdf = ((x / _SQRT_2).erf() + 1.0) * 0.5  # type: ignore[attr-defined,operator]
    pdf = (x * x * -0.5).exp() * _INV_SQRT_2PI  # type: ignore[attr-defined,operator]
    return g * (cdf + x * pdf)  # type: ignore[operator]


def _gelu_tanh_grad(x: Tensor, out: Tensor, g: Tensor) -> Tensor:
    k = math.sqrt(2.0 / math.pi)
    inner = (x + x * x * x * 0.044715) * k  # type: ignore[operator]
    t = inner.tanh()  # type: ignore[attr-defined]
    d_inner = (x * x * (3 * 0.044715) + 1.0) * k  # type: ignore[operator]
    return g * ((t + 1.0) * 0.5 + x * 0.5 * (1.0 - t * t) * d_inner)  # type: ignore[operator]


def _silu_grad(x: Tensor, out: Tensor, g: Tensor) -> Tensor:
    s = x.sigmoid()  # type: ignore[attr-defined]
    return g * s * (x * (1.0 - s) + 1.0)  # type: ignore[operator]


_RULES: tuple[UnarySpec, ...] = (
    UnarySpec("neg", "same", lambda x, o, g: -g),  # type: ignore[operator]
    UnarySpec("abs", "same", lambda x, o, g: g * sgn(x)),  # type: ignore[operator]
    UnarySpec("sign", "same", _zero),
    UnarySpec("square", "same", lambda x, o, g: g * x * 2.0),  # type: ignore[operator]
    UnarySpec("relu", "same", _relu_grad),
    UnarySpec("exp", "float", lambda x, o, g: g * o),  # type: ignore[operator]
    UnarySpec("exp2", "float", lambda x, o, g: g * o * _LN2),  # type: ignore[operator]
    UnarySpec("log", "float", lambda x, o, g: g / x),  # type: ignore[operator]
    UnarySpec("log2", "float", lambda x, o, g: g / (x * _LN2)),  # type: ignore[operator]
    UnarySpec("log10", "float", lambda x, o, g: g / (x * _LN10)),  # type: ignore[operator]
    UnarySpec("log1p", "float", lambda x, o, g: g / (x + 1.0)),  # type: ignore[operator]
    UnarySpec("expm1", "float", lambda x, o, g: g * (o + 1.0)),  # type: ignore[operator]
    UnarySpec("sqrt", "float", lambda x, o, g: g * 0.5 / o),  # type: ignore[operator]
    UnarySpec("rsqrt", "float", lambda x, o, g: g * o * o * o * -0.5),  # type: ignore
    UnarySpec("reciprocal", "float", lambda x, o, g: -g * o * o),  # type: ignore[operator]
    UnarySpec("sin", "float", lambda x, o, g: g * x.cos()),  # type: ignore
    UnarySpec("cos", "float", lambda x, o, g: -g * x.sin()),  # type: ignore
    UnarySpec("tan", "float", lambda x, o, g: g * (o * o + 1.0)),  # type: ignore[operator]
    UnarySpec("asin", "float", lambda x, o, g: g * (1.0 - x * x).rsqrt()),  # type: ignore
    UnarySpec("acos", "float", lambda x, o, g: -g * (1.0 - x * x).rsqrt()),  # type: ignore
    UnarySpec("atan", "float", lambda x, o, g: g / (x * x + 1.0)),  # type: ignore[operator]
    UnarySpec("sinh", "float", lambda x, o, g: g * x.cosh()),  # type: ignore
    UnarySpec("cosh", "float", lambda x, o, g: g * x.sinh()),  # type: ignore
    UnarySpec("tanh", "float", lambda x, o, g: g * (1.0 - o * o)),  # type: ignore[operator]
    UnarySpec("sigmoid", "float", lambda x, o, g: g * o * (1.0 - o)),  # type: ignore
    UnarySpec("gelu", "floating", _gelu_grad),
    UnarySpec("gelu_tanh", "floating", _gelu_tanh_grad),
    UnarySpec("silu", "floating", _silu_grad),
    UnarySpec("softplus", "floating", lambda x, o, g: g * x.sigmoid()),  # type: ignore
    UnarySpec("erf", "float", lambda x, o, g: g * (x * x * -1.0).exp() * (  # type: ignore
        2.0 / math.sqrt(math.pi))),
    UnarySpec("floor", "same", _zero),
    UnarySpec("ceil", "same", _zero),
    UnarySpec("trunc", "same", _zero),
    UnarySpec("round", "same", _zero),
    UnarySpec("logical_not", "bool"),
    UnarySpec("bitwise_not", "int"),
    UnarySpec("isnan", "bool"),
    UnarySpec("isinf", "bool"),
    UnarySpec("isfinite", "bool"),
)
UNARY: dict[str, UnarySpec] = {s.name: s for s in _RULES}


def _raw_inplace(spec: UnarySpec) -> Callable[[Tensor], Tensor]:
    def inplace(self: Tensor) -> Tensor:
        kdt, want = _result(spec, self)
        check(want is self.dtype, spec.name + "_", lambda: f"result type {want.name} can't be "
              f"cast to the desired output type {self.dtype.name}", DTypeError)
        if kdt is self.dtype:
            run_kernel(spec.kernel or spec.name, (self,), kdt, self.device, (kdt,), out=self)
            self._bump_version()
        else:
            self.copy_(unary(spec, self))  # type: ignore[attr-defined]
        return self

    inplace.__name__ = spec.name + "_"
    return inplace


def _define(spec: UnarySpec) -> None:
    def fn(input: Tensor, *, out: Tensor | None = None) -> Tensor:
        return unary(spec, input, out)

    fn.__name__ = fn.__qualname__ = spec.name
    fn.__doc__ = f"Elementwise ``{spec.name}``; integer inputs of float-valued ops give floats."
    globals()[spec.name] = fn
    tensor_method(spec.name)(fn)
    if spec.kind not in ("bool",):
        tensor_method(spec.name + "_")(differentiable_inplace(fn)(_raw_inplace(spec)))


for _spec in _RULES:
    if _spec.name != "gelu_tanh":
        _define(_spec)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """Gaussian error linear unit: exact (``"none"``) or the ``"tanh"`` approximation.

    Example:
        >>> gelu(gt.zeros(1)).tolist()  # doctest: +SKIP
        [0.0]
    """
    check(approximate in ("none", "tanh"), "gelu", lambda: "approximate must be 'none' or "
          f"'tanh', got {approximate!r}", ValueError)
    check_floating(input, "gelu")
    return unary(UNARY["gelu_tanh" if approximate == "tanh" else "gelu"], input)


tensor_method("gelu")(gelu)
tensor_method("absolute")(globals()["abs"])
tensor_method("negative")(globals()["neg"])
tensor_method("__neg__")(globals()["neg"])
tensor_method("__abs__")(globals()["abs"])
tensor_method("__invert__")(globals()["bitwise_not"])


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """``log(1 + exp(beta * x)) / beta``, linear above ``threshold`` (PyTorch's definition).

    Example:
        >>> softplus(gt.zeros(1)).item()  # doctest: +SKIP
        0.6931...
    """
    check_floating(input, "softplus")
    if beta == 1.0 and threshold == 20.0:
        return unary(UNARY["softplus"], input)
    scaled = input * beta  # type: ignore[operator]
    return where(scaled > threshold, input, unary(UNARY["softplus"], scaled) / beta)  # type: ignore


tensor_method("softplus")(softplus)

EXPORTS = tuple(n for n in UNARY if n != "gelu_tanh")
