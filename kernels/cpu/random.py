"""Philox4x32-10 random kernels on the CPU (``numba.njit``, parallel for large outputs).

The scalar math lives in :mod:`..common.philox`; this module compiles it with
``numba.njit`` and adds the loops over Philox counters (each writes up to four
values). Each loop is compiled twice from one Python
function: serially (``prange`` acts as ``range``) for outputs below
``PARALLEL_THRESHOLD`` elements and with ``parallel=True`` above it. Numba on
the CPU cannot store float16, so float16 outputs are computed into a float64
(or integer/bool) scratch buffer and rounded once by NumPy, which gives the
same round-to-nearest result as the CUDA kernels' direct store.

Every kernel takes ``(out, seed, offset, ..., stream=None)``; ``stream`` is
ignored on the CPU.
"""

from __future__ import annotations

import os
import types

import numba
import numpy as np

from ..common import philox, random_args
from ..common.dtype_groups import INT
from ..registry import register

PARALLEL_THRESHOLD = 32768
FLOAT_DTYPES = ("float16", "float32", "float64")
INTEGER_DTYPES = (*INT, *FLOAT_DTYPES)
BERNOULLI_DTYPES = ("bool", "uint8", *FLOAT_DTYPES)

_dev = philox.build(numba.njit)
fill_uniform = _dev.fill_uniform
fill_normal = _dev.fill_normal
fill_integers = _dev.fill_integers
fill_bernoulli = _dev.fill_bernoulli


def gtensor_random_uniform_cpu(out, m, k0, k1, o0, o1, wide, low, d0, d1, d2, limit, below):
    for j in numba.prange(m):
        fill_uniform(out, np.uint64(j), k0, k1, o0, o1, wide, low, d0, d1, d2, limit, below)


def gtensor_random_normal_cpu(out, m, k0, k1, o0, o1, wide, mean, std):
    for j in numba.prange(m):
        fill_normal(out, np.uint64(j), k0, k1, o0, o1, wide, mean, std)


def gtensor_random_integers_cpu(out, m, k0, k1, o0, o1, r_hi, r_lo, low_hi, low_lo):
    for j in numba.prange(m):
        fill_integers(out, np.uint64(j), k0, k1, o0, o1, r_hi, r_lo, low_hi, low_lo)


def gtensor_random_bernoulli_cpu(out, m, k0, k1, o0, o1, p):
    for j in numba.prange(m):
        fill_bernoulli(out, np.uint64(j), k0, k1, o0, o1, p)


def _serial_and_parallel(fn, sources=(philox,)):
    """Compile ``fn`` serially and with ``parallel=True``, under distinct cache names.

    Numba's disk cache checks only the kernel's own source file, not the device
    functions it calls, so the copies are filed under the most recently
    modified of the ``sources`` modules that hold those functions: an edit to
    any of them invalidates the cache (an edit to a loop here changes its
    bytecode, which is part of the cache key).
    """
    newest = max((m.__file__ for m in sources), key=os.path.getmtime)
    code = fn.__code__.replace(co_filename=newest)
    copies = []
    for name in (fn.__name__, fn.__name__ + "_parallel"):
        copy = types.FunctionType(code.replace(co_name=name), fn.__globals__, name)
        copy.__qualname__ = name
        copies.append(copy)
    return numba.njit(cache=True)(copies[0]), numba.njit(cache=True, parallel=True)(copies[1])


_UNIFORM = _serial_and_parallel(gtensor_random_uniform_cpu)
_NORMAL = _serial_and_parallel(gtensor_random_normal_cpu)
_INTEGERS = _serial_and_parallel(gtensor_random_integers_cpu)
_BERNOULLI = _serial_and_parallel(gtensor_random_bernoulli_cpu)


def _run(kernels, op, out, seed, offset, per, args, scratch_dtype, clamp=None):
    """Check ``out``, pick the serial or parallel loop over counters and fill ``out``."""
    if out.ndim != 1 or not out.flags.c_contiguous:
        raise ValueError(f"[{op}] expected a 1-D contiguous output, got shape {out.shape}")
    stream = random_args.stream_args(seed, offset, op)
    if out.size == 0:
        return
    kernel = kernels[1] if out.size >= PARALLEL_THRESHOLD else kernels[0]
    m = random_args.counters(out.size, per)
    if out.dtype != np.float16:
        kernel(out, m, *stream, *args)
        return
    scratch = np.empty(out.size, dtype=scratch_dtype)
    kernel(scratch, m, *stream, *args)
    out[...] = scratch
    if clamp is not None:
        limit, below = clamp
        np.putmask(out, out >= limit, below)


@register("random_uniform", "cpu", FLOAT_DTYPES)
def random_uniform(out, seed, offset, low, high, stream=None):
    """Fill ``out`` with uniform values on [low, high) from Philox4x32-10.

    Args:
        out: 1-D contiguous float16/32/64 NumPy array, overwritten.
        seed: Philox key, an int in [0, 2**64).
        offset: the draw's first counter, an int in [0, 2**64); the draw uses
            at most ``out.size`` counters from it (``common/philox.py`` gives the
            layout), so the caller advances it by ``out.size``.
        low, high: bounds; values lie in [low, high) of ``out.dtype``.
        stream: ignored on the CPU.

    Example:
        >>> x = np.empty(4, np.float32)
        >>> random_uniform(x, seed=1, offset=0, low=0.0, high=1.0)
    """
    args = random_args.uniform_args(low, high, out.dtype, "random_uniform")
    _run(_UNIFORM, "random_uniform", out, seed, offset, 2 if args[0] else 4, args, np.float64,
         clamp=args[-2:])


@register("random_normal", "cpu", FLOAT_DTYPES)
def random_normal(out, seed, offset, mean, std, stream=None):
    """Fill ``out`` with normal values (Box-Muller) from Philox4x32-10.

    Args:
        out: 1-D contiguous float16/32/64 NumPy array, overwritten.
        seed, offset: key and first counter (ints in [0, 2**64)).
        mean, std: location and scale.
        stream: ignored on the CPU.

    Example:
        >>> x = np.empty(4)
        >>> random_normal(x, seed=1, offset=0, mean=0.0, std=1.0)
    """
    wide = out.dtype.itemsize == 8
    args = (wide, *random_args.normal_args(mean, std, "random_normal"))
    _run(_NORMAL, "random_normal", out, seed, offset, 2 if wide else 4, args, np.float64)


@register("random_integers", "cpu", INTEGER_DTYPES)
def random_integers(out, seed, offset, low, high, stream=None):
    """Fill ``out`` with uniform integers on [low, high) (64-bit multiply-shift).

    Args:
        out: 1-D contiguous integer or float NumPy array, overwritten.
        seed, offset: key and first counter (ints in [0, 2**64)).
        low, high: integer bounds, representable in ``out.dtype``.
        stream: ignored on the CPU.

    Example:
        >>> x = np.empty(4, np.int32)
        >>> random_integers(x, seed=1, offset=0, low=-3, high=3)
    """
    args = random_args.integer_args(low, high, out.dtype, "random_integers")
    _run(_INTEGERS, "random_integers", out, seed, offset, 2, args, np.int64)


@register("random_bernoulli", "cpu", BERNOULLI_DTYPES)
def random_bernoulli(out, seed, offset, p, stream=None):
    """Fill ``out`` with ones with probability ``p`` and zeros otherwise.

    Args:
        out: 1-D contiguous bool, uint8 or float NumPy array, overwritten.
        seed, offset: key and first counter (ints in [0, 2**64)).
        p: probability of a one, in [0, 1].
        stream: ignored on the CPU.

    Example:
        >>> x = np.empty(4, np.bool_)
        >>> random_bernoulli(x, seed=1, offset=0, p=0.5)
    """
    args = (random_args.bernoulli_args(p, "random_bernoulli"),)
    _run(_BERNOULLI, "random_bernoulli", out, seed, offset, 4, args, np.bool_)
