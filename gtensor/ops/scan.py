"""cumsum and cumprod along one dim, with their VJPs.

The kernels accumulate in float64 (floats) or int64 (integers, bools), so
integer inputs give int64 results as in PyTorch.
"""

from __future__ import annotations

from typing import Any

from ..autograd.node import Node, record
from ..dtypes import as_dtype, float16, float32, int64
from ..shape_rules import wrap_dim
from ..tensor import Tensor, tensor_method
from .dispatch import launch


def _cumsum_vjp(ctx: Node, g: Tensor) -> Tensor:
    # reversed cumulative sum: total - inclusive prefix + own term
    total = g.sum(dim=ctx.dim, keepdim=True)  # type: ignore[attr-defined]
    return total - g.cumsum(ctx.dim) + g  # type: ignore[attr-defined]


def _cumprod_vjp(ctx: Node, g: Tensor) -> Tensor:
    """Exact where ``x`` has no zeros (PyTorch's fast path); nan/inf at zeros."""
    x, y = ctx.saved_tensors
    gy = g * y
    rev = gy.sum(dim=ctx.dim, keepdim=True) - gy.cumsum(ctx.dim) + gy  # type: ignore[attr-defined]
    return rev / x


def _scan(op: str, input: Tensor, dim: int, dtype: Any, vjp: Any) -> Tensor:
    x = input if dtype is None else input.to(as_dtype(dtype))  # type: ignore[attr-defined]
    d = wrap_dim(dim, x.ndim, op)
    want = x.dtype if x.dtype.is_floating_point else int64
    if x.dtype is float16:
        x = x.to(float32)  # type: ignore[attr-defined]
    out = Tensor.empty(x.shape, x.dtype if x.dtype.is_floating_point else int64, x.device)
    if out.numel():
        launch(op, x.device, (x.dtype,), x._native(), out._native(), d)
    if out.dtype is not want:
        out = out.to(want)  # type: ignore[attr-defined]
    if want.is_floating_point:
        record(op, out, (x,), vjp, save=[x, out], dim=d)
    return out


@tensor_method()
def cumsum(input: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    """Running sum along ``dim``.

    Example:
        >>> gt.tensor([1, 2, 3]).cumsum(0).tolist()  # doctest: +SKIP
        [1, 3, 6]
    """
    return _scan("cumsum", input, dim, dtype, _cumsum_vjp)


@tensor_method()
def cumprod(input: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    """Running product along ``dim``.

    Example:
        >>> gt.tensor([1.0, 2.0, 3.0]).cumprod(0).tolist()  # doctest: +SKIP
        [1.0, 2.0, 6.0]
    """
    return _scan("cumprod", input, dim, dtype, _cumprod_vjp)


EXPORTS = ("cumsum", "cumprod")
