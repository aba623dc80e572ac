"""Pooling: ``max_pool2d`` (with indices), ``avg_pool2d`` and ``adaptive_avg_pool2d``.

Average pools are linear maps recorded through :func:`linear_map`: the VJP is
the transpose kernel, whose own VJP is the forward again, so gradients of any
order are pool kernels. ``max_pool2d``'s VJP scatters ``g`` to the saved
argmax positions (a gathering kernel, ``max_pool2d_backward``); that scatter's
VJP reads back at the same positions (``plane_gather``), and vice versa.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..dtypes import int64
from ..errors import DTypeError, ShapeError, check
from ..graph.grad_mode import no_grad
from ..graph.node import Node, record
from ..tensor_base import TensorBase
from .conv import pair
from .dispatch import launch
from .tracing import library_call, library_calls
from .widen import half_in_float32

if TYPE_CHECKING:
    from ..tensor import Tensor


def _native(t: Tensor) -> Any:
    """The native array of ``t`` in C order; it holds a temporary copy's storage alive."""
    with no_grad():
        return t.contiguous()._native()


def linear_map(x: Tensor, out_shape: tuple[int, ...], op: str, transpose: str,
               args: tuple[Any, ...]) -> Tensor:
    """Apply kernel ``op(x, out, *args)`` and record a VJP running kernel ``transpose``.

    ``transpose`` must be the adjoint of ``op`` with the same ``args``; the
    recorded VJP is itself a :func:`linear_map`, so it differentiates again.

    Example:
        >>> x = gt.arange(16.0).view(1, 1, 4, 4)
        >>> ops = ("adaptive_avg_pool2d", "adaptive_avg_pool2d_backward")
        >>> linear_map(x, (1, 1, 2, 2), *ops, ()).tolist()
        [[[[2.5, 4.5], [10.5, 12.5]]]]
    """
    (out,) = _launched(op, (x,), [(out_shape, x.dtype)], *args)
    record(op, out, (x,), _linear_vjp, in_shape=x.shape, fwd=op, bwd=transpose, args=args)
    return out


def _launched(op: str, inputs: tuple[Tensor, ...], outputs: list[tuple[tuple[int, ...], Any]],
              *args: Any) -> tuple[Tensor, ...]:
    """Run kernel ``op(*inputs, *outputs, *args)`` (inputs in C order) into new tensors of
    ``outputs``' shapes and dtypes; under ``gt.compile`` a library call run at every call."""
    def run(*xs: Tensor) -> tuple[Tensor, ...]:
        dev = xs[0].device
        outs = tuple(TensorBase.empty(shape, dt, dev) for shape, dt in outputs)
        launch(op, dev, (xs[0].dtype,), *[_native(x) for x in xs],
               *[o._native() for o in outs], *args)
        return outs

    if len(outputs) == 1:
        return (library_call(op, lambda *xs: run(*xs)[0], inputs, *outputs[0]),)
    return library_calls(op, run, inputs, outputs)


def _linear_vjp(ctx: Node, g: Tensor) -> Tensor:
    return linear_map(g, ctx.in_shape, ctx.bwd, ctx.fwd, ctx.args)


def batched(input: Any, op: str) -> tuple[Tensor, bool]:
    """Return a 4-D float view of ``input`` (unbatched 3-D gets N = 1) and whether it was 3-D.

    Example:
        >>> batched(gt.ones(3, 4, 4), "avg_pool2d")[0].shape
        (1, 3, 4, 4)
    """
    check(isinstance(input, TensorBase), op, "input must be a tensor", TypeError)
    check(input.ndim in (3, 4), op,
          lambda: f"expected 3-D or 4-D input, got shape {input.shape}", ShapeError)
    check(input.dtype.name in ("float32", "float64"), op,
          lambda: f"expected a float32 or float64 tensor, got {input.dtype.name}", DTypeError)
    if input.ndim == 3:
        return input.unsqueeze(0), True
    return input, False


def _unbatch(t: Tensor, squeeze: bool) -> Tensor:
    return t.squeeze(0) if squeeze else t


def pool_out(size: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    """PyTorch's pooled size: the last window must start inside the input or the left padding.

    Example:
        >>> pool_out(5, 2, 2, 0, 1, True), pool_out(5, 2, 2, 0, 1, False)
        (3, 2)
    """
    span = size + 2 * p - d * (k - 1) - 1
    out = (span + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _window(op: str, x: Tensor, kernel_size: Any, stride: Any, padding: Any, dilation: Any,
            ceil_mode: bool) -> tuple[tuple[int, int], ...]:
    k = pair(kernel_size, op, "kernel_size", 1)
    s = k if stride is None or (not isinstance(stride, int) and len(stride) == 0) else \
        pair(stride, op, "stride", 1)
    p, d = pair(padding, op, "padding", 0), pair(dilation, op, "dilation", 1)
    check(all(2 * pi <= di * (ki - 1) + 1 for pi, ki, di in zip(p, k, d, strict=True)), op,
          lambda: f"padding {p} should be at most half of the effective kernel size", ValueError)
    out_hw = tuple(pool_out(x.shape[2 + i], k[i], s[i], p[i], d[i], ceil_mode) for i in range(2))
    check(all(v > 0 for v in out_hw), op, lambda: (
        f"input of spatial size {x.shape[2:]} gives output size {out_hw}, which is too small"),
          ShapeError)
    return k, s, p, d, out_hw  # type: ignore[return-value]


@half_in_float32
def max_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               dilation: Any = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """2-D max pooling over ``(N, C, H, W)`` or ``(C, H, W)`` input.

    Args:
        input: float tensor.
        kernel_size: int or pair.
        stride: int or pair (default: ``kernel_size``).
        padding: implicit ``-inf`` padding, at most half the effective kernel.
        dilation: spacing between window elements.
        ceil_mode: round the output size up (windows starting in the right
            padding are dropped).
        return_indices: also return the int64 flat ``h*W + w`` position of
            each maximum within its plane.

    Returns:
        The pooled tensor, or ``(pooled, indices)``.

    Example:
        >>> gt.max_pool2d(gt.randn(1, 1, 4, 4), 2).shape
        (1, 1, 2, 2)
    """
    op = "max_pool2d"
    x, squeeze = batched(input, op)
    k, s, p, d, out_hw = _window(op, x, kernel_size, stride, padding, dilation, ceil_mode)
    shape = x.shape[:2] + out_hw
    out, idx = _launched(op, (x,), [(shape, x.dtype), (shape, int64)], k, s, p, d)
    geom = (k, s, p, d)
    record(op, out, (x,), _max_pool_vjp, save=(idx,), in_shape=x.shape, geom=geom)
    if return_indices:
        return _unbatch(out, squeeze), _unbatch(idx, squeeze)
    return _unbatch(out, squeeze)


def _max_pool_vjp(ctx: Node, g: Tensor) -> Tensor:
    (idx,) = ctx.saved_tensors
    return max_pool_scatter(g, idx, ctx.geom, ctx.in_shape)


def max_pool_scatter(g: Tensor, idx: Tensor, geom: tuple[Any, ...],
                     in_shape: tuple[int, ...]) -> Tensor:
    """Route ``g`` to the max-pool argmax positions ``idx`` (``max_pool2d``'s VJP, differentiable).

    Example:
        >>> geom, idx = ((2, 2), (2, 2), (0, 0), (1, 1)), gt.tensor([[[[3]]]])
        >>> max_pool_scatter(gt.ones(1, 1, 1, 1), idx, geom, (1, 1, 2, 2)).tolist()
        [[[[0.0, 0.0], [0.0, 1.0]]]]
    """
    (out,) = _launched("max_pool2d_backward", (g, idx), [(in_shape, g.dtype)], *geom)
    record("max_pool2d_backward", out, (g,), _scatter_vjp, save=(idx,), geom=geom)
    return out


def _scatter_vjp(ctx: Node, gg: Tensor) -> Tensor:
    (idx,) = ctx.saved_tensors
    return plane_gather(gg, idx, ctx.geom)


def plane_gather(x: Tensor, idx: Tensor, geom: tuple[Any, ...]) -> Tensor:
    """Read ``x[n, c].flat[idx[n, c, ...]]`` (the VJP of :func:`max_pool_scatter`).

    Example:
        >>> geom, idx = ((2, 2), (2, 2), (0, 0), (1, 1)), gt.tensor([[[[3]]]])
        >>> plane_gather(gt.tensor([[[[1.0, 2.0], [3.0, 4.0]]]]), idx, geom).tolist()
        [[[[4.0]]]]
    """
    (out,) = _launched("plane_gather", (x, idx), [(idx.shape, x.dtype)])
    record("max_pool2d_gather", out, (x,), _gather_vjp, save=(idx,), geom=geom,
           in_shape=x.shape)
    return out


def _gather_vjp(ctx: Node, g: Tensor) -> Tensor:
    (idx,) = ctx.saved_tensors
    return max_pool_scatter(g, idx, ctx.geom, ctx.in_shape)


@half_in_float32
def avg_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Tensor:
    """2-D average pooling over ``(N, C, H, W)`` or ``(C, H, W)`` input.

    Args:
        input: float tensor.
        kernel_size: int or pair.
        stride: int or pair (default: ``kernel_size``).
        padding: implicit zero padding, at most half the kernel.
        ceil_mode: round the output size up.
        count_include_pad: count padded zeros in the divisor.
        divisor_override: positive int used as every window's divisor.

    Returns:
        The pooled tensor.

    Example:
        >>> gt.avg_pool2d(gt.ones(1, 1, 4, 4), 2).tolist()
        [[[[1.0, 1.0], [1.0, 1.0]]]]
    """
    op = "avg_pool2d"
    x, squeeze = batched(input, op)
    k, s, p, _, out_hw = _window(op, x, kernel_size, stride, padding, 1, ceil_mode)
    check(divisor_override is None or (isinstance(divisor_override, int)
                                       and divisor_override > 0), op,
          lambda: f"divisor_override must be a positive int, got {divisor_override!r}",
          ValueError)
    args = (k, s, p, bool(count_include_pad), int(divisor_override or 0))
    out = linear_map(x, x.shape[:2] + out_hw, op, "avg_pool2d_backward", args)
    return _unbatch(out, squeeze)


def adaptive_size(x: Tensor, output_size: Any, op: str) -> tuple[int, int]:
    """The checked ``(OH, OW)`` of an adaptive pool of 4-D ``x``; None keeps the input's size.

    Example:
        >>> adaptive_size(gt.ones(1, 1, 5, 4), (2, None), "adaptive_avg_pool2d")
        (2, 4)
    """
    sizes = (output_size, output_size) if output_size is None or isinstance(output_size, int) \
        else tuple(output_size)
    check(len(sizes) == 2, op, lambda: f"output_size must be an int or a pair, got "
          f"{output_size!r}", TypeError)
    out_hw = tuple(x.shape[2 + i] if v is None else v for i, v in enumerate(sizes))
    check(all(isinstance(v, int) and v > 0 for v in out_hw), op,
          lambda: f"output_size must be positive ints, got {output_size!r}", ValueError)
    check(x.shape[2] > 0 and x.shape[3] > 0, op,
          lambda: f"expected non-empty spatial dims, got shape {x.shape}", ShapeError)
    return out_hw  # type: ignore[return-value]


@half_in_float32
def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:
    """Average over adaptive bins: bin ``o`` spans ``[floor(o*H/OH), ceil((o+1)*H/OH))``.

    Args:
        input: ``(N, C, H, W)`` or ``(C, H, W)`` float tensor.
        output_size: int or pair; a None entry keeps the input's size.

    Returns:
        ``(N, C, OH, OW)``.

    Example:
        >>> gt.adaptive_avg_pool2d(gt.randn(2, 3, 7, 5), 1).shape
        (2, 3, 1, 1)
    """
    op = "adaptive_avg_pool2d"
    x, squeeze = batched(input, op)
    out_hw = adaptive_size(x, output_size, op)
    out = linear_map(x, x.shape[:2] + out_hw, op, "adaptive_avg_pool2d_backward", ())
    return _unbatch(out, squeeze)


EXPORTS = ("adaptive_avg_pool2d", "avg_pool2d", "max_pool2d")
