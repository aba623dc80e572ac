"""Patch, pixel and channel rearranging layers: PixelShuffle, PixelUnshuffle, Unfold, Fold,
ChannelShuffle."""

from __future__ import annotations

from typing import Any

from ...tensor import Tensor
from .. import functional as F
from .module import Module


class PixelShuffle(Module):
    """Rearrange ``(*, C*r*r, H, W)`` into ``(*, C, H*r, W*r)``.

    Example:
        >>> gt.nn.PixelShuffle(2)(gt.arange(4.0).reshape(1, 4, 1, 1))
        tensor([[[[0., 1.],
                  [2., 3.]]]])
    """

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:
        """Shuffle channels into the plane."""
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """Rearrange ``(*, C, H*r, W*r)`` into ``(*, C*r*r, H, W)``.

    Example:
        >>> gt.nn.PixelUnshuffle(2)(gt.zeros(1, 2, 4, 4)).shape
        (1, 8, 2, 2)
    """

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:
        """Shuffle the plane into channels."""
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"


class Unfold(Module):
    """Extract sliding patches as columns (:func:`~gtensor.nn.functional.unfold`).

    Example:
        >>> gt.nn.Unfold(2)(gt.zeros(1, 3, 4, 4)).shape  # 3*2*2 rows, 3*3 windows
        (1, 12, 9)
    """

    def __init__(self, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
                 stride: Any = 1) -> None:
        super().__init__()
        self.kernel_size, self.dilation = kernel_size, dilation
        self.padding, self.stride = padding, stride

    def forward(self, input: Tensor) -> Tensor:
        """The columns of ``input``."""
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


class Fold(Unfold):
    """Sum columns back into an image (:func:`~gtensor.nn.functional.fold`).

    Example:
        >>> gt.nn.Fold((4, 4), 2)(gt.zeros(1, 12, 9)).shape
        (1, 3, 4, 4)
    """

    def __init__(self, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
                 stride: Any = 1) -> None:
        super().__init__(kernel_size, dilation, padding, stride)
        self.output_size = output_size

    def forward(self, input: Tensor) -> Tensor:
        """The image the columns of ``input`` add up to."""
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                      self.stride)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}, {super().extra_repr()}"


class ChannelShuffle(Module):
    """:func:`~gtensor.nn.functional.channel_shuffle` as a module.

    Example:
        >>> gt.nn.ChannelShuffle(2)(gt.arange(4.0).reshape(1, 4, 1)).flatten().tolist()
        [0.0, 2.0, 1.0, 3.0]
    """

    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:
        """Shuffle ``input``'s channels."""
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"
