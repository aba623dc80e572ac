"""Distance layers: CosineSimilarity and PairwiseDistance."""

from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from .module import Module


class CosineSimilarity(Module):
    """:func:`~gtensor.nn.functional.cosine_similarity` along ``dim`` as a module.

    Example:
        >>> gt.nn.CosineSimilarity(dim=1)(gt.tensor([[1.0, 0.0]]), gt.tensor([[1.0, 1.0]]))
        tensor([0.7071])
    """

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        """The cosine similarity of ``x1`` and ``x2``."""
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    """:func:`~gtensor.nn.functional.pairwise_distance` as a module.

    Example:
        >>> gt.nn.PairwiseDistance(p=1.0)(gt.zeros(1, 2), gt.tensor([[1.0, 2.0]]))
        tensor([3.0000])
    """

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        """The p-norm distance between the rows of ``x1`` and ``x2``."""
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)
