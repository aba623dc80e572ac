"""Convolution layers: Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d."""

from __future__ import annotations

import math
from typing import Any

from ...ops.conv import conv1d, conv2d, conv_transpose1d, conv_transpose2d, pair
from ...ops.creation import empty
from ...ops.layout.copies import pad
from ...tensor import Tensor
from .. import init
from ..functional.fold import conv3d, conv_transpose3d, tuple_of
from ..parameter import Parameter
from .module import Module

PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


class _ConvNd(Module):
    """Parameters and init shared by the convolution layers (PyTorch's defaults)."""

    def __init__(self, in_channels: int, out_channels: int, kernel: tuple[int, ...],
                 stride: Any, padding: Any, dilation: Any, groups: int, bias: bool,
                 transposed: bool, device: Any, dtype: Any, padding_mode: str = "zeros") -> None:
        super().__init__()
        name = type(self).__name__
        if padding_mode not in PADDING_MODES:
            raise ValueError(f"[{name}] padding_mode must be one of {PADDING_MODES}, got "
                             f"{padding_mode!r}")
        if padding_mode != "zeros" and transposed:
            raise ValueError(f"[{name}] only padding_mode='zeros' is supported")
        self.padding_mode = padding_mode
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"[{type(self).__name__}] in_channels ({in_channels}) and "
                             f"out_channels ({out_channels}) must be divisible by groups "
                             f"({groups})")
        self.in_channels, self.out_channels = in_channels, out_channels
        n = len(kernel)
        self.kernel_size = kernel
        self.stride = tuple_of(stride, n, name, "stride", 1)
        self.padding = padding if isinstance(padding, str) else tuple_of(padding, n, name,
                                                                         "padding", 0)
        self.dilation, self.groups = tuple_of(dilation, n, name, "dilation", 1), groups
        shape = ((in_channels, out_channels // groups) if transposed else
                 (out_channels, in_channels // groups)) + kernel
        self.weight = Parameter(empty(*shape, device=device, dtype=dtype))
        self.register_parameter("bias", Parameter(empty(out_channels, device=device,
                                                        dtype=dtype)) if bias else None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """``kaiming_uniform_(a=sqrt(5))`` weights and ``U(-1/sqrt(fan_in), ...)`` bias."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.weight.shape[1] * math.prod(self.kernel_size)
            if fan_in:
                bound = 1.0 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)
            else:  # PyTorch's U(0, 0)
                init.zeros_(self.bias)

    def _padded(self, input: Tensor) -> tuple[Tensor, Any]:
        """``input`` padded by ``padding_mode`` and the padding left for the convolution."""
        if self.padding_mode == "zeros" or self.padding == "valid":
            return input, self.padding
        n = len(self.kernel_size)
        if self.padding == "same":
            dil = tuple_of(self.dilation, n, type(self).__name__, "dilation", 1)
            totals = [d * (k - 1) for d, k in zip(dil, self.kernel_size, strict=True)]
            sides = [(t // 2, t - t // 2) for t in totals]
        else:
            sides = [(p, p) for p in tuple_of(self.padding, n, type(self).__name__, "padding", 0)]
        widths = [w for lo_hi in reversed(sides) for w in lo_hi]
        return pad(input, widths, mode=self.padding_mode), 0

    def _output_padding(self, input: Tensor, output_size: Any) -> tuple[int, ...]:
        """``output_padding``, or the one that gives ``output_size`` (transposed layers)."""
        if output_size is None:
            return self.output_padding
        n, name = len(self.kernel_size), type(self).__name__
        size = tuple(int(v) for v in output_size)[-n:]
        least = [(i - 1) * s - 2 * p + d * (k - 1) + 1 for i, s, p, d, k in
                 zip(input.shape[-n:], self.stride, self.padding, self.dilation,
                     self.kernel_size, strict=True)]
        extra = tuple(o - m for o, m in zip(size, least, strict=False))
        if len(size) != n or any(e < 0 or e >= max(s, d)
                                 for e, s, d in zip(extra, self.stride, self.dilation,
                                                    strict=True)):
            raise ValueError(f"[{name}] requested an output size of {tuple(output_size)}, "
                             f"but valid sizes lie from {tuple(least)} up to the stride "
                             "(or dilation) above it")
        return extra

    def extra_repr(self) -> str:
        n = len(self.kernel_size)
        text = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}")
        if self.padding != (0,) * n:
            text += f", padding={self.padding}"
        if self.dilation != (1,) * n:
            text += f", dilation={self.dilation}"
        if getattr(self, "output_padding", (0,) * n) != (0,) * n:
            text += f", output_padding={self.output_padding}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.padding_mode != "zeros":
            text += f", padding_mode={self.padding_mode!r}"
        return text + ("" if self.bias is not None else ", bias=False")


class Conv1d(_ConvNd):
    """1-D convolution over ``(N, C, L)``.

    Example:
        >>> gt.nn.Conv1d(2, 4, 3)(gt.ones(1, 2, 5)).shape
        (1, 4, 3)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int,
                 stride: int = 1, padding: Any = 0, dilation: int = 1, groups: int = 1,
                 bias: bool = True, padding_mode: str = "zeros", device: Any = None,
                 dtype: Any = None) -> None:
        size = kernel_size if isinstance(kernel_size, int) else tuple(kernel_size)[0]
        super().__init__(in_channels, out_channels, (int(size),), stride, padding,
                         dilation, groups, bias, False, device, dtype, padding_mode)

    def forward(self, input: Tensor) -> Tensor:
        """Convolve ``input``."""
        x, padding = self._padded(input)
        return conv1d(x, self.weight, self.bias, self.stride, padding, self.dilation,
                      self.groups)


class Conv2d(_ConvNd):
    """2-D convolution over ``(N, C, H, W)``.

    Example:
        >>> gt.nn.Conv2d(1, 8, 3, padding=1)(gt.ones(2, 1, 3, 3)).shape
        (2, 8, 3, 3)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any,
                 stride: Any = 1, padding: Any = 0, dilation: Any = 1, groups: int = 1,
                 bias: bool = True, padding_mode: str = "zeros", device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(in_channels, out_channels, pair(kernel_size, "Conv2d", "kernel_size", 1),
                         stride, padding, dilation, groups, bias, False, device, dtype,
                         padding_mode)

    def forward(self, input: Tensor) -> Tensor:
        """Convolve ``input``."""
        x, padding = self._padded(input)
        return conv2d(x, self.weight, self.bias, self.stride, padding, self.dilation,
                      self.groups)


class Conv3d(_ConvNd):
    """3-D convolution over ``(N, C, D, H, W)``.

    Example:
        >>> gt.nn.Conv3d(1, 4, 3, padding=1)(gt.ones(1, 1, 2, 2, 2)).shape
        (1, 4, 2, 2, 2)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any,
                 stride: Any = 1, padding: Any = 0, dilation: Any = 1, groups: int = 1,
                 bias: bool = True, padding_mode: str = "zeros", device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(in_channels, out_channels,
                         tuple_of(kernel_size, 3, "Conv3d", "kernel_size", 1), stride, padding,
                         dilation, groups, bias, False, device, dtype, padding_mode)

    def forward(self, input: Tensor) -> Tensor:
        """Convolve ``input``."""
        x, padding = self._padded(input)
        return conv3d(x, self.weight, self.bias, self.stride, padding, self.dilation,
                      self.groups)


class ConvTranspose1d(_ConvNd):
    """1-D transposed convolution over ``(N, C, L)`` (the gradient of Conv1d in its input).

    Example:
        >>> gt.nn.ConvTranspose1d(4, 2, 2, stride=2)(gt.ones(1, 4, 3)).shape
        (1, 2, 6)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any,
                 stride: Any = 1, padding: Any = 0, output_padding: Any = 0, groups: int = 1,
                 bias: bool = True, dilation: Any = 1, padding_mode: str = "zeros",
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__(in_channels, out_channels,
                         tuple_of(kernel_size, 1, "ConvTranspose1d", "kernel_size", 1), stride,
                         padding, dilation, groups, bias, True, device, dtype, padding_mode)
        self.output_padding = tuple_of(output_padding, 1, type(self).__name__,
                                       "output_padding", 0)

    def forward(self, input: Tensor, output_size: Any = None) -> Tensor:
        """Apply the transposed convolution to ``input``; ``output_size`` picks the
        ``output_padding`` that gives that size."""
        return conv_transpose1d(input, self.weight, self.bias, self.stride, self.padding,
                                self._output_padding(input, output_size), self.groups,
                                self.dilation)


class ConvTranspose2d(_ConvNd):
    """2-D transposed convolution (the gradient of Conv2d with respect to its input).

    Example:
        >>> gt.nn.ConvTranspose2d(4, 2, 2, stride=2)(gt.ones(1, 4, 3, 3)).shape
        (1, 2, 6, 6)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any,
                 stride: Any = 1, padding: Any = 0, output_padding: Any = 0, groups: int = 1,
                 bias: bool = True, dilation: Any = 1, padding_mode: str = "zeros",
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__(in_channels, out_channels,
                         pair(kernel_size, "ConvTranspose2d", "kernel_size", 1), stride, padding,
                         dilation, groups, bias, True, device, dtype, padding_mode)
        self.output_padding = tuple_of(output_padding, 2, type(self).__name__,
                                       "output_padding", 0)

    def forward(self, input: Tensor, output_size: Any = None) -> Tensor:
        """Apply the transposed convolution to ``input``; ``output_size`` picks the
        ``output_padding`` that gives that size."""
        return conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                self._output_padding(input, output_size), self.groups,
                                self.dilation)


class ConvTranspose3d(_ConvNd):
    """3-D transposed convolution (the gradient of Conv3d with respect to its input).

    Example:
        >>> gt.nn.ConvTranspose3d(4, 2, 2, stride=2)(gt.randn(1, 4, 2, 2, 2)).shape
        (1, 2, 4, 4, 4)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any,
                 stride: Any = 1, padding: Any = 0, output_padding: Any = 0, groups: int = 1,
                 bias: bool = True, dilation: Any = 1, padding_mode: str = "zeros",
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__(in_channels, out_channels,
                         tuple_of(kernel_size, 3, "ConvTranspose3d", "kernel_size", 1), stride,
                         padding, dilation, groups, bias, True, device, dtype, padding_mode)
        self.output_padding = tuple_of(output_padding, 3, type(self).__name__,
                                       "output_padding", 0)

    def forward(self, input: Tensor, output_size: Any = None) -> Tensor:
        """Apply the transposed convolution to ``input``; ``output_size`` picks the
        ``output_padding`` that gives that size."""
        return conv_transpose3d(input, self.weight, self.bias, self.stride, self.padding,
                                self._output_padding(input, output_size), self.groups,
                                self.dilation)
