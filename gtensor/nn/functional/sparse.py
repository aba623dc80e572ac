"""Embedding lookup."""

from __future__ import annotations

from ...autograd.node import Node, record
from ...errors import check
from ...tensor import Tensor


def _embedding_vjp(ctx: Node, g: Tensor) -> Tensor:
    from ...ops.creation import zeros

    rows = g.reshape(-1, g.shape[-1])  # type: ignore[attr-defined]
    grad = zeros(ctx.num_embeddings, g.shape[-1], dtype=g.dtype, device=g.device)
    grad.index_add_(0, ctx.index, rows)  # type: ignore[attr-defined]
    if ctx.padding_idx is not None:
        grad[ctx.padding_idx] = 0.0
    return grad




def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None) -> Tensor:
    """Rows of ``weight`` picked by the integer tensor ``input``.

    The gradient adds each output row's gradient into its table row
    (``index_add_``); the ``padding_idx`` row gets none.

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
    n = weight.shape[0]
    if padding_idx is not None:
        check(-n <= padding_idx < n, "embedding", lambda: f"padding_idx {padding_idx} is out "
              f"of range for {n} embeddings", IndexError)
        padding_idx %= n
    flat = input.reshape(-1)  # type: ignore[attr-defined]
    rows = weight.detach().index_select(0, flat)  # type: ignore[attr-defined]
    out = rows.reshape(*input.shape, weight.shape[1])  # type: ignore[attr-defined]
    record("embedding", out, (weight,), _embedding_vjp, index=flat, num_embeddings=n,
           padding_idx=padding_idx)
    return out
