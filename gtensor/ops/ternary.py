"""Ternary elementwise ops: ``where``, ``clamp``, ``lerp``, ``addcmul``, ``addcdiv``."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..autograd.inplace import differentiable_inplace
from ..autograd.node import Node, record
from ..dtypes import bool_, float16, result_type
from ..errors import DTypeError, check
from ..shape_rules import broadcast_shapes
from ..tensor import Tensor, tensor_method
from .elementwise import _cast, as_operand, compute_dtype, device_of, finish, run_kernel


def _saved(ctx: Node, names: tuple[str, ...]) -> list[Any]:
    """Operands of a node: saved tensors in order, numbers from ``ctx.scalars``."""
    saved = list(ctx.saved_tensors)
    return [saved.pop(0) if ctx.scalars[i] is None else ctx.scalars[i]
            for i in range(len(names))]


def _record(name: str, out: Tensor, inputs: tuple[Any, ...], vjp: Any, **attrs: Any) -> None:
    if out.dtype.is_floating_point:
        record(name, out, inputs, vjp, save=[t for t in inputs if isinstance(t, Tensor)],
               scalars=[None if isinstance(t, Tensor) else t for t in inputs], **attrs)


def _where_vjp(ctx: Node, g: Tensor) -> tuple[None, Any, Any]:
    cond, _, _ = _saved(ctx, ("cond", "a", "b"))
    zero = g * 0.0  # type: ignore[operator]
    return None, where(cond, g, zero), where(cond, zero, g)


def where(condition: Any, input: Any, other: Any) -> Tensor:
    """Pick ``input`` where ``condition`` is true, else ``other`` (broadcasting all three).

    ``condition`` is a bool tensor (or Python bool); uint8 is accepted as
    PyTorch still does, other dtypes raise :class:`DTypeError`.

    Example:
        >>> where(gt.tensor([True, False]), 1.0, 2.0).tolist()  # doctest: +SKIP
        [1.0, 2.0]
    """
    dev = device_of("where", (condition, input, other))
    cond = as_operand(condition, dev, "where")
    cdt = cond.dtype.name if isinstance(cond, Tensor) else type(cond).__name__
    check(cdt in ("bool", "uint8"), "where", lambda: "expected condition to be a boolean "
          f"tensor, but got a tensor with dtype {cdt}", DTypeError)
    a, b = as_operand(input, dev, "where"), as_operand(other, dev, "where")
    if not isinstance(cond, Tensor) or cond.dtype is not bool_:
        from .creation import as_tensor

        cond = as_tensor(cond, device=dev).to(bool_)  # type: ignore[attr-defined]
    want = result_type(a, b)
    kdt = compute_dtype(want)
    out = run_kernel("where", (cond, _cast(a, kdt), _cast(b, kdt)), kdt, dev, (bool_, kdt, kdt))
    if want is float16:
        out = out.to(want)  # type: ignore[attr-defined]
    _record("where", out, (cond, a, b), _where_vjp)
    return out


tensor_method("where")(lambda self, condition, other: where(condition, self, other))


def _bound(value: Any, dt: Any, high: bool) -> Any:
    if value is not None:
        return value
    if dt.is_floating_point:
        return math.inf if high else -math.inf
    info = np.iinfo(dt.numpy) if dt.name != "bool" else None
    return (info.max if high else info.min) if info is not None else high


def _clamp_vjp(ctx: Node, g: Tensor) -> tuple[Any, Any, Any]:
    x, lo, hi = _saved(ctx, ("x", "lo", "hi"))
    inside = (x >= lo) & (x <= hi)  # type: ignore[operator]
    zero = g * 0.0  # type: ignore[operator]
    g_lo = where(x < lo, g, zero) if isinstance(lo, Tensor) else None  # type: ignore[operator]
    g_hi = where(x > hi, g, zero) if isinstance(hi, Tensor) else None  # type: ignore[operator]
    return where(inside, g, zero), g_lo, g_hi


def clamp(input: Tensor, min: Any = None, max: Any = None, *,  # noqa: A002
          out: Tensor | None = None) -> Tensor:
    """Limit ``input`` to ``[min, max]`` (either bound may be a tensor or None).

    Example:
        >>> clamp(gt.tensor([-2.0, 0.5, 3.0]), -1, 1).tolist()  # doctest: +SKIP
        [-1.0, 0.5, 1.0]
    """
    check(min is not None or max is not None, "clamp", "at least one of min and max must be "
          "given", ValueError)
    dev = device_of("clamp", (input, min, max))
    x = as_operand(input, dev, "clamp")
    lo = as_operand(_bound(min, input.dtype, False), dev, "clamp")
    hi = as_operand(_bound(max, input.dtype, True), dev, "clamp")
    want = result_type(x, *(t for t in (min, max) if t is not None))
    kdt = compute_dtype(want)
    result = run_kernel("clamp", (_cast(x, kdt), _cast(lo, kdt), _cast(hi, kdt)), kdt, dev,
                        (kdt, kdt, kdt))
    if want is float16:
        result = result.to(want)  # type: ignore[attr-defined]
    _record("clamp", result, (x, lo, hi), _clamp_vjp)
    return finish(result, want, out, "clamp") if out is not None else result


def _raw_clamp_(self: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    self.copy_(clamp(self, min, max))  # type: ignore[attr-defined]
    return self


tensor_method("clamp", "clip")(clamp)
tensor_method("clamp_", "clip_")(differentiable_inplace(clamp)(_raw_clamp_))


def _lerp_vjp(ctx: Node, g: Tensor) -> tuple[Any, Any, Any]:
    a, b, w = _saved(ctx, ("a", "b", "w"))
    return g * (1.0 - w), g * w, (g * (b - a) if isinstance(w, Tensor) else None)  # type: ignore


def lerp(input: Tensor, end: Any, weight: Any) -> Tensor:
    """``input + weight * (end - input)``, exact at both ends.

    Example:
        >>> lerp(gt.zeros(2), gt.ones(2), 0.25).tolist()  # doctest: +SKIP
        [0.25, 0.25]
    """
    return _float_ternary("lerp", (input, end, weight), (), _lerp_vjp)


def _addcmul_vjp(ctx: Node, g: Tensor) -> tuple[Any, Any, Any]:
    _, a, b = _saved(ctx, ("x", "a", "b"))
    v = ctx.value
    return g, g * b * v, g * a * v  # type: ignore[operator]


def _addcdiv_vjp(ctx: Node, g: Tensor) -> tuple[Any, Any, Any]:
    _, a, b = _saved(ctx, ("x", "a", "b"))
    v = ctx.value
    ga = g * v / b  # type: ignore[operator]
    return g, ga, -ga * a / b  # type: ignore[operator]


def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: float = 1) -> Tensor:
    """``input + value * tensor1 * tensor2``.

    Example:
        >>> addcmul(gt.zeros(1), gt.ones(1), gt.ones(1), value=2).tolist()  # doctest: +SKIP
        [2.0]
    """
    return _float_ternary("addcmul", (input, tensor1, tensor2), (value,), _addcmul_vjp,
                          value=value)


def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: float = 1) -> Tensor:
    """``input + value * tensor1 / tensor2``.

    Example:
        >>> addcdiv(gt.zeros(1), gt.ones(1), gt.full((1,), 4.0)).tolist()  # doctest: +SKIP
        [0.25]
    """
    return _float_ternary("addcdiv", (input, tensor1, tensor2), (value,), _addcdiv_vjp,
                          value=value)


def _float_ternary(name: str, args: tuple[Any, ...], params: tuple[Any, ...], vjp: Any,
                   into: Tensor | None = None, **attrs: Any) -> Tensor:
    dev = device_of(name, args)
    ops = tuple(as_operand(a, dev, name) for a in args)
    want = result_type(*ops)
    if name in ("lerp", "addcdiv"):
        check(want.is_floating_point, name, lambda: f"expected floating point tensors, got "
              f"{want.name}", DTypeError)
    kdt = compute_dtype(want)
    values = tuple(_cast(o, kdt) for o in ops) + params
    if into is not None and into.dtype is kdt and broadcast_shapes(
            *(o.shape for o in ops if isinstance(o, Tensor)), op=name) == into.shape:
        run_kernel(name, values, kdt, dev, (kdt, kdt, kdt), out=into)  # the in-place fast path
        into._bump_version()
        return into
    result = run_kernel(name, values, kdt, dev, (kdt, kdt, kdt))
    if want is float16:
        result = result.to(want)  # type: ignore[attr-defined]
    if into is not None:
        return into.copy_(result)  # type: ignore[attr-defined]
    _record(name, result, ops, vjp, **attrs)
    return result


def _raw_lerp_(self: Tensor, end: Any, weight: Any) -> Tensor:
    return _float_ternary("lerp", (self, end, weight), (), _lerp_vjp, into=self)


def _raw_addcmul_(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: float = 1) -> Tensor:
    return _float_ternary("addcmul", (self, tensor1, tensor2), (value,), _addcmul_vjp,
                          into=self)


def _raw_addcdiv_(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: float = 1) -> Tensor:
    return _float_ternary("addcdiv", (self, tensor1, tensor2), (value,), _addcdiv_vjp,
                          into=self)


for _fn, _raw in ((lerp, _raw_lerp_), (addcmul, _raw_addcmul_), (addcdiv, _raw_addcdiv_)):
    _raw.__name__ = _fn.__name__ + "_"
    tensor_method(_fn.__name__)(_fn)
    tensor_method(_fn.__name__ + "_")(differentiable_inplace(_fn)(_raw))

EXPORTS = ("where", "clamp", "lerp", "addcmul", "addcdiv")
