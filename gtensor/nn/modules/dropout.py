"""Dropout layers: elementwise (Dropout), whole channels (Dropout1d, 2d, 3d) and the
SELU-preserving AlphaDropout and FeatureAlphaDropout."""

from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from .module import Module


class Dropout(Module):
    """Zero elements with probability ``p`` in training (scaling the rest); identity in eval.

    Example:
        >>> drop, x = gt.nn.Dropout(0.2).eval(), gt.ones(3)
        >>> drop(x) is x
        True
    """

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"[{type(self).__name__}] p must be in [0, 1], got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """Apply dropout when training."""
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout1d(Dropout):
    """Zero whole channels of ``(N, C, L)`` with probability ``p`` in training.

    Example:
        >>> gt.nn.Dropout1d(0.2)(gt.ones(2, 3, 4)).shape
        (2, 3, 4)
    """

    def forward(self, input: Tensor) -> Tensor:
        """Apply channel dropout when training."""
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(Dropout):
    """Zero whole channels of ``(N, C, H, W)`` with probability ``p`` in training.

    Example:
        >>> gt.nn.Dropout2d(0.2)(gt.ones(2, 3, 4, 4)).shape
        (2, 3, 4, 4)
    """

    def forward(self, input: Tensor) -> Tensor:
        """Apply channel dropout when training."""
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(Dropout):
    """Zero whole channels of ``(N, C, D, H, W)`` with probability ``p`` in training.

    Example:
        >>> gt.nn.Dropout3d(0.2)(gt.ones(2, 3, 2, 2, 2)).shape
        (2, 3, 2, 2, 2)
    """

    def forward(self, input: Tensor) -> Tensor:
        """Apply channel dropout when training."""
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(Dropout):
    """:func:`~gtensor.nn.functional.alpha_dropout` in training; identity in eval.

    Example:
        >>> gt.nn.AlphaDropout(0.2)(gt.randn(2, 3)).shape
        (2, 3)
    """

    def forward(self, input: Tensor) -> Tensor:
        """Apply alpha dropout when training."""
        return F.alpha_dropout(input, self.p, self.training, self.inplace)


class FeatureAlphaDropout(Dropout):
    """:func:`~gtensor.nn.functional.feature_alpha_dropout` in training; identity in eval.

    Example:
        >>> gt.nn.FeatureAlphaDropout(0.2)(gt.randn(2, 3, 4)).shape
        (2, 3, 4)
    """

    def forward(self, input: Tensor) -> Tensor:
        """Apply channel-wise alpha dropout when training."""
        return F.feature_alpha_dropout(input, self.p, self.training, self.inplace)
