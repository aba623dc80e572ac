"""Embedding lookup."""

from __future__ import annotations

from ...errors import check
from ...tensor import Tensor


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None) -> Tensor:
    """Rows of ``weight`` picked by the integer tensor ``input``.

    Args:
        input: integer indices of any shape, each in ``[0, num_embeddings)``.
        weight: ``(num_embeddings, embedding_dim)``.
        padding_idx: the row at this index receives no gradient.

    Returns:
        ``(*input.shape, embedding_dim)``.

    Example:
        >>> F.embedding(gt.tensor([[0, 2]]), gt.randn(3, 4)).shape  # doctest: +SKIP
        (1, 2, 4)
    """
    check(not input.dtype.is_floating_point, "embedding", lambda: "indices must be an integer "
          f"tensor, got {input.dtype.name}", TypeError)
    flat = input.reshape(-1)  # type: ignore[attr-defined]
    rows = weight.index_select(0, flat)  # type: ignore[attr-defined]
    if padding_idx is not None and rows.requires_grad:
        from ...ops.elementwise import where

        n = weight.shape[0]
        check(-n <= padding_idx < n, "embedding", lambda: f"padding_idx {padding_idx} is out "
              f"of range for {n} embeddings", IndexError)
        keep = (flat != padding_idx % n).unsqueeze(1)  # type: ignore[attr-defined]
        rows = where(keep, rows, rows.detach())  # type: ignore[attr-defined]
    return rows.reshape(*input.shape, weight.shape[1])  # type: ignore[attr-defined]
