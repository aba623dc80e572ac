"""Unary elementwise ops, each declared with its dtype rule and its VJP side by side."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..dtypes import bool_, dtype, get_default_dtype
from ..errors import DTypeError, check
from ..graph.autocast_mode import autocast_inputs, with_autocast
from ..graph.grad_mode import state
from ..graph.inplace import differentiable_inplace
from ..graph.node import Node, make_node, needs_grad, record
from ..tensor_base import TensorBase
from .complex_rules import refuse_complex
from .creation import zeros_like
from .elementwise import finish, where
from .launch_plans import planned_binary, run_kernel, unary_same_dtype

if TYPE_CHECKING:
    from ..tensor import Tensor

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
    saves: str = "x"  # what the VJP reads of real inputs: "x", "out" or "none" (complex: both)

    def saved(self, x: Tensor, out: Tensor) -> tuple[Tensor | None, Tensor | None]:
        """``(x, out)`` with what the VJP does not read left out (as PyTorch saves: ``exp``
        keeps its result, ``neg`` nothing), so it may change in place before backward."""
        if x._dtype.category == 3:
            return x, out
        saves = self.saves
        return (x if saves == "x" else None), (out if saves == "out" else None)


def check_floating(x: Tensor, op: str) -> None:
    """Refuse integer and bool inputs, as PyTorch's activations without an integer kernel do."""
    check(x.dtype.is_floating_point, op, lambda: f"not implemented for dtype {x.dtype.name}; "
          "expected a floating point tensor", DTypeError)


COMPLEX_UNARY = frozenset((
    "neg", "abs", "square", "exp", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt",
    "reciprocal", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
    "logical_not", "isnan", "isinf", "isfinite"))
"""The unary ops defined on complex numbers (``abs`` gives the parts' real dtype)."""


def _result(spec: UnarySpec, x: Tensor) -> tuple[dtype, dtype]:
    dt = x.dtype
    if dt.category == 3:
        if spec.name not in COMPLEX_UNARY:
            refuse_complex(spec.name, dt)
        return dt, bool_ if spec.kind == "bool" else (
            dt.real_dtype if spec.name == "abs" else dt)
    if spec.kind == "floating":
        check_floating(x, spec.name)
    if spec.kind == "float" and dt.category < 2:
        dt = get_default_dtype()
    if spec.kind == "int":
        check(dt.category < 2, spec.name, lambda: f"not supported for dtype {dt.name}; "
              "expected integer or bool tensors", DTypeError)
    kdt = dt
    return kdt, bool_ if spec.kind == "bool" else dt


def unary(spec: UnarySpec, x: Tensor, out: Tensor | None = None) -> Tensor:
    """Apply unary op ``spec`` to ``x`` (recording its VJP when grad is on).

    Example:
        >>> unary(UNARY["exp"], gt.zeros(2)).tolist()
        [1.0, 1.0]
    """
    if not isinstance(x, TensorBase):
        raise TypeError(f"[{spec.name}] expected a Tensor, got {type(x).__name__}")
    dt = x._dtype
    if out is None and dt.category == 2 and spec.kind in _KEEPS_FLOAT:
        # float32/float64 in, the same dtype out: nothing to promote or cast back
        result = unary_same_dtype(spec.kernel or spec.name, x)
        if spec.vjp is not None and state.enabled:
            if x._requires_grad:
                make_node(spec.name, result, (x,), _vjp_of(spec), spec.saved(x, result), None)
            elif x._base is not None:  # a view's flag may be stale
                record(spec.name, result, (x,), _vjp_of(spec), save=spec.saved(x, result))
        return result
    kdt, want = _result(spec, x)
    src = x if x.dtype is kdt else x.to(kdt)
    result = run_kernel(spec.kernel or spec.name, (src,),
                        want if want is bool_ or kdt.is_complex else kdt, x.device, (kdt,))
    if want is not bool_ and result.dtype is not want:
        result = result.to(want)
    if spec.vjp is not None and want.is_inexact and needs_grad(x):
        record(spec.name, result, (x,), _vjp_of(spec), save=spec.saved(x, result))
    return finish(result, want, out, spec.name) if out is not None else result


_KEEPS_FLOAT = ("same", "float", "floating")


@functools.cache
def _vjp_of(spec: UnarySpec) -> Callable[[Node, Tensor], Tensor]:
    rule = spec.vjp
    is_abs = spec.name == "abs"

    def vjp(ctx: Node, g: Tensor) -> Tensor:
        x, out = ctx.saved_tensors
        if x is not None and x._dtype.category == 3:
            # PyTorch's convention: g * conj(f'(x)); each rule is f' in x and f(x) with real
            # coefficients, so conj(f'(x)) is the rule at conj(x) and conj(f(x))
            if is_abs:
                return g * run_kernel("sgn", (x,), x._dtype, x.device, (x._dtype,))
            return rule(x.conj(), out.conj(), g)  # type: ignore[misc,attr-defined]
        return rule(x, out, g)  # type: ignore[misc,arg-type]

    return vjp


def _zero(x: Tensor, out: Tensor, g: Tensor) -> Tensor:
    return zeros_like(g)


def sgn(x: Tensor) -> Tensor:
    """-1, 0 or 1 with 0 at nan: the sign PyTorch's gradients (``abs``, norms) use."""
    return (x > 0).to(x.dtype) - (x < 0).to(x.dtype)


def _relu_grad(x: Tensor, out: Tensor, g: Tensor) -> Tensor:
    """PyTorch's ``threshold_backward``: 0 where the output is <= 0 (so at 0), else ``g``."""
    dt = g._dtype
    if dt is not out._dtype or dt is not dt or g._shape != out._shape:
        return where(out <= 0, 0.0, g)
    return threshold_backward(g, out)


def threshold_backward(grad: Tensor, output: Tensor) -> Tensor:
    """Return ``grad`` where ``output > 0`` and 0 elsewhere, in one kernel (ReLU's VJP).

    Args:
        grad: the incoming gradient.
        output: ReLU's output, of ``grad``'s shape and dtype.

    Returns:
        The gradient of ReLU's input; differentiable in ``grad``.

    Example:
        >>> threshold_backward(gt.ones(2), gt.tensor([0.0, 3.0])).tolist()
        [0.0, 1.0]
    """
    dt = grad._dtype
    if output._dtype is dt and output._shape == grad._shape and (
            output._storage.device is grad._storage.device):
        result = planned_binary("threshold_backward", grad, output, dt)
    else:
        result = run_kernel("threshold_backward", (grad, output), dt, grad._storage.device,
                            (dt, dt))
    record("threshold_backward", result, (grad, output), _threshold_backward_vjp, save=[output])
    return result


def _threshold_backward_vjp(ctx: Node, g: Tensor) -> tuple[Tensor, None]:
    (output,) = ctx.saved_tensors
    return threshold_backward(g, output), None


def _gelu_grad(x: Tensor, out: Tensor, g: Tensor) -> Tensor:
    cdf = ((x / _SQRT_2).erf() + 1.0) * 0.5
    pdf = (x * x * -0.5).exp() * _INV_SQRT_2PI
    return g * (cdf + x * pdf)


def _gelu_tanh_grad(x: Tensor, out: Tensor, g: Tensor) -> Tensor:
    k = math.sqrt(2.0 / math.pi)
    inner = (x + x * x * x * 0.044715) * k
    t = inner.tanh()
    d_inner = (x * x * (3 * 0.044715) + 1.0) * k
    return g * ((t + 1.0) * 0.5 + x * 0.5 * (1.0 - t * t) * d_inner)


def _silu_grad(x: Tensor, out: Tensor, g: Tensor) -> Tensor:
    s = x.sigmoid()
    return g * s * (x * (1.0 - s) + 1.0)


_RULES: tuple[UnarySpec, ...] = (
    UnarySpec("neg", "same", lambda x, o, g: -g, saves="none"),
    UnarySpec("abs", "same", lambda x, o, g: g * sgn(x)),
    UnarySpec("sign", "same", _zero, saves="none"),
    UnarySpec("square", "same", lambda x, o, g: g * x * 2.0),
    UnarySpec("relu", "same", _relu_grad, saves="out"),
    UnarySpec("exp", "float", lambda x, o, g: g * o, saves="out"),
    UnarySpec("exp2", "float", lambda x, o, g: g * o * _LN2, saves="out"),
    UnarySpec("log", "float", lambda x, o, g: g / x),
    UnarySpec("log2", "float", lambda x, o, g: g / (x * _LN2)),
    UnarySpec("log10", "float", lambda x, o, g: g / (x * _LN10)),
    UnarySpec("log1p", "float", lambda x, o, g: g / (x + 1.0)),
    UnarySpec("expm1", "float", lambda x, o, g: g * (o + 1.0), saves="out"),
    UnarySpec("sqrt", "float", lambda x, o, g: g * 0.5 / o, saves="out"),
    UnarySpec("rsqrt", "float", lambda x, o, g: g * o * o * o * -0.5, saves="out"),
    UnarySpec("reciprocal", "float", lambda x, o, g: -g * o * o, saves="out"),
    UnarySpec("sin", "float", lambda x, o, g: g * x.cos()),
    UnarySpec("cos", "float", lambda x, o, g: -g * x.sin()),
    UnarySpec("tan", "float", lambda x, o, g: g * (o * o + 1.0), saves="out"),
    UnarySpec("asin", "float", lambda x, o, g: g * (1.0 - x * x).rsqrt()),
    UnarySpec("acos", "float", lambda x, o, g: -g * (1.0 - x * x).rsqrt()),
    UnarySpec("atan", "float", lambda x, o, g: g / (x * x + 1.0)),
    UnarySpec("sinh", "float", lambda x, o, g: g * x.cosh()),
    UnarySpec("cosh", "float", lambda x, o, g: g * x.sinh()),
    UnarySpec("tanh", "float", lambda x, o, g: g * (1.0 - o * o), saves="out"),
    UnarySpec("sigmoid", "float", lambda x, o, g: g * o * (1.0 - o), saves="out"),
    UnarySpec("gelu", "floating", _gelu_grad),
    UnarySpec("gelu_tanh", "floating", _gelu_tanh_grad),
    UnarySpec("silu", "floating", _silu_grad),
    UnarySpec("softplus", "floating", lambda x, o, g: g * x.sigmoid()),
    UnarySpec("erf", "float", lambda x, o, g: g * (x * x * -1.0).exp() * (
        2.0 / math.sqrt(math.pi))),
    UnarySpec("lgamma", "float", lambda x, o, g: g * digamma(x)),
    UnarySpec("digamma", "float", lambda x, o, g: g * trigamma(x)),
    UnarySpec("trigamma", "float"),
    UnarySpec("erfinv", "float", lambda x, o, g: g * (o * o).exp() * (math.sqrt(math.pi) / 2),
              saves="out"),
    UnarySpec("floor", "same", _zero, saves="none"),
    UnarySpec("ceil", "same", _zero, saves="none"),
    UnarySpec("trunc", "same", _zero, saves="none"),
    UnarySpec("round", "same", _zero, saves="none"),
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
            self.copy_(unary(spec, self))
        return self

    inplace.__name__ = spec.name + "_"
    return inplace


def _define(name: str) -> Callable[..., Tensor]:
    """The out-of-place op of unary spec ``name``."""
    spec = UNARY[name]

    def fn(input: Tensor, *, out: Tensor | None = None) -> Tensor:
        return unary(spec, input, out)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise ``{name}``; integer inputs of float-valued ops give floats."
    return with_autocast(name, fn)


def _with_inplace(name: str) -> tuple[Callable[..., Tensor], Callable[..., Tensor]]:
    """The out-of-place op of unary spec ``name`` and its differentiable in-place form."""
    fn = _define(name)
    return fn, differentiable_inplace(fn)(_raw_inplace(UNARY[name]))


neg, neg_ = _with_inplace("neg")
abs, abs_ = _with_inplace("abs")  # noqa: A001
sign, sign_ = _with_inplace("sign")
square, square_ = _with_inplace("square")
relu, relu_ = _with_inplace("relu")
exp, exp_ = _with_inplace("exp")
exp2, exp2_ = _with_inplace("exp2")
log, log_ = _with_inplace("log")
log2, log2_ = _with_inplace("log2")
log10, log10_ = _with_inplace("log10")
log1p, log1p_ = _with_inplace("log1p")
expm1, expm1_ = _with_inplace("expm1")
sqrt, sqrt_ = _with_inplace("sqrt")
rsqrt, rsqrt_ = _with_inplace("rsqrt")
reciprocal, reciprocal_ = _with_inplace("reciprocal")
sin, sin_ = _with_inplace("sin")
cos, cos_ = _with_inplace("cos")
tan, tan_ = _with_inplace("tan")
asin, asin_ = _with_inplace("asin")
acos, acos_ = _with_inplace("acos")
atan, atan_ = _with_inplace("atan")
sinh, sinh_ = _with_inplace("sinh")
cosh, cosh_ = _with_inplace("cosh")
tanh, tanh_ = _with_inplace("tanh")
sigmoid, sigmoid_ = _with_inplace("sigmoid")
silu, silu_ = _with_inplace("silu")
erf, erf_ = _with_inplace("erf")
lgamma, lgamma_ = _with_inplace("lgamma")
digamma, digamma_ = _with_inplace("digamma")
trigamma = _define("trigamma")
erfinv, erfinv_ = _with_inplace("erfinv")
floor, floor_ = _with_inplace("floor")
ceil, ceil_ = _with_inplace("ceil")
trunc, trunc_ = _with_inplace("trunc")
_round, _round_ = _with_inplace("round")
bitwise_not, bitwise_not_ = _with_inplace("bitwise_not")
logical_not = _define("logical_not")
isnan = _define("isnan")
isinf = _define("isinf")
isfinite = _define("isfinite")
gelu_ = _with_inplace("gelu")[1]  # gelu below takes ``approximate``; gelu_ does not
softplus_ = _with_inplace("softplus")[1]  # softplus below takes ``beta`` and ``threshold``


def round(input: Tensor, *, decimals: int = 0, out: Tensor | None = None) -> Tensor:  # noqa: A001
    """Round half to even, to ``decimals`` decimal places (negative: to tens, hundreds...).

    As in PyTorch, ``decimals`` scales by ``10**decimals`` (in float32 for 16-bit inputs),
    rounds and scales back, so a value whose decimal form sits on a tie rounds as its binary
    form does.

    Args:
        input: the tensor (integers only with ``decimals=0``, where they are unchanged).
        decimals: the decimal place to round to.
        out: where to write the result.

    Example:
        >>> gt.round(gt.tensor([1.2345, 2.5, 1250.0]), decimals=2).tolist()[0]
        1.2300000190734863
        >>> gt.tensor([2.5, 1250.0]).round(decimals=-2).tolist()
        [0.0, 1200.0]
    """
    if decimals == 0:
        return _round(input, out=out)
    check(type(decimals) is int, "round", lambda: f"decimals must be an int, got "
          f"{type(decimals).__name__}", TypeError)
    check_floating(input, "round")
    scale = 10.0 ** (decimals if decimals > 0 else -decimals)
    x = input.float() if input.dtype.itemsize == 2 else input  # halves scale in float32
    result = (_round(x * scale) / scale) if decimals > 0 else _round(x / scale) * scale
    result = result.to(input.dtype)
    if out is None:
        return result
    return out.copy_(result)


def round_(input: Tensor, *, decimals: int = 0) -> Tensor:
    """In-place :func:`round`.

    Example:
        >>> gt.tensor([0.125, 7.0]).round_(decimals=1).tolist()
        [0.10000000149011612, 7.0]
    """
    if decimals == 0:
        return _round_(input)
    return input.copy_(round(input, decimals=decimals))


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """Gaussian error linear unit: exact (``"none"``) or the ``"tanh"`` approximation.

    Example:
        >>> gelu(gt.zeros(1)).tolist()
        [0.0]
    """
    check(approximate in ("none", "tanh"), "gelu", lambda: "approximate must be 'none' or "
          f"'tanh', got {approximate!r}", ValueError)
    check_floating(input, "gelu")
    return unary(UNARY["gelu_tanh" if approximate == "tanh" else "gelu"], input)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """``log(1 + exp(beta * x)) / beta``, linear above ``threshold`` (PyTorch's definition).

    Example:
        >>> softplus(gt.zeros(1)).item()
        0.6931...
    """
    (input,) = autocast_inputs("softplus", input)
    check_floating(input, "softplus")
    if beta == 1.0 and threshold == 20.0:
        return unary(UNARY["softplus"], input)
    scaled = input * beta
    return where(scaled > threshold, input, unary(UNARY["softplus"], scaled) / beta)


EXPORTS = tuple(n for n in UNARY if n != "gelu_tanh")
