"""Pooling and resampling layers: MaxPool1d/2d, AvgPool1d/2d, AdaptiveAvg/MaxPool2d, Upsample,
UpsamplingNearest2d, UpsamplingBilinear2d."""

from __future__ import annotations

from typing import Any

from ...ops.pooling import adaptive_avg_pool2d, avg_pool2d, max_pool2d
from ...ops.resample import interpolate
from ...tensor import Tensor
from ..functional.pooling import adaptive_max_pool2d, avg_pool1d, max_pool1d
from .module import Module


class MaxPool2d(Module):
    """Max over sliding windows of ``(N, C, H, W)`` input.

    Example:
        >>> gt.nn.MaxPool2d(2)(gt.arange(16.0).reshape(1, 1, 4, 4))
        tensor([[[[ 5.,  7.],
                  [13., 15.]]]])
    """

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 dilation: Any = 1, return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.dilation, self.return_indices, self.ceil_mode = dilation, return_indices, ceil_mode

    def forward(self, input: Tensor) -> Any:
        """Pool ``input``."""
        return max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                          ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride or self.kernel_size}, "
                f"padding={self.padding}, dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class AvgPool2d(Module):
    """Mean over sliding windows of ``(N, C, H, W)`` input.

    Example:
        >>> gt.nn.AvgPool2d(2)(gt.arange(16.0).reshape(1, 1, 4, 4))
        tensor([[[[ 2.5000,  4.5000],
                  [10.5000, 12.5000]]]])
    """

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True,
                 divisor_override: int | None = None) -> None:
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input: Tensor) -> Tensor:
        """Pool ``input``."""
        return avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                          self.count_include_pad, self.divisor_override)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride or self.kernel_size}, "
                f"padding={self.padding}")


class AdaptiveAvgPool2d(Module):
    """Average pooling to a fixed output size.

    Example:
        >>> gt.nn.AdaptiveAvgPool2d(1)(gt.arange(16.0).reshape(1, 1, 4, 4))
        tensor([[[[7.5000]]]])
    """

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def forward(self, input: Tensor) -> Tensor:
        """Pool ``input``."""
        return adaptive_avg_pool2d(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class Upsample(Module):
    """Resize ``(N, C, H, W)`` input by ``size`` or ``scale_factor`` (any ``interpolate`` mode).

    Example:
        >>> gt.nn.Upsample(scale_factor=2)(gt.tensor([[[[1.0, 2.0]]]]))
        tensor([[[[1., 1., 2., 2.],
                  [1., 1., 2., 2.]]]])
    """

    def __init__(self, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                 align_corners: bool | None = None,
                 recompute_scale_factor: bool | None = None) -> None:
        super().__init__()
        self.size = size
        self.scale_factor = (tuple(float(f) for f in scale_factor)
                             if isinstance(scale_factor, (tuple, list))
                             else None if scale_factor is None else float(scale_factor))
        self.mode, self.align_corners = mode, align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:
        """Resize ``input``."""
        return interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                           self.recompute_scale_factor)

    def extra_repr(self) -> str:
        if self.scale_factor is not None:
            return f"scale_factor={self.scale_factor!r}, mode={self.mode!r}"
        return f"size={self.size!r}, mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    """Nearest-neighbour :class:`Upsample` of ``(N, C, H, W)`` input.

    Example:
        >>> gt.nn.UpsamplingNearest2d(scale_factor=2)(gt.ones(1, 1, 2, 2)).shape
        (1, 1, 4, 4)
    """

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, "nearest")


class UpsamplingBilinear2d(Upsample):
    """Bilinear :class:`Upsample` (corners aligned) of ``(N, C, H, W)`` input.

    Example:
        >>> gt.nn.UpsamplingBilinear2d(scale_factor=2)(gt.ones(1, 1, 2, 2)).shape
        (1, 1, 4, 4)
    """

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, "bilinear", True)


class MaxPool1d(MaxPool2d):
    """Max over sliding windows of ``(N, C, L)`` input.

    Example:
        >>> gt.nn.MaxPool1d(2)(gt.tensor([[[1.0, 3.0, 2.0, 0.0, 5.0, 4.0]]]))
        tensor([[[3., 2., 5.]]])
    """

    def forward(self, input: Tensor) -> Any:
        """Pool ``input``."""
        return max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                          ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class AvgPool1d(AvgPool2d):
    """Mean over sliding windows of ``(N, C, L)`` input.

    Example:
        >>> gt.nn.AvgPool1d(2)(gt.tensor([[[1.0, 3.0, 2.0, 0.0, 5.0, 4.0]]]))
        tensor([[[2.0000, 1.0000, 4.5000]]])
    """

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True) -> None:
        def one(v: Any) -> tuple[int, ...]:  # held as 1-tuples, as torch holds them
            return tuple(v) if isinstance(v, (tuple, list)) else (v,)

        super().__init__(one(kernel_size), one(kernel_size if stride is None else stride),
                         one(padding), ceil_mode, count_include_pad)

    def forward(self, input: Tensor) -> Tensor:
        """Pool ``input``."""
        return avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                          self.count_include_pad)


class AdaptiveMaxPool2d(AdaptiveAvgPool2d):
    """Max pooling to a fixed output size.

    Example:
        >>> gt.nn.AdaptiveMaxPool2d(2)(gt.arange(16.0).reshape(1, 1, 4, 4))
        tensor([[[[ 5.,  7.],
                  [13., 15.]]]])
    """

    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__(output_size)
        self.return_indices = return_indices

    def forward(self, input: Tensor) -> Any:
        """Pool ``input``."""
        return adaptive_max_pool2d(input, self.output_size, self.return_indices)
