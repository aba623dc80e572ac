"""Pooling layers beside the 2-D ones: MaxPool3d, AvgPool3d, AdaptiveAvg/MaxPool1d and 3d,
MaxUnpool1d/2d/3d, LPPool1d/2d/3d and FractionalMaxPool2d/3d."""

from __future__ import annotations

from typing import Any

from ...tensor import Tensor
from ..functional.fold import tuple_of
from ..functional.fractional import fractional_max_pool2d, fractional_max_pool3d
from ..functional.pooling3d import (
    adaptive_avg_pool1d,
    adaptive_avg_pool3d,
    adaptive_max_pool1d,
    adaptive_max_pool3d,
    avg_pool3d,
    max_pool3d,
)
from ..functional.unpool import (
    lp_pool1d,
    lp_pool2d,
    lp_pool3d,
    max_unpool1d,
    max_unpool2d,
    max_unpool3d,
)
from .module import Module
from .pooling import AdaptiveAvgPool2d, AdaptiveMaxPool2d, AvgPool2d, MaxPool2d


class MaxPool3d(MaxPool2d):
    """Max over sliding windows of ``(N, C, D, H, W)`` input.

    Example:
        >>> gt.nn.MaxPool3d(2)(gt.randn(1, 1, 4, 4, 4)).shape
        (1, 1, 2, 2, 2)
    """

    def forward(self, input: Tensor) -> Any:
        """Pool ``input``."""
        return max_pool3d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                          self.ceil_mode, self.return_indices)


class AvgPool3d(AvgPool2d):
    """Mean over sliding windows of ``(N, C, D, H, W)`` input.

    Example:
        >>> gt.nn.AvgPool3d(2)(gt.randn(1, 1, 4, 4, 4)).shape
        (1, 1, 2, 2, 2)
    """

    def forward(self, input: Tensor) -> Tensor:
        """Pool ``input``."""
        return avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                          self.count_include_pad, self.divisor_override)


class AdaptiveAvgPool1d(AdaptiveAvgPool2d):
    """Average pooling of ``(N, C, L)`` input to a fixed length.

    Example:
        >>> gt.nn.AdaptiveAvgPool1d(2)(gt.randn(2, 3, 5)).shape
        (2, 3, 2)
    """

    def forward(self, input: Tensor) -> Tensor:
        """Pool ``input``."""
        return adaptive_avg_pool1d(input, self.output_size)


class AdaptiveAvgPool3d(AdaptiveAvgPool2d):
    """Average pooling of ``(N, C, D, H, W)`` input to a fixed size.

    Example:
        >>> gt.nn.AdaptiveAvgPool3d(1)(gt.randn(2, 3, 2, 3, 4)).shape
        (2, 3, 1, 1, 1)
    """

    def forward(self, input: Tensor) -> Tensor:
        """Pool ``input``."""
        return adaptive_avg_pool3d(input, self.output_size)


class AdaptiveMaxPool1d(AdaptiveMaxPool2d):
    """Max pooling of ``(N, C, L)`` input to a fixed length.

    Example:
        >>> gt.nn.AdaptiveMaxPool1d(2)(gt.randn(2, 3, 5)).shape
        (2, 3, 2)
    """

    def forward(self, input: Tensor) -> Any:
        """Pool ``input``."""
        return adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool3d(AdaptiveMaxPool2d):
    """Max pooling of ``(N, C, D, H, W)`` input to a fixed size.

    Example:
        >>> gt.nn.AdaptiveMaxPool3d(2)(gt.randn(1, 3, 2, 3, 4)).shape
        (1, 3, 2, 2, 2)
    """

    def forward(self, input: Tensor) -> Any:
        """Pool ``input``."""
        return adaptive_max_pool3d(input, self.output_size, self.return_indices)


class _MaxUnpoolNd(Module):
    _dims = 1

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__()
        name, n = type(self).__name__, self._dims
        self.kernel_size = tuple_of(kernel_size, n, name, "kernel_size", 1)
        self.stride = tuple_of(kernel_size if stride is None else stride, n, name, "stride", 1)
        self.padding = tuple_of(padding, n, name, "padding", 0)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    """:func:`~gtensor.nn.functional.max_unpool1d` as a module.

    Example:
        >>> v, i = gt.nn.MaxPool1d(2, return_indices=True)(gt.randn(1, 1, 4))
        >>> gt.nn.MaxUnpool1d(2)(v, i).shape
        (1, 1, 4)
    """

    def forward(self, input: Tensor, indices: Tensor, output_size: Any = None) -> Tensor:
        """Scatter ``input`` back to the positions ``indices``."""
        return max_unpool1d(input, indices, self.kernel_size, self.stride, self.padding,
                            output_size)


class MaxUnpool2d(_MaxUnpoolNd):
    """:func:`~gtensor.nn.functional.max_unpool2d` as a module.

    Example:
        >>> v, i = gt.nn.MaxPool2d(2, return_indices=True)(gt.randn(1, 1, 4, 4))
        >>> gt.nn.MaxUnpool2d(2)(v, i).shape
        (1, 1, 4, 4)
    """

    _dims = 2

    def forward(self, input: Tensor, indices: Tensor, output_size: Any = None) -> Tensor:
        """Scatter ``input`` back to the positions ``indices``."""
        return max_unpool2d(input, indices, self.kernel_size, self.stride, self.padding,
                            output_size)


class MaxUnpool3d(_MaxUnpoolNd):
    """:func:`~gtensor.nn.functional.max_unpool3d` as a module.

    Example:
        >>> v, i = gt.nn.MaxPool3d(2, return_indices=True)(gt.randn(1, 1, 2, 2, 2))
        >>> gt.nn.MaxUnpool3d(2)(v, i).shape
        (1, 1, 2, 2, 2)
    """

    _dims = 3

    def forward(self, input: Tensor, indices: Tensor, output_size: Any = None) -> Tensor:
        """Scatter ``input`` back to the positions ``indices``."""
        return max_unpool3d(input, indices, self.kernel_size, self.stride, self.padding,
                            output_size)


class _LPPoolNd(Module):
    def __init__(self, norm_type: float, kernel_size: Any, stride: Any = None,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type, self.kernel_size = norm_type, kernel_size
        self.stride, self.ceil_mode = stride, ceil_mode

    def extra_repr(self) -> str:
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, ceil_mode={self.ceil_mode}")


class LPPool1d(_LPPoolNd):
    """:func:`~gtensor.nn.functional.lp_pool1d` as a module.

    Example:
        >>> gt.nn.LPPool1d(2, 2)(gt.tensor([[[3.0, 4.0]]])).tolist()
        [[[5.0]]]
    """

    def forward(self, input: Tensor) -> Tensor:
        """Pool ``input``."""
        return lp_pool1d(input, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(_LPPoolNd):
    """:func:`~gtensor.nn.functional.lp_pool2d` as a module.

    Example:
        >>> gt.nn.LPPool2d(2, 2)(gt.ones(1, 1, 4, 4)).shape
        (1, 1, 2, 2)
    """

    def forward(self, input: Tensor) -> Tensor:
        """Pool ``input``."""
        return lp_pool2d(input, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class LPPool3d(_LPPoolNd):
    """:func:`~gtensor.nn.functional.lp_pool3d` as a module.

    Example:
        >>> gt.nn.LPPool3d(2, 2)(gt.ones(1, 1, 2, 2, 2)).shape
        (1, 1, 1, 1, 1)
    """

    def forward(self, input: Tensor) -> Tensor:
        """Pool ``input``."""
        return lp_pool3d(input, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class _FractionalMaxPoolNd(Module):
    _dims = 2

    def __init__(self, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
                 return_indices: bool = False, _random_samples: Tensor | None = None) -> None:
        super().__init__()
        name, n = type(self).__name__, self._dims
        self.kernel_size = tuple_of(kernel_size, n, name, "kernel_size", 1)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        if (output_size is None) == (output_ratio is None):
            raise ValueError(f"[{name}] requires exactly one of output_size and output_ratio")
        self.output_size = None if output_size is None else \
            tuple_of(output_size, n, name, "output_size", 1)
        self.output_ratio = None if output_ratio is None else \
            ((output_ratio,) * n if isinstance(output_ratio, (int, float)) else tuple(output_ratio))
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"[{name}] output_ratio must be between 0 and 1 (got "
                             f"{output_ratio})")


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """:func:`~gtensor.nn.functional.fractional_max_pool2d` as a module.

    Example:
        >>> gt.nn.FractionalMaxPool2d(2, output_ratio=0.5)(gt.randn(1, 1, 8, 8)).shape
        (1, 1, 4, 4)
    """

    def forward(self, input: Tensor) -> Any:
        """Pool ``input`` over fresh pseudo-random windows (or the stored samples')."""
        return fractional_max_pool2d(input, self.kernel_size, self.output_size,
                                     self.output_ratio, self.return_indices,
                                     _random_samples=self._random_samples)


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """:func:`~gtensor.nn.functional.fractional_max_pool3d` as a module.

    Example:
        >>> gt.nn.FractionalMaxPool3d(2, output_size=3)(gt.randn(1, 1, 5, 5, 5)).shape
        (1, 1, 3, 3, 3)
    """

    _dims = 3

    def forward(self, input: Tensor) -> Any:
        """Pool ``input`` over fresh pseudo-random windows (or the stored samples')."""
        return fractional_max_pool3d(input, self.kernel_size, self.output_size,
                                     self.output_ratio, self.return_indices,
                                     _random_samples=self._random_samples)
