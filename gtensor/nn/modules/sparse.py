"""Embedding layers: Embedding and EmbeddingBag."""

from __future__ import annotations

from typing import Any

from ...errors import ShapeError
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
        max_norm: rows picked by a lookup are first rescaled in place to at most this norm.
        norm_type: the p of that norm.
        scale_grad_by_freq: divide each row's gradient by how often a lookup picks it.
        sparse: must be False (gradients are dense).
        device: where to create the table.
        dtype: the table's floating dtype.

    Example:
        >>> gt.nn.Embedding(10, 4)(gt.tensor([[1, 2], [3, 4]])).shape
        (2, 2, 4)
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 max_norm: float | None = None, norm_type: float = 2.0,
                 scale_grad_by_freq: bool = False, sparse: bool = False,
                 _weight: Tensor | None = None, _freeze: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise ValueError(f"[{type(self).__name__}] padding_idx {padding_idx} is out of "
                                 f"range for {num_embeddings} embeddings")
            padding_idx %= num_embeddings
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.padding_idx = padding_idx
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        if _weight is None:
            self.weight = Parameter(empty(num_embeddings, embedding_dim, device=device,
                                          dtype=dtype), requires_grad=not _freeze)
            self.reset_parameters()
        else:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise ShapeError(f"[{type(self).__name__}] _weight of shape "
                                 f"{tuple(_weight.shape)} does not match "
                                 f"({num_embeddings}, {embedding_dim})")
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    @classmethod
    def from_pretrained(cls, embeddings: Tensor, freeze: bool = True,
                        padding_idx: int | None = None, max_norm: float | None = None,
                        norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                        sparse: bool = False) -> Embedding:
        """An Embedding whose table is the 2-D ``embeddings`` (kept fixed when ``freeze``).

        Example:
            >>> emb = gt.nn.Embedding.from_pretrained(gt.tensor([[1.0, 2.0], [3.0, 4.0]]))
            >>> emb(gt.tensor([1])).tolist(), emb.weight.requires_grad
            ([[3.0, 4.0]], False)
        """
        if embeddings.ndim != 2:
            raise ShapeError(f"[{cls.__name__}.from_pretrained] expected a 2-D embeddings "
                             f"tensor, got shape {tuple(embeddings.shape)}")
        rows, dim = embeddings.shape
        return cls(rows, dim, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse,
                   embeddings, freeze)

    def reset_parameters(self) -> None:
        """Draw from ``N(0, 1)``; zero the padding row."""
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with no_grad():
                self.weight[self.padding_idx] = 0.0

    def forward(self, input: Tensor) -> Tensor:
        """Look up the rows of ``input``."""
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                           self.scale_grad_by_freq, self.sparse)

    def extra_repr(self) -> str:
        pad = "" if self.padding_idx is None else f", padding_idx={self.padding_idx}"
        norm = "" if self.max_norm is None else f", max_norm={self.max_norm}"
        return f"{self.num_embeddings}, {self.embedding_dim}{pad}{norm}"


class EmbeddingBag(Embedding):
    """Sums, means or maxima of bags of embedding rows, without the per-row intermediate API.

    Args:
        num_embeddings: table size.
        embedding_dim: vector size.
        max_norm: rows picked by a lookup are first rescaled in place to at most this norm.
        norm_type: the p of that norm.
        scale_grad_by_freq: must be False.
        mode: ``"sum"``, ``"mean"`` or ``"max"``.
        sparse: must be False.
        include_last_offset: ``offsets`` carry the end of the last bag too.
        padding_idx: indices equal to it are left out of every bag (its row starts at zero).
        device: where to create the table.
        dtype: the table's floating dtype.

    Example:
        >>> bag = gt.nn.EmbeddingBag(10, 3, mode="sum")
        >>> bag(gt.tensor([1, 2, 4, 5]), gt.tensor([0, 2])).shape  # two bags
        (2, 3)
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, max_norm: float | None = None,
                 norm_type: float = 2.0, scale_grad_by_freq: bool = False, mode: str = "mean",
                 sparse: bool = False, _weight: Tensor | None = None,
                 include_last_offset: bool = False, padding_idx: int | None = None,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__(num_embeddings, embedding_dim, padding_idx, max_norm, norm_type,
                         scale_grad_by_freq, sparse, _weight, False, device, dtype)
        self.mode, self.include_last_offset = mode, include_last_offset

    @classmethod
    def from_pretrained(cls, embeddings: Tensor, freeze: bool = True,  # type: ignore[override]
                        max_norm: float | None = None, norm_type: float = 2.0,
                        scale_grad_by_freq: bool = False, mode: str = "mean",
                        sparse: bool = False, include_last_offset: bool = False,
                        padding_idx: int | None = None) -> EmbeddingBag:
        """An EmbeddingBag whose table is the 2-D ``embeddings`` (kept fixed when ``freeze``).

        Example:
            >>> bag = gt.nn.EmbeddingBag.from_pretrained(gt.tensor([[1.0], [3.0]]), mode="sum")
            >>> bag(gt.tensor([[0, 1]])).tolist()
            [[4.0]]
        """
        if embeddings.ndim != 2:
            raise ShapeError(f"[{cls.__name__}.from_pretrained] expected a 2-D embeddings "
                             f"tensor, got shape {tuple(embeddings.shape)}")
        bag = cls(embeddings.shape[0], embeddings.shape[1], max_norm, norm_type,
                  scale_grad_by_freq, mode, sparse, embeddings, include_last_offset, padding_idx)
        bag.weight.requires_grad_(not freeze)
        return bag

    def forward(self, input: Tensor, offsets: Tensor | None = None,
                per_sample_weights: Tensor | None = None) -> Tensor:
        """Reduce the rows of each bag of ``input`` (cut at ``offsets`` when 1-D)."""
        return F.embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type,
                               self.scale_grad_by_freq, self.mode, self.sparse,
                               per_sample_weights, self.include_last_offset, self.padding_idx)

    def extra_repr(self) -> str:
        return f"{super().extra_repr()}, mode={self.mode!r}"
