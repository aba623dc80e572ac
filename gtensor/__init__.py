"""gtensor: GPU-accelerated tensors on CuPy and Numba, with autograd.

Example:
    >>> import gtensor as gt
    >>> x = gt.ones(2, 3)
    >>> x.shape
    (2, 3)
"""

from . import accelerator, autograd, cuda, func, memory, nn, optim, utils
from .autograd import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .compiler import compile
from .device import device
from .dtypes import (
    bool_,
    dtype,
    float16,
    float32,
    float64,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    promote_types,
    result_type,
    set_default_dtype,
    uint8,
)
from .errors import (
    DeviceMismatchError,
    DeviceUnavailableError,
    DivisionByZeroError,
    DTypeError,
    GTensorError,
    OutOfMemoryError,
    SerializationError,
    ShapeError,
    SizeOverflowError,
    Untraceable,
)
from .generator import Generator, default_generator, initial_seed, manual_seed
from .ops.conv import conv1d, conv2d, conv_transpose2d
from .ops.creation import (
    arange,
    as_tensor,
    empty,
    empty_like,
    eye,
    full,
    full_like,
    linspace,
    ones,
    ones_like,
    tensor,
    zeros,
    zeros_like,
)
from .ops.elementwise import (
    add,
    atan2,
    bitwise_and,
    bitwise_or,
    bitwise_xor,
    div,
    eq,
    floor_divide,
    ge,
    gt,
    le,
    left_shift,
    logical_and,
    logical_or,
    logical_xor,
    lt,
    maximum,
    minimum,
    mul,
    ne,
    pow,
    remainder,
    right_shift,
    sub,
    where,
)
from .ops.indexing.along_dim import (
    gather,
    index_add,
    index_copy,
    index_fill,
    index_select,
    scatter,
    scatter_add,
    take,
    take_along_dim,
)
from .ops.indexing.masked import argwhere, masked_fill, masked_select, nonzero
from .ops.indexing.scatter_reduce import scatter_reduce
from .ops.indexing.subscript import index_put
from .ops.interop import from_dlpack
from .ops.layout.copies import (
    cat,
    diag,
    flip,
    one_hot,
    pad,
    repeat_interleave,
    roll,
    stack,
    tile,
    trace,
    tril,
    triu,
)
from .ops.layout.views import chunk, diagonal, meshgrid, split
from .ops.matmul import bmm, einsum, matmul, mm
from .ops.pooling import adaptive_avg_pool2d, avg_pool2d, max_pool2d
from .ops.random import rand, rand_like, randint, randn, randn_like
from .ops.random_extra import dropout_mask, randperm
from .ops.reduction import (
    all,
    amax,
    amin,
    any,
    argmax,
    argmin,
    logsumexp,
    max,
    mean,
    min,
    norm,
    prod,
    std,
    sum,
    var,
)
from .ops.resample import interpolate
from .ops.scan import cumprod, cumsum
from .ops.softmax import log_softmax, softmax
from .ops.sorting import argsort, bincount, histc, kthvalue, searchsorted, sort, topk, unique
from .ops.ternary import addcdiv, addcmul, clamp, lerp
from .ops.unary import (
    abs,
    acos,
    asin,
    atan,
    bitwise_not,
    ceil,
    cos,
    cosh,
    erf,
    exp,
    exp2,
    expm1,
    floor,
    gelu,
    isfinite,
    isinf,
    isnan,
    log,
    log1p,
    log2,
    log10,
    logical_not,
    neg,
    reciprocal,
    relu,
    round,
    rsqrt,
    sigmoid,
    sign,
    silu,
    sin,
    sinh,
    softplus,
    sqrt,
    square,
    tan,
    tanh,
    trunc,
)
from .printing import set_printoptions
from .serialization import load, save
from .shape_rules import broadcast_shapes
from .storage import transfer_count
from .tensor import Tensor
from .tensor_base import from_numpy

bool = bool_  # noqa: A001 - gt.bool as in PyTorch
float = float32  # noqa: A001
double = float64
half = float16
long = int64
int = int32  # noqa: A001

__all__ = [
    "DTypeError", "DeviceMismatchError", "DeviceUnavailableError", "DivisionByZeroError",
    "GTensorError", "Generator", "OutOfMemoryError", "SerializationError", "ShapeError",
    "SizeOverflowError", "Tensor", "Untraceable", "abs", "accelerator", "acos",
    "adaptive_avg_pool2d", "add", "addcdiv",
    "addcmul", "all", "amax", "amin", "any", "arange", "argmax", "argmin", "argsort",
    "argwhere", "as_tensor", "asin", "atan", "atan2", "autograd", "avg_pool2d", "bincount",
    "bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor", "bmm", "bool_",
    "broadcast_shapes", "cat", "ceil", "chunk", "clamp", "compile", "conv1d", "conv2d",
    "conv_transpose2d", "cos", "cosh", "cuda", "cumprod", "cumsum", "default_generator",
    "device", "diag", "diagonal", "div", "dropout_mask", "dtype", "einsum", "empty",
    "empty_like", "enable_grad", "eq", "erf", "exp", "exp2", "expm1", "eye", "flip",
    "float16", "float32", "float64", "floor", "floor_divide", "from_dlpack", "from_numpy",
    "full", "full_like", "func", "gather", "ge", "gelu", "get_default_dtype", "gt", "histc",
    "index_add", "index_copy", "index_fill", "index_put", "index_select", "inference_mode",
    "initial_seed", "int16", "int32", "int64", "int8", "interpolate", "is_grad_enabled",
    "isfinite", "isinf", "isnan", "kthvalue", "le", "left_shift", "lerp", "linspace", "load",
    "log", "log10", "log1p", "log2", "log_softmax", "logical_and", "logical_not",
    "logical_or", "logical_xor", "logsumexp", "lt", "manual_seed", "masked_fill",
    "masked_select", "matmul", "max", "max_pool2d", "maximum", "mean", "memory", "meshgrid",
    "min", "minimum", "mm", "mul", "ne", "neg", "nn", "no_grad", "nonzero", "norm", "one_hot",
    "ones", "ones_like", "optim", "pad", "pow", "prod", "promote_types", "rand", "rand_like",
    "randint", "randn", "randn_like", "randperm", "reciprocal", "relu", "remainder",
    "repeat_interleave", "result_type", "right_shift", "roll", "round", "rsqrt", "save",
    "scatter", "scatter_add", "scatter_reduce", "searchsorted", "set_default_dtype",
    "set_grad_enabled", "set_printoptions", "sigmoid", "sign", "silu", "sin", "sinh",
    "softmax", "softplus", "sort", "split", "sqrt", "square", "stack", "std", "sub", "sum",
    "take", "take_along_dim", "tan", "tanh", "tensor", "tile", "topk", "trace",
    "transfer_count", "tril", "triu", "trunc", "uint8", "unique", "utils", "var", "where",
    "zeros", "zeros_like",
]
