"""Multi-head attention layer."""

from __future__ import annotations

from typing import Any

from ...ops.creation import empty
from ...tensor import Tensor
from .. import init
from ..functional.attention import attention_forward
from ..parameter import Parameter
from .linear import Linear
from .module import Module


class MultiheadAttention(Module):
    """Attention from ``query`` to ``key``/``value`` with ``num_heads`` heads, as in PyTorch.

    Parameters carry PyTorch's names, so state dicts load both ways:
    ``in_proj_weight`` ``(3E, E)`` when keys and values have width E, else
    ``q_proj_weight`` ``(E, E)``, ``k_proj_weight`` ``(E, kdim)`` and
    ``v_proj_weight`` ``(E, vdim)``; ``in_proj_bias`` ``(3E,)``; ``out_proj``;
    ``bias_k`` and ``bias_v`` ``(1, 1, E)`` with ``add_bias_kv``.

    Args:
        embed_dim: model width E (divisible by ``num_heads``).
        num_heads: number of heads.
        dropout: dropout on the attention weights in training.
        bias: learn input and output projection biases.
        add_bias_kv: append a learned key and value to the keys and values.
        add_zero_attn: append a zero key and value (after the projections).
        kdim: width of the keys (E by default).
        vdim: width of the values (E by default).
        batch_first: inputs are ``(N, L, E)`` (else ``(L, N, E)``).
        device: where to create the parameters.
        dtype: their floating dtype.

    Example:
        >>> mha = gt.nn.MultiheadAttention(8, 2, batch_first=True)
        >>> x = gt.ones(1, 3, 8)  # (N, L, E)
        >>> out, w = mha(x, x, x)
        >>> out.shape, w.shape  # w averaged over the heads
        ((1, 3, 8), (1, 3, 3))
    """

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False,
                 kdim: int | None = None, vdim: int | None = None, batch_first: bool = False,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"[MultiheadAttention] embed_dim and num_heads must be greater "
                             f"than 0, got embed_dim={embed_dim} and num_heads={num_heads}")
        if embed_dim % num_heads:
            raise ValueError(f"[MultiheadAttention] embed_dim {embed_dim} must be divisible by "
                             f"num_heads {num_heads}")
        self.embed_dim = embed_dim
        self.kdim = embed_dim if kdim is None else kdim
        self.vdim = embed_dim if vdim is None else vdim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        self.add_zero_attn = add_zero_attn
        kw = {"device": device, "dtype": dtype}
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(empty(3 * embed_dim, embed_dim, **kw))
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        else:
            self.q_proj_weight = Parameter(empty(embed_dim, embed_dim, **kw))
            self.k_proj_weight = Parameter(empty(embed_dim, self.kdim, **kw))
            self.v_proj_weight = Parameter(empty(embed_dim, self.vdim, **kw))
            self.register_parameter("in_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(empty(3 * embed_dim, **kw))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = Linear(embed_dim, embed_dim, bias=bias, **kw)
        if add_bias_kv:
            self.bias_k = Parameter(empty(1, 1, embed_dim, **kw))
            self.bias_v = Parameter(empty(1, 1, embed_dim, **kw))
        else:
            self.register_parameter("bias_k", None)
            self.register_parameter("bias_v", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Xavier-uniform input projections, zero biases, Xavier-normal ``bias_k``/``bias_v``."""
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            for w in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight):
                init.xavier_uniform_(w)
        if self.in_proj_bias is not None:
            init.zeros_(self.in_proj_bias)
            init.zeros_(self.out_proj.bias)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
            init.xavier_normal_(self.bias_v)

    def forward(self, query: Tensor, key: Tensor, value: Tensor,
                key_padding_mask: Tensor | None = None, need_weights: bool = True,
                attn_mask: Tensor | None = None, average_attn_weights: bool = True,
                is_causal: bool = False) -> tuple[Tensor, Tensor | None]:
        """Attend; return the output and (when ``need_weights``) the attention weights.

        Args:
            query: ``(N, L, E)`` if batch_first else ``(L, N, E)``; or unbatched ``(L, E)``.
            key: ``(N, S, kdim)`` or ``(S, N, kdim)``; ``(S, kdim)`` when unbatched.
            value: like ``key``, ``vdim`` wide.
            key_padding_mask: ``(N, S)`` (``(S,)`` unbatched); boolean True marks keys
                to ignore, a float mask is added to the scores.
            need_weights: return the weights.
            attn_mask: ``(L, S)`` or ``(N * heads, L, S)``; boolean True marks positions
                to ignore, a float mask is added to the scores.
            average_attn_weights: average the weights over heads.
            is_causal: without ``attn_mask``, mask out keys after each query
                position; with it, a hint only (the mask is used).

        Returns:
            ``(output, weights or None)``; weights are ``(N, L, S)`` averaged, else
            ``(N, heads, L, S)``.
        """
        return attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, self.bias_k, self.bias_v, self.add_zero_attn,
            self.dropout if self.training else 0.0, self.out_proj.weight, self.out_proj.bias,
            key_padding_mask, need_weights, attn_mask, not self._qkv_same_embed_dim,
            (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight), (None, None),
            average_attn_weights, is_causal, batch_first=self.batch_first)

    def extra_repr(self) -> str:
        return f"embed_dim={self.embed_dim}, num_heads={self.num_heads}"
