"""Ternary elementwise ops: ``clamp``, ``lerp``, ``addcmul``, ``addcdiv`` (``where`` is in
``elementwise.py``: the binary ops' VJPs use it).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import result_type
from ..errors import DTypeError, check
from ..graph.autocast_mode import autocast_inputs
from ..graph.inplace import differentiable_inplace
from ..graph.node import Node
from ..shape_rules import broadcast_shapes
from ..tensor_base import TensorBase
from .elementwise import (
    _cast,
    as_operand,
    device_of,
    finish,
    record_operands,
    saved_operands,
    where,
)
from .launch_plans import run_kernel

if TYPE_CHECKING:
    from ..tensor import Tensor


def _bound(value: Any, dt: Any, high: bool) -> Any:
    if value is not None:
        return value
    if dt.is_floating_point:
        return math.inf if high else -math.inf
    info = np.iinfo(dt.numpy) if dt.name != "bool" else None
    return (info.max if high else info.min) if info is not None else high


def _clamp_vjp(ctx: Node, g: Tensor) -> tuple[Any, Any, Any]:
    x, lo, hi = saved_operands(ctx, ("x", "lo", "hi"))
    inside = (x >= lo) & (x <= hi)  # zeros, not g * 0: a nan or inf in g stays out (PyTorch)
    g_lo = where(x < lo, g, 0.0) if isinstance(lo, TensorBase) else None
    g_hi = where(x > hi, g, 0.0) if isinstance(hi, TensorBase) else None
    return where(inside, g, 0.0), g_lo, g_hi


def clamp(input: Tensor, min: Any = None, max: Any = None, *,  # noqa: A002
          out: Tensor | None = None) -> Tensor:
    """Limit ``input`` to ``[min, max]`` (either bound may be a tensor or None).

    Example:
        >>> clamp(gt.tensor([-2.0, 0.5, 3.0]), -1, 1).tolist()
        [-1.0, 0.5, 1.0]
    """
    check(min is not None or max is not None, "clamp", "at least one of min and max must be "
          "given", ValueError)
    dev = device_of("clamp", (input, min, max))
    x = as_operand(input, dev, "clamp")
    lo = as_operand(_bound(min, input.dtype, False), dev, "clamp")
    hi = as_operand(_bound(max, input.dtype, True), dev, "clamp")
    want = result_type(x, *(t for t in (min, max) if t is not None), op="clamp")
    kdt = want
    result = run_kernel("clamp", (_cast(x, kdt), _cast(lo, kdt), _cast(hi, kdt)), kdt, dev,
                        (kdt, kdt, kdt))
    record_operands("clamp", result, (x, lo, hi), _clamp_vjp)
    return finish(result, want, out, "clamp") if out is not None else result


@differentiable_inplace(clamp)
def clamp_(self: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    """In-place :func:`clamp`."""
    self.copy_(clamp(self, min, max))
    return self


def _lerp_vjp(ctx: Node, g: Tensor) -> tuple[Any, Any, Any]:
    a, b, w = saved_operands(ctx, ("a", "b", "w"))
    return g * (1.0 - w), g * w, (g * (b - a) if isinstance(w, TensorBase) else None)


def lerp(input: Tensor, end: Any, weight: Any) -> Tensor:
    """``input + weight * (end - input)``, exact at both ends.

    Example:
        >>> lerp(gt.zeros(2), gt.ones(2), 0.25).tolist()
        [0.25, 0.25]
    """
    return _float_ternary("lerp", (input, end, weight), (), _lerp_vjp)


def _addcmul_vjp(ctx: Node, g: Tensor) -> tuple[Any, Any, Any]:
    _, a, b = saved_operands(ctx, ("x", "a", "b"))
    v = ctx.value
    return g, g * b * v, g * a * v


def _addcdiv_vjp(ctx: Node, g: Tensor) -> tuple[Any, Any, Any]:
    _, a, b = saved_operands(ctx, ("x", "a", "b"))
    v = ctx.value
    ga = g * v / b
    return g, ga, -ga * a / b


def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: float = 1) -> Tensor:
    """``input + value * tensor1 * tensor2``.

    Example:
        >>> addcmul(gt.zeros(1), gt.ones(1), gt.ones(1), value=2).tolist()
        [2.0]
    """
    input, tensor1, tensor2 = autocast_inputs("addcmul", input, tensor1, tensor2)
    return _float_ternary("addcmul", (input, tensor1, tensor2), (value,), _addcmul_vjp,
                          value=value)


def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: float = 1) -> Tensor:
    """``input + value * tensor1 / tensor2``.

    Example:
        >>> addcdiv(gt.zeros(1), gt.ones(1), gt.full((1,), 4.0)).tolist()
        [0.25]
    """
    input, tensor1, tensor2 = autocast_inputs("addcdiv", input, tensor1, tensor2)
    return _float_ternary("addcdiv", (input, tensor1, tensor2), (value,), _addcdiv_vjp,
                          value=value)


def _float_ternary(name: str, args: tuple[Any, ...], params: tuple[Any, ...], vjp: Any,
                   into: Tensor | None = None, **attrs: Any) -> Tensor:
    dev = device_of(name, args)
    ops = tuple(as_operand(a, dev, name) for a in args)
    want = result_type(*ops, op=name)
    if name in ("lerp", "addcdiv"):
        check(want.is_floating_point, name, lambda: f"expected floating point tensors, got "
              f"{want.name}", DTypeError)
    kdt = want
    values = tuple(_cast(o, kdt) for o in ops) + params
    if into is not None and into.dtype is kdt and broadcast_shapes(
            *(o.shape for o in ops if isinstance(o, TensorBase)), op=name) == into.shape:
        run_kernel(name, values, kdt, dev, (kdt, kdt, kdt), out=into)  # the in-place fast path
        into._bump_version()
        return into
    result = run_kernel(name, values, kdt, dev, (kdt, kdt, kdt))
    if into is not None:
        return into.copy_(result)
    record_operands(name, result, ops, vjp, **attrs)
    return result


@differentiable_inplace(lerp)
def lerp_(self: Tensor, end: Any, weight: Any) -> Tensor:
    """In-place :func:`lerp`."""
    return _float_ternary("lerp", (self, end, weight), (), _lerp_vjp, into=self)


@differentiable_inplace(addcmul)
def addcmul_(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: float = 1) -> Tensor:
    """In-place :func:`addcmul`."""
    return _float_ternary("addcmul", (self, tensor1, tensor2), (value,), _addcmul_vjp,
                          into=self)


@differentiable_inplace(addcdiv)
def addcdiv_(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: float = 1) -> Tensor:
    """In-place :func:`addcdiv`."""
    return _float_ternary("addcdiv", (self, tensor1, tensor2), (value,), _addcdiv_vjp,
                          into=self)


EXPORTS = ("where", "clamp", "lerp", "addcmul", "addcdiv")
