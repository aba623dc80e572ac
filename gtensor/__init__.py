"""gtensor: GPU-accelerated tensors on CuPy and Numba, with autograd.

Example:
    >>> import gtensor as gt
    >>> x = gt.ones(2, 3)
    >>> x.shape
    (2, 3)
"""

from . import (
    accelerator,
    amp,
    array_api,
    autograd,
    backends,
    cuda,
    distributed,
    fft,
    func,
    linalg,
    memory,
    nn,
    optim,
    special,
    utils,
)
from .amp import (
    autocast,
    clear_autocast_cache,
    get_autocast_dtype,
    is_autocast_cache_enabled,
    is_autocast_enabled,
    set_autocast_cache_enabled,
    set_autocast_dtype,
    set_autocast_enabled,
)
from .autograd import (
    enable_grad,
    inference_mode,
    is_anomaly_enabled,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .compiler import compile
from .determinism import (
    are_deterministic_algorithms_enabled,
    is_deterministic_algorithms_warn_only_enabled,
    use_deterministic_algorithms,
)
from .device import device, get_default_device, set_default_device
from .dtypes import (
    bfloat16,
    bool_,
    complex64,
    complex128,
    dtype,
    finfo,
    float16,
    float32,
    float64,
    get_default_dtype,
    iinfo,
    int8,
    int16,
    int32,
    int64,
    promote_types,
    result_type,
    set_default_dtype,
    uint8,
    uint16,
    uint32,
    uint64,
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
from .fft.stft import istft, stft
from .func import vmap
from .generator import (
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
from .linalg import det, matrix_power, outer, slogdet, tensordot
from .linalg.legacy import *  # noqa: F403 - PyTorch's legacy linear algebra (its __all__)
from .linalg.shortcuts import cross, dist, inner, kron, logdet, mv
from .nn.functional import (  # torch.<name> too, with the same signatures
    avg_pool1d,
    celu,
    conv3d,
    conv_transpose1d,
    cosine_similarity,
    max_pool1d,
    pairwise_distance,
    pixel_shuffle,
    pixel_unshuffle,
    prelu,
    rms_norm,
    rrelu,
    rrelu_,
    selu,
    threshold,
    threshold_,
)
from .ops.arrangement import (
    atleast_1d,
    atleast_2d,
    atleast_3d,
    block_diag,
    cartesian_prod,
    combinations,
    rot90,
    tril_indices,
    triu_indices,
)
from .ops.closeness import allclose, equal, isclose
from .ops.complex_ops import (
    adjoint,
    angle,
    complex,
    conj,
    conj_physical,
    imag,
    is_complex,
    is_conj,
    polar,
    real,
    resolve_conj,
    sgn,
    view_as_complex,
    view_as_real,
)
from .ops.conv import conv1d, conv2d, conv_transpose2d
from .ops.copy import clone, is_floating_point
from .ops.creation import (
    arange,
    as_tensor,
    empty,
    empty_like,
    eye,
    fill_,
    full,
    full_like,
    linspace,
    ones,
    ones_like,
    tensor,
    zero_,
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
)
from .ops.float_math import (
    acosh,
    asinh,
    atanh,
    copysign,
    hypot,
    logaddexp,
    nextafter,
    signbit,
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
from .ops.indexing.masked import argwhere, masked_fill, masked_select, nonzero, where
from .ops.indexing.scatter_reduce import scatter_reduce
from .ops.indexing.subscript import index_put, index_put_
from .ops.interop import from_dlpack
from .ops.layout.copies import (
    cat,
    chunk,
    diag,
    flip,
    one_hot,
    pad,
    repeat_interleave,
    roll,
    split,
    stack,
    tile,
    trace,
    tril,
    triu,
)
from .ops.layout.stacking import (
    column_stack,
    dsplit,
    dstack,
    hsplit,
    hstack,
    row_stack,
    tensor_split,
    vsplit,
    vstack,
)
from .ops.layout.strided import (
    as_strided,
    broadcast_tensors,
    empty_strided,
    fliplr,
    flipud,
    moveaxis,
    movedim,
    ravel,
    swapdims,
)
from .ops.layout.views import (
    broadcast_to,
    diagonal,
    flatten,
    meshgrid,
    narrow,
    narrow_copy,
    permute,
    reshape,
    select,
    squeeze,
    t,
    transpose,
    unbind,
    unflatten,
    unsqueeze,
)
from .ops.layout.writes import (
    diagonal_scatter,
    masked_scatter,
    put,
    select_scatter,
    slice_scatter,
)
from .ops.matmul import bmm, dot, einsum, matmul, mm, vdot
from .ops.nan_reductions import aminmax, count_nonzero, nanmean, nansum, std_mean, var_mean
from .ops.number_functions import (
    clamp_max,
    clamp_max_,
    clamp_min,
    clamp_min_,
    deg2rad,
    deg2rad_,
    erfc_,
    float_power,
    fmod,
    frac,
    frac_,
    heaviside,
    isin,
    isneginf,
    isposinf,
    isreal,
    logaddexp2,
    nan_to_num,
    nan_to_num_,
    positive,
    rad2deg,
    rad2deg_,
    sinc_,
)
from .ops.pooling import adaptive_avg_pool2d, avg_pool2d, max_pool2d
from .ops.products import addmm, addmv, addmv_, addr, baddbmm, cdist, chain_matmul, renorm, vander
from .ops.random import rand, rand_like, randint, randn, randn_like
from .ops.random_extra import bernoulli, dropout_mask, multinomial, randperm
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
from .ops.sequences import (
    bucketize,
    cummax,
    cummin,
    cumulative_trapezoid,
    diff,
    logcumsumexp,
    trapezoid,
)
from .ops.softmax import log_softmax, softmax
from .ops.sorting import (
    argsort,
    bincount,
    histc,
    kthvalue,
    searchsorted,
    sort,
    topk,
    unique,
    unique_consecutive,
)
from .ops.special_functions import erfc, frexp, ldexp, ldexp_, logit, logit_, sinc, xlogy, xlogy_
from .ops.statistics import (
    corrcoef,
    cov,
    histogram,
    median,
    mode,
    msort,
    nanmedian,
    nanquantile,
    quantile,
)
from .ops.ternary import addcdiv, addcmul, clamp, clamp_, lerp
from .ops.torch_names import *  # noqa: F403 - PyTorch's other names (its __all__)
from .ops.unary import (
    abs,
    abs_,
    acos,
    acos_,
    asin,
    asin_,
    atan,
    atan_,
    bitwise_not,
    ceil,
    ceil_,
    cos,
    cos_,
    cosh,
    cosh_,
    digamma,
    erf,
    erf_,
    erfinv,
    exp,
    exp2,
    exp2_,
    exp_,
    expm1,
    expm1_,
    floor,
    floor_,
    gelu,
    isfinite,
    isinf,
    isnan,
    lgamma,
    log,
    log1p,
    log1p_,
    log2,
    log2_,
    log10,
    log10_,
    log_,
    logical_not,
    neg,
    neg_,
    reciprocal,
    reciprocal_,
    relu,
    relu_,
    round,
    round_,
    rsqrt,
    rsqrt_,
    sigmoid,
    sigmoid_,
    sign,
    silu,
    sin,
    sin_,
    sinh,
    sinh_,
    softplus,
    sqrt,
    sqrt_,
    square,
    square_,
    tan,
    tan_,
    tanh,
    tanh_,
    trunc,
    trunc_,
)
from .ops.windows import (
    bartlett_window,
    blackman_window,
    hamming_window,
    hann_window,
    kaiser_window,
)
from .precision import get_float32_matmul_precision, set_float32_matmul_precision
from .printing import set_printoptions
from .serialization import load, save
from .shape_rules import broadcast_shapes
from .storage import transfer_count
from .tensor import Tensor
from .tensor_base import TensorBase, from_numpy
from .threads import get_num_threads, set_num_threads

bool = bool_  # noqa: A001 - gt.bool as in PyTorch
float = float32  # noqa: A001
double = float64
half = float16
cfloat = complex64
cdouble = complex128
long = int64
int = int32  # noqa: A001

# PyTorch's other names for the same functions
absolute = abs
clip = clamp
clip_ = clamp_
divide = div
true_divide = div
multiply = mul
negative = neg
subtract = sub
swapaxes = transpose
ger = outer
detach = TensorBase.detach
detach_ = TensorBase.detach_
numel = TensorBase.numel

__all__ = [
    "addmm", "aminmax", "as_strided", "bartlett_window", "blackman_window", "broadcast_tensors",
    "clamp_max", "clamp_max_", "clamp_min", "clamp_min_", "column_stack", "count_nonzero",
    "cross", "deg2rad", "deg2rad_", "det", "diagonal_scatter", "digamma", "dist", "dsplit",
    "dstack", "erfinv", "lgamma",
    "empty_strided", "erfc", "erfc_", "float_power", "fliplr", "flipud", "fmod", "frac", "frac_",
    "ger", "hamming_window", "hann_window", "heaviside", "hsplit", "hstack", "inner", "isin",
    "is_floating_point", "isneginf", "isposinf", "isreal", "kaiser_window", "kron",
    "logaddexp2", "logdet", "masked_scatter", "matrix_power", "moveaxis", "movedim", "mv",
    "nan_to_num", "nan_to_num_", "nanmean", "nansum", "positive", "put", "rad2deg", "rad2deg_",
    "ravel", "row_stack", "rrelu", "rrelu_", "select_scatter", "sinc", "sinc_",
    "slice_scatter", "slogdet", "std_mean", "swapdims", "tensor_split", "tensordot",
    "threshold", "threshold_", "unique_consecutive", "var_mean", "vsplit", "vstack",
    "avg_pool1d", "celu", "conv3d", "conv_transpose1d", "cosine_similarity", "max_pool1d",
    "pairwise_distance", "pixel_shuffle", "pixel_unshuffle", "prelu", "rms_norm", "selu",
    "acosh", "array_api", "asinh", "atanh", "copysign", "hypot", "logaddexp", "nextafter",
    "signbit",
    "addmv", "addmv_", "addr", "atleast_1d", "atleast_2d", "atleast_3d", "baddbmm", "block_diag",
    "bucketize", "cartesian_prod", "cdist", "chain_matmul", "combinations", "corrcoef", "cov",
    "cummax", "cummin", "cumulative_trapezoid", "diff", "frexp", "histogram", "ldexp", "ldexp_",
    "logcumsumexp", "logit", "logit_", "median", "mode", "msort", "nanmedian", "nanquantile",
    "quantile", "renorm", "rot90", "special", "trapezoid", "tril_indices", "triu_indices",
    "vander", "xlogy", "xlogy_",
    "get_float32_matmul_precision", "set_float32_matmul_precision",
    "get_default_device", "set_default_device", "get_rng_state", "set_rng_state", "seed",
    "get_num_threads", "set_num_threads", "istft", "stft",
    "are_deterministic_algorithms_enabled", "is_deterministic_algorithms_warn_only_enabled",
    "use_deterministic_algorithms",
    "DTypeError", "DeviceMismatchError", "DeviceUnavailableError", "DivisionByZeroError",
    "GTensorError", "Generator", "OutOfMemoryError", "SerializationError", "ShapeError",
    "SizeOverflowError", "Tensor", "Untraceable", "abs", "abs_", "absolute", "accelerator", "acos",
    "acos_", "adaptive_avg_pool2d", "add", "addcdiv", "addcmul", "all", "amax", "amin", "amp",
    "any", "arange", "argmax", "argmin", "argsort", "argwhere", "as_tensor", "asin", "asin_",
    "atan", "atan2", "atan_", "autocast", "autograd", "avg_pool2d", "backends", "bernoulli",
    "bincount", "bitwise_and",
    "bitwise_not", "bitwise_or", "bitwise_xor", "bmm", "bool_", "broadcast_shapes", "broadcast_to",
    "cat", "ceil", "ceil_", "chunk", "clamp", "clamp_", "clear_autocast_cache", "clip", "clip_",
    "clone", "compile",
    "conv1d", "conv2d", "conv_transpose2d", "cos", "cos_", "cosh", "cosh_", "cuda", "cumprod",
    "cumsum", "default_generator", "detach", "detach_", "device", "diag", "diagonal",
    "distributed", "div",
    "divide",
    "dropout_mask", "dtype", "einsum", "empty", "empty_like", "enable_grad", "eq", "erf", "erf_",
    "exp", "exp2", "exp2_", "exp_", "expm1", "expm1_", "eye", "fill_", "flatten", "flip",
    "adjoint", "angle", "complex", "conj", "conj_physical", "imag", "is_complex", "is_conj",
    "polar", "real", "resolve_conj", "sgn", "view_as_complex", "view_as_real", "dot", "vdot",
    "allclose", "equal", "isclose", "fft",
    "complex64", "complex128", "cfloat", "cdouble",
    "float16", "bfloat16", "finfo", "float32", "float64", "floor", "floor_", "floor_divide",
    "from_dlpack",
    "from_numpy", "full", "full_like", "func", "gather", "ge", "gelu", "get_autocast_dtype",
    "get_default_dtype", "gt",
    "histc", "index_add", "index_copy", "index_fill", "index_put", "index_put_", "index_select",
    "iinfo", "inference_mode", "initial_seed", "int16", "int32", "int64", "int8", "interpolate",
    "is_anomaly_enabled", "is_autocast_cache_enabled", "is_autocast_enabled", "is_grad_enabled",
    "is_inference_mode_enabled", "isfinite", "isinf",
    "isnan", "kthvalue", "le", "left_shift", "lerp",
    "linalg", "linspace", "load", "log", "log10", "log10_", "log1p", "log1p_", "log2", "log2_",
    "log_",
    "log_softmax", "logical_and", "logical_not", "logical_or", "logical_xor", "logsumexp", "lt",
    "manual_seed", "masked_fill", "masked_select", "matmul", "max", "max_pool2d", "maximum",
    "mean", "memory", "meshgrid", "min", "minimum", "mm", "mul", "multinomial", "multiply",
    "narrow", "narrow_copy", "ne", "neg", "neg_", "negative", "nn", "no_grad", "nonzero", "norm",
    "numel",
    "one_hot", "ones", "ones_like", "optim", "outer", "pad", "permute", "pow", "prod",
    "promote_types",
    "rand", "rand_like", "randint", "randn", "randn_like", "randperm", "reciprocal", "reciprocal_",
    "relu", "relu_", "remainder", "repeat_interleave", "reshape", "result_type", "right_shift",
    "roll", "round", "round_", "rsqrt", "rsqrt_", "save", "scatter", "scatter_add",
    "scatter_reduce", "searchsorted", "select", "set_autocast_cache_enabled", "set_autocast_dtype",
    "set_autocast_enabled", "set_default_dtype", "set_grad_enabled",
    "set_printoptions", "sigmoid", "sigmoid_", "sign", "silu", "sin", "sin_", "sinh", "sinh_",
    "softmax", "softplus", "sort", "split", "sqrt", "sqrt_", "square", "square_", "squeeze",
    "stack", "std", "sub", "subtract", "sum", "swapaxes", "t", "take", "take_along_dim", "tan",
    "tan_", "tanh", "tanh_", "tensor", "tile", "topk", "trace", "transfer_count", "transpose",
    "tril", "triu", "true_divide", "trunc", "trunc_", "uint8", "uint16", "uint32", "uint64",
    "unbind", "unflatten", "unique",
    "unsqueeze", "utils", "var", "vmap", "where", "zero_", "zeros", "zeros_like"
]
__all__ += ops.torch_names.__all__ + linalg.legacy.__all__  # noqa: F405
