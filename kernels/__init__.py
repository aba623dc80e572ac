"""gtensor's kernel layer: a strict dispatch table and Numba kernels over raw buffers.

This package never imports the frontend and never sees a ``Tensor``. Kernels
take NumPy arrays (CPU and the simulated CUDA device) or CUDA device arrays.
"""

from numba.core import caching

from . import cache_stamps
from .extension import define_elementwise
from .registry import (
    ANY,
    BACKENDS,
    KernelRegistrationError,
    is_loaded,
    load_backend,
    lookup,
    register,
)

cache_stamps.install(caching)

__all__ = ["ANY", "BACKENDS", "KernelRegistrationError", "define_elementwise", "is_loaded",
           "load_backend",
           "lookup", "register"]
