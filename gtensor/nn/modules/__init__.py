"""Layer classes; :mod:`gtensor.nn` re-exports them."""

from .activation import GELU, LogSoftmax, ReLU, Sigmoid, SiLU, Softmax, Tanh
from .attention import MultiheadAttention
from .container import ModuleDict, ModuleList, Sequential
from .conv import Conv1d, Conv2d, ConvTranspose2d
from .dropout import Dropout
from .linear import Bilinear, Flatten, Identity, Linear
from .loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    KLDivLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from .module import Module
from .normalization import BatchNorm1d, BatchNorm2d, GroupNorm, LayerNorm
from .pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d, Upsample
from .sparse import Embedding

__all__ = [
    "AdaptiveAvgPool2d", "AvgPool2d", "Conv1d", "Conv2d", "ConvTranspose2d", "MaxPool2d",
    "Upsample",
    "BCELoss", "BCEWithLogitsLoss", "BatchNorm1d", "BatchNorm2d", "Bilinear", "CrossEntropyLoss",
    "Dropout", "Embedding", "Flatten", "GELU", "GroupNorm", "Identity", "KLDivLoss", "L1Loss",
    "LayerNorm", "Linear", "LogSoftmax", "MSELoss", "Module", "ModuleDict", "ModuleList",
    "MultiheadAttention", "NLLLoss", "ReLU", "Sequential", "SiLU", "Sigmoid", "SmoothL1Loss",
    "Softmax", "Tanh",
]
