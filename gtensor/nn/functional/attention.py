"""Scaled dot-product attention and the multi-head attention forward."""

from __future__ import annotations

import math

from ...errors import ShapeError, check
from ...generator import Generator
from ...ops.creation import ones
from ...ops.layout.copies import tril
from ...ops.ternary import where
from ...tensor import Tensor
from .dropout import dropout
from .linear import linear


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor,
                                 attn_mask: Tensor | None = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, scale: float | None = None, *,
                                 generator: Generator | None = None) -> Tensor:
    """``softmax(q @ k^T * scale + mask) @ v`` over the last two dimensions.

    Args:
        query: ``(*, L, E)``.
        key: ``(*, S, E)``.
        value: ``(*, S, Ev)``.
        attn_mask: a boolean mask (True = attend) or an additive float mask,
            broadcastable to ``(*, L, S)``.
        dropout_p: dropout on the attention weights.
        is_causal: mask out keys after each query position (no ``attn_mask`` then).
        scale: the score scale (``1 / sqrt(E)`` by default).
        generator: the random stream for dropout.

    Returns:
        ``(*, L, Ev)``.

    Example:
        >>> q = k = v = gt.randn(2, 4, 5, 8)  # doctest: +SKIP
        >>> F.scaled_dot_product_attention(q, k, v, is_causal=True).shape  # doctest: +SKIP
        (2, 4, 5, 8)
    """
    check(query.shape[-1] == key.shape[-1] and key.shape[-2] == value.shape[-2],
          "scaled_dot_product_attention", lambda: f"query {query.shape}, key {key.shape} and "
          f"value {value.shape} do not match", ShapeError)
    check(not (is_causal and attn_mask is not None), "scaled_dot_product_attention",
          "give either attn_mask or is_causal, not both", ValueError)
    s = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    scores = (query @ key.transpose(-2, -1)) * s
    if is_causal:
        n_q, n_k = query.shape[-2], key.shape[-2]
        attn_mask = tril(ones(n_q, n_k, dtype="bool", device=query.device))
    if attn_mask is not None:
        if attn_mask.dtype.name == "bool":
            scores = where(attn_mask, scores, float("-inf"))
        else:
            scores = scores + attn_mask
    weights = scores.softmax(-1)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, generator=generator)
    return weights @ value


def multi_head_attention_forward(query: Tensor, key: Tensor, value: Tensor, num_heads: int,
                                 in_proj_weight: Tensor, in_proj_bias: Tensor | None,
                                 out_proj_weight: Tensor, out_proj_bias: Tensor | None,
                                 dropout_p: float = 0.0, training: bool = True,
                                 key_padding_mask: Tensor | None = None,
                                 need_weights: bool = True, attn_mask: Tensor | None = None,
                                 average_attn_weights: bool = True,
                                 is_causal: bool = False) -> tuple[Tensor, Tensor | None]:
    """Multi-head attention on batch-first inputs ``(N, L, E)`` or unbatched ``(L, E)``.

    Args:
        query: ``(N, L, E)``, or ``(L, E)`` (then key, value and the masks are
            unbatched too, and so are the results).
        key: ``(N, S, E)``.
        value: ``(N, S, E)``.
        num_heads: heads; divides ``E``.
        in_proj_weight: ``(3E, E)``: the query, key and value projections stacked.
        in_proj_bias: ``(3E,)`` or None.
        out_proj_weight: ``(E, E)``.
        out_proj_bias: ``(E,)`` or None.
        dropout_p: dropout on the attention weights (in training).
        training: apply dropout.
        key_padding_mask: ``(N, S)``; True marks keys to ignore.
        need_weights: also return the attention weights.
        attn_mask: ``(L, S)`` or ``(N * num_heads, L, S)``; boolean True marks
            positions to ignore, a float mask is added to the scores.
        average_attn_weights: average the returned weights over heads.
        is_causal: mask out keys after each query position.

    Returns:
        The output ``(N, L, E)`` and the weights (``(N, L, S)`` averaged, else
        ``(N, num_heads, L, S)``) or None; without the ``N`` dim for unbatched input.

    Example:
        >>> out, w = F.multi_head_attention_forward(
        ...     x, x, x, 2, w_in, b_in, w_out, b_out)  # doctest: +SKIP
    """
    op = "multi_head_attention"
    unbatched = query.ndim == 2
    want = 2 if unbatched else 3
    check(query.ndim in (2, 3) and key.ndim == want and value.ndim == want, op,
          lambda: "expected query, key and value of 3 dims (N, L, E) or 2 (L, E), got shapes "
          f"{query.shape}, {key.shape} and {value.shape}", ShapeError)
    if unbatched:
        check(key_padding_mask is None or key_padding_mask.ndim == 1, op, lambda: "expected "
              f"a 1-D key_padding_mask for unbatched input, got {key_padding_mask.shape}",
              ShapeError)
        out, weights = multi_head_attention_forward(
            query.unsqueeze(0), key.unsqueeze(0), value.unsqueeze(0),
            num_heads, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias, dropout_p,
            training, None if key_padding_mask is None else key_padding_mask.unsqueeze(0),
            need_weights, attn_mask, average_attn_weights, is_causal)
        return out.squeeze(0), None if weights is None else weights.squeeze(0)
    n, l_q, e = query.shape
    s_k = key.shape[1]
    check(e % num_heads == 0, "multi_head_attention", lambda: f"embed_dim {e} is not divisible "
          f"by num_heads {num_heads}", ShapeError)
    d = e // num_heads
    w_q, w_k, w_v = in_proj_weight.chunk(3, 0)
    b_q, b_k, b_v = (None,) * 3 if in_proj_bias is None else in_proj_bias.chunk(3, 0)

    def heads(x: Tensor, w: Tensor, b: Tensor | None) -> Tensor:
        return linear(x, w, b).reshape(n, -1, num_heads, d).transpose(1, 2)

    q, k, v = heads(query, w_q, b_q), heads(key, w_k, b_k), heads(value, w_v, b_v)
    scores = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(d))
    blocked = None
    if is_causal and attn_mask is None:
        blocked = ~tril(ones(l_q, s_k, dtype="bool", device=query.device))
    if attn_mask is not None:
        mask = attn_mask if attn_mask.ndim == 2 else attn_mask.reshape(n, num_heads, l_q, s_k)
        if mask.dtype.name == "bool":
            blocked = mask
        else:
            scores = scores + mask
    if key_padding_mask is not None:
        pad = key_padding_mask.reshape(n, 1, 1, s_k)
        if pad.dtype.name != "bool":
            scores = scores + pad
        else:
            blocked = pad if blocked is None else blocked | pad
    if blocked is not None:
        scores = where(blocked, float("-inf"), scores)
    weights = scores.softmax(-1)
    if training and dropout_p > 0.0:
        weights = dropout(weights, dropout_p)
    out = (weights @ v).transpose(1, 2).reshape(n, l_q, e)
    out = linear(out, out_proj_weight, out_proj_bias)
    if not need_weights:
        return out, None
    return out, weights.mean(1) if average_attn_weights else weights
