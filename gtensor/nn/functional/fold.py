"""Sliding-window patches: ``unfold`` (im2col), its adjoint ``fold`` (col2im), ``conv3d``
and ``conv_transpose3d``.

All three are compositions, so autograd differentiates them: the patches of a
zero-padded input are read with one ``index_select`` over its flattened
spatial dims, through a table of flat positions built once per geometry on
the host (``(K, L)``: kernel offset by output position). ``fold`` adds the
columns back with one ``index_add`` over the same table. ``conv3d`` is the
unfolded volume times the weight as one batched matmul per group; ``conv_transpose3d``
is ``conv3d`` of the zero-stuffed, padded input with the flipped kernel.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...errors import DTypeError, ShapeError, check, check_same_device
from ...graph.autocast_mode import autocast_inputs
from ...ops.conv import conv1d
from ...ops.creation import tensor, zeros
from ...ops.layout.copies import pad
from ...ops.widen import half_in_float32
from ...tensor import Tensor
from ...tensor_base import TensorBase


def tuple_of(value: Any, n: int, op: str, name: str, low: int) -> tuple[int, ...]:
    """Return ``value`` (an int or ``n`` ints) as ``n`` ints, each ``>= low``.

    Example:
        >>> tuple_of(2, 3, "conv3d", "stride", 1)
        (2, 2, 2)
    """
    items = (value,) * n if isinstance(value, int) else tuple(value)
    check(len(items) == n and all(isinstance(v, int) for v in items), op,
          lambda: f"{name} must be an int or a tuple of {n} ints, got {value!r}", TypeError)
    check(all(v >= low for v in items), op,
          lambda: f"{name} must be >= {low}, got {value!r}", ValueError)
    return items


@functools.lru_cache(maxsize=64)
def _positions(sizes: tuple[int, ...], kernel: tuple[int, ...], stride: tuple[int, ...],
               dilation: tuple[int, ...], out: tuple[int, ...]) -> np.ndarray:
    """Flat positions ``(K, L)`` in a C-ordered volume of ``sizes`` read by each patch element."""
    n = len(sizes)
    flat_strides = [math.prod(sizes[i + 1:]) for i in range(n)]
    total = np.zeros([1] * (2 * n), dtype=np.int64)
    for i in range(n):
        shape = [1] * (2 * n)
        shape[i], shape[n + i] = kernel[i], out[i]
        pos = (np.arange(kernel[i])[:, None] * dilation[i]
               + np.arange(out[i])[None, :] * stride[i]).reshape(shape)
        total = total + pos * flat_strides[i]
    return total.reshape(math.prod(kernel), math.prod(out))


def _index(positions: np.ndarray, device: Any) -> Tensor:
    return tensor(positions.reshape(-1), device=device)


def out_sizes(op: str, sizes: Sequence[int], kernel: Sequence[int], stride: Sequence[int],
              padding: Sequence[int], dilation: Sequence[int]) -> tuple[int, ...]:
    """The number of window positions along each dim; raises when one is below 1.

    Example:
        >>> out_sizes("unfold", (5, 5), (3, 3), (1, 1), (0, 0), (1, 1))
        (3, 3)
    """
    out = tuple((s + 2 * p - d * (k - 1) - 1) // st + 1
                for s, k, st, p, d in zip(sizes, kernel, stride, padding, dilation, strict=True))
    check(all(v > 0 for v in out), op, lambda: f"input of spatial size {tuple(sizes)} with "
          f"kernel {tuple(kernel)}, padding {tuple(padding)} and dilation {tuple(dilation)} "
          f"gives output size {out}, which is too small", ShapeError)
    return out


def _patches(x: Tensor, kernel: tuple[int, ...], stride: tuple[int, ...],
             padding: tuple[int, ...], dilation: tuple[int, ...],
             out: tuple[int, ...]) -> Tensor:
    """``(N, C, K, L)``: every window of the zero-padded ``(N, C, *spatial)`` input."""
    widths = [w for p in reversed(padding) for w in (p, p)]
    padded = pad(x, widths) if any(padding) else x
    sizes = tuple(padded.shape[2:])
    table = _positions(sizes, kernel, stride, dilation, out)
    n, c = x.shape[:2]
    cols = padded.reshape(n, c, -1).index_select(2, _index(table, x.device))
    return cols.reshape(n, c, table.shape[0], table.shape[1])


def _check_float(op: str, *tensors: Any) -> None:
    check(all(isinstance(t, TensorBase) for t in tensors), op, "expected tensors", TypeError)
    for t in tensors:
        check(t.dtype.name in ("float32", "float64"), op,
              lambda: f"expected float32 or float64 tensors, got {t.dtype.name}", DTypeError)


@half_in_float32
def unfold(input: Tensor, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
           stride: Any = 1) -> Tensor:
    """Extract sliding patches of ``(N, C, H, W)`` as columns ``(N, C*KH*KW, L)``.

    Args:
        input: ``(N, C, H, W)`` or unbatched ``(C, H, W)`` float tensor.
        kernel_size, dilation, stride: int or pair, >= 1.
        padding: int or pair, >= 0 (zeros on both sides).

    Returns:
        ``(N, C*KH*KW, L)`` with ``L = OH*OW`` window positions, channel-major.

    Example:
        >>> F.unfold(gt.arange(9.0).reshape(1, 1, 3, 3), 2)  # one column per 2x2 window
        tensor([[[0., 1., 3., 4.],
                 [1., 2., 4., 5.],
                 [3., 4., 6., 7.],
                 [4., 5., 7., 8.]]])
    """
    op = "unfold"
    _check_float(op, input)
    check(input.ndim in (3, 4), op, lambda: f"expected a 3-D or 4-D input, got shape "
          f"{input.shape}", ShapeError)
    if input.ndim == 3:
        return unfold(input.unsqueeze(0), kernel_size, dilation, padding, stride).squeeze(0)
    k, d = tuple_of(kernel_size, 2, op, "kernel_size", 1), tuple_of(dilation, 2, op, "dilation", 1)
    p, s = tuple_of(padding, 2, op, "padding", 0), tuple_of(stride, 2, op, "stride", 1)
    out = out_sizes(op, input.shape[2:], k, s, p, d)
    cols = _patches(input, k, s, p, d, out)
    return cols.reshape(input.shape[0], -1, cols.shape[-1])


@half_in_float32
def fold(input: Tensor, output_size: Any, kernel_size: Any, dilation: Any = 1,
         padding: Any = 0, stride: Any = 1) -> Tensor:
    """Sum columns ``(N, C*KH*KW, L)`` back into ``(N, C, H, W)`` (the adjoint of ``unfold``).

    Args:
        input: ``(N, C*KH*KW, L)`` or unbatched ``(C*KH*KW, L)`` float tensor.
        output_size: ``(H, W)`` (or an int for both).
        kernel_size, dilation, stride: int or pair, >= 1.
        padding: int or pair, >= 0; padded positions are dropped.

    Returns:
        ``(N, C, H, W)``: each element is the sum of every column entry that read it.

    Example:
        >>> F.fold(gt.ones(1, 4, 4), (3, 3), 2)  # overlapping 2x2 windows add up
        tensor([[[[1., 2., 1.],
                  [2., 4., 2.],
                  [1., 2., 1.]]]])
    """
    op = "fold"
    _check_float(op, input)
    check(input.ndim in (2, 3), op, lambda: f"expected a 2-D or 3-D input, got shape "
          f"{input.shape}", ShapeError)
    if input.ndim == 2:
        return fold(input.unsqueeze(0), output_size, kernel_size, dilation, padding,
                    stride).squeeze(0)
    size = tuple_of(output_size, 2, op, "output_size", 1)
    k, d = tuple_of(kernel_size, 2, op, "kernel_size", 1), tuple_of(dilation, 2, op, "dilation", 1)
    p, s = tuple_of(padding, 2, op, "padding", 0), tuple_of(stride, 2, op, "stride", 1)
    out = out_sizes(op, size, k, s, p, d)
    n, ck, length = input.shape
    kk = k[0] * k[1]
    check(ck % kk == 0 and length == out[0] * out[1], op, lambda: (
        f"expected input of shape (N, C*{kk}, {out[0] * out[1]}) for output_size {size}, "
        f"kernel {k}, got {input.shape}"), ShapeError)
    padded = (size[0] + 2 * p[0], size[1] + 2 * p[1])
    table = _positions(padded, k, s, d, out)
    c = ck // kk
    canvas = zeros(n, c, padded[0] * padded[1], dtype=input.dtype, device=input.device)
    summed = canvas.index_add(2, _index(table, input.device), input.reshape(n, c, -1))
    summed = summed.reshape(n, c, *padded)
    return summed[:, :, p[0]:p[0] + size[0], p[1]:p[1] + size[1]]


@half_in_float32
def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """3-D cross-correlation over ``(N, C, D, H, W)`` (or unbatched ``(C, D, H, W)``) input.

    Args:
        input: float tensor.
        weight: ``(O, C/groups, KD, KH, KW)``.
        bias: ``(O,)`` or None.
        stride, dilation: int or triple, >= 1.
        padding: int or triple >= 0, ``"valid"``, or ``"same"`` (stride 1; the odd
            extra goes to the far side, as in PyTorch).
        groups: splits input and output channels into that many groups.

    Returns:
        ``(N, O, OD, OH, OW)``.

    Example:
        >>> F.conv3d(gt.ones(1, 2, 3, 3, 3), gt.ones(3, 2, 2, 2, 2)).shape
        (1, 3, 2, 2, 2)
    """
    input, weight, bias = autocast_inputs("conv3d", input, weight, bias)
    op = "conv3d"
    _check_float(op, input, weight, *(() if bias is None else (bias,)))
    check(input.ndim in (4, 5), op, lambda: f"expected a 4-D or 5-D input, got shape "
          f"{input.shape}", ShapeError)
    if input.ndim == 4:
        return conv3d(input.unsqueeze(0), weight, bias, stride, padding, dilation,
                      groups).squeeze(0)
    check(weight.ndim == 5, op, lambda: f"expected a 5-D weight, got shape {weight.shape}",
          ShapeError)
    check_same_device(op, input.device, weight.device,
                      *(() if bias is None else (bias.device,)))
    check(weight.dtype is input.dtype and (bias is None or bias.dtype is input.dtype), op,
          "input, weight and bias must share a dtype", DTypeError)
    check(isinstance(groups, int) and groups >= 1, op,
          lambda: f"groups must be a positive int, got {groups!r}", ValueError)
    o, per_group = weight.shape[:2]
    check(o % groups == 0 and input.shape[1] == per_group * groups, op, lambda: (
        f"expected input with {per_group * groups} channels (weight {weight.shape} with "
        f"groups={groups}) and out_channels divisible by groups, got {input.shape[1]}"),
          ShapeError)
    check(bias is None or bias.shape == (o,), op,
          lambda: f"expected bias of shape ({o},), got {bias.shape}", ShapeError)  # type: ignore[union-attr]
    k = tuple(weight.shape[2:])
    s, d = tuple_of(stride, 3, op, "stride", 1), tuple_of(dilation, 3, op, "dilation", 1)
    if isinstance(padding, str):
        check(padding in ("same", "valid"), op, lambda: f"padding must be 'same', 'valid', an "
              f"int or a triple, got {padding!r}", ValueError)
        check(padding == "valid" or s == (1, 1, 1), op,
              "padding='same' is not supported for strided convolutions", ValueError)
        if padding == "same":
            totals = [di * (ki - 1) for di, ki in zip(d, k, strict=True)]
            input = pad(input, [w for t in reversed(totals) for w in (t // 2, t - t // 2)])
        padding = 0
    p = tuple_of(padding, 3, op, "padding", 0)
    out = out_sizes(op, input.shape[2:], k, s, p, d)
    n = input.shape[0]
    cols = _patches(input, k, s, p, d, out)
    cols = cols.reshape(n, groups, -1, cols.shape[-1])
    w = weight.reshape(groups, o // groups, -1)
    y = (w @ cols).reshape(n, o, *out)
    if bias is not None:
        y = y + bias.reshape(1, o, 1, 1, 1)
    return y


def _zero_stuff(x: Tensor, axis: int, s: int) -> Tensor:
    """Insert ``s - 1`` zeros between neighbours along ``axis``."""
    if s == 1 or x.shape[axis] == 0:
        return x
    n = x.shape[axis]
    y = x.unsqueeze(axis + 1)
    widths = [0, 0] * (y.ndim - axis - 2) + [0, s - 1]
    y = pad(y, widths).reshape(*x.shape[:axis], n * s, *x.shape[axis + 1:])
    return y.narrow(axis, 0, (n - 1) * s + 1)


@half_in_float32
def conv_transpose3d(input: Tensor, weight: Tensor, bias: Tensor | None = None,
                     stride: Any = 1, padding: Any = 0, output_padding: Any = 0,
                     groups: int = 1, dilation: Any = 1) -> Tensor:
    """3-D transposed convolution (the gradient of :func:`conv3d` with respect to its input).

    Written as :func:`conv3d` of the input with ``stride - 1`` zeros between neighbours,
    padded by ``dilation * (kernel - 1) - padding`` (plus ``output_padding`` at the far
    side), with the kernel flipped and its channel dims swapped.

    Args:
        input: ``(N, C_in, D, H, W)`` or ``(C_in, D, H, W)`` float tensor.
        weight: ``(C_in, C_out / groups, KD, KH, KW)``.
        bias: ``(C_out,)`` or None.
        stride, padding, dilation: int or triple.
        output_padding: added to the far side of each output dim (below the stride or the
            dilation).
        groups: splits input and output channels into that many groups.

    Returns:
        ``(N, C_out, (D - 1) * stride - 2 * padding + dilation * (KD - 1) + output_padding
        + 1, ...)``.

    Example:
        >>> F.conv_transpose3d(gt.randn(1, 2, 2, 2, 2), gt.randn(2, 3, 2, 2, 2), stride=2).shape
        (1, 3, 4, 4, 4)
    """
    op = "conv_transpose3d"
    input, weight, bias = autocast_inputs(op, input, weight, bias)
    _check_float(op, input, weight, *(() if bias is None else (bias,)))
    check(input.ndim in (4, 5), op, lambda: f"expected a 4-D or 5-D input, got shape "
          f"{input.shape}", ShapeError)
    if input.ndim == 4:
        return conv_transpose3d(input.unsqueeze(0), weight, bias, stride, padding,
                                output_padding, groups, dilation).squeeze(0)
    check(weight.ndim == 5, op, lambda: f"expected a 5-D weight, got shape {weight.shape}",
          ShapeError)
    check(isinstance(groups, int) and groups >= 1, op,
          lambda: f"groups must be a positive int, got {groups!r}", ValueError)
    c_in, per_group = weight.shape[:2]
    check(input.shape[1] == c_in and c_in % groups == 0, op, lambda: f"expected input with "
          f"{c_in} channels (weight {weight.shape}, groups={groups}), got {input.shape[1]}",
          ShapeError)
    s, d = tuple_of(stride, 3, op, "stride", 1), tuple_of(dilation, 3, op, "dilation", 1)
    p, extra = tuple_of(padding, 3, op, "padding", 0), tuple_of(output_padding, 3, op,
                                                                 "output_padding", 0)
    check(all(e < max(si, di) for e, si, di in zip(extra, s, d, strict=True)), op,
          lambda: f"output padding {extra} must be smaller than either stride {s} or "
          f"dilation {d}", ValueError)
    k = tuple(weight.shape[2:])
    x = input
    for i in range(3):
        x = _zero_stuff(x, 2 + i, s[i])
    widths: list[int] = []
    for i in reversed(range(3)):
        lo = d[i] * (k[i] - 1) - p[i]
        widths += [lo, lo + extra[i]]
    x = pad(x, widths)
    w = weight.reshape(groups, c_in // groups, per_group, *k).transpose(1, 2)
    w = w.reshape(groups * per_group, c_in // groups, *k).flip((2, 3, 4))
    return conv3d(x, w, bias, 1, 0, d, groups)


def conv_tbc(input: Tensor, weight: Tensor, bias: Tensor, pad: int = 0) -> Tensor:
    """1-D convolution over ``(time, batch, channels)`` input.

    Args:
        input: ``(T, N, C_in)``.
        weight: ``(K, C_in, C_out)``.
        bias: ``(C_out,)``.
        pad: time steps of zero padding on each side.

    Returns:
        ``(T + 2 * pad - K + 1, N, C_out)``.

    Example:
        >>> F.conv_tbc(gt.randn(5, 2, 3), gt.randn(2, 3, 4), gt.zeros(4), 1).shape
        (6, 2, 4)
    """
    op = "conv_tbc"
    _check_float(op, input, weight, bias)
    check(input.ndim == 3 and weight.ndim == 3 and bias.ndim == 1, op, lambda: "expected a "
          f"3-D input and weight and a 1-D bias, got {input.shape}, {weight.shape} and "
          f"{bias.shape}", ShapeError)
    check(input.shape[2] == weight.shape[1] and bias.shape[0] == weight.shape[2], op,
          lambda: f"input {input.shape}, weight {weight.shape} and bias {bias.shape} do not "
          "fit (time, batch, in), (kernel, in, out) and (out,)", ShapeError)
    out = conv1d(input.permute(1, 2, 0), weight.permute(2, 1, 0), bias, 1, pad)
    return out.permute(2, 0, 1)
