"""Functional forms of the layers and the losses (``import gtensor.nn.functional as F``).

Everything here is composed of gtensor ops, so gradients come from autograd.

Example:
    >>> import gtensor.nn.functional as F
    >>> loss = F.cross_entropy(logits, labels)  # doctest: +SKIP
"""

from .activation import gelu, log_softmax, relu, sigmoid, silu, softmax, tanh
from .attention import multi_head_attention_forward, scaled_dot_product_attention
from .conv import (
    adaptive_avg_pool2d,
    avg_pool2d,
    conv1d,
    conv2d,
    conv_transpose2d,
    interpolate,
    max_pool2d,
)
from .dropout import dropout
from .linear import bilinear, linear
from .loss import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    cross_entropy,
    kl_div,
    l1_loss,
    mse_loss,
    nll_loss,
    smooth_l1_loss,
)
from .normalization import batch_norm, group_norm, layer_norm
from .sparse import embedding

__all__ = [
    "adaptive_avg_pool2d", "avg_pool2d", "conv1d", "conv2d", "conv_transpose2d",
    "interpolate", "max_pool2d",
    "batch_norm", "bilinear", "binary_cross_entropy", "binary_cross_entropy_with_logits",
    "cross_entropy", "dropout", "embedding", "gelu", "group_norm", "kl_div", "l1_loss",
    "layer_norm", "linear", "log_softmax", "mse_loss", "multi_head_attention_forward",
    "nll_loss", "relu", "scaled_dot_product_attention", "sigmoid", "silu", "smooth_l1_loss",
    "softmax", "tanh",
]
