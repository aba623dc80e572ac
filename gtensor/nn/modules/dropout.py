"""Dropout layer."""

from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from .module import Module


class Dropout(Module):
    """Zero elements with probability ``p`` in training (scaling the rest); identity in eval.

    Example:
        >>> drop = gt.nn.Dropout(0.2); drop.eval(); drop(x) is x  # doctest: +SKIP
        True
    """

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"[Dropout] p must be in [0, 1], got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """Apply dropout when training."""
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"
