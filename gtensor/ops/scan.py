"""cumsum and cumprod along one dim, with their VJPs.

The kernels accumulate in float64 (floats) or int64 (integers, bools), so
integer inputs give int64 results as in PyTorch.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from ..dtypes import as_dtype, int64
from ..graph.autocast_mode import autocast_inputs
from ..graph.grad_mode import is_grad_enabled
from ..graph.node import Node, record
from ..shape_rules import wrap_dim
from ..tensor_base import TensorBase
from .creation import arange
from .dispatch import bits_native, launch
from .elementwise import finish
from .ternary import where
from .tracing import library_call

if TYPE_CHECKING:
    from ..tensor import Tensor


def _reversed_cumsum(t: Tensor, d: int) -> Tensor:
    """``t[k] + t[k+1] + ...`` along ``d`` (no cancellation, unlike total minus prefix)."""
    return t.flip(d).cumsum(d).flip(d)


def _cumsum_vjp(ctx: Node, g: Tensor) -> Tensor:
    return _reversed_cumsum(g, ctx.dim)


def _cumprod_vjp(ctx: Node, g: Tensor) -> Tensor:
    """Exact with any zeros (PyTorch's formulas).

    Without zeros: the reversed cumulative sum of ``g * y`` divided by ``x``. With
    zeros, when the gradient itself is not recorded, in O(n): that formula before
    the first zero; at the first zero the sum of ``g * cumprod(x with that zero
    set to 1)`` up to the second zero; 0 after it. When it is recorded
    (``create_graph``), the products that omit each element, which stay
    differentiable at the zeros.
    """
    x, y = ctx.saved_tensors
    d = ctx.dim
    if x.ndim == 0 or x.shape[d] <= 1:
        return g
    zero = x == 0
    if is_grad_enabled():
        if bool(zero.any()):
            return _omitted_products_grad(x, g, d)
        return _reversed_cumsum(g * y, d) / x
    z = zero.cumsum(d)
    before = z == 0
    grad = _reversed_cumsum(where(before, g * y, 0.0), d) / where(before, x, 1.0)
    first = zero & (z == 1)
    run = where(z == 1, g * where(first, 1.0, x).cumprod(d), 0.0)
    at_first = run.sum(dim=d, keepdim=True)
    return where(before, grad, where(first, at_first, 0.0))


def _omitted_products_grad(x: Tensor, g: Tensor, d: int) -> Tensor:
    """``grad[k] = sum over i >= k of g[i] * prod(x[j] for j <= i, j != k)``, in O(n^2)."""
    n = x.shape[d]
    xs = x.transpose(d, -1).unsqueeze(-2)
    gs = g.transpose(d, -1).unsqueeze(-2)
    k = arange(n, device=x.device).reshape(n, 1)
    i = arange(n, device=x.device).reshape(1, n)
    omitted = where(k == i, 1.0, xs).cumprod(-1)
    grad = where(i >= k, omitted * gs, 0.0).sum(-1)
    return grad.transpose(d, -1)


def _scan(op: str, input: Tensor, dim: int, dtype: Any, vjp: Any) -> Tensor:
    x = input if dtype is None else input.to(as_dtype(dtype))
    d = wrap_dim(dim, x.ndim, op)
    want = x.dtype if x.dtype.is_inexact else int64
    out = library_call(op, functools.partial(_scanned, op=op, dim=d, out_dt=want), (x,),
                       x.shape, want)
    if want.is_inexact:
        record(op, out, (x,), vjp, save=[x, out], dim=d)
    return out


def _scanned(x: Tensor, op: str, dim: int, out_dt: Any) -> Tensor:
    """The scan itself, into a new contiguous tensor (no recording)."""
    out = TensorBase.empty(x.shape, out_dt, x.device)
    if out.numel():
        launch(op, x.device, (x.dtype,), bits_native(x), bits_native(out), dim)
    return out


def cumsum(input: Tensor, dim: int, *, dtype: Any = None, out: Tensor | None = None) -> Tensor:
    """Running sum along ``dim``.

    Example:
        >>> gt.tensor([1, 2, 3]).cumsum(0).tolist()
        [1, 3, 6]
    """
    (input,) = autocast_inputs("cumsum", input)
    result = _scan("cumsum", input, dim, dtype, _cumsum_vjp)
    return result if out is None else finish(result, result.dtype, out, "cumsum")


def cumprod(input: Tensor, dim: int, *, dtype: Any = None, out: Tensor | None = None) -> Tensor:
    """Running product along ``dim``.

    Example:
        >>> gt.tensor([1.0, 2.0, 3.0]).cumprod(0).tolist()
        [1.0, 2.0, 6.0]
    """
    (input,) = autocast_inputs("cumprod", input)
    result = _scan("cumprod", input, dim, dtype, _cumprod_vjp)
    return result if out is None else finish(result, result.dtype, out, "cumprod")


EXPORTS = ("cumsum", "cumprod")
