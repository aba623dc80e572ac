"""Convolutions: ``conv1d``, ``conv2d``, ``conv_transpose1d``, ``conv_transpose2d``, weight grads.

Three differentiable primitives, each the others' adjoint in one argument, so
every VJP is a composition of them and can be differentiated again:

* ``conv2d(x, w)``; VJP: ``x`` <- ``conv_transpose2d(g, w)``,
  ``w`` <- ``conv2d_weight(x, g)``;
* ``conv_transpose2d(x, w)``; VJP: ``x`` <- ``conv2d(g, w)``,
  ``w`` <- ``conv2d_weight(g, x)``;
* ``conv2d_weight(x, g)``; VJP: ``x`` <- ``conv_transpose2d(g, G)``,
  ``g`` <- ``conv2d(x, G)``.

The bias gradient is ``g`` summed over N, H and W. Padding is carried as
top/left amounts plus an explicit output size, which covers PyTorch's
asymmetric ``"same"`` padding and the output padding of transposed
convolutions.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import DTypeError, ShapeError, check, check_same_device
from ..graph.autocast_mode import autocast_inputs
from ..graph.grad_mode import no_grad
from ..graph.node import Node, record
from ..tensor_base import TensorBase
from .dispatch import launch
from .tracing import library_call
from .widen import half_in_float32

if TYPE_CHECKING:
    from ..tensor import Tensor

Pair = tuple[int, int]


@dataclass(frozen=True)
class ConvGeometry:
    """Stride, top/left padding, dilation and groups of a 2-D convolution."""

    stride: Pair
    padding: Pair
    dilation: Pair
    groups: int


def pair(value: Any, op: str, name: str, low: int) -> Pair:
    """Return ``value`` as an int pair, each ``>= low``.

    Example:
        >>> pair(2, "conv2d", "stride", 1)
        (2, 2)
    """
    items = (value, value) if isinstance(value, int) else tuple(value)
    check(len(items) == 2 and all(isinstance(v, int) for v in items), op,
          lambda: f"{name} must be an int or a pair of ints, got {value!r}", TypeError)
    check(all(v >= low for v in items), op,
          lambda: f"{name} must be >= {low}, got {value!r}", ValueError)
    return items


def _contiguous(t: Tensor) -> Any:
    """The native array of ``t`` in C order; it holds a temporary copy's storage alive."""
    with no_grad():
        return t.contiguous()._native()


def _check_operands(op: str, x: Any, w: Any, bias: Any, ndim: int) -> None:
    check(isinstance(x, TensorBase) and isinstance(w, TensorBase), op,
          "input and weight must be tensors", TypeError)
    check(x.ndim == ndim, op, lambda: f"expected {ndim}-D input, got shape {x.shape}", ShapeError)
    check(w.ndim == ndim, op, lambda: f"expected {ndim}-D weight, got shape {w.shape}",
          ShapeError)
    tensors = [x, w] if bias is None else [x, w, bias]
    check(bias is None or isinstance(bias, TensorBase), op, "bias must be a tensor or None",
          TypeError)
    check_same_device(op, *(t.device for t in tensors))
    for t in tensors:
        check(t.dtype.name in ("float32", "float64"), op,
              lambda: f"expected float32 or float64 tensors, got {t.dtype.name}", DTypeError)
    check(all(t.dtype is x.dtype for t in tensors), op,
          lambda: "input, weight and bias must share a dtype, got "
          + ", ".join(t.dtype.name for t in tensors), DTypeError)


def _empty(shape: tuple[int, ...], like: Tensor) -> Tensor:
    return TensorBase.empty(shape, like.dtype, like.device)


def conv2d_primitive(x: Tensor, w: Tensor, b: Tensor | None, geom: ConvGeometry,
                     out_hw: Pair) -> Tensor:
    """Checked-elsewhere ``conv2d`` with an explicit output size (the differentiable primitive).

    Example:
        >>> geom = ConvGeometry((1, 1), (0, 0), (1, 1), 1)
        >>> conv2d_primitive(gt.ones(1, 1, 3, 3), gt.ones(1, 1, 2, 2), None, geom, (2, 2)).tolist()
        [[[[4.0, 4.0], [4.0, 4.0]]]]
    """
    shape = (x.shape[0], w.shape[0], *out_hw)
    out = library_call("conv2d", functools.partial(_convolve, "conv2d", shape, geom=geom),
                       (x, w, b), shape, x.dtype)
    record("conv2d", out, (x, w, b), _conv2d_vjp, save=(x, w), geom=geom)
    return out


def _convolve(op: str, shape: tuple[int, ...], x: Tensor, w: Tensor, b: Tensor | None,
              geom: ConvGeometry) -> Tensor:
    """Run kernel ``op`` (``conv2d`` or ``conv_transpose2d``) into a new tensor of ``shape``."""
    out = _empty(shape, x)
    launch(op, x.device, (x.dtype, w.dtype), _contiguous(x), _contiguous(w),
           None if b is None else _contiguous(b), out._native(), geom.stride, geom.padding,
           geom.dilation, geom.groups)
    return out


def _conv2d_vjp(ctx: Node, g: Tensor) -> tuple[Tensor | None, ...]:
    x, w = ctx.saved_tensors
    need = ctx.needs_input_grad
    gx = conv_transpose_primitive(g, w, None, ctx.geom, x.shape[2:]) if need[0] else None
    gw = conv2d_weight_primitive(x, g, ctx.geom, w.shape) if need[1] else None
    return gx, gw, g.sum(dim=(0, 2, 3)) if need[2] else None


def conv_transpose_primitive(x: Tensor, w: Tensor, b: Tensor | None, geom: ConvGeometry,
                             out_hw: Sequence[int]) -> Tensor:
    """``conv_transpose2d`` with an explicit output size (the differentiable primitive).

    Example:
        >>> geom = ConvGeometry((1, 1), (0, 0), (1, 1), 1)
        >>> g, w = gt.ones(1, 1, 2, 2), gt.ones(1, 1, 2, 2)
        >>> conv_transpose_primitive(g, w, None, geom, (3, 3))[0, 0].tolist()
        [[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]
    """
    shape = (x.shape[0], w.shape[1] * geom.groups, *out_hw)
    out = library_call("conv_transpose2d",
                       functools.partial(_convolve, "conv_transpose2d", shape, geom=geom),
                       (x, w, b), shape, x.dtype)
    record("conv_transpose2d", out, (x, w, b), _conv_transpose_vjp, save=(x, w), geom=geom)
    return out


def _conv_transpose_vjp(ctx: Node, g: Tensor) -> tuple[Tensor | None, ...]:
    x, w = ctx.saved_tensors
    need = ctx.needs_input_grad
    gx = conv2d_primitive(g, w, None, ctx.geom, x.shape[2:]) if need[0] else None
    gw = conv2d_weight_primitive(g, x, ctx.geom, w.shape) if need[1] else None
    return gx, gw, g.sum(dim=(0, 2, 3)) if need[2] else None


def conv2d_weight_primitive(x: Tensor, g: Tensor, geom: ConvGeometry,
                            weight_shape: Sequence[int]) -> Tensor:
    """Gradient of ``conv2d``'s weight for input ``x`` and output gradient ``g`` (differentiable).

    Example:
        >>> geom = ConvGeometry((1, 1), (0, 0), (1, 1), 1)
        >>> x, g = gt.ones(1, 1, 3, 3), gt.ones(1, 1, 2, 2)
        >>> conv2d_weight_primitive(x, g, geom, (1, 1, 2, 2)).tolist()
        [[[[4.0, 4.0], [4.0, 4.0]]]]
    """
    shape = tuple(weight_shape)
    out = library_call("conv2d_weight", functools.partial(_weight_gradient, shape, geom=geom),
                       (x, g), shape, x.dtype)
    record("conv2d_weight", out, (x, g), _conv2d_weight_vjp, save=(x, g), geom=geom)
    return out


def _weight_gradient(shape: tuple[int, ...], x: Tensor, g: Tensor, geom: ConvGeometry
                     ) -> Tensor:
    out = _empty(shape, x)
    launch("conv2d_weight", x.device, (x.dtype, g.dtype), _contiguous(x), _contiguous(g),
           out._native(), geom.stride, geom.padding, geom.dilation, geom.groups)
    return out


def _conv2d_weight_vjp(ctx: Node, gw: Tensor) -> tuple[Tensor | None, ...]:
    x, g = ctx.saved_tensors
    need = ctx.needs_input_grad
    gx = conv_transpose_primitive(g, gw, None, ctx.geom, x.shape[2:]) if need[0] else None
    gg = conv2d_primitive(x, gw, None, ctx.geom, g.shape[2:]) if need[1] else None
    return gx, gg


def _padding(padding: Any, kernel: Pair, dilation: Pair, stride: Pair,
             op: str) -> tuple[Pair, Pair]:
    """Return ``(top/left, bottom/right)`` padding for an int, a pair, ``"same"`` or ``"valid"``."""
    if isinstance(padding, str):
        check(padding in ("same", "valid"), op,
              lambda: f"padding must be 'same', 'valid', an int or a pair, got {padding!r}",
              ValueError)
        if padding == "valid":
            return (0, 0), (0, 0)
        check(stride == (1, 1), op, "padding='same' is not supported for strided convolutions",
              ValueError)
        total = [d * (k - 1) for d, k in zip(dilation, kernel, strict=True)]
        lo = (total[0] // 2, total[1] // 2)
        return lo, (total[0] - lo[0], total[1] - lo[1])
    p = pair(padding, op, "padding", 0)
    return p, p


def _conv_out(size: int, lo: int, hi: int, k: int, s: int, d: int) -> int:
    return (size + lo + hi - d * (k - 1) - 1) // s + 1


@half_in_float32
def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """2-D cross-correlation over ``(N, C, H, W)`` (or unbatched ``(C, H, W)``) input.

    Args:
        input: ``(N, C, H, W)`` or ``(C, H, W)`` float tensor.
        weight: ``(O, C/groups, KH, KW)``.
        bias: ``(O,)`` or None.
        stride: int or pair, >= 1.
        padding: int or pair >= 0, or ``"same"`` (stride 1 only; extra padding
            goes bottom/right, as in PyTorch) or ``"valid"``.
        dilation: int or pair, >= 1.
        groups: splits input and output channels into that many groups.

    Returns:
        ``(N, O, OH, OW)`` with ``OH = (H + 2p - d*(KH - 1) - 1) // s + 1``.

    Raises:
        ShapeError, DTypeError, ValueError, TypeError: messages start with ``[conv2d]``.

    Example:
        >>> y = gt.conv2d(gt.randn(1, 3, 8, 8), gt.randn(4, 3, 3, 3), padding=1)
        >>> y.shape
        (1, 4, 8, 8)
    """
    input, weight, bias = autocast_inputs("conv2d", input, weight, bias)
    op = "conv2d"
    if isinstance(input, TensorBase) and input.ndim == 3:
        out = conv2d(input.unsqueeze(0), weight, bias, stride, padding, dilation, groups)
        return out.squeeze(0)
    _check_operands(op, input, weight, bias, 4)
    s, d = pair(stride, op, "stride", 1), pair(dilation, op, "dilation", 1)
    kernel = (weight.shape[2], weight.shape[3])
    lo, hi = _padding(padding, kernel, d, s, op)
    _check_groups(op, groups, input.shape[1], weight.shape[0], weight.shape[1], weight.shape)
    check(bias is None or bias.shape == (weight.shape[0],), op,
          lambda: f"expected bias of shape ({weight.shape[0]},), got {bias.shape}", ShapeError)  # type: ignore[union-attr]
    out_hw = tuple(_conv_out(input.shape[2 + i], lo[i], hi[i], kernel[i], s[i], d[i])
                   for i in range(2))
    check(all(v > 0 for v in out_hw), op, lambda: (
        f"padded input of spatial size ({input.shape[2] + lo[0] + hi[0]}, "
        f"{input.shape[3] + lo[1] + hi[1]}) is smaller than the dilated kernel "
        f"({d[0] * (kernel[0] - 1) + 1}, {d[1] * (kernel[1] - 1) + 1})"), ShapeError)
    return conv2d_primitive(input, weight, bias, ConvGeometry(s, lo, d, groups), out_hw)  # type: ignore[arg-type]


def _check_groups(op: str, groups: int, c_in: int, c_out: int, per_group: int,
                  wshape: tuple[int, ...]) -> None:
    check(isinstance(groups, int) and groups >= 1, op,
          lambda: f"groups must be a positive int, got {groups!r}", ValueError)
    check(c_out % groups == 0, op,
          lambda: f"out_channels ({c_out}) must be divisible by groups ({groups})", ShapeError)
    check(c_in == per_group * groups, op, lambda: (
        f"expected input with {per_group * groups} channels (weight {wshape} with groups="
        f"{groups}), got {c_in}"), ShapeError)


@half_in_float32
def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """1-D cross-correlation over ``(N, C, L)`` (or unbatched ``(C, L)``), as ``conv2d`` with H = 1.

    Args:
        input: ``(N, C, L)`` or ``(C, L)``.
        weight: ``(O, C/groups, K)``.
        bias: ``(O,)`` or None.
        stride, dilation: int (or 1-tuple), >= 1.
        padding: int (or 1-tuple) >= 0, ``"same"`` or ``"valid"``.
        groups: channel groups.

    Returns:
        ``(N, O, L_out)``.

    Example:
        >>> gt.conv1d(gt.randn(2, 3, 10), gt.randn(4, 3, 3)).shape
        (2, 4, 8)
    """
    input, weight, bias = autocast_inputs("conv1d", input, weight, bias)
    op = "conv1d"
    if isinstance(input, TensorBase) and input.ndim == 2:
        out = conv1d(input.unsqueeze(0), weight, bias, stride, padding, dilation, groups)
        return out.squeeze(0)
    _check_operands(op, input, weight, bias, 3)

    def one(v: Any, name: str) -> Any:
        return v if isinstance(v, str) else unit_height(v, op, name, int(name != "padding"))

    with renamed_errors("conv2d", op):
        return conv2d(input.unsqueeze(2), weight.unsqueeze(2), bias, one(stride, "stride"),
                      one(padding, "padding"), one(dilation, "dilation"), groups).squeeze(2)


@contextlib.contextmanager
def renamed_errors(inner: str, outer: str) -> Iterator[None]:
    """Re-raise ``[inner]`` errors of the 2-D op a 1-D op runs on as ``[outer]`` errors.

    Example:
        >>> with renamed_errors("conv2d", "conv1d"):
        ...     gt.conv2d(gt.ones(1, 2, 1, 3), gt.ones(1, 3, 1, 1))
        Traceback (most recent call last):
        gtensor.errors.ShapeError: [conv1d] expected input with 3 channels ...
    """
    try:
        yield
    except (ValueError, TypeError, RuntimeError) as exc:
        msg = str(exc)
        if msg.startswith(f"[{inner}]"):
            raise type(exc)(f"[{outer}]" + msg[len(inner) + 2:]) from None
        raise


def unit_height(value: Any, op: str, name: str, fill: int) -> tuple[int, int]:
    """Return a 1-D int (or 1-tuple) argument as the pair ``(fill, value)`` of its 2-D op.

    Example:
        >>> unit_height(3, "conv_transpose1d", "stride", 1)
        (1, 3)
    """
    items = (value,) if isinstance(value, int) else tuple(value)
    check(len(items) == 1, op, lambda: f"{name} must be an int or a 1-tuple, got {value!r}",
          TypeError)
    return (fill, items[0])


@half_in_float32
def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None,
                     stride: Any = 1, padding: Any = 0, output_padding: Any = 0,
                     groups: int = 1, dilation: Any = 1) -> Tensor:
    """1-D transposed convolution over ``(N, C_in, L)``, as ``conv_transpose2d`` with H = 1.

    Args:
        input: ``(N, C_in, L)`` or unbatched ``(C_in, L)``.
        weight: ``(C_in, C_out/groups, K)``.
        bias: ``(C_out,)`` or None.
        stride, dilation: int (or 1-tuple), >= 1.
        padding, output_padding: int (or 1-tuple), >= 0.
        groups: channel groups.

    Returns:
        ``(N, C_out, L_out)`` with ``L_out = (L - 1)*s - 2p + d*(K - 1) + output_padding + 1``.

    Example:
        >>> gt.conv_transpose1d(gt.randn(1, 4, 5), gt.randn(4, 2, 3), stride=2).shape
        (1, 2, 11)
    """
    input, weight, bias = autocast_inputs("conv_transpose1d", input, weight, bias)
    op = "conv_transpose1d"
    check(isinstance(input, TensorBase) and isinstance(weight, TensorBase), op,
          "input and weight must be tensors", TypeError)
    check(input.ndim in (2, 3), op, lambda: f"expected a 2-D or 3-D input, got shape "
          f"{input.shape}", ShapeError)
    check(weight.ndim == 3, op, lambda: f"expected a 3-D weight, got shape {weight.shape}",
          ShapeError)
    if input.ndim == 2:
        return conv_transpose1d(input.unsqueeze(0), weight, bias, stride, padding,
                                output_padding, groups, dilation).squeeze(0)
    with renamed_errors("conv_transpose2d", op):
        return conv_transpose2d(
            input.unsqueeze(2), weight.unsqueeze(2), bias, unit_height(stride, op, "stride", 1),
            unit_height(padding, op, "padding", 0),
            unit_height(output_padding, op, "output_padding", 0), groups,
            unit_height(dilation, op, "dilation", 1)).squeeze(2)


@half_in_float32
def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None,
                     stride: Any = 1, padding: Any = 0, output_padding: Any = 0,
                     groups: int = 1, dilation: Any = 1) -> Tensor:
    """2-D transposed convolution (the gradient of ``conv2d`` with respect to its input).

    Args:
        input: ``(N, C_in, H, W)`` or unbatched ``(C_in, H, W)``.
        weight: ``(C_in, C_out/groups, KH, KW)``.
        bias: ``(C_out,)`` or None.
        stride, dilation: int or pair, >= 1.
        padding: int or pair >= 0 (removed from each side of the output).
        output_padding: int or pair, each smaller than its stride or its dilation.
        groups: channel groups.

    Returns:
        ``(N, C_out, OH, OW)`` with ``OH = (H - 1)*s - 2p + d*(KH - 1) + output_padding + 1``.

    Example:
        >>> gt.conv_transpose2d(gt.randn(1, 4, 5, 5), gt.randn(4, 2, 3, 3), stride=2).shape
        (1, 2, 11, 11)
    """
    input, weight, bias = autocast_inputs("conv_transpose2d", input, weight, bias)
    op = "conv_transpose2d"
    if isinstance(input, TensorBase) and input.ndim == 3:
        out = conv_transpose2d(input.unsqueeze(0), weight, bias, stride, padding,
                               output_padding, groups, dilation)
        return out.squeeze(0)
    _check_operands(op, input, weight, bias, 4)
    s, d = pair(stride, op, "stride", 1), pair(dilation, op, "dilation", 1)
    p, op_pad = pair(padding, op, "padding", 0), pair(output_padding, op, "output_padding", 0)
    check(all(o < max(si, di) for o, si, di in zip(op_pad, s, d, strict=True)), op,
          lambda: f"output_padding {op_pad} must be smaller than either stride {s} or "
          f"dilation {d}", ValueError)
    check(isinstance(groups, int) and groups >= 1, op,
          lambda: f"groups must be a positive int, got {groups!r}", ValueError)
    check(input.shape[1] == weight.shape[0] and weight.shape[0] % groups == 0, op, lambda: (
        f"expected input with {weight.shape[0]} channels divisible by groups={groups} "
        f"(weight {weight.shape}), got {input.shape[1]}"), ShapeError)
    c_out = weight.shape[1] * groups
    check(bias is None or bias.shape == (c_out,), op,
          lambda: f"expected bias of shape ({c_out},), got {bias.shape}", ShapeError)  # type: ignore[union-attr]
    out_hw = tuple((input.shape[2 + i] - 1) * s[i] - 2 * p[i] + d[i] * (weight.shape[2 + i] - 1)
                   + op_pad[i] + 1 for i in range(2))
    check(all(v > 0 for v in out_hw), op,
          lambda: f"computed output size {out_hw} is too small", ShapeError)
    return conv_transpose_primitive(input, weight, bias, ConvGeometry(s, p, d, groups), out_hw)


@half_in_float32
def conv2d_weight(input: Tensor, weight_size: Sequence[int], grad_output: Tensor,
                  stride: Any = 1, padding: Any = 0, dilation: Any = 1,
                  groups: int = 1) -> Tensor:
    """Gradient of ``conv2d`` with respect to its weight (``torch.nn.grad.conv2d_weight``).

    Args:
        input: the convolution's ``(N, C, H, W)`` input.
        weight_size: ``(O, C/groups, KH, KW)``.
        grad_output: ``(N, O, OH, OW)`` gradient of its output.
        stride, padding, dilation, groups: the convolution's geometry (int or
            pair padding).

    Returns:
        ``(O, C/groups, KH, KW)``.

    Example:
        >>> x, g = gt.ones(1, 1, 3, 3), gt.ones(1, 1, 3, 3)
        >>> conv2d_weight(x, (1, 1, 3, 3), g, padding=1)[0, 0].tolist()
        [[4.0, 6.0, 4.0], [6.0, 9.0, 6.0], [4.0, 6.0, 4.0]]
    """
    op = "conv2d_weight"
    _check_operands(op, input, grad_output, None, 4)
    s, d, p = (pair(stride, op, "stride", 1), pair(dilation, op, "dilation", 1),
               pair(padding, op, "padding", 0))
    wshape = tuple(int(v) for v in weight_size)
    check(len(wshape) == 4, op, lambda: f"weight_size must have 4 entries, got {wshape}",
          ShapeError)
    _check_groups(op, groups, input.shape[1], wshape[0], wshape[1], wshape)
    want = (input.shape[0], wshape[0]) + tuple(
        _conv_out(input.shape[2 + i], p[i], p[i], wshape[2 + i], s[i], d[i]) for i in range(2))
    check(grad_output.shape == want, op,
          lambda: f"expected grad_output of shape {want}, got {grad_output.shape}", ShapeError)
    return conv2d_weight_primitive(input, grad_output, ConvGeometry(s, p, d, groups), wshape)


EXPORTS = ("conv1d", "conv2d", "conv_transpose2d")
