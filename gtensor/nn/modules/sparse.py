"""Embedding layer."""

from __future__ import annotations

from typing import Any

from ...graph.grad_mode import no_grad
from ...ops.creation import empty
from ...tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


class Embedding(Module):
    """A lookup table of ``num_embeddings`` vectors of size ``embedding_dim``.

    Args:
        num_embeddings: table size.
        embedding_dim: vector size.
        padding_idx: this row starts at zero and receives no gradient.
        device: where to create the table.
        dtype: the table's floating dtype.

    Example:
        >>> gt.nn.Embedding(10, 4)(gt.tensor([[1, 2], [3, 4]])).shape  # doctest: +SKIP
        (2, 2, 4)
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise ValueError(f"[Embedding] padding_idx {padding_idx} is out of range for "
                                 f"{num_embeddings} embeddings")
            padding_idx %= num_embeddings
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.padding_idx = padding_idx
        self.weight = Parameter(empty(num_embeddings, embedding_dim, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw from ``N(0, 1)``; zero the padding row."""
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with no_grad():
                self.weight[self.padding_idx] = 0.0

    def forward(self, input: Tensor) -> Tensor:
        """Look up the rows of ``input``."""
        return F.embedding(input, self.weight, self.padding_idx)

    def extra_repr(self) -> str:
        pad = "" if self.padding_idx is None else f", padding_idx={self.padding_idx}"
        return f"{self.num_embeddings}, {self.embedding_dim}{pad}"
