"""Functional forms of the layers and the losses (``import gtensor.nn.functional as F``).

Everything here is composed of gtensor ops, so gradients come from autograd.

Example:
    >>> import gtensor.nn.functional as F
    >>> round(F.cross_entropy(gt.tensor([[2.0, 0.0], [0.0, 2.0]]), gt.tensor([0, 1])).item(), 4)
    0.1269
"""

from ...ops.conv import conv_transpose1d
from ...ops.layout.copies import one_hot, pad
from .activation import (
    celu,
    celu_,
    elu,
    elu_,
    gelu,
    glu,
    gumbel_softmax,
    hardsigmoid,
    hardswish,
    hardtanh,
    hardtanh_,
    leaky_relu,
    leaky_relu_,
    log_softmax,
    logsigmoid,
    mish,
    prelu,
    relu,
    relu6,
    relu_,
    selu,
    selu_,
    sigmoid,
    silu,
    softmax,
    softmin,
    softplus,
    tanh,
)
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
from .ctc import ctc_loss
from .distance import cosine_similarity, normalize, pairwise_distance, pdist
from .dropout import (
    alpha_dropout,
    dropout,
    dropout1d,
    dropout2d,
    dropout3d,
    feature_alpha_dropout,
)
from .fold import conv3d, conv_tbc, conv_transpose3d, fold, unfold
from .fractional import (
    fractional_max_pool2d,
    fractional_max_pool2d_with_indices,
    fractional_max_pool3d,
    fractional_max_pool3d_with_indices,
)
from .linear import bilinear, linear
from .loss import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    cross_entropy,
    huber_loss,
    kl_div,
    l1_loss,
    margin_ranking_loss,
    mse_loss,
    nll_loss,
    smooth_l1_loss,
    triplet_margin_loss,
)
from .loss_margin import (
    cosine_embedding_loss,
    gaussian_nll_loss,
    hinge_embedding_loss,
    multi_margin_loss,
    multilabel_margin_loss,
    multilabel_soft_margin_loss,
    poisson_nll_loss,
    soft_margin_loss,
    triplet_margin_with_distance_loss,
)
from .normalization import (
    batch_norm,
    group_norm,
    instance_norm,
    layer_norm,
    local_response_norm,
    rms_norm,
)
from .pooling import adaptive_max_pool2d, avg_pool1d, max_pool1d
from .pooling3d import (
    adaptive_avg_pool1d,
    adaptive_avg_pool3d,
    adaptive_max_pool1d,
    adaptive_max_pool1d_with_indices,
    adaptive_max_pool2d_with_indices,
    adaptive_max_pool3d,
    adaptive_max_pool3d_with_indices,
    avg_pool3d,
    max_pool1d_with_indices,
    max_pool2d_with_indices,
    max_pool3d,
    max_pool3d_with_indices,
)
from .shrinkage import (
    hardshrink,
    rrelu,
    rrelu_,
    softshrink,
    softsign,
    tanhshrink,
    threshold,
    threshold_,
)
from .sparse import embedding, embedding_bag
from .unpool import (
    lp_pool1d,
    lp_pool2d,
    lp_pool3d,
    max_unpool1d,
    max_unpool2d,
    max_unpool3d,
)
from .vision import (
    affine_grid,
    channel_shuffle,
    grid_sample,
    native_channel_shuffle,
    pixel_shuffle,
    pixel_unshuffle,
    upsample,
    upsample_bilinear,
    upsample_nearest,
)

__all__ = [
    "adaptive_avg_pool2d", "avg_pool2d", "conv1d", "conv2d", "conv_transpose2d",
    "interpolate", "max_pool2d",
    "batch_norm", "bilinear", "binary_cross_entropy", "binary_cross_entropy_with_logits",
    "celu", "celu_", "cosine_similarity", "cross_entropy", "dropout", "elu", "elu_",
    "embedding", "gelu", "glu", "group_norm", "hardsigmoid", "hardswish", "hardtanh",
    "hardtanh_", "huber_loss", "kl_div", "l1_loss", "layer_norm", "leaky_relu", "leaky_relu_",
    "linear", "log_softmax", "logsigmoid", "margin_ranking_loss", "mish", "mse_loss",
    "multi_head_attention_forward", "nll_loss", "normalize", "one_hot", "pad",
    "pairwise_distance",
    "prelu", "relu", "relu6", "scaled_dot_product_attention", "selu", "selu_", "sigmoid",
    "silu", "smooth_l1_loss", "softmax", "softmin", "softplus", "tanh", "triplet_margin_loss",
    "adaptive_max_pool2d", "avg_pool1d", "conv3d", "conv_transpose1d", "ctc_loss", "dropout1d",
    "dropout2d", "dropout3d", "embedding_bag", "fold", "grid_sample", "instance_norm",
    "max_pool1d", "pixel_shuffle", "pixel_unshuffle", "rms_norm", "unfold",
    "hardshrink", "rrelu", "rrelu_", "softshrink", "softsign", "tanhshrink", "threshold",
    "threshold_",
    "cosine_embedding_loss", "gaussian_nll_loss", "hinge_embedding_loss", "multi_margin_loss",
    "multilabel_margin_loss", "multilabel_soft_margin_loss", "poisson_nll_loss",
    "soft_margin_loss", "triplet_margin_with_distance_loss",
    "affine_grid", "alpha_dropout", "channel_shuffle", "feature_alpha_dropout",
    "gumbel_softmax", "local_response_norm", "pdist", "relu_", "upsample", "upsample_bilinear",
    "upsample_nearest",
    "adaptive_avg_pool1d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
    "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices",
    "adaptive_max_pool3d", "adaptive_max_pool3d_with_indices", "avg_pool3d",
    "conv_transpose3d", "lp_pool1d", "lp_pool2d", "lp_pool3d", "max_pool1d_with_indices",
    "max_pool2d_with_indices", "max_pool3d", "max_pool3d_with_indices", "max_unpool1d",
    "max_unpool2d", "max_unpool3d",
    "fractional_max_pool2d", "fractional_max_pool2d_with_indices", "fractional_max_pool3d",
    "fractional_max_pool3d_with_indices", "conv_tbc", "native_channel_shuffle",
]
