"""Convolution layers: Conv1d, Conv2d, ConvTranspose2d."""

from __future__ import annotations

import math
from typing import Any

from ...ops.conv import conv1d, conv2d, conv_transpose2d, pair
from ...ops.creation import empty
from ...tensor import Tensor
from .. import init
from ..parameter import Parameter
from .module import Module


class _ConvNd(Module):
    """Parameters and init shared by the convolution layers (PyTorch's defaults)."""

    def __init__(self, in_channels: int, out_channels: int, kernel: tuple[int, ...],
                 stride: Any, padding: Any, dilation: Any, groups: int, bias: bool,
                 transposed: bool, device: Any, dtype: Any) -> None:
        super().__init__()
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"[{type(self).__name__}] in_channels ({in_channels}) and "
                             f"out_channels ({out_channels}) must be divisible by groups "
                             f"({groups})")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride, self.padding = kernel, stride, padding
        self.dilation, self.groups = dilation, groups
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
            bound = 1.0 / math.sqrt(fan_in) if fan_in else 0.0
            init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        text = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}")
        if self.padding not in (0, (0, 0), (0,)):
            text += f", padding={self.padding}"
        if self.dilation not in (1, (1, 1), (1,)):
            text += f", dilation={self.dilation}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        return text + ("" if self.bias is not None else ", bias=False")


class Conv1d(_ConvNd):
    """1-D convolution over ``(N, C, L)``.

    Example:
        >>> gt.nn.Conv1d(2, 4, 3)(gt.randn(1, 2, 10)).shape  # doctest: +SKIP
        (1, 4, 8)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int,
                 stride: int = 1, padding: Any = 0, dilation: int = 1, groups: int = 1,
                 bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__(in_channels, out_channels, (int(kernel_size),), stride, padding,
                         dilation, groups, bias, False, device, dtype)

    def forward(self, input: Tensor) -> Tensor:
        """Convolve ``input``."""
        return conv1d(input, self.weight, self.bias, self.stride, self.padding, self.dilation,
                      self.groups)


class Conv2d(_ConvNd):
    """2-D convolution over ``(N, C, H, W)``.

    Example:
        >>> gt.nn.Conv2d(1, 8, 3, padding=1)(gt.randn(2, 1, 8, 8)).shape  # doctest: +SKIP
        (2, 8, 8, 8)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any,
                 stride: Any = 1, padding: Any = 0, dilation: Any = 1, groups: int = 1,
                 bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__(in_channels, out_channels, pair(kernel_size, "Conv2d", "kernel_size", 1),
                         stride, padding, dilation, groups, bias, False, device, dtype)

    def forward(self, input: Tensor) -> Tensor:
        """Convolve ``input``."""
        return conv2d(input, self.weight, self.bias, self.stride, self.padding, self.dilation,
                      self.groups)


class ConvTranspose2d(_ConvNd):
    """2-D transposed convolution (the gradient of Conv2d with respect to its input).

    Example:
        >>> gt.nn.ConvTranspose2d(4, 2, 2, stride=2)(gt.randn(1, 4, 3, 3)).shape  # doctest: +SKIP
        (1, 2, 6, 6)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any,
                 stride: Any = 1, padding: Any = 0, output_padding: Any = 0, groups: int = 1,
                 bias: bool = True, dilation: Any = 1, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(in_channels, out_channels,
                         pair(kernel_size, "ConvTranspose2d", "kernel_size", 1), stride, padding,
                         dilation, groups, bias, True, device, dtype)
        self.output_padding = output_padding

    def forward(self, input: Tensor) -> Tensor:
        """Apply the transposed convolution to ``input``."""
        return conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                self.output_padding, self.groups, self.dilation)
