"""More Philox random kernels on the CPU: tensor-p Bernoulli, dropout masks, categorical draws.

Loops over Philox counters; the values and their layout come from
``common/sampling.py`` over ``common/philox.py``, so these match the CUDA
kernels value for value. Each kernel takes ``(out, seed, offset, ...,
stream=None)``.
"""

from __future__ import annotations

import numba
import numpy as np

from ..common import philox, random_args, sampling
from ..registry import register
from .random import _dev as _philox
from .random import _serial_and_parallel

FLOAT_DTYPES = ("float16", "float32", "float64")
_ns = sampling.build(numba.njit, _philox)
_fill_bernoulli = _ns.fill_bernoulli_tensor
_fill_dropout = _ns.fill_dropout
_fill_keys = _ns.fill_exponential_keys
_fill_categorical = _ns.fill_categorical


def gtensor_bernoulli_tensor_cpu(out, m, k0, k1, o0, o1, p):  # noqa: ANN001, ANN201
    for j in numba.prange(m):
        _fill_bernoulli(out, np.uint64(j), k0, k1, o0, o1, p)


def gtensor_dropout_mask_cpu(out, m, k0, k1, o0, o1, keep, scale):  # noqa: ANN001, ANN201
    for j in numba.prange(m):
        _fill_dropout(out, np.uint64(j), k0, k1, o0, o1, keep, scale)


def gtensor_exponential_keys_cpu(out, m, k0, k1, o0, o1, w):  # noqa: ANN001, ANN201
    for j in numba.prange(m):
        _fill_keys(out, np.uint64(j), k0, k1, o0, o1, w)


def gtensor_categorical_cpu(probs, out, m, k0, k1, o0, o1):  # noqa: ANN001, ANN201
    for j in numba.prange(m):
        _fill_categorical(probs, out, np.uint64(j), k0, k1, o0, o1)


_SOURCES = (philox, sampling)
_BERNOULLI = _serial_and_parallel(gtensor_bernoulli_tensor_cpu, _SOURCES)
_DROPOUT = _serial_and_parallel(gtensor_dropout_mask_cpu, _SOURCES)
_KEYS = _serial_and_parallel(gtensor_exponential_keys_cpu, _SOURCES)
_CATEGORICAL = _serial_and_parallel(gtensor_categorical_cpu, _SOURCES)
PARALLEL_THRESHOLD = 32768


def _pick(kernels: tuple, n: int):  # noqa: ANN202
    return kernels[1] if n >= PARALLEL_THRESHOLD else kernels[0]


@register("random_bernoulli_tensor", "cpu", ["float64"])
def random_bernoulli_tensor(out: np.ndarray, seed: int, offset: int, p: np.ndarray,
                            stream: object = None) -> None:
    """``out[i] = u_i < p[i]`` for value ``i``'s 32-bit uniform (four per counter).

    Args:
        out: 1-D contiguous bool array, overwritten.
        seed, offset: key and first counter.
        p: 1-D contiguous float64 probabilities in [0, 1], ``out``'s length.
        stream: ignored on the CPU.

    Example:
        >>> out = np.empty(2, bool); random_bernoulli_tensor(out, 0, 0, np.array([0.0, 1.0]))
        >>> out.tolist()
        [False, True]
    """
    words = random_args.stream_args(seed, offset, "random_bernoulli_tensor")
    if out.size:
        _pick(_BERNOULLI, out.size)(out, random_args.counters(out.size, 4), *words, p)


@register("random_dropout_mask", "cpu", FLOAT_DTYPES)
def random_dropout_mask(out: np.ndarray, seed: int, offset: int, keep: float, scale: float,
                        stream: object = None) -> None:
    """``out[i] = scale`` with probability ``keep``, else 0 (Bernoulli as in ``random_bernoulli``).

    Example:
        >>> out = np.empty(3); random_dropout_mask(out, 0, 0, 1.0, 2.0); out.tolist()
        [2.0, 2.0, 2.0]
    """
    words = random_args.stream_args(seed, offset, "random_dropout_mask")
    if out.size == 0:
        return
    target = out if out.dtype != np.float16 else np.empty(out.size)
    _pick(_DROPOUT, out.size)(target, random_args.counters(out.size, 4), *words, float(keep),
                              float(scale))
    if target is not out:
        out[...] = target


@register("random_exponential_keys", "cpu", ["float64"])
def random_exponential_keys(out: np.ndarray, seed: int, offset: int, w: np.ndarray,
                            stream: object = None) -> None:
    """``out[i] = E_i / w[i]`` with ``E_i`` standard exponential (``inf`` where ``w[i] <= 0``).

    Example:
        >>> out = np.empty(2); random_exponential_keys(out, 0, 0, np.array([1.0, 0.0]))
        >>> bool(np.isinf(out[1]))
        True
    """
    words = random_args.stream_args(seed, offset, "random_exponential_keys")
    if out.size:
        _pick(_KEYS, out.size)(out, random_args.counters(out.size, 2), *words, w)


@register("random_categorical", "cpu", ["float64"])
def random_categorical(probs: np.ndarray, out: np.ndarray, seed: int, offset: int,
                       stream: object = None) -> None:
    """Draw ``out[r, j]`` from row ``r`` of the non-negative weights ``probs`` (with replacement).

    Element ``(r, j)`` is value ``r * out.shape[1] + j`` of the draw (two per
    counter, laid out as ``common/philox.py`` says); an all-zero row gives -1
    (the frontend checks for it).

    Example:
        >>> out = np.empty((1, 2), np.int64)
        >>> random_categorical(np.array([[0.0, 3.0]]), out, 0, 0); out.tolist()
        [[1, 1]]
    """
    words = random_args.stream_args(seed, offset, "random_categorical")
    if out.size:
        _pick(_CATEGORICAL, out.size)(probs, out, random_args.counters(out.size, 2), *words)
