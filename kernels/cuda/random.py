"""Philox4x32-10 random kernels on CUDA (``numba.cuda``, grid-stride loops over counters).

The scalar math lives in :mod:`..common.philox` and is compiled here as CUDA
device functions; the kernels only loop. Results match the CPU kernels bit for
bit for uniform, integers and bernoulli (see the module docstring of
``common/philox.py`` for why fused multiply-add cannot change them), and to
about 1e-15 relative in float64 for normal. Under Numba's CUDA simulator the
same code runs on host arrays.

Kernel design (sizes for a real GPU): a 1-D grid of 256-thread blocks,
grid-stride over the draw's Philox counters, at most one wave of resident
blocks (132 SMs x 8 blocks on an H200). A thread runs Philox4x32-10 once per
counter and stores all its values: four (one 32-bit word each: float16/32
uniforms and normals, bernoulli, dropout) or two (a word pair each: float64
uniforms and normals, integers, exponential keys, categoricals). Slot ``s`` of
counter ``j`` lands ``32 * s`` after slot 0 (``common/philox.py`` gives the
layout), so the 32 lanes of a warp, on 32 consecutive counters, write 32
consecutive values with each store instruction: every store is coalesced and
no word of a Philox block is wasted. Launches are planned once per kernel,
dtype, grid and stream (``PlannedLaunch``); the block count is a power of two
below the one-wave cap, so few launch configurations exist.

Every kernel takes ``(out, seed, offset, ..., stream=None)`` and launches on
``stream`` (the default stream when None).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

from ..common import philox, random_args
from ..common.dtype_groups import INT
from ..registry import register
from ._launch import SIMULATED, PlannedLaunch, multiprocessors, remembered

FLOAT_DTYPES = ("float16", "float32", "float64")
INTEGER_DTYPES = (*INT, *FLOAT_DTYPES)
BERNOULLI_DTYPES = ("bool", "uint8", *FLOAT_DTYPES)

THREADS = 32 if SIMULATED else 256
"""Threads per block (a multiple of ``philox.GROUP``, so a warp takes whole groups)."""
SIMULATED_BLOCKS = 2
"""Block cap under the simulator (the loop still strides over the grid)."""

_dev = philox.build(cuda.jit(device=True))
fill_uniform = _dev.fill_uniform
fill_normal = _dev.fill_normal
fill_integers = _dev.fill_integers
fill_bernoulli = _dev.fill_bernoulli


@cuda.jit
def gtensor_random_uniform_cuda(out, m, k0, k1, o0, o1, wide, low, d0, d1, d2,  # noqa: ANN001
                                limit, below):
    for j in range(cuda.grid(1), m, cuda.gridsize(1)):
        fill_uniform(out, np.uint64(j), k0, k1, o0, o1, wide, low, d0, d1, d2, limit, below)


@cuda.jit
def gtensor_random_normal_cuda(out, m, k0, k1, o0, o1, wide, mean, std):  # noqa: ANN001
    for j in range(cuda.grid(1), m, cuda.gridsize(1)):
        fill_normal(out, np.uint64(j), k0, k1, o0, o1, wide, mean, std)


@cuda.jit
def gtensor_random_integers_cuda(out, m, k0, k1, o0, o1, r_hi, r_lo,  # noqa: ANN001
                                 low_hi, low_lo):
    for j in range(cuda.grid(1), m, cuda.gridsize(1)):
        fill_integers(out, np.uint64(j), k0, k1, o0, o1, r_hi, r_lo, low_hi, low_lo)


@cuda.jit
def gtensor_random_bernoulli_cuda(out, m, k0, k1, o0, o1, p):  # noqa: ANN001
    for j in range(cuda.grid(1), m, cuda.gridsize(1)):
        fill_bernoulli(out, np.uint64(j), k0, k1, o0, o1, p)


def launch_config(m: int) -> tuple[int, int]:
    """Return ``(blocks, threads)`` for a grid-stride loop over ``m`` counters.

    One thread per counter up to one wave of resident blocks; the block count
    is rounded up to a power of two (Numba keeps a small cache of launch
    configurations for all kernels together).

    Example:
        >>> launch_config(1)[0]
        1
    """
    if SIMULATED:
        cap = SIMULATED_BLOCKS
    else:
        sms, threads_per_sm = multiprocessors()
        cap = sms * max(1, threads_per_sm // THREADS)
    blocks = 1 << max(0, -(-m // THREADS) - 1).bit_length()
    return max(1, min(cap, blocks)), THREADS


_plans: dict[tuple[Any, ...], PlannedLaunch] = {}


def _array_kind(a: Any) -> tuple[Any, ...]:
    return (a.dtype, a.ndim, a.flags["C_CONTIGUOUS"], a.flags["F_CONTIGUOUS"])


def run_counters(kernel: Any, m: int, stream: Any, arrays: tuple[Any, ...], *args: Any) -> None:
    """Launch ``kernel(*arrays, m, *args)`` over ``m`` counters, planned per layout and grid.

    ``arrays`` are all the kernel's array arguments (their dtypes and layouts
    key the plan); ``args`` are scalars of fixed types.

    Example:
        >>> out = np.empty(4, np.bool_); words = random_args.stream_args(1, 0, "random_bernoulli")
        >>> m = random_args.counters(out.size, 4)
        >>> run_counters(gtensor_random_bernoulli_cuda, m, None, (out,), *words, 1.0); out.tolist()
        [True, True, True, True]
    """
    blocks, threads = launch_config(m)
    key = (kernel, blocks, stream, *(_array_kind(a) for a in arrays))
    launch = remembered(_plans, key, PlannedLaunch, kernel, 0, stream, blocks, threads)
    launch(*arrays, m, *args)


def _fill(kernel: Any, op: str, out: Any, seed: int, offset: int, per: int,
            args: tuple[Any, ...], stream: Any) -> None:
    """Check ``out`` and fill it with ``kernel``, ``per`` values per counter, on ``stream``."""
    if out.ndim != 1:
        raise ValueError(f"[{op}] expected a 1-D output, got shape {out.shape}")
    words = random_args.stream_args(seed, offset, op)
    if out.size == 0:
        return
    run_counters(kernel, random_args.counters(out.size, per), stream, (out,), *words, *args)


@register("random_uniform", "cuda", FLOAT_DTYPES)
def random_uniform(out, seed, offset, low, high, stream=None):  # noqa: ANN001, ANN201
    """Fill ``out`` with uniform values on [low, high) from Philox4x32-10.

    Args:
        out: 1-D contiguous float16/32/64 device array, overwritten.
        seed: Philox key, an int in [0, 2**64).
        offset: the draw's first counter, an int in [0, 2**64); the draw uses
            at most ``out.size`` counters from it, so the caller advances it by
            ``out.size``.
        low, high: bounds; values lie in [low, high) of ``out.dtype``.
        stream: CUDA stream to launch on (default stream when None).

    Example:
        >>> x = np.empty(4, np.float32); random_uniform(x, seed=1, offset=0, low=2.0, high=3.0)
        >>> bool(((2.0 <= x) & (x < 3.0)).all())
        True
    """
    args = random_args.uniform_args(low, high, np.dtype(out.dtype), "random_uniform")
    _fill(gtensor_random_uniform_cuda, "random_uniform", out, seed, offset,
            2 if args[0] else 4, args, stream)


@register("random_normal", "cuda", FLOAT_DTYPES)
def random_normal(out, seed, offset, mean, std, stream=None):  # noqa: ANN001, ANN201
    """Fill ``out`` with normal values (Box-Muller) from Philox4x32-10.

    Args:
        out: 1-D contiguous float16/32/64 device array, overwritten.
        seed, offset: key and first counter (ints in [0, 2**64)).
        mean, std: location and scale.
        stream: CUDA stream to launch on (default stream when None).

    Example:
        >>> x = np.empty(4); random_normal(x, seed=1, offset=0, mean=5.0, std=0.0); x.tolist()
        [5.0, 5.0, 5.0, 5.0]
    """
    wide = np.dtype(out.dtype).itemsize == 8
    args = (wide, *random_args.normal_args(mean, std, "random_normal"))
    _fill(gtensor_random_normal_cuda, "random_normal", out, seed, offset, 2 if wide else 4,
            args, stream)


@register("random_integers", "cuda", INTEGER_DTYPES)
def random_integers(out, seed, offset, low, high, stream=None):  # noqa: ANN001, ANN201
    """Fill ``out`` with uniform integers on [low, high) (64-bit multiply-shift).

    Args:
        out: 1-D contiguous integer or float device array, overwritten.
        seed, offset: key and first counter (ints in [0, 2**64)).
        low, high: integer bounds, representable in ``out.dtype``.
        stream: CUDA stream to launch on (default stream when None).

    Example:
        >>> x = np.empty(4, np.int32); random_integers(x, seed=1, offset=0, low=-3, high=3)
        >>> bool(((-3 <= x) & (x < 3)).all())
        True
    """
    args = random_args.integer_args(low, high, np.dtype(out.dtype), "random_integers")
    _fill(gtensor_random_integers_cuda, "random_integers", out, seed, offset, 2, args, stream)


@register("random_bernoulli", "cuda", BERNOULLI_DTYPES)
def random_bernoulli(out, seed, offset, p, stream=None):  # noqa: ANN001, ANN201
    """Fill ``out`` with ones with probability ``p`` and zeros otherwise.

    Args:
        out: 1-D contiguous bool, uint8 or float device array, overwritten.
        seed, offset: key and first counter (ints in [0, 2**64)).
        p: probability of a one, in [0, 1].
        stream: CUDA stream to launch on (default stream when None).

    Example:
        >>> x = np.empty(4, np.bool_); random_bernoulli(x, seed=1, offset=0, p=0.0); x.tolist()
        [False, False, False, False]
    """
    args = (random_args.bernoulli_args(p, "random_bernoulli"),)
    _fill(gtensor_random_bernoulli_cuda, "random_bernoulli", out, seed, offset, 4, args,
            stream)
