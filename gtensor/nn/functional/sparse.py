"""Embedding lookup."""

from __future__ import annotations

import functools

from ...errors import DTypeError, ShapeError, check
from ...graph.node import Node, record
from ...ops.creation import zeros
from ...ops.indexing.rows import as_index_tensor, gather_rows, row_offsets
from ...ops.tracing import library_call
from ...tensor import Tensor


def _embedding_vjp(ctx: Node, g: Tensor) -> Tensor:
    rows = g.reshape(-1, g.shape[-1])
    return library_call("embedding_backward",
                        functools.partial(_row_sums, ctx.num_embeddings, ctx.padding_idx),
                        (rows, ctx.index), (ctx.num_embeddings, g.shape[-1]), g.dtype)


def _row_sums(n: int, padding_idx: int | None, rows: Tensor, index: Tensor) -> Tensor:
    """Each table row's sum of the gradient rows that picked it (differentiable eagerly)."""
    grad = zeros(n, rows.shape[-1], dtype=rows.dtype, device=rows.device)
    grad.index_add_(0, index, rows)  # type: ignore[attr-defined]
    if padding_idx is not None:
        grad[padding_idx] = 0.0
    return grad


def _picked_rows(n: int, flat: Tensor, weight: Tensor) -> Tensor:
    """The lookup itself: rows ``flat`` of ``weight`` into a new tensor (no recording)."""
    w = weight.detach()
    rows = Tensor.empty((flat.shape[0], weight.shape[1]), weight.dtype, weight.device)
    if flat.numel():
        offsets = row_offsets([flat], flat.shape, (n,), (w.stride(0),), (0,),  # type: ignore
                              "embedding", w.device, strict=True)
        gather_rows(w._make_view(w.shape[1:], w._strides[1:], w._offset), offsets, rows)
    return rows


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None) -> Tensor:
    """Rows of ``weight`` picked by the integer tensor ``input``.

    The gradient adds each output row's gradient into its table row
    (``index_add_``); the ``padding_idx`` row gets none.

    Args:
        input: int64 or int32 indices of any shape, each in ``[0, num_embeddings)``;
            negative indices raise (they do not count from the end).
        weight: ``(num_embeddings, embedding_dim)``.
        padding_idx: the row at this index receives no gradient.

    Returns:
        ``(*input.shape, embedding_dim)``.

    Raises:
        IndexError: an index outside ``[0, num_embeddings)`` (checked on the device).

    Example:
        >>> F.embedding(gt.tensor([[0, 2]]), gt.randn(3, 4)).shape  # doctest: +SKIP
        (1, 2, 4)
    """
    check(input.dtype.name in ("int64", "int32"), "embedding", lambda: "expected indices of "
          f"dtype int64 or int32, got {input.dtype.name}", DTypeError)
    check(weight.ndim == 2, "embedding", lambda: f"expected a 2-D weight, got shape "
          f"{weight.shape}", ShapeError)
    n = weight.shape[0]
    if padding_idx is not None:
        check(-n <= padding_idx < n, "embedding", lambda: f"padding_idx {padding_idx} is out "
              f"of range for {n} embeddings", IndexError)
        padding_idx %= n
    flat = as_index_tensor(input, weight.device, "embedding").reshape(-1)
    rows = library_call("embedding", functools.partial(_picked_rows, n), (flat, weight),
                        (flat.shape[0], weight.shape[1]), weight.dtype)
    out = rows.reshape(*input.shape, weight.shape[1])
    record("embedding", out, (weight,), _embedding_vjp, index=flat, num_embeddings=n,
           padding_idx=padding_idx)
    return out
