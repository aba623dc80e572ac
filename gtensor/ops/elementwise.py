"""Elementwise op machinery and the binary ops (``add``, ``mul``, ``pow``, comparisons...).

An elementwise call: find the operands' device (all tensors on one device;
a 0-d cpu tensor joins a CUDA op as a Python number, as in PyTorch), promote
dtypes with :func:`gtensor.result_type`, broadcast, run one kernel from the
dispatch table (half types compute in float32 registers inside the kernels),
and record one autograd node whose VJP is written with these same ops.
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from ..dtypes import ALL_DTYPES, bool_, dtype, get_default_dtype, result_type
from ..errors import (
    DivisionByZeroError,
    DTypeError,
    GTensorError,
    ShapeError,
    check,
    check_same_device,
)
from ..graph.autocast_mode import with_autocast
from ..graph.grad_mode import state
from ..graph.inplace import differentiable_inplace
from ..graph.node import Node, make_node, record
from ..shape_rules import broadcast_shapes
from .complex_rules import COMPLEX_BINARY, conj_of, refuse_complex
from .copy import write_out
from .creation import as_tensor
from .dispatch import PlanCache
from .launch_plans import Operand, planned_binary, run_kernel

_F = TypeVar("_F", bound=Callable[..., Any])

if TYPE_CHECKING:
    from ..tensor import Tensor
else:
    from ..tensor_base import TensorBase as Tensor  # run time: the core class, below the ops

_REFUSING = frozenset(("sub", "floor_divide", "remainder", "pow"))


def is_scalar(x: Any) -> bool:
    """True for Python (and NumPy) numbers."""
    return isinstance(x, (bool, int, float, complex, np.bool_, np.number))


def device_of(op: str, args: Sequence[Any]) -> Any:
    """Return the device shared by the tensor operands (0-d cpu tensors may join CUDA ones)."""
    devices = [a.device for a in args if isinstance(a, Tensor) and not (
        a.ndim == 0 and a.device.type == "cpu")]
    if not devices:
        devices = [a.device for a in args if isinstance(a, Tensor)]
    check(bool(devices), op, "expected at least one tensor operand", TypeError)
    check_same_device(op, *devices)
    return devices[0]


def as_operand(x: Any, dev: Any, op: str) -> Operand:
    """Keep tensors on ``dev`` and numbers; turn a 0-d cpu tensor next to CUDA into a number."""
    if isinstance(x, Tensor):
        if x.device != dev:
            return x.item()  # a 0-d cpu tensor (device_of checked the rest)
        return x
    if is_scalar(x):
        return x.item() if isinstance(x, np.generic) else x
    raise TypeError(f"[{op}] unsupported operand type {type(x).__name__}")


def _cast(x: Operand, dt: dtype) -> Operand:
    if isinstance(x, Tensor) and x.dtype is not dt:
        return x.to(dt)  # type: ignore[attr-defined]
    return x


def finish(result: Tensor, want: dtype, out: Tensor | None, op: str) -> Tensor:
    """Cast a result to ``want``, or write it into ``out=``."""
    if result.dtype is not want:
        result = result.to(want)  # type: ignore[attr-defined]
    return result if out is None else write_out(result, out, op)


def takes_out(fn: _F) -> _F:
    """``fn`` with PyTorch's keyword-only ``out=``: the result is written into ``out``.

    ``out`` must have the result's shape and a dtype the result casts to (see
    :func:`finish`); ``out`` is returned.

    Example:
        >>> twice = takes_out(lambda input: input * 2)
        >>> o = gt.zeros(2); twice(gt.ones(2), out=o) is o, o.tolist()
        (True, [2.0, 2.0])
    """
    op = fn.__name__

    @functools.wraps(fn)
    def with_out(*args: Any, out: Tensor | None = None, **kwargs: Any) -> Any:
        result = fn(*args, **kwargs)
        return result if out is None else finish(result, result.dtype, out, op)

    params = list(inspect.signature(fn).parameters.values())
    with_out.__signature__ = inspect.signature(fn).replace(  # type: ignore[attr-defined]
        parameters=[*params, inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY,
                                               default=None, annotation="Tensor | None")])
    return with_out  # type: ignore[return-value]


@dataclass(frozen=True)
class BinarySpec:
    """How a binary op promotes and differentiates."""

    name: str
    kind: str  # "arith", "true_div", "compare", "logical", "bitwise", "float"
    vjp: Callable[[Node, Tensor], tuple[Tensor | None, Tensor | None]] | None = None
    saves: str = "both"
    """The operands the VJP reads: ``both``, ``none`` (add, sub), ``cross`` (mul: each for
    the other's gradient) or ``divisor`` (div: the divisor, the dividend for its gradient)."""
    same: dict[dtype, dtype] = field(init=False, repr=False, compare=False)
    """Input dtype -> result dtype where two tensors of that dtype need no promotion and
    nothing to refuse (:func:`_refuse`: bool ``sub``, integer ``//`` and ``%``)."""

    def __post_init__(self) -> None:
        kind, name = self.kind, self.name
        same = {} if kind not in ("arith", "compare", "true_div", "float") else {
            d: bool_ if kind == "compare" else d for d in ALL_DTYPES
            if (kind in ("arith", "compare") or d.category >= 2)
            and (d.category < 3 or name in COMPLEX_BINARY)
            and not (name == "sub" and d is bool_)
            and not (name in ("floor_divide", "remainder") and d.category < 2)}
        object.__setattr__(self, "same", same)


def _is_bool(x: Operand) -> bool:
    """True for bool tensors and Python (or NumPy) bools."""
    return x.dtype is bool_ if isinstance(x, Tensor) else isinstance(x, (bool, np.bool_))


def _has_zero(x: Operand) -> bool:
    """True when ``x`` is a zero number, or a cpu tensor holding a zero."""
    if not isinstance(x, Tensor):
        return x == 0
    return x.device.type == "cpu" and bool((x.numpy() == 0).any())


def _refuse(name: str, a: Operand, b: Operand, common: dtype) -> None:
    """PyTorch's value and dtype refusals for ``sub``, integer ``//``/``%`` and ``**``.

    An integer divisor of zero raises where it can be seen without reading
    device memory: a number, or a cpu tensor. A CUDA tensor divisor is not
    read, so dividing by its zeros gives an unspecified value, as in PyTorch.
    """
    if name == "sub":
        check(not (_is_bool(a) and _is_bool(b)), name, "Subtraction, the `-` operator, with "
              "two bool tensors is not supported. Use the `^` or `logical_xor()` operator "
              "instead.", DTypeError)
        check(not (_is_bool(a) or _is_bool(b)), name, "Subtraction, the `-` operator, with a "
              "bool tensor is not supported. If you are trying to invert a mask, use the `~` "
              "or `logical_not()` operator instead.", DTypeError)
    elif name in ("floor_divide", "remainder"):
        check(common.category == 2 or not _has_zero(b), name, "integer division by zero",
              DivisionByZeroError)
    elif name == "pow" and common.category < 2 and not isinstance(b, Tensor):
        check(b >= 0, name, "Integers to negative integer powers are not allowed.")


def _result_dtypes(spec: BinarySpec, a: Operand, b: Operand) -> tuple[dtype, dtype]:
    """Return (kernel input dtype, output dtype) for a binary op, refusing what PyTorch does."""
    common = result_type(a, b, op=spec.name)
    if common.category == 3 and spec.name not in COMPLEX_BINARY:
        refuse_complex(spec.name, common)
    if spec.name in _REFUSING:
        _refuse(spec.name, a, b, common)
    if spec.kind in ("true_div", "float") and common.category < 2:
        common = get_default_dtype()
    if spec.kind == "bitwise":
        check(common.category < 2, spec.name, lambda: f"not supported for dtype {common.name}; "
              "expected integer or bool tensors", DTypeError)
    if spec.kind in ("compare", "logical"):
        return common, bool_
    return common, common


def binary(spec: BinarySpec, a: Any, b: Any, out: Tensor | None = None) -> Tensor:
    """Run binary op ``spec`` with promotion, broadcasting and autograd.

    Example:
        >>> binary(SPECS["add"], gt.ones(2), 1).tolist()
        [2.0, 2.0]
    """
    op = spec.name
    if out is None and isinstance(a, Tensor) and isinstance(b, Tensor):
        fast = same_dtype_binary(spec, a, b)
        if fast is not None:
            return fast
    dev = device_of(op, (a, b))
    a, b = as_operand(a, dev, op), as_operand(b, dev, op)
    kdt, want = _result_dtypes(spec, a, b)
    ka, kb = _cast(a, kdt), _cast(b, kdt)
    result_dt = bool_ if want is bool_ else kdt
    result = run_kernel(op, (ka, kb), result_dt, dev, (kdt, kdt))
    result = finish(result, want, None, op) if result_dt is not want else result
    if spec.vjp is not None and want.is_inexact:
        node = record(op, result, (a, b), spec.vjp, a_scalar=None if isinstance(a, Tensor) else a,
                      b_scalar=None if isinstance(b, Tensor) else b)
        if node is not None:
            save_operands(node, spec, a, b, result)
    return finish(result, want, out, op) if out is not None else result


def same_dtype_binary(spec: BinarySpec, a: Tensor, b: Tensor) -> Tensor | None:
    """The common case without promotion: two tensors of one dtype on one device.

    Operands of one shape take :func:`planned_binary`; others broadcast through
    :func:`run_kernel`'s plan. Returns None for anything else (promotion, mixed
    devices), which :func:`binary` handles.
    """
    dt = a._dtype
    if dt is not b._dtype:
        return None
    out_dt = spec.same.get(dt)
    if out_dt is None:
        return None
    dev = a._storage.device
    if dev is not b._storage.device and dev != b._storage.device:
        return None
    name = spec.name
    if a._shape == b._shape:
        result = planned_binary(name, a, b, out_dt)
    else:
        result = run_kernel(name, (a, b), out_dt, dev, (dt, dt))
    if (a._requires_grad or b._requires_grad or a._base is not None or b._base is not None) \
            and state.enabled and spec.vjp is not None and dt.category >= 2:
        if a._requires_grad or b._requires_grad:
            node = make_node(name, result, (a, b), spec.vjp, (), None)
        else:  # a view's flag may be stale
            node = record(name, result, (a, b), spec.vjp)
        if node is not None:
            save_operands(node, spec, a, b, result)
    return result


def save_operands(node: Node, spec: BinarySpec, a: Operand, b: Operand, result: Tensor) -> None:
    """Save the tensor operands ``spec``'s VJP reads for the gradients ``node`` computes.

    As in PyTorch, ``x * 2`` and ``x + y`` save no operand, and ``x * w`` saves ``w``
    only when ``x`` gets a gradient: what is not saved may change in place before the
    backward pass, and is not kept alive by the graph.

    Example:
        >>> x = gt.ones(2, requires_grad=True) * 1
        >>> y = x * 3; _ = x.add_(1); y.sum().backward()  # x was not saved
    """
    saves = spec.saves
    if saves == "none":
        return
    edges = node.next_edges
    keep_a = saves == "both" or edges[1] is not None
    keep_b = saves != "cross" or edges[0] is not None
    node.save((a if keep_a and isinstance(a, Tensor) else None,
               b if keep_b and isinstance(b, Tensor) else None), (result,))


def saved_pair(ctx: Node) -> tuple[Operand | None, Operand | None]:
    """Return the two operands of a binary node: numbers as recorded, tensors as saved (None
    for a tensor the node did not save, see :func:`save_operands`)."""
    a, b = ctx.saved_tensors
    recorded = ctx.__dict__  # numbers are recorded as a_scalar/b_scalar
    a_scalar, b_scalar = recorded.get("a_scalar"), recorded.get("b_scalar")
    return (a if a_scalar is None else a_scalar), (b if b_scalar is None else b_scalar)


def _add_vjp(ctx: Node, g: Tensor) -> tuple[Tensor, Tensor]:
    return g, g


# The VJPs below compute only the gradients some input wants (an edge): the other operand
# is often a number or a constant (x * 2, x * mask), whose gradient would be a whole op.

def _sub_vjp(ctx: Node, g: Tensor) -> tuple[Tensor, Tensor | None]:
    return g, -g if ctx.next_edges[1] is not None else None  # type: ignore[operator]


def _mul_vjp(ctx: Node, g: Tensor) -> tuple[Any, Any]:
    a, b = saved_pair(ctx)
    edges = ctx.next_edges
    return (g * conj_of(b) if edges[0] is not None else None,  # type: ignore[operator]
            g * conj_of(a) if edges[1] is not None else None)  # type: ignore[operator]


def _div_vjp(ctx: Node, g: Tensor) -> tuple[Any, Any]:
    a, b = saved_pair(ctx)
    a, b = conj_of(a), conj_of(b)
    ga = g / b  # type: ignore[operator]
    gb = -ga * a / b if ctx.next_edges[1] is not None else None  # type: ignore[operator]
    return ga if ctx.next_edges[0] is not None else None, gb


def _complex_pow_vjp(a: Operand, b: Operand, g: Tensor) -> tuple[Any, Any]:
    """``g * conj(d(a**b))``: 0 where ``b == 0`` (for ``a``), ``a == 0 <= re(b)`` (for ``b``)."""
    ga = gb = None
    if isinstance(a, Tensor):
        ga = g * conj_of(b * a ** (b - 1))  # type: ignore[operator]
        ga = where(b == 0, 0j, ga) if isinstance(b, Tensor) else (g * 0 if b == 0 else ga)
    if isinstance(b, Tensor):
        at = a if isinstance(a, Tensor) else as_tensor(a, dtype=b.dtype, device=b.device)
        gb = where((at == 0) & (b.real >= 0), 0j,  # type: ignore[attr-defined]
                   g * conj_of(at ** b * at.log()))  # type: ignore[operator,attr-defined]
    return ga, gb


def _pow_vjp(ctx: Node, g: Tensor) -> tuple[Any, Any]:
    a, b = saved_pair(ctx)
    if any(isinstance(v, complex) or isinstance(v, Tensor) and v._dtype.category == 3
           for v in (a, b)):
        return _complex_pow_vjp(a, b, g)
    ga = gb = None
    if isinstance(a, Tensor):  # d/da a**b = b * a**(b-1), and 0 where b == 0 (PyTorch)
        if isinstance(b, Tensor):
            ga = where(b == 0, 0.0, g * b * a ** (b - 1))  # type: ignore[operator]
        else:
            ga = g * 0.0 if b == 0 else g * b * a ** (b - 1)  # type: ignore[operator]
    if isinstance(b, Tensor):  # d/db a**b = a**b * log(a), and 0 where a == 0 and b >= 0
        out = a ** b  # type: ignore[operator]
        if isinstance(a, Tensor):
            gb = where((a == 0) & (b >= 0), 0.0, g * out * a.log())  # type: ignore[operator]
        else:
            log_a = math.log(a) if a > 0 else (-math.inf if a == 0 else math.nan)
            gb = g * out * log_a  # type: ignore[operator]
            if a == 0:
                gb = where(b >= 0, 0.0, gb)
    return ga, gb


def _tie_split(ctx: Node, g: Tensor, loses: Callable[[Any, Any], Tensor]) -> tuple[Any, Any]:
    """PyTorch's rule: ties split ``g`` in half; a nan on either side gives both all of ``g``."""
    a, b = saved_pair(ctx)
    share = where(a == b, g * 0.5, g)  # type: ignore[operator]
    return where(loses(a, b), 0.0, share), where(loses(b, a), 0.0, share)


def _maximum_vjp(ctx: Node, g: Tensor) -> tuple[Any, Any]:
    return _tie_split(ctx, g, lambda a, b: a < b)


def _minimum_vjp(ctx: Node, g: Tensor) -> tuple[Any, Any]:
    return _tie_split(ctx, g, lambda a, b: a > b)


def _atan2_vjp(ctx: Node, g: Tensor) -> tuple[Any, Any]:
    """0 at (0, 0) (and wherever ``a*a + b*b`` underflows to 0), as in PyTorch."""
    a, b = saved_pair(ctx)
    denom = a * a + b * b  # type: ignore[operator]
    zero = denom == 0
    recip = where(zero, 0.0, 1.0 / where(zero, 1.0, denom))
    return g * b * recip, -g * a * recip  # type: ignore[operator]


def _remainder_vjp(ctx: Node, g: Tensor) -> tuple[Any, Any]:
    a, b = saved_pair(ctx)
    return g, -g * binary(SPECS["floor_divide"], a, b)  # type: ignore[operator]


def _zero_vjp(ctx: Node, g: Tensor) -> tuple[Any, Any]:
    return g * 0.0, g * 0.0  # type: ignore[operator]


SPECS: dict[str, BinarySpec] = {s.name: s for s in (
    BinarySpec("add", "arith", _add_vjp, "none"),
    BinarySpec("sub", "arith", _sub_vjp, "none"),
    BinarySpec("mul", "arith", _mul_vjp, "cross"),
    BinarySpec("div", "true_div", _div_vjp, "divisor"),
    BinarySpec("floor_divide", "arith", _zero_vjp, "none"),
    BinarySpec("remainder", "arith", _remainder_vjp),
    BinarySpec("pow", "arith", _pow_vjp),
    BinarySpec("maximum", "arith", _maximum_vjp),
    BinarySpec("minimum", "arith", _minimum_vjp),
    BinarySpec("atan2", "float", _atan2_vjp),
    *(BinarySpec(n, "compare") for n in ("eq", "ne", "lt", "le", "gt", "ge")),
    *(BinarySpec(n, "logical") for n in ("logical_and", "logical_or", "logical_xor")),
    *(BinarySpec(n, "bitwise") for n in ("bitwise_and", "bitwise_or", "bitwise_xor",
                                          "left_shift", "right_shift")),
)}


def _check_inplace_target(self: Tensor, other_shape: tuple[int, ...], op: str) -> None:
    check(broadcast_shapes(self.shape, other_shape, op=op) == self.shape, op,
          lambda: f"output with shape {self.shape} doesn't match the broadcast shape "
          f"{broadcast_shapes(self.shape, other_shape, op=op)}", ShapeError)
    check(all(s != 0 or n <= 1 for n, s in zip(self.shape, self._strides, strict=True)), op,
          "unsupported operation: more than one element of the written-to tensor refers to a "
          "single memory location; clone() it first", GTensorError)


_writable = PlanCache()  # in-place targets whose layout passed _check_inplace_target


def _check_target_once(self: Tensor, op: str) -> None:
    """:func:`_check_inplace_target` for an operand of ``self``'s shape, once per layout."""
    layout = (op, self._shape, self._strides)
    if layout not in _writable:
        _check_inplace_target(self, self._shape, op)
        _writable.add(layout, True)


def inplace_binary(spec: BinarySpec, self: Tensor, other: Any) -> Tensor:
    """Run ``spec`` writing into ``self`` (autograd goes through ``differentiable_inplace``)."""
    op = spec.name + "_"
    dt = self._dtype
    if spec.kind == "arith" and dt.category == 2 and (
            type(other) is float or type(other) is int or (
                isinstance(other, Tensor) and other._dtype is dt and other._shape == self._shape
                and (other._storage.device is self._storage.device
                     or other._storage.device == self._storage.device))):
        # a float tensor with a number or a tensor of its dtype and shape: nothing to promote,
        # broadcast or refuse, and the target's layout was checked once
        _check_target_once(self, op)
        if type(other) is float or type(other) is int:
            run_kernel(spec.name, (self, other), dt, self._storage.device, (dt, dt), out=self)
        else:
            planned_binary(spec.name, self, other, dt, self)
        self._storage.version += 1
        return self
    dev = device_of(op, (self, other))
    check_same_device(op, self.device, dev)
    other = as_operand(other, dev, op)
    kdt, want = _result_dtypes(spec, self, other)
    check(want is bool_ or want.category <= self.dtype.category, op, lambda: f"result type "
          f"{want.name} can't be cast to the desired output type {self.dtype.name}", DTypeError)
    _check_inplace_target(self, other.shape if isinstance(other, Tensor) else (), op)
    if self.dtype is kdt and want is not bool_:
        run_kernel(spec.name, (self, _cast(other, kdt)), kdt, dev, (kdt, kdt), out=self)
    else:
        self.copy_(binary(spec, self, other))  # type: ignore[attr-defined]
    self._bump_version()
    return self


def _inplace_scaled(spec: BinarySpec, self: Tensor, other: Any, alpha: Any) -> Tensor:
    """``self += alpha * other`` for add (``-=`` for sub), PyTorch's ``add_(other, alpha=)``.

    A float tensor of ``self``'s dtype and shape takes one ``add_scaled`` pass
    (an optimizer's ``p.add_(g, alpha=-lr)``) instead of a scaled copy and an add.
    """
    dt = self._dtype
    if dt.is_floating_point and type(alpha) in (float, int) and isinstance(other, Tensor) and \
            other._dtype is dt and other._shape == self._shape and \
            (other._storage.device is self._storage.device
             or other._storage.device == self._storage.device):
        _check_target_once(self, spec.name + "_")
        run_kernel("add_scaled", (self, other, alpha if spec.name == "add" else -alpha), dt,
                   self._storage.device, (dt, dt, dt), out=self)
        self._storage.version += 1
        return self
    return inplace_binary(spec, self, other * alpha)


def _define_binary(name: str) -> tuple[Callable[..., Tensor], Callable[..., Tensor]]:
    """The function of binary op ``name`` and its differentiable in-place form."""
    spec = SPECS[name]
    scaled = name in ("add", "sub")  # these take PyTorch's alpha: a + alpha * b

    def fn(input: Any, other: Any, *, alpha: Any = 1, out: Tensor | None = None) -> Tensor:
        check(alpha == 1 or scaled, name, "alpha is only accepted by add and sub", TypeError)
        return binary(spec, input, other if alpha == 1 else other * alpha, out)

    def raw_inplace(self: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
        if alpha == 1:
            return inplace_binary(spec, self, other)
        check(scaled, name + "_", "alpha is only accepted by add_ and sub_", TypeError)
        return _inplace_scaled(spec, self, other, alpha)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"Elementwise ``{name}`` of two tensors (or a tensor and a number), with "
                  "broadcasting and PyTorch's type promotion.")
    raw_inplace.__name__ = name + "_"
    return with_autocast(name, fn), differentiable_inplace(fn, elementwise=True)(raw_inplace)


add, add_ = _define_binary("add")
sub, sub_ = _define_binary("sub")
mul, mul_ = _define_binary("mul")
div, div_ = _define_binary("div")
floor_divide, floor_divide_ = _define_binary("floor_divide")
remainder, remainder_ = _define_binary("remainder")
pow, pow_ = _define_binary("pow")  # noqa: A001
maximum, maximum_ = _define_binary("maximum")
minimum, minimum_ = _define_binary("minimum")
atan2, atan2_ = _define_binary("atan2")
eq, eq_ = _define_binary("eq")
ne, ne_ = _define_binary("ne")
lt, lt_ = _define_binary("lt")
le, le_ = _define_binary("le")
gt, gt_ = _define_binary("gt")
ge, ge_ = _define_binary("ge")
logical_and, logical_and_ = _define_binary("logical_and")
logical_or, logical_or_ = _define_binary("logical_or")
logical_xor, logical_xor_ = _define_binary("logical_xor")
bitwise_and, bitwise_and_ = _define_binary("bitwise_and")
bitwise_or, bitwise_or_ = _define_binary("bitwise_or")
bitwise_xor, bitwise_xor_ = _define_binary("bitwise_xor")
left_shift, left_shift_ = _define_binary("left_shift")
right_shift, right_shift_ = _define_binary("right_shift")


def saved_operands(ctx: Node, names: tuple[str, ...]) -> list[Any]:
    """Operands of a node recorded by :func:`record_operands`: saved tensors in order, numbers
    from ``ctx.scalars``."""
    saved = list(ctx.saved_tensors)
    return [saved.pop(0) if ctx.scalars[i] is None else ctx.scalars[i]
            for i in range(len(names))]


def record_operands(name: str, out: Tensor, inputs: tuple[Any, ...], vjp: Any,
                    **attrs: Any) -> None:
    """Record a floating ``out`` of ``inputs`` (tensors saved, numbers kept as ``ctx.scalars``)."""
    if out.dtype.is_inexact:
        record(name, out, inputs, vjp, save=[t for t in inputs if isinstance(t, Tensor)],
               scalars=[None if isinstance(t, Tensor) else t for t in inputs], **attrs)


def _where_vjp(ctx: Node, g: Tensor) -> tuple[None, Any, Any]:
    cond, _, _ = saved_operands(ctx, ("cond", "a", "b"))
    zero = g * 0.0
    return None, where(cond, g, zero), where(cond, zero, g)


def where(condition: Any, input: Any, other: Any) -> Tensor:
    """Pick ``input`` where ``condition`` is true, else ``other`` (broadcasting all three).

    ``condition`` is a bool tensor (or Python bool); uint8 is accepted as
    PyTorch still does, other dtypes raise :class:`DTypeError`. It sits here,
    with the binary ops, because their VJPs use it.

    Example:
        >>> where(gt.tensor([True, False]), 1.0, 2.0).tolist()
        [1.0, 2.0]
    """
    dev = device_of("where", (condition, input, other))
    cond = as_operand(condition, dev, "where")
    cdt = cond.dtype.name if isinstance(cond, Tensor) else type(cond).__name__
    check(cdt in ("bool", "uint8"), "where", lambda: "expected condition to be a boolean "
          f"tensor, but got a tensor with dtype {cdt}", DTypeError)
    a, b = as_operand(input, dev, "where"), as_operand(other, dev, "where")
    if not isinstance(cond, Tensor) or cond.dtype is not bool_:
        cond = as_tensor(cond, device=dev).to(bool_)
    want = result_type(a, b, op="where")
    kdt = want
    out = run_kernel("where", (cond, _cast(a, kdt), _cast(b, kdt)), kdt, dev, (bool_, kdt, kdt))
    record_operands("where", out, (cond, a, b), _where_vjp)
    return out
