"""Transformer layers as in PyTorch: encoder and decoder layers, their stacks, the whole model.

Each is composed from :class:`MultiheadAttention`, ``Linear``, ``LayerNorm``
and ``Dropout`` under PyTorch's attribute names, so ``state_dict`` keys match
``torch.nn`` (``layers.0.self_attn.in_proj_weight``, ...). The stacks hold deep
copies of the layer they are given, one per layer, as PyTorch does.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from ...errors import ShapeError
from ...ops.creation import full
from ...ops.layout.copies import triu
from ...tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .attention import MultiheadAttention
from .container import ModuleList
from .dropout import Dropout
from .linear import Linear
from .module import Module
from .normalization import LayerNorm

Activation = str | Callable[[Tensor], Tensor]


def _activation(activation: Activation, op: str) -> Callable[[Tensor], Tensor]:
    if callable(activation):
        return activation
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise ValueError(f"[{op}] activation should be relu/gelu, not {activation!r}")


def _get_clones(module: Module, n: int) -> ModuleList:
    """``n`` independent deep copies of ``module`` (fresh parameters with the same values)."""
    clones = []
    for _ in range(n):
        memo: dict[int, Any] = {}
        for p in module.parameters():
            memo[id(p)] = Parameter(p.detach().clone(), p.requires_grad)
        for b in module.buffers():
            memo[id(b)] = b.detach().clone()
        clones.append(copy.deepcopy(module, memo))
    return ModuleList(clones)


class _Layer(Module):
    """What the encoder and decoder layers share: construction and the feed-forward block.

    ``_blocks`` is 2 for the encoder layer (self-attention, feed-forward) and 3
    for the decoder layer (plus attention to memory, ``multihead_attn``); each
    block has its LayerNorm ``norm<i>`` and residual dropout ``dropout<i>``.
    """

    _blocks = 2

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: Activation = "relu",
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        kw = {"device": device, "dtype": dtype}
        for name in ("self_attn", "multihead_attn")[:self._blocks - 1]:
            setattr(self, name, MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                                   batch_first=batch_first, **kw))
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **kw)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **kw)
        self.norm_first = norm_first
        for i in range(1, self._blocks + 1):
            setattr(self, f"norm{i}", LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw))
        for i in range(1, self._blocks + 1):
            setattr(self, f"dropout{i}", Dropout(dropout))
        self.activation_relu_or_gelu = (1 if activation in ("relu", F.relu) else
                                        2 if activation in ("gelu", F.gelu) else 0)
        self.activation = _activation(activation, type(self).__name__)

    def _feedforward(self, x: Tensor) -> Tensor:
        return self.linear2(self.dropout(self.activation(self.linear1(x))))


class TransformerEncoderLayer(_Layer):
    """Self-attention then a feed-forward block, each with a residual and a LayerNorm.

    Args:
        d_model: model width.
        nhead: attention heads.
        dim_feedforward: width of the feed-forward block.
        dropout: dropout rate (attention weights, feed-forward, residual branches).
        activation: ``"relu"``, ``"gelu"`` or a callable.
        layer_norm_eps: LayerNorm epsilon.
        batch_first: inputs are ``(N, S, E)`` (else ``(S, N, E)``).
        norm_first: normalize before each block (pre-LN) rather than after.
        bias: learn the biases of the linear layers and LayerNorms.
        device: where to create the parameters.
        dtype: their floating dtype.

    Example:
        >>> layer = gt.nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)
        >>> layer(gt.ones(1, 3, 8)).shape
        (1, 3, 8)
    """

    def forward(self, src: Tensor, src_mask: Tensor | None = None,
                src_key_padding_mask: Tensor | None = None, is_causal: bool = False) -> Tensor:
        """Encode ``src``.

        Args:
            src: ``(S, N, E)``, ``(N, S, E)`` with batch_first, or unbatched ``(S, E)``.
            src_mask: ``(S, S)`` or ``(N * nhead, S, S)``; boolean True or float -inf masks.
            src_key_padding_mask: ``(N, S)``; True marks padding.
            is_causal: a hint that ``src_mask`` is the causal mask (or, without
                one, asks for causal attention).

        Returns:
            A tensor shaped like ``src``.
        """
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            return x + self._ff_block(self.norm2(x))
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
        return self.norm2(x + self._ff_block(x))

    def _sa_block(self, x: Tensor, attn_mask: Tensor | None, key_padding_mask: Tensor | None,
                  is_causal: bool = False) -> Tensor:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False, is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x: Tensor) -> Tensor:
        return self.dropout2(self._feedforward(x))


class TransformerDecoderLayer(_Layer):
    """Self-attention, attention to the encoder's memory, a feed-forward block; residuals, norms.

    Takes the arguments of :class:`TransformerEncoderLayer`.

    Example:
        >>> layer = gt.nn.TransformerDecoderLayer(8, 2, 16)
        >>> layer(gt.ones(2, 1, 8), gt.ones(3, 1, 8)).shape  # (T, N, E) attending to (S, N, E)
        (2, 1, 8)
    """

    _blocks = 3

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None,
                memory_mask: Tensor | None = None,
                tgt_key_padding_mask: Tensor | None = None,
                memory_key_padding_mask: Tensor | None = None, tgt_is_causal: bool = False,
                memory_is_causal: bool = False) -> Tensor:
        """Decode ``tgt`` attending to ``memory``.

        Args:
            tgt: ``(T, N, E)``, ``(N, T, E)`` with batch_first, or unbatched ``(T, E)``.
            memory: the encoder output, ``(S, N, E)`` (or batch first / unbatched).
            tgt_mask: ``(T, T)`` or ``(N * nhead, T, T)``.
            memory_mask: ``(T, S)`` or ``(N * nhead, T, S)``.
            tgt_key_padding_mask: ``(N, T)``; True marks padding.
            memory_key_padding_mask: ``(N, S)``; True marks padding.
            tgt_is_causal: a hint that ``tgt_mask`` is causal (or, without one, asks for it).
            memory_is_causal: likewise for ``memory_mask``.

        Returns:
            A tensor shaped like ``tgt``.
        """
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask,
                                   tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask,
                                    memory_key_padding_mask, memory_is_causal)
            return x + self._ff_block(self.norm3(x))
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
        x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask,
                                           memory_is_causal))
        return self.norm3(x + self._ff_block(x))

    def _sa_block(self, x: Tensor, attn_mask: Tensor | None, key_padding_mask: Tensor | None,
                  is_causal: bool = False) -> Tensor:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           is_causal=is_causal, need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x: Tensor, mem: Tensor, attn_mask: Tensor | None,
                   key_padding_mask: Tensor | None, is_causal: bool = False) -> Tensor:
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask,
                                key_padding_mask=key_padding_mask, is_causal=is_causal,
                                need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x: Tensor) -> Tensor:
        return self.dropout3(self._feedforward(x))


class TransformerEncoder(Module):
    """A stack of ``num_layers`` copies of an encoder layer, then an optional norm.

    Args:
        encoder_layer: the layer to copy (each copy has its own parameters).
        num_layers: how many.
        norm: applied to the last layer's output, if given.
        enable_nested_tensor: accepted for PyTorch compatibility; ignored.
        mask_check: accepted for PyTorch compatibility; ignored.

    Example:
        >>> enc = gt.nn.TransformerEncoder(gt.nn.TransformerEncoderLayer(8, 2, 16), 2)
        >>> enc(gt.ones(3, 1, 8)).shape, enc.layers[0].linear1 is not enc.layers[1].linear1
        ((3, 1, 8), True)
    """

    def __init__(self, encoder_layer: Module, num_layers: int, norm: Module | None = None,
                 enable_nested_tensor: bool = True, mask_check: bool = True) -> None:
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check

    def forward(self, src: Tensor, mask: Tensor | None = None,
                src_key_padding_mask: Tensor | None = None,
                is_causal: bool | None = None) -> Tensor:
        """Run ``src`` through every layer.

        Args:
            src: the input sequence (see :class:`TransformerEncoderLayer`).
            mask: the attention mask of every layer.
            src_key_padding_mask: ``(N, S)``; True marks padding.
            is_causal: a hint that ``mask`` is causal (the mask is used when given);
                without a mask, True asks for causal attention.

        Returns:
            A tensor shaped like ``src``.
        """
        causal = bool(is_causal)
        out = src
        for layer in self.layers:
            out = layer(out, src_mask=mask, is_causal=causal,
                        src_key_padding_mask=src_key_padding_mask)
        return out if self.norm is None else self.norm(out)


class TransformerDecoder(Module):
    """A stack of ``num_layers`` copies of a decoder layer, then an optional norm.

    Args:
        decoder_layer: the layer to copy (each copy has its own parameters).
        num_layers: how many.
        norm: applied to the last layer's output, if given.

    Example:
        >>> dec = gt.nn.TransformerDecoder(gt.nn.TransformerDecoderLayer(8, 2, 16), 2)
        >>> dec(gt.ones(2, 1, 8), gt.ones(3, 1, 8)).shape
        (2, 1, 8)
    """

    def __init__(self, decoder_layer: Module, num_layers: int,
                 norm: Module | None = None) -> None:
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None,
                memory_mask: Tensor | None = None,
                tgt_key_padding_mask: Tensor | None = None,
                memory_key_padding_mask: Tensor | None = None,
                tgt_is_causal: bool | None = None, memory_is_causal: bool = False) -> Tensor:
        """Run ``tgt`` through every layer, each attending to ``memory``.

        Args:
            tgt: the target sequence (see :class:`TransformerDecoderLayer`).
            memory: the encoder output.
            tgt_mask: the self-attention mask.
            memory_mask: the mask of the attention to memory.
            tgt_key_padding_mask: ``(N, T)``; True marks padding.
            memory_key_padding_mask: ``(N, S)``; True marks padding.
            tgt_is_causal: a hint that ``tgt_mask`` is causal (the mask is used when
                given); without a mask, True asks for causal attention.
            memory_is_causal: a hint that ``memory_mask`` is causal.

        Returns:
            A tensor shaped like ``tgt``.
        """
        causal = bool(tgt_is_causal)
        out = tgt
        for layer in self.layers:
            out = layer(out, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                        tgt_key_padding_mask=tgt_key_padding_mask,
                        memory_key_padding_mask=memory_key_padding_mask,
                        tgt_is_causal=causal, memory_is_causal=memory_is_causal)
        return out if self.norm is None else self.norm(out)


class Transformer(Module):
    """An encoder-decoder Transformer ("Attention Is All You Need"), as ``torch.nn.Transformer``.

    Args:
        d_model: model width.
        nhead: attention heads.
        num_encoder_layers: encoder depth.
        num_decoder_layers: decoder depth.
        dim_feedforward: width of the feed-forward blocks.
        dropout: dropout rate.
        activation: ``"relu"``, ``"gelu"`` or a callable.
        custom_encoder: use this encoder instead of building one.
        custom_decoder: use this decoder instead of building one.
        layer_norm_eps: LayerNorm epsilon.
        batch_first: inputs are ``(N, S, E)`` (else ``(S, N, E)``).
        norm_first: pre-LN layers.
        bias: learn the biases of the linear layers and LayerNorms.
        device: where to create the parameters.
        dtype: their floating dtype.

    Example:
        >>> model = gt.nn.Transformer(8, 2, 1, 1, 16)  # one encoder and one decoder layer
        >>> mask = gt.nn.Transformer.generate_square_subsequent_mask(2)
        >>> model(gt.ones(3, 1, 8), gt.ones(2, 1, 8), tgt_mask=mask).shape
        (2, 1, 8)
    """

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: Activation = "relu",
                 custom_encoder: Module | None = None, custom_decoder: Module | None = None,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        kw = {"device": device, "dtype": dtype}
        layer_kw = {"dim_feedforward": dim_feedforward, "dropout": dropout,
                    "activation": activation, "layer_norm_eps": layer_norm_eps,
                    "batch_first": batch_first, "norm_first": norm_first, "bias": bias, **kw}
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            self.encoder = TransformerEncoder(
                TransformerEncoderLayer(d_model, nhead, **layer_kw), num_encoder_layers,
                LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            self.decoder = TransformerDecoder(
                TransformerDecoderLayer(d_model, nhead, **layer_kw), num_decoder_layers,
                LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw))
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first
        for p in self.parameters():
            if p.ndim > 1:
                init.xavier_uniform_(p)

    def forward(self, src: Tensor, tgt: Tensor, src_mask: Tensor | None = None,
                tgt_mask: Tensor | None = None, memory_mask: Tensor | None = None,
                src_key_padding_mask: Tensor | None = None,
                tgt_key_padding_mask: Tensor | None = None,
                memory_key_padding_mask: Tensor | None = None,
                src_is_causal: bool | None = None, tgt_is_causal: bool | None = None,
                memory_is_causal: bool = False) -> Tensor:
        """Encode ``src``, decode ``tgt`` against it.

        Args:
            src: ``(S, N, E)`` (``(N, S, E)`` with batch_first, ``(S, E)`` unbatched).
            tgt: ``(T, N, E)`` likewise.
            src_mask: encoder self-attention mask ``(S, S)`` or ``(N * nhead, S, S)``.
            tgt_mask: decoder self-attention mask ``(T, T)`` or ``(N * nhead, T, T)``.
            memory_mask: decoder-to-memory mask ``(T, S)`` or ``(N * nhead, T, S)``.
            src_key_padding_mask: ``(N, S)``.
            tgt_key_padding_mask: ``(N, T)``.
            memory_key_padding_mask: ``(N, S)``.
            src_is_causal: a hint that ``src_mask`` is causal.
            tgt_is_causal: a hint that ``tgt_mask`` is causal.
            memory_is_causal: a hint that ``memory_mask`` is causal.

        Returns:
            ``(T, N, E)`` (or batch first / unbatched, as ``tgt``).
        """
        batched = src.ndim == 3
        axis = 0 if self.batch_first else 1
        if batched and src.shape[axis] != tgt.shape[axis]:
            raise ShapeError(f"[Transformer] the batch number of src and tgt must be equal, "
                             f"got shapes {src.shape} and {tgt.shape}")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise ShapeError(f"[Transformer] the feature number of src and tgt must be equal "
                             f"to d_model {self.d_model}, got shapes {src.shape} and "
                             f"{tgt.shape}")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask,
                            tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device: Any = None,
                                        dtype: Any = None) -> Tensor:
        """A ``(sz, sz)`` float mask: -inf above the diagonal (future positions), 0 elsewhere.

        Example:
            >>> gt.nn.Transformer.generate_square_subsequent_mask(3)
            tensor([[0., -inf, -inf],
                    [0., 0., -inf],
                    [0., 0., 0.]])
        """
        return triu(full((sz, sz), float("-inf"), dtype=dtype, device=device), 1)
