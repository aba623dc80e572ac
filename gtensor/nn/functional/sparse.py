"""Embedding lookup (``embedding``) and bags of lookups reduced per bag (``embedding_bag``)."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ...errors import DTypeError, ShapeError, check
from ...graph.grad_mode import no_grad
from ...graph.node import Node, record
from ...ops.creation import ones, tensor, zeros
from ...ops.elementwise import where
from ...ops.indexing.rows import as_index_tensor, gather_rows, row_offsets
from ...ops.tracing import library_call
from ...tensor import Tensor


def _embedding_vjp(ctx: Node, g: Tensor) -> Tensor:
    rows = g.reshape(-1, g.shape[-1])
    if ctx.scale_grad_by_freq:  # each row's gradient over how often the batch picked it
        index = ctx.index
        counts = zeros(ctx.num_embeddings, dtype=g.dtype, device=g.device)
        counts.index_add_(0, index, ones(index.shape[0], dtype=g.dtype, device=g.device))  # type: ignore[attr-defined]
        rows = rows / counts.index_select(0, index).unsqueeze(1)  # type: ignore[attr-defined]
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


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None,
              max_norm: float | None = None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """Rows of ``weight`` picked by the integer tensor ``input``.

    The gradient adds each output row's gradient into its table row
    (``index_add_``); the ``padding_idx`` row gets none.

    Args:
        input: int64 or int32 indices of any shape, each in ``[0, num_embeddings)``;
            negative indices raise (they do not count from the end).
        weight: ``(num_embeddings, embedding_dim)``.
        padding_idx: the row at this index receives no gradient.
        max_norm: before the lookup, rows that ``input`` picks whose ``norm_type``
            norm exceeds this are rescaled in place (without recording) to it.
        norm_type: the p of that norm.
        scale_grad_by_freq: divide each row's gradient by how many times ``input`` picks it.
        sparse: must be False (gradients are dense).

    Returns:
        ``(*input.shape, embedding_dim)``.

    Raises:
        IndexError: an index outside ``[0, num_embeddings)`` (checked on the device).

    Example:
        >>> F.embedding(gt.tensor([[0, 2]]), gt.tensor([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]))
        tensor([[[0., 1.],
                 [4., 5.]]])
    """
    check(input.dtype.name in ("int64", "int32"), "embedding", lambda: "expected indices of "
          f"dtype int64 or int32, got {input.dtype.name}", DTypeError)
    check(weight.ndim == 2, "embedding", lambda: f"expected a 2-D weight, got shape "
          f"{weight.shape}", ShapeError)
    check(not sparse, "embedding", "sparse gradients are not supported", ValueError)
    n = weight.shape[0]
    if padding_idx is not None:
        check(-n <= padding_idx < n, "embedding", lambda: f"padding_idx {padding_idx} is out "
              f"of range for {n} embeddings", IndexError)
        padding_idx %= n
    flat = as_index_tensor(input, weight.device, "embedding").reshape(-1)
    if max_norm is not None:
        _renorm(weight, flat, max_norm, norm_type)
    rows = library_call("embedding", functools.partial(_picked_rows, n), (flat, weight),
                        (flat.shape[0], weight.shape[1]), weight.dtype)
    out = rows.reshape(*input.shape, weight.shape[1])
    record("embedding", out, (weight,), _embedding_vjp, index=flat, num_embeddings=n,
           padding_idx=padding_idx, scale_grad_by_freq=scale_grad_by_freq)
    return out


def _renorm(weight: Tensor, flat: Tensor, max_norm: float, norm_type: float) -> None:
    """Rescale in place the picked rows of ``weight`` whose norm exceeds ``max_norm``."""
    with no_grad():
        w = weight.detach()
        hits = zeros(w.shape[0], dtype=w.dtype, device=w.device)
        hits.index_add_(0, flat, ones(flat.shape[0], dtype=w.dtype, device=w.device))  # type: ignore[attr-defined]
        norms = w.norm(norm_type, dim=1)
        scale = where((hits > 0) & (norms > max_norm), max_norm / (norms + 1e-7), 1.0)
        w.mul_(scale.unsqueeze(1))


def _bags(op: str, input: Tensor, offsets: Any, include_last_offset: bool,
          device: Any) -> tuple[Tensor, Tensor, Tensor | None]:
    """Indices ``(B, LMAX)``, their validity ``(B, LMAX)`` and the positions read from ``input``.

    A 2-D ``input`` is already one bag per row. A 1-D one is cut at ``offsets``,
    which are read on the host to size the padded layout.
    """
    if input.ndim == 2:
        check(offsets is None, op, "offsets must be None for a 2-D input", ValueError)
        return input, ones(*input.shape, dtype=input.dtype, device=device) > 0, None
    check(input.ndim == 1, op, lambda: f"expected a 1-D or 2-D input, got shape {input.shape}",
          ShapeError)
    check(offsets is not None, op, "offsets are required for a 1-D input", ValueError)
    starts = np.asarray(offsets.cpu().numpy() if isinstance(offsets, Tensor) else offsets,
                        dtype=np.int64).reshape(-1)
    total = input.shape[0]
    ends = np.append(starts[1:], total)
    if include_last_offset:
        starts, ends = starts[:-1], ends[:-1]
    check(starts.size == 0 or (starts[0] == 0 and np.all(np.diff(starts) >= 0)
                               and ends[-1] <= total), op,
          lambda: f"offsets must start at 0 and not decrease up to {total}, got "
          f"{starts.tolist()}", ValueError)
    lengths = ends - starts
    width = int(lengths.max(initial=0))
    lanes = np.arange(width)
    valid = lanes[None, :] < lengths[:, None]
    pos = np.where(valid, starts[:, None] + lanes[None, :], 0)
    if total == 0 or width == 0:
        idx = zeros(starts.size, width, dtype=input.dtype, device=device)
        return idx, tensor(valid, device=device), None
    where_ = tensor(pos.reshape(-1), device=device)
    idx = input.index_select(0, where_).reshape(*pos.shape)
    return idx, tensor(valid, device=device), where_


def embedding_bag(input: Tensor, weight: Tensor, offsets: Any = None,
                  max_norm: float | None = None, norm_type: float = 2.0,
                  scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False,
                  per_sample_weights: Tensor | None = None, include_last_offset: bool = False,
                  padding_idx: int | None = None) -> Tensor:
    """Sum, mean or max of the embedding rows in each bag of indices.

    The bags are laid out as a padded ``(B, LMAX)`` index matrix (host-built
    from ``offsets``), looked up with :func:`embedding` and reduced over the
    bag dim with a validity mask, so autograd gives the gradients. Empty bags
    (and bags of padding only) give zeros.

    Args:
        input: 1-D indices cut into bags at ``offsets``, or 2-D ``(B, L)``, one bag per row.
        weight: ``(num_embeddings, embedding_dim)``.
        offsets: 1-D start of each bag in a 1-D ``input`` (tensor or sequence).
        max_norm: rescale the picked rows in place to at most this ``norm_type`` norm.
        norm_type: the p of that norm.
        scale_grad_by_freq: must be False.
        mode: ``"sum"``, ``"mean"`` or ``"max"``.
        sparse: must be False (gradients are dense).
        per_sample_weights: weights shaped like ``input`` (``mode="sum"`` only).
        include_last_offset: ``offsets`` has one extra entry, the end of the last bag.
        padding_idx: indices equal to it are left out of every bag.

    Returns:
        ``(B, embedding_dim)``.

    Example:
        >>> w = gt.arange(12.0).reshape(6, 2)
        >>> F.embedding_bag(gt.tensor([1, 2, 4, 5]), w, gt.tensor([0, 2]))
        tensor([[ 3.,  4.],
                [ 9., 10.]])
    """
    op = "embedding_bag"
    check(mode in ("sum", "mean", "max"), op,
          lambda: f"mode must be 'sum', 'mean' or 'max', got {mode!r}", ValueError)
    check(not scale_grad_by_freq and not sparse, op,
          "scale_grad_by_freq and sparse gradients are not supported", ValueError)
    check(input.dtype.name in ("int64", "int32"), op, lambda: "expected indices of dtype "
          f"int64 or int32, got {input.dtype.name}", DTypeError)
    check(weight.ndim == 2, op, lambda: f"expected a 2-D weight, got shape {weight.shape}",
          ShapeError)
    check(per_sample_weights is None or mode == "sum", op,
          lambda: f"per_sample_weights are only supported with mode='sum', got {mode!r}",
          ValueError)
    check(per_sample_weights is None or per_sample_weights.shape == input.shape, op,
          lambda: f"expected per_sample_weights of shape {input.shape}, got "
          f"{per_sample_weights.shape}", ShapeError)  # type: ignore[union-attr]
    n = weight.shape[0]
    if padding_idx is not None:
        check(-n <= padding_idx < n, op, lambda: f"padding_idx {padding_idx} is out of range "
              f"for {n} embeddings", IndexError)
        padding_idx %= n
    idx, valid, read = _bags(op, input, offsets, include_last_offset, weight.device)
    if padding_idx is not None:
        valid = valid & (idx != padding_idx)
    rows = embedding(idx, weight, padding_idx, max_norm, norm_type)
    count = valid.to(weight.dtype).sum(1, keepdim=True)
    if mode == "max":
        top = rows.masked_fill(~valid.unsqueeze(2), -np.inf).amax(1)
        return where(count > 0, top, 0.0)
    scale = valid.to(weight.dtype)
    if per_sample_weights is not None:
        psw = per_sample_weights if read is None else per_sample_weights.index_select(0, read)
        scale = scale * psw.reshape(*idx.shape)
    total = (rows * scale.unsqueeze(2)).sum(1)
    return total if mode == "sum" else total / count.clamp(min=1.0)
