"""Shrinking and thresholding activation layers: Softsign, Tanhshrink, Hardshrink, Softshrink,
Threshold, RReLU."""

from __future__ import annotations

from ...tensor import Tensor
from ..functional import shrinkage as F
from .module import Module


class Softsign(Module):
    """``x / (1 + |x|)``.

    Example:
        >>> gt.nn.Softsign()(gt.tensor([1.0])).tolist()
        [0.5]
    """

    def forward(self, input: Tensor) -> Tensor:
        """Apply softsign."""
        return F.softsign(input)


class Tanhshrink(Module):
    """``x - tanh(x)``."""

    def forward(self, input: Tensor) -> Tensor:
        """Apply tanhshrink."""
        return F.tanhshrink(input)


class Hardshrink(Module):
    """``x`` where ``|x| > lambd``, else 0."""

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def forward(self, input: Tensor) -> Tensor:
        """Apply hardshrink."""
        return F.hardshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """``x`` moved ``lambd`` toward 0, and 0 within ``[-lambd, lambd]``."""

    def forward(self, input: Tensor) -> Tensor:
        """Apply softshrink."""
        return F.softshrink(input, self.lambd)


class Threshold(Module):
    """``x`` where ``x > threshold``, else ``value``.

    Example:
        >>> gt.nn.Threshold(0.1, 20.0)(gt.tensor([0.0, 1.0])).tolist()
        [20.0, 1.0]
    """

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input: Tensor) -> Tensor:
        """Apply the threshold."""
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        return f"threshold={self.threshold}, value={self.value}" + (
            ", inplace=True" if self.inplace else "")


class RReLU(Module):
    """Randomized leaky ReLU: random slopes in training, their mean in evaluation.

    Example:
        >>> gt.nn.RReLU().eval()(gt.tensor([-2.0])).tolist()
        [-0.4583333432674408]
    """

    def __init__(self, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
                 inplace: bool = False) -> None:
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input: Tensor) -> Tensor:
        """Apply RReLU (random slopes when training)."""
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"lower={self.lower}, upper={self.upper}" + (
            ", inplace=True" if self.inplace else "")
