"""Philox4x32-10 random kernels on CUDA (``numba.cuda``, grid-stride loops).

The scalar math lives in :mod:`..common.philox` and is compiled here as CUDA
device functions; the kernels only loop. Results match the CPU kernels bit for
bit for uniform, integers and bernoulli (see the module docstring of
``common/philox.py`` for why fused multiply-add cannot change them), and to
about 1e-15 relative in float64 for normal. Under Numba's CUDA simulator the
same code runs on host arrays.

Every kernel takes ``(out, seed, offset, ..., stream=None)`` and launches on
``stream`` (the default stream when None).
"""

from __future__ import annotations

import math

import numpy as np
from numba import cuda

from ..common import philox
from ..registry import register

FLOAT_DTYPES = ("float16", "float32", "float64")
INTEGER_DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", *FLOAT_DTYPES)
BERNOULLI_DTYPES = ("bool", "uint8", *FLOAT_DTYPES)

SMALL_BLOCK = 64
LARGE_BLOCK = 256
SMALL_LIMIT = 65536
ELEMENTS_PER_THREAD = 2
MAX_BLOCKS = 1024

_dev = philox.build(cuda.jit(device=True))
uniform_value = _dev.uniform_value
normal_value = _dev.normal_value
integer_value = _dev.integer_value
bernoulli_value = _dev.bernoulli_value


@cuda.jit
def gtensor_random_uniform_cuda(out, k0, k1, o0, o1, wide, low, d0, d1, d2, limit, below):
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[i] = uniform_value(np.uint64(i), k0, k1, o0, o1, wide, low, d0, d1, d2)
        if out[i] >= limit:
            out[i] = below


@cuda.jit
def gtensor_random_normal_cuda(out, k0, k1, o0, o1, mean, std):
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[i] = normal_value(np.uint64(i), k0, k1, o0, o1, mean, std)


@cuda.jit
def gtensor_random_integers_cuda(out, k0, k1, o0, o1, r_hi, r_lo, low_hi, low_lo):
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[i] = integer_value(np.uint64(i), k0, k1, o0, o1, r_hi, r_lo, low_hi, low_lo)


@cuda.jit
def gtensor_random_bernoulli_cuda(out, k0, k1, o0, o1, p):
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[i] = bernoulli_value(np.uint64(i), k0, k1, o0, o1, p)


def launch_config(n: int) -> tuple[int, int]:
    """Return ``(blocks, threads)`` for ``n`` elements: small grids for small arrays.

    Args:
        n: number of elements (> 0).

    Returns:
        Blocks and threads per block; each thread covers about
        ``ELEMENTS_PER_THREAD`` elements, more once ``MAX_BLOCKS`` is reached.

    Example:
        >>> launch_config(256)
        (2, 64)
    """
    threads = SMALL_BLOCK if n <= SMALL_LIMIT else LARGE_BLOCK
    blocks = math.ceil(n / (threads * ELEMENTS_PER_THREAD))
    return max(1, min(blocks, MAX_BLOCKS)), threads


def _launch(kernel, op, out, seed, offset, args, stream):
    """Check ``out`` and launch ``kernel`` over it on ``stream``."""
    if out.ndim != 1:
        raise ValueError(f"[{op}] expected a 1-D output, got shape {out.shape}")
    words = philox.stream_args(seed, offset, op)
    if out.size == 0:
        return
    blocks, threads = launch_config(out.size)
    kernel[blocks, threads, 0 if stream is None else stream](out, *words, *args)


@register("random_uniform", "cuda", FLOAT_DTYPES)
def random_uniform(out, seed, offset, low, high, stream=None):
    """Fill ``out`` with uniform values on [low, high) from Philox4x32-10.

    Args:
        out: 1-D contiguous float16/32/64 device array, overwritten.
        seed: Philox key, an int in [0, 2**64).
        offset: counter of element 0, an int in [0, 2**64); element ``i`` uses
            ``offset + i``, so the caller advances it by ``out.size``.
        low, high: bounds; values lie in [low, high) of ``out.dtype``.
        stream: CUDA stream to launch on (default stream when None).

    Example:
        >>> random_uniform(d_out, seed=1, offset=0, low=0.0, high=1.0)  # doctest: +SKIP
    """
    args = philox.uniform_args(low, high, np.dtype(out.dtype), "random_uniform")
    _launch(gtensor_random_uniform_cuda, "random_uniform", out, seed, offset, args, stream)


@register("random_normal", "cuda", FLOAT_DTYPES)
def random_normal(out, seed, offset, mean, std, stream=None):
    """Fill ``out`` with normal values (Box-Muller) from Philox4x32-10.

    Args:
        out: 1-D contiguous float16/32/64 device array, overwritten.
        seed, offset: key and counter of element 0 (ints in [0, 2**64)).
        mean, std: location and scale.
        stream: CUDA stream to launch on (default stream when None).

    Example:
        >>> random_normal(d_out, seed=1, offset=0, mean=0.0, std=1.0)  # doctest: +SKIP
    """
    args = philox.normal_args(mean, std, "random_normal")
    _launch(gtensor_random_normal_cuda, "random_normal", out, seed, offset, args, stream)


@register("random_integers", "cuda", INTEGER_DTYPES)
def random_integers(out, seed, offset, low, high, stream=None):
    """Fill ``out`` with uniform integers on [low, high) (64-bit multiply-shift).

    Args:
        out: 1-D contiguous integer or float device array, overwritten.
        seed, offset: key and counter of element 0 (ints in [0, 2**64)).
        low, high: integer bounds, representable in ``out.dtype``.
        stream: CUDA stream to launch on (default stream when None).

    Example:
        >>> random_integers(d_out, seed=1, offset=0, low=0, high=10)  # doctest: +SKIP
    """
    args = philox.integer_args(low, high, np.dtype(out.dtype), "random_integers")
    _launch(gtensor_random_integers_cuda, "random_integers", out, seed, offset, args, stream)


@register("random_bernoulli", "cuda", BERNOULLI_DTYPES)
def random_bernoulli(out, seed, offset, p, stream=None):
    """Fill ``out`` with ones with probability ``p`` and zeros otherwise.

    Args:
        out: 1-D contiguous bool, uint8 or float device array, overwritten.
        seed, offset: key and counter of element 0 (ints in [0, 2**64)).
        p: probability of a one, in [0, 1].
        stream: CUDA stream to launch on (default stream when None).

    Example:
        >>> random_bernoulli(d_out, seed=1, offset=0, p=0.5)  # doctest: +SKIP
    """
    args = (philox.bernoulli_args(p, "random_bernoulli"),)
    _launch(gtensor_random_bernoulli_cuda, "random_bernoulli", out, seed, offset, args, stream)
