"""Multi-head attention layer."""

from __future__ import annotations

from typing import Any

from ...ops.creation import empty
from ...tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .linear import Linear
from .module import Module


class MultiheadAttention(Module):
    """Attention from ``query`` to ``key``/``value`` with ``num_heads`` heads, as in PyTorch.

    Args:
        embed_dim: model width E (divisible by ``num_heads``).
        num_heads: number of heads.
        dropout: dropout on the attention weights in training.
        bias: learn input and output projection biases.
        batch_first: inputs are ``(N, L, E)`` (else ``(L, N, E)``).
        device: where to create the parameters.
        dtype: their floating dtype.

    Example:
        >>> mha = gt.nn.MultiheadAttention(8, 2, batch_first=True)  # doctest: +SKIP
        >>> out, w = mha(x, x, x)  # doctest: +SKIP
    """

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 batch_first: bool = False, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        if embed_dim % num_heads:
            raise ValueError(f"[MultiheadAttention] embed_dim {embed_dim} must be divisible by "
                             f"num_heads {num_heads}")
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        self.in_proj_weight = Parameter(empty(3 * embed_dim, embed_dim, device=device,
                                              dtype=dtype))
        if bias:
            self.in_proj_bias = Parameter(empty(3 * embed_dim, device=device, dtype=dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = Linear(embed_dim, embed_dim, bias=bias, device=device, dtype=dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Xavier-uniform input projection, zero biases."""
        init.xavier_uniform_(self.in_proj_weight)
        if self.in_proj_bias is not None:
            init.zeros_(self.in_proj_bias)
            init.zeros_(self.out_proj.bias)

    def forward(self, query: Tensor, key: Tensor, value: Tensor,
                key_padding_mask: Tensor | None = None, need_weights: bool = True,
                attn_mask: Tensor | None = None, average_attn_weights: bool = True,
                is_causal: bool = False) -> tuple[Tensor, Tensor | None]:
        """Attend; return the output and (when ``need_weights``) the attention weights.

        Args:
            query: ``(N, L, E)`` if batch_first else ``(L, N, E)``; or unbatched ``(L, E)``.
            key: ``(N, S, E)`` or ``(S, N, E)``; ``(S, E)`` when unbatched.
            value: like ``key``.
            key_padding_mask: ``(N, S)`` (``(S,)`` unbatched); True marks keys to ignore.
            need_weights: return the weights.
            attn_mask: ``(L, S)`` or ``(N * heads, L, S)``; True marks positions to ignore.
            average_attn_weights: average the weights over heads.
            is_causal: mask out keys after each query position.

        Returns:
            ``(output, weights or None)``.
        """
        seq_first = not self.batch_first and query.ndim == 3
        if seq_first:
            query, key, value = (t.transpose(0, 1) for t in (query, key, value))
        out, weights = F.multi_head_attention_forward(
            query, key, value, self.num_heads, self.in_proj_weight, self.in_proj_bias,
            self.out_proj.weight, self.out_proj.bias, self.dropout, self.training,
            key_padding_mask, need_weights, attn_mask, average_attn_weights, is_causal)
        if seq_first:
            out = out.transpose(0, 1)
        return out, weights

    def extra_repr(self) -> str:
        return f"embed_dim={self.embed_dim}, num_heads={self.num_heads}"
