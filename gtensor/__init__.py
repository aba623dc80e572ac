"""gtensor: GPU-accelerated tensors on CuPy and Numba, with autograd.

Example:
    >>> import gtensor as gt
    >>> x = gt.ones(2, 3)
    >>> x.shape
    (2, 3)
"""

from . import autograd, cuda, func, memory
from ._load_ops import load_ops
from .autograd import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
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
)
from .generator import Generator, default_generator, initial_seed, manual_seed
from .printing import set_printoptions
from .storage import transfer_count
from .tensor import Tensor

_exports = load_ops()
globals().update(_exports)

from .ops.creation import (  # noqa: E402
    arange,
    as_tensor,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    ones,
    ones_like,
    tensor,
    zeros,
    zeros_like,
)
from .ops.interop import from_dlpack  # noqa: E402
from .ops.random import rand, rand_like, randint, randn, randn_like  # noqa: E402
from .ops.random_extra import dropout_mask, randperm  # noqa: E402
from .ops.shape_ops import cat, meshgrid, one_hot, pad, stack  # noqa: E402
from .ops.sorting import bincount, searchsorted  # noqa: E402
from .shape_rules import broadcast_shapes  # noqa: E402

bool = bool_  # noqa: A001 - gt.bool as in PyTorch
float = float32  # noqa: A001
double = float64
half = float16
long = int64
int = int32  # noqa: A001

__all__ = [
    "autograd", "func", "enable_grad", "inference_mode", "is_grad_enabled", "no_grad",
    "set_grad_enabled", "DTypeError", "DeviceMismatchError", "GTensorError", "Generator",
    "OutOfMemoryError", "DeviceUnavailableError", "DivisionByZeroError", "SerializationError",
    "SizeOverflowError",
    "ShapeError", "Tensor", "arange", "as_tensor", "bool_", "broadcast_shapes", "cuda",
    "default_generator", "device", "dtype", "empty", "empty_like", "eye", "float16", "float32",
    "float64", "from_dlpack", "from_numpy", "full", "full_like", "get_default_dtype",
    "initial_seed", "int8", "int16", "int32", "int64", "linspace", "manual_seed", "memory",
    "ones", "ones_like", "promote_types", "rand", "rand_like", "randint", "randn", "randn_like",
    "result_type", "set_default_dtype", "set_printoptions", "tensor", "transfer_count",
    "uint8", "zeros", "zeros_like",
    "bincount", "cat", "dropout_mask", "meshgrid", "one_hot", "pad", "randperm",
    "searchsorted", "stack",
]

from . import nn, optim, utils  # noqa: E402
from .serialization import load, save  # noqa: E402

__all__ += ["nn", "optim", "utils", "save", "load", *sorted(_exports)]
