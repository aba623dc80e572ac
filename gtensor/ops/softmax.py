"""softmax and log_softmax along one dim, numerically stable, with their VJPs.

One kernel per call: the max along the line is subtracted before ``exp``, and
the exponentials are summed in float64, so large logits neither overflow nor
lose the small terms. The backward is one kernel as well
(``softmax_backward`` / ``log_softmax_backward``) unless the gradient must
itself be differentiable (``create_graph``) or the dtype is a half type; then
it is written in ops.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..dtypes import as_dtype, float32
from ..errors import DTypeError, check
from ..graph.autocast_mode import autocast_inputs
from ..graph.grad_mode import is_grad_enabled, no_grad
from ..graph.node import Node, record
from ..shape_rules import wrap_dim
from ..tensor_base import TensorBase
from . import tracing
from .dispatch import bits_native, launch

if TYPE_CHECKING:
    from ..tensor import Tensor


def _fused_grad(op: str, y: Tensor, g: Tensor, d: int) -> Tensor | None:
    """The backward as one kernel, or None where it must be written in ops."""
    if (is_grad_enabled() or y.dtype.is_half or g.dtype != y.dtype or y.ndim == 0
            or tracing.state.trace is not None):
        return None
    g = g.expand(y.shape).contiguous()  # type: ignore[attr-defined]
    out = TensorBase.empty(y.shape, y.dtype, y.device)
    if out.numel():
        launch(op, y.device, (y.dtype,), y.contiguous()._native(),  # type: ignore[attr-defined]
               g._native(), out._native(), d)
    return out


def _softmax_vjp(ctx: Node, g: Tensor) -> Tensor:
    (y,) = ctx.saved_tensors
    fused = _fused_grad("softmax_backward", y, g, ctx.dim)  # type: ignore[attr-defined]
    if fused is not None:
        return fused
    return y * (g - (g * y).sum(dim=ctx.dim, keepdim=True))  # type: ignore[attr-defined]


def _log_softmax_vjp(ctx: Node, g: Tensor) -> Tensor:
    (y,) = ctx.saved_tensors
    fused = _fused_grad("log_softmax_backward", y, g, ctx.dim)  # type: ignore[attr-defined]
    if fused is not None:
        return fused
    return g - y.exp() * g.sum(dim=ctx.dim, keepdim=True)  # type: ignore[attr-defined]


def _composed(op: str, x: Tensor, d: int) -> Tensor:
    """The kernel's computation written with ops, for ``gt.compile`` to fuse (max shifted)."""
    shifted = x - x.amax(dim=d, keepdim=True)  # type: ignore[attr-defined]
    total = shifted.exp().sum(dim=d, keepdim=True)
    return shifted - total.log() if op == "log_softmax" else shifted.exp() / total


def _run(op: str, input: Tensor, dim: int, dtype: Any, vjp: Any) -> Tensor:
    x = input if dtype is None else input.to(as_dtype(dtype))
    check(x.dtype.is_floating_point, op, lambda: f"expected a floating point input, got "
          f"{x.dtype.name}; pass dtype=", DTypeError)
    d = wrap_dim(dim, x.ndim, op)
    if tracing.state.trace is not None:
        with no_grad():  # traced as the ops it is made of; differentiated as one op below
            wide = x.to(float32) if x.dtype.is_half else x  # the kernel's float32 statistics
            out = _composed(op, wide, d).to(x.dtype)
    else:
        out = TensorBase.empty(x.shape, x.dtype, x.device)
        if out.numel():
            # a 0-d input is a line of one element
            kx, kout = (x.reshape((1,)), out.reshape((1,))) if x.ndim == 0 else (x, out)
            launch(op, x.device, (x.dtype,), bits_native(kx), bits_native(kout), d)
    record(op, out, (input if dtype is None else x,), vjp, save=[out], dim=d)
    return out


def softmax(input: Tensor, dim: int, dtype: Any = None) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``dim``.

    Example:
        >>> gt.tensor([1000.0, 1000.0]).softmax(0).tolist()
        [0.5, 0.5]
    """
    (input,) = autocast_inputs("softmax", input)
    return _run("softmax", input, dim, dtype, _softmax_vjp)


def log_softmax(input: Tensor, dim: int, dtype: Any = None) -> Tensor:
    """``x - logsumexp(x)`` along ``dim``.

    Example:
        >>> gt.tensor([0.0, 0.0]).log_softmax(0).tolist()
        [-0.6931471824645996, -0.6931471824645996]
    """
    (input,) = autocast_inputs("log_softmax", input)
    return _run("log_softmax", input, dim, dtype, _log_softmax_vjp)


EXPORTS = ("softmax", "log_softmax")
