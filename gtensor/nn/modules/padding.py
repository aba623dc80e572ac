"""Padding layers: constant (and zero), reflection, replication and circular, in 1-3 dims.

Each wraps :func:`~gtensor.nn.functional.pad`; an int ``padding`` pads every side of
each padded dim by that much, a tuple lists (left, right) pairs, last dim first.
"""

from __future__ import annotations

from typing import Any

from ...errors import ShapeError
from ...ops.layout.copies import pad
from ...tensor import Tensor
from .module import Module


class _PadNd(Module):
    _dims = 1
    _mode = "constant"

    def __init__(self, padding: Any) -> None:
        super().__init__()
        n = 2 * self._dims
        if isinstance(padding, int):
            self.padding: tuple[int, ...] = (padding,) * n
        else:
            self.padding = tuple(int(p) for p in padding)
            if len(self.padding) != n:
                raise ValueError(f"[{type(self).__name__}] expected padding of length {n}, got "
                                 f"{padding!r}")

    def forward(self, input: Tensor) -> Tensor:
        """Pad ``input``'s last dims."""
        if self._mode != "constant" and input.ndim not in (self._dims + 1, self._dims + 2):
            raise ShapeError(f"[{type(self).__name__}] expected {self._dims + 1}D or "
                             f"{self._dims + 2}D input, got shape {input.shape}")
        return pad(input, self.padding, self._mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding: Any, value: float) -> None:
        super().__init__(padding)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        """Pad ``input``'s last dims with ``value``."""
        return pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pad the last dim with a constant.

    Example:
        >>> gt.nn.ConstantPad1d((1, 2), 3.5)(gt.zeros(1, 2)).tolist()
        [[3.5, 0.0, 0.0, 3.5, 3.5]]
    """


class ConstantPad2d(_ConstantPadNd):
    """Pad the last two dims with a constant.

    Example:
        >>> gt.nn.ConstantPad2d(1, 0.5)(gt.zeros(1, 2, 2)).shape
        (1, 4, 4)
    """

    _dims = 2


class ConstantPad3d(_ConstantPadNd):
    """Pad the last three dims with a constant.

    Example:
        >>> gt.nn.ConstantPad3d(1, 0.5)(gt.zeros(1, 1, 1, 1)).shape
        (1, 3, 3, 3)
    """

    _dims = 3


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad1d(_ZeroPadNd):
    """Pad the last dim with zeros.

    Example:
        >>> gt.nn.ZeroPad1d(1)(gt.ones(1, 2)).tolist()
        [[0.0, 1.0, 1.0, 0.0]]
    """


class ZeroPad2d(_ZeroPadNd):
    """Pad the last two dims with zeros.

    Example:
        >>> gt.nn.ZeroPad2d((1, 0, 0, 1))(gt.ones(1, 2, 2)).shape
        (1, 3, 3)
    """

    _dims = 2


class ZeroPad3d(_ZeroPadNd):
    """Pad the last three dims with zeros.

    Example:
        >>> gt.nn.ZeroPad3d(1)(gt.ones(1, 1, 1, 1)).shape
        (1, 3, 3, 3)
    """

    _dims = 3


class ReflectionPad1d(_PadNd):
    """Pad the last dim of ``(C, W)`` or ``(N, C, W)`` by reflecting it (edge not repeated).

    Example:
        >>> gt.nn.ReflectionPad1d(2)(gt.tensor([[1.0, 2.0, 3.0]])).tolist()
        [[3.0, 2.0, 1.0, 2.0, 3.0, 2.0, 1.0]]
    """

    _mode = "reflect"


class ReflectionPad2d(ReflectionPad1d):
    """Pad the last two dims of 3-D or 4-D input by reflection.

    Example:
        >>> gt.nn.ReflectionPad2d(1)(gt.ones(1, 2, 2)).shape
        (1, 4, 4)
    """

    _dims = 2


class ReflectionPad3d(ReflectionPad1d):
    """Pad the last three dims of 4-D or 5-D input by reflection.

    Example:
        >>> gt.nn.ReflectionPad3d(1)(gt.ones(1, 2, 2, 2)).shape
        (1, 4, 4, 4)
    """

    _dims = 3


class ReplicationPad1d(_PadNd):
    """Pad the last dim of ``(C, W)`` or ``(N, C, W)`` by repeating its edge values.

    Example:
        >>> gt.nn.ReplicationPad1d((2, 1))(gt.tensor([[1.0, 2.0]])).tolist()
        [[1.0, 1.0, 1.0, 2.0, 2.0]]
    """

    _mode = "replicate"


class ReplicationPad2d(ReplicationPad1d):
    """Pad the last two dims of 3-D or 4-D input by repeating the edges.

    Example:
        >>> gt.nn.ReplicationPad2d(1)(gt.ones(1, 2, 2)).shape
        (1, 4, 4)
    """

    _dims = 2


class ReplicationPad3d(ReplicationPad1d):
    """Pad the last three dims of 4-D or 5-D input by repeating the edges.

    Example:
        >>> gt.nn.ReplicationPad3d(1)(gt.ones(1, 1, 1, 1)).shape
        (1, 3, 3, 3)
    """

    _dims = 3


class CircularPad1d(_PadNd):
    """Pad the last dim of ``(C, W)`` or ``(N, C, W)`` by wrapping around.

    Example:
        >>> gt.nn.CircularPad1d(1)(gt.tensor([[1.0, 2.0, 3.0]])).tolist()
        [[3.0, 1.0, 2.0, 3.0, 1.0]]
    """

    _mode = "circular"


class CircularPad2d(CircularPad1d):
    """Pad the last two dims of 3-D or 4-D input by wrapping around.

    Example:
        >>> gt.nn.CircularPad2d(1)(gt.ones(1, 2, 2)).shape
        (1, 4, 4)
    """

    _dims = 2


class CircularPad3d(CircularPad1d):
    """Pad the last three dims of 4-D or 5-D input by wrapping around.

    Example:
        >>> gt.nn.CircularPad3d(1)(gt.ones(1, 2, 2, 2)).shape
        (1, 4, 4, 4)
    """

    _dims = 3
