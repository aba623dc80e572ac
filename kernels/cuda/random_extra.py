"""More Philox random kernels on CUDA: tensor-p Bernoulli, dropout masks, categorical draws.

Same contracts as ``kernels/cpu/random_extra.py`` and the same values for one
seed; the values and their layout come from ``common/sampling.py``. The grid
and the store pattern are those of ``random.py``: a grid-stride loop over
Philox counters, each thread storing its counter's four (Bernoulli, dropout)
or two (exponential keys, categoricals) values 32 apart, so a warp's stores
are coalesced.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

from ..common import random_args, sampling
from ..registry import register
from .random import _dev as _philox
from .random import run_counters

FLOAT_DTYPES = ("float16", "float32", "float64")
_ns = sampling.build(cuda.jit(device=True), _philox)
_fill_bernoulli = _ns.fill_bernoulli_tensor
_fill_dropout = _ns.fill_dropout
_fill_keys = _ns.fill_exponential_keys
_fill_categorical = _ns.fill_categorical


@cuda.jit
def gtensor_bernoulli_tensor_cuda(out, p, m, k0, k1, o0, o1):  # noqa: ANN001
    for j in range(cuda.grid(1), m, cuda.gridsize(1)):
        _fill_bernoulli(out, np.uint64(j), k0, k1, o0, o1, p)


@cuda.jit
def gtensor_dropout_mask_cuda(out, m, k0, k1, o0, o1, keep, scale):  # noqa: ANN001
    for j in range(cuda.grid(1), m, cuda.gridsize(1)):
        _fill_dropout(out, np.uint64(j), k0, k1, o0, o1, keep, scale)


@cuda.jit
def gtensor_exponential_keys_cuda(out, w, m, k0, k1, o0, o1):  # noqa: ANN001
    for j in range(cuda.grid(1), m, cuda.gridsize(1)):
        _fill_keys(out, np.uint64(j), k0, k1, o0, o1, w)


@cuda.jit
def gtensor_categorical_cuda(probs, out, m, k0, k1, o0, o1):  # noqa: ANN001
    for j in range(cuda.grid(1), m, cuda.gridsize(1)):
        _fill_categorical(probs, out, np.uint64(j), k0, k1, o0, o1)


@register("random_bernoulli_tensor", "cuda", ["float64"])
def random_bernoulli_tensor(out: Any, seed: int, offset: int, p: Any, stream: Any = None) -> None:
    """``out[i] = u_i < p[i]`` for value ``i``'s 32-bit uniform (bool ``out``, float64 ``p``).

    Example:
        >>> out = np.empty(2, bool); random_bernoulli_tensor(out, 0, 0, np.array([0.0, 1.0]))
        >>> out.tolist()
        [False, True]
    """
    words = random_args.stream_args(seed, offset, "random_bernoulli_tensor")
    if out.size:
        run_counters(gtensor_bernoulli_tensor_cuda, random_args.counters(out.size, 4), stream,
                     (out, p), *words)


@register("random_dropout_mask", "cuda", FLOAT_DTYPES)
def random_dropout_mask(out: Any, seed: int, offset: int, keep: float, scale: float,
                        stream: Any = None) -> None:
    """``out[i] = scale`` with probability ``keep``, else 0.

    Example:
        >>> out = np.empty(3); random_dropout_mask(out, 0, 0, 1.0, 2.0); out.tolist()
        [2.0, 2.0, 2.0]
    """
    words = random_args.stream_args(seed, offset, "random_dropout_mask")
    if out.size:
        run_counters(gtensor_dropout_mask_cuda, random_args.counters(out.size, 4), stream,
                     (out,), *words, float(keep), float(scale))


@register("random_exponential_keys", "cuda", ["float64"])
def random_exponential_keys(out: Any, seed: int, offset: int, w: Any, stream: Any = None) -> None:
    """``out[i] = E_i / w[i]`` with ``E_i`` standard exponential (``inf`` where ``w[i] <= 0``).

    Example:
        >>> out = np.empty(2); random_exponential_keys(out, 0, 0, np.array([1.0, 0.0]))
        >>> bool(np.isinf(out[1]))
        True
    """
    words = random_args.stream_args(seed, offset, "random_exponential_keys")
    if out.size:
        run_counters(gtensor_exponential_keys_cuda, random_args.counters(out.size, 2), stream,
                     (out, w), *words)


@register("random_categorical", "cuda", ["float64"])
def random_categorical(probs: Any, out: Any, seed: int, offset: int, stream: Any = None) -> None:
    """Draw ``out[r, j]`` from row ``r`` of the non-negative weights ``probs`` (with replacement).

    Example:
        >>> out = np.empty((1, 2), np.int64)
        >>> random_categorical(np.array([[0.0, 3.0]]), out, 0, 0); out.tolist()
        [[1, 1]]
    """
    words = random_args.stream_args(seed, offset, "random_categorical")
    if out.size:
        run_counters(gtensor_categorical_cuda, random_args.counters(out.size, 2), stream,
                     (probs, out), *words)
