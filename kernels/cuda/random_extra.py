"""More Philox random kernels on CUDA: tensor-p Bernoulli, dropout masks, categorical draws.

Same contracts as ``kernels/cpu/random_extra.py`` and the same values for one
seed (element ``i`` uses counter ``offset + i``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

from ..common import philox, sampling
from ..registry import register
from .random import _dev as _philox
from .random import launch_config

FLOAT_DTYPES = ("float16", "float32", "float64")
_ns = sampling.build(cuda.jit(device=True), _philox)
_bernoulli_value = _philox.bernoulli_value
_exponential_key = _ns.exponential_key
_categorical = _ns.categorical


@cuda.jit
def gtensor_bernoulli_tensor_cuda(out, k0, k1, o0, o1, p):  # noqa: ANN001
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[i] = _bernoulli_value(np.uint64(i), k0, k1, o0, o1, p[i])


@cuda.jit
def gtensor_dropout_mask_cuda(out, k0, k1, o0, o1, keep, scale):  # noqa: ANN001
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[i] = scale if _bernoulli_value(np.uint64(i), k0, k1, o0, o1, keep) else 0.0


@cuda.jit
def gtensor_exponential_keys_cuda(out, k0, k1, o0, o1, w):  # noqa: ANN001
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[i] = _exponential_key(np.uint64(i), k0, k1, o0, o1, w[i])


@cuda.jit
def gtensor_categorical_cuda(probs, out, k0, k1, o0, o1):  # noqa: ANN001
    s = out.shape[1]
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[i // s, i % s] = _categorical(probs, i // s, np.uint64(i), k0, k1, o0, o1)


def _go(kernel: Any, n: int, stream: Any) -> Any:
    blocks, threads = launch_config(n)
    return kernel[blocks, threads, 0 if stream is None else stream]


@register("random_bernoulli_tensor", "cuda", ["float64"])
def random_bernoulli_tensor(out: Any, seed: int, offset: int, p: Any, stream: Any = None) -> None:
    """``out[i] = u_i < p[i]`` for element ``i``'s 53-bit uniform (bool ``out``, float64 ``p``).

    Example:
        >>> random_bernoulli_tensor(d_out, 0, 0, d_p)  # doctest: +SKIP
    """
    words = philox.stream_args(seed, offset, "random_bernoulli_tensor")
    if out.size:
        _go(gtensor_bernoulli_tensor_cuda, out.size, stream)(out, *words, p)


@register("random_dropout_mask", "cuda", FLOAT_DTYPES)
def random_dropout_mask(out: Any, seed: int, offset: int, keep: float, scale: float,
                        stream: Any = None) -> None:
    """``out[i] = scale`` with probability ``keep``, else 0.

    Example:
        >>> random_dropout_mask(d_out, 0, 0, 0.9, 1 / 0.9)  # doctest: +SKIP
    """
    words = philox.stream_args(seed, offset, "random_dropout_mask")
    if out.size:
        _go(gtensor_dropout_mask_cuda, out.size, stream)(out, *words, float(keep), float(scale))


@register("random_exponential_keys", "cuda", ["float64"])
def random_exponential_keys(out: Any, seed: int, offset: int, w: Any, stream: Any = None) -> None:
    """``out[i] = E_i / w[i]`` with ``E_i`` standard exponential (``inf`` where ``w[i] <= 0``).

    Example:
        >>> random_exponential_keys(d_out, 0, 0, d_w)  # doctest: +SKIP
    """
    words = philox.stream_args(seed, offset, "random_exponential_keys")
    if out.size:
        _go(gtensor_exponential_keys_cuda, out.size, stream)(out, *words, w)


@register("random_categorical", "cuda", ["float64"])
def random_categorical(probs: Any, out: Any, seed: int, offset: int, stream: Any = None) -> None:
    """Draw ``out[r, j]`` from row ``r`` of the non-negative weights ``probs`` (with replacement).

    Example:
        >>> random_categorical(d_probs, d_out, 0, 0)  # doctest: +SKIP
    """
    words = philox.stream_args(seed, offset, "random_categorical")
    if out.size:
        _go(gtensor_categorical_cuda, out.size, stream)(probs, out, *words)
