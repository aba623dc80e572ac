"""Scaled dot-product attention and the multi-head attention forward, as in PyTorch.

Both are compositions of existing ops (matmul, softmax, where, cat), so autograd
and both devices come for free; no kernel of their own.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ...errors import ShapeError, check
from ...generator import Generator
from ...graph.autocast_mode import autocast_inputs
from ...ops.creation import ones, zeros
from ...ops.layout.copies import cat, tril
from ...ops.ternary import where
from ...tensor import Tensor
from .dropout import dropout
from .linear import linear

_MHA = "multi_head_attention"


def _softmax(scores: Tensor, masked: bool, safe: bool) -> Tensor:
    """Softmax over the last dim; with ``safe``, rows whose every score is -inf give zeros.

    PyTorch's scaled_dot_product_attention returns zeros for a query that may
    attend to no key (a plain softmax gives NaN). The dead rows' scores are set
    to 0 before the softmax, so their gradient is 0 as well, not NaN.
    """
    if not (masked and safe):
        return scores.softmax(-1)
    dead = scores.detach().amax(-1, keepdim=True) == float("-inf")
    return where(dead, 0.0, where(dead, 0.0, scores).softmax(-1))


def _check_float_or_bool(mask: Tensor | None, op: str, name: str) -> None:
    check(mask is None or mask.dtype.name == "bool" or mask.dtype.is_floating_point, op,
          lambda: f"only bool and floating types of {name} are supported, got "
          f"{mask.dtype.name}", TypeError)


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor,
                                 attn_mask: Tensor | None = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, scale: float | None = None,
                                 enable_gqa: bool = False, *,
                                 generator: Generator | None = None) -> Tensor:
    """``softmax(q @ k^T * scale + mask) @ v`` over the last two dimensions.

    A query row whose keys are all masked out gives zeros, as in PyTorch.

    Args:
        query: ``(*, Hq, L, E)`` (any leading dims).
        key: ``(*, H, S, E)``; the leading dims broadcast against the query's.
        value: ``(*, H, S, Ev)``.
        attn_mask: a boolean mask (True = take part) or an additive float mask,
            broadcastable to ``(*, L, S)``.
        dropout_p: dropout on the attention weights (always applied when > 0).
        is_causal: query ``i`` attends to keys ``0..i`` (a top-left aligned
            lower triangle); no ``attn_mask`` then.
        scale: the score scale (``1 / sqrt(E)`` by default).
        enable_gqa: grouped-query attention: ``Hq`` is a multiple of ``H`` and
            each key/value head serves ``Hq // H`` query heads.
        generator: the random stream for dropout.

    Returns:
        ``(*, Hq, L, Ev)``.

    Example:
        >>> q = k = gt.ones(1, 2, 2); v = gt.tensor([[[1.0, 2.0], [3.0, 4.0]]])
        >>> F.scaled_dot_product_attention(q, k, v, is_causal=True)  # query 0 sees key 0 only
        tensor([[[1., 2.],
                 [2., 3.]]])
    """
    query, key, value, attn_mask = autocast_inputs("scaled_dot_product_attention", query, key,
                                                   value, attn_mask)
    op = "scaled_dot_product_attention"
    check(query.shape[-1] == key.shape[-1] and key.shape[-2] == value.shape[-2],
          op, lambda: f"query {query.shape}, key {key.shape} and "
          f"value {value.shape} do not match", ShapeError)
    check(not (is_causal and attn_mask is not None), op,
          "give either attn_mask or is_causal, not both", ValueError)
    _check_float_or_bool(attn_mask, op, "attn_mask")
    if enable_gqa and query.ndim >= 3 and key.shape[-3] != query.shape[-3]:
        groups = query.shape[-3] // key.shape[-3]
        check(key.shape[-3] == value.shape[-3] and groups * key.shape[-3] == query.shape[-3],
              op, lambda: f"with enable_gqa the query heads ({query.shape[-3]}) must be a "
              f"multiple of the key and value heads ({key.shape[-3]}, {value.shape[-3]})",
              ShapeError)
        key = key.repeat_interleave(groups, -3)
        value = value.repeat_interleave(groups, -3)
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
    weights = _softmax(scores, attn_mask is not None and not is_causal, safe=True)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, generator=generator)
    return weights @ value


def _pad_key(mask: Tensor | None) -> Tensor | None:
    """``mask`` with one more key column that takes part (False, or 0 for a float mask)."""
    if mask is None:
        return None
    extra = zeros(*mask.shape[:-1], 1, dtype=mask.dtype, device=mask.device)
    return cat([mask, extra], -1)


def _check_shapes(query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Tensor | None,
                  attn_mask: Tensor | None, num_heads: int) -> bool:
    """Check PyTorch's input ranks for multi-head attention; return whether it is batched."""
    check(query.ndim in (2, 3) and key.ndim == query.ndim and value.ndim == query.ndim, _MHA,
          lambda: "expected query, key and value of 3 dims (L, N, E) or 2 (L, E), got shapes "
          f"{query.shape}, {key.shape} and {value.shape}", ShapeError)
    batched = query.ndim == 3
    pad_dims = 2 if batched else 1
    check(key_padding_mask is None or key_padding_mask.ndim == pad_dims, _MHA,
          lambda: f"expected a {pad_dims}-D key_padding_mask for "
          f"{'batched' if batched else 'unbatched'} input, got {key_padding_mask.shape}",
          ShapeError)
    check(attn_mask is None or attn_mask.ndim in (2, 3), _MHA, lambda: "expected a 2-D or "
          f"3-D attn_mask, got shape {attn_mask.shape}", ShapeError)
    if not batched and attn_mask is not None and attn_mask.ndim == 3:
        want = (num_heads, query.shape[0], key.shape[0])
        check(attn_mask.shape == want, _MHA, lambda: f"expected a 3-D attn_mask of shape "
              f"{want} for unbatched input, got {attn_mask.shape}", ShapeError)
    _check_float_or_bool(key_padding_mask, _MHA, "key_padding_mask")
    _check_float_or_bool(attn_mask, _MHA, "attn_mask")
    return batched


def _in_projection(query: Tensor, key: Tensor, value: Tensor, w_q: Tensor, w_k: Tensor,
                   w_v: Tensor, b: Tensor | None,
                   packed: Tensor | None) -> tuple[Tensor, Tensor, Tensor]:
    """Project query, key and value; self-attention with ``packed`` weights is one matmul."""
    if packed is not None and query is key and key is value:
        return linear(query, packed, b).chunk(3, -1)
    b_q, b_k, b_v = (None,) * 3 if b is None else b.chunk(3, 0)
    return linear(query, w_q, b_q), linear(key, w_k, b_k), linear(value, w_v, b_v)


def multi_head_attention_forward(
        query: Tensor, key: Tensor, value: Tensor, embed_dim_to_check: int, num_heads: int,
        in_proj_weight: Tensor | None, in_proj_bias: Tensor | None, bias_k: Tensor | None,
        bias_v: Tensor | None, add_zero_attn: bool, dropout_p: float, out_proj_weight: Tensor,
        out_proj_bias: Tensor | None, training: bool = True,
        key_padding_mask: Tensor | None = None, need_weights: bool = True,
        attn_mask: Tensor | None = None, use_separate_proj_weight: bool = False,
        q_proj_weight: Tensor | None = None, k_proj_weight: Tensor | None = None,
        v_proj_weight: Tensor | None = None, static_k: Tensor | None = None,
        static_v: Tensor | None = None, average_attn_weights: bool = True,
        is_causal: bool = False) -> tuple[Tensor, Tensor | None]:
    """Multi-head attention on sequence-first inputs ``(L, N, E)`` or unbatched ``(L, E)``.

    PyTorch's ``torch.nn.functional.multi_head_attention_forward``, argument for argument.

    Args:
        query: ``(L, N, E)``, or ``(L, E)`` (then key, value and the masks are
            unbatched too, and so are the results).
        key: ``(S, N, Ek)``.
        value: ``(S, N, Ev)``.
        embed_dim_to_check: E, checked against the query.
        num_heads: heads; divides ``E``.
        in_proj_weight: ``(3E, E)``: the query, key and value projections stacked
            (unused with ``use_separate_proj_weight``).
        in_proj_bias: ``(3E,)`` or None.
        bias_k: ``(1, 1, E)``: a learned key appended to the keys, or None.
        bias_v: ``(1, 1, E)``: its value, or None.
        add_zero_attn: append a zero key and value after the projections.
        dropout_p: dropout on the attention weights (in training).
        out_proj_weight: ``(E, E)``.
        out_proj_bias: ``(E,)`` or None.
        training: apply dropout.
        key_padding_mask: ``(N, S)``; boolean True marks keys to ignore, a float
            mask is added to the scores.
        need_weights: also return the attention weights.
        attn_mask: ``(L, S)`` or ``(N * num_heads, L, S)``; boolean True marks
            positions to ignore, a float mask is added to the scores.
        use_separate_proj_weight: project with ``q/k/v_proj_weight``.
        q_proj_weight: ``(E, E)``.
        k_proj_weight: ``(E, Ek)``.
        v_proj_weight: ``(E, Ev)``.
        static_k: ``(N * num_heads, S, E / num_heads)``: projected keys used as they are.
        static_v: likewise for the values.
        average_attn_weights: average the returned weights over heads.
        is_causal: without ``attn_mask``, mask out keys after each query
            position; with it, a hint only (the mask is used).

    Returns:
        The output ``(L, N, E)`` and the weights (``(N, L, S)`` averaged, else
        ``(N, num_heads, L, S)``) or None; without the ``N`` dim for unbatched
        input. Without ``need_weights`` a query that may attend to no key gets
        zeros (PyTorch's scaled_dot_product_attention), else NaN (its softmax).

    Example:
        >>> x, w_in, w_out = gt.randn(3, 1, 4), gt.randn(12, 4), gt.randn(4, 4)  # (L, N, E)
        >>> out, w = F.multi_head_attention_forward(
        ...     x, x, x, 4, 2, w_in, gt.zeros(12), None, None, False, 0.0, w_out, gt.zeros(4))
        >>> out.shape, w.shape
        ((3, 1, 4), (1, 3, 3))
    """
    return attention_forward(
        query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias, bias_k,
        bias_v, add_zero_attn, dropout_p if training else 0.0, out_proj_weight, out_proj_bias,
        key_padding_mask, need_weights, attn_mask, use_separate_proj_weight,
        (q_proj_weight, k_proj_weight, v_proj_weight), (static_k, static_v),
        average_attn_weights, is_causal, batch_first=False)


def _views(fn: Callable[[Tensor], Tensor], query: Tensor, key: Tensor,
           value: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    """``fn`` of each of query, key and value, keeping which of them are the same tensor."""
    q = fn(query)
    k = q if key is query else fn(key)
    v = k if value is key else q if value is query else fn(value)
    return q, k, v


def attention_forward(
        query: Tensor, key: Tensor, value: Tensor, embed_dim: int, num_heads: int,
        in_proj_weight: Tensor | None, in_proj_bias: Tensor | None, bias_k: Tensor | None,
        bias_v: Tensor | None, add_zero_attn: bool, dropout_p: float, out_proj_weight: Tensor,
        out_proj_bias: Tensor | None, key_padding_mask: Tensor | None, need_weights: bool,
        attn_mask: Tensor | None, separate: bool,
        proj: tuple[Tensor | None, Tensor | None, Tensor | None],
        static: tuple[Tensor | None, Tensor | None], average_attn_weights: bool,
        is_causal: bool, *, batch_first: bool) -> tuple[Tensor, Tensor | None]:
    """:func:`multi_head_attention_forward` on either layout (``batch_first``), dropout as given.

    ``nn.MultiheadAttention`` calls it so batch-first input needs no transposes.
    """
    batched = _check_shapes(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        query, key, value = _views(lambda t: t.unsqueeze(0), query, key, value)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    elif not batch_first:
        query, key, value = _views(lambda t: t.transpose(0, 1), query, key, value)
    n, l_q, e = query.shape
    check(e == embed_dim, _MHA, lambda: f"was expecting embedding dimension of {embed_dim}, "
          f"but got {e}", ShapeError)
    check(e % num_heads == 0, _MHA, lambda: f"embed_dim {e} is not divisible "
          f"by num_heads {num_heads}", ShapeError)
    same = key.shape[:2] == value.shape[:2] if separate else key.shape == value.shape
    check(same and key.shape[0] == n, _MHA, lambda: f"key {key.shape} and value "
          f"{value.shape} do not match the query {query.shape}", ShapeError)
    d = e // num_heads
    if separate:
        check(all(w is not None for w in proj), _MHA, "use_separate_proj_weight needs "
              "q_proj_weight, k_proj_weight and v_proj_weight", ValueError)
        q, k, v = _in_projection(query, key, value, *proj, in_proj_bias, None)
    else:
        check(in_proj_weight is not None, _MHA, "in_proj_weight is None; pass "
              "use_separate_proj_weight=True with q/k/v_proj_weight", ValueError)
        q, k, v = _in_projection(query, key, value, *in_proj_weight.chunk(3, 0), in_proj_bias,
                                 in_proj_weight)
    masks = _head_masks(attn_mask, key_padding_mask, is_causal, n, num_heads, l_q,
                        key.shape[1], query.device)
    if bias_k is not None and bias_v is not None:
        check(static[0] is None and static[1] is None, _MHA,
              "bias_k and bias_v cannot be added to a static key or value", ValueError)
        k = cat([k, bias_k.reshape(1, 1, e).expand(n, 1, e)], 1)
        v = cat([v, bias_v.reshape(1, 1, e).expand(n, 1, e)], 1)
        masks = [_pad_key(m) for m in masks]
    q = q.reshape(n, l_q, num_heads, d).transpose(1, 2)
    k = _heads(k, static[0], n, num_heads, d)
    v = _heads(v, static[1], n, num_heads, d)
    if add_zero_attn:
        extra = zeros(n, num_heads, 1, d, dtype=k.dtype, device=k.device)
        k, v = cat([k, extra], 2), cat([v, extra], 2)
        masks = [_pad_key(m) for m in masks]
    scores = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(d))
    for mask in masks:
        if mask.dtype.name == "bool":
            scores = where(mask, float("-inf"), scores)
        else:
            scores = scores + mask
    weights = _softmax(scores, bool(masks), safe=not need_weights)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p)
    out = linear((weights @ v).transpose(1, 2).reshape(n, l_q, e), out_proj_weight,
                 out_proj_bias)
    if not need_weights:
        weights = None
    elif average_attn_weights:
        weights = weights.mean(1)
    if not batched:
        return out.squeeze(0), None if weights is None else weights.squeeze(0)
    return (out if batch_first else out.transpose(0, 1)), weights


def _head_masks(attn_mask: Tensor | None, key_padding_mask: Tensor | None, is_causal: bool,
                n: int, num_heads: int, l_q: int, s_k: int, device: Any) -> list[Tensor]:
    """The masks to apply to ``(N, heads, L, S)`` scores; two boolean ones become one."""
    if attn_mask is not None:
        want = (l_q, s_k) if attn_mask.ndim == 2 else (n * num_heads, l_q, s_k)
        check(attn_mask.shape == want, _MHA, lambda: f"expected attn_mask of shape {want}, "
              f"got {attn_mask.shape}", ShapeError)
        if attn_mask.ndim == 3:
            attn_mask = attn_mask.reshape(n, num_heads, l_q, s_k)
    elif is_causal:
        attn_mask = ~tril(ones(l_q, s_k, dtype="bool", device=device))
    if key_padding_mask is not None:
        check(key_padding_mask.shape == (n, s_k), _MHA, lambda: "expected key_padding_mask "
              f"of shape {(n, s_k)}, got {key_padding_mask.shape}", ShapeError)
        key_padding_mask = key_padding_mask.reshape(n, 1, 1, s_k)
    masks = [m for m in (attn_mask, key_padding_mask) if m is not None]
    if len(masks) == 2 and all(m.dtype.name == "bool" for m in masks):
        return [masks[0] | masks[1]]
    return masks


def _heads(x: Tensor, static: Tensor | None, n: int, num_heads: int, d: int) -> Tensor:
    """Projections ``(N, S, E)`` as ``(N, heads, S, d)``, or a given ``(N * heads, S, d)``."""
    if static is not None:
        check(static.ndim == 3 and static.shape[0] == n * num_heads and static.shape[2] == d,
              _MHA, lambda: f"expected a static key/value of shape ({n * num_heads}, S, {d}), "
              f"got {static.shape}", ShapeError)
        return static.reshape(n, num_heads, static.shape[1], d)
    return x.reshape(n, x.shape[1], num_heads, d).transpose(1, 2)
