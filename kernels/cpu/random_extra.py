"""More Philox random kernels on the CPU: tensor-p Bernoulli, dropout masks, categorical draws.

Element ``i`` uses Philox counter ``offset + i`` (see ``common/philox.py``), so
these match the CUDA kernels value for value. Each kernel takes
``(out, seed, offset, ..., stream=None)``.
"""

from __future__ import annotations

import numba
import numpy as np

from ..common import philox, sampling
from ..registry import register
from .random import _dev as _philox
from .random import _serial_and_parallel

FLOAT_DTYPES = ("float16", "float32", "float64")
_ns = sampling.build(numba.njit, _philox)
_bernoulli_value = _philox.bernoulli_value
_exponential_key = _ns.exponential_key
_categorical = _ns.categorical


def gtensor_bernoulli_tensor_cpu(out, k0, k1, o0, o1, p):  # noqa: ANN001, ANN201
    for i in numba.prange(out.size):
        out[i] = _bernoulli_value(np.uint64(i), k0, k1, o0, o1, p[i])


def gtensor_dropout_mask_cpu(out, k0, k1, o0, o1, keep, scale):  # noqa: ANN001, ANN201
    for i in numba.prange(out.size):
        out[i] = scale if _bernoulli_value(np.uint64(i), k0, k1, o0, o1, keep) else 0.0


def gtensor_exponential_keys_cpu(out, k0, k1, o0, o1, w):  # noqa: ANN001, ANN201
    for i in numba.prange(out.size):
        out[i] = _exponential_key(np.uint64(i), k0, k1, o0, o1, w[i])


def gtensor_categorical_cpu(probs, out, k0, k1, o0, o1):  # noqa: ANN001, ANN201
    s = out.shape[1]
    for i in numba.prange(out.size):
        out[i // s, i % s] = _categorical(probs, i // s, np.uint64(i), k0, k1, o0, o1)


_BERNOULLI = _serial_and_parallel(gtensor_bernoulli_tensor_cpu)
_DROPOUT = _serial_and_parallel(gtensor_dropout_mask_cpu)
_KEYS = _serial_and_parallel(gtensor_exponential_keys_cpu)
_CATEGORICAL = _serial_and_parallel(gtensor_categorical_cpu)
PARALLEL_THRESHOLD = 32768


def _pick(kernels: tuple, n: int):  # noqa: ANN202
    return kernels[1] if n >= PARALLEL_THRESHOLD else kernels[0]


@register("random_bernoulli_tensor", "cpu", ["float64"])
def random_bernoulli_tensor(out: np.ndarray, seed: int, offset: int, p: np.ndarray,
                            stream: object = None) -> None:
    """``out[i] = u_i < p[i]`` for element ``i``'s 53-bit uniform.

    Args:
        out: 1-D contiguous bool array, overwritten.
        seed, offset: key and counter of element 0.
        p: 1-D contiguous float64 probabilities in [0, 1], ``out``'s length.
        stream: ignored on the CPU.

    Example:
        >>> out = np.empty(2, bool); random_bernoulli_tensor(out, 0, 0, np.array([0.0, 1.0]))
        >>> out.tolist()
        [False, True]
    """
    words = philox.stream_args(seed, offset, "random_bernoulli_tensor")
    if out.size:
        _pick(_BERNOULLI, out.size)(out, *words, p)


@register("random_dropout_mask", "cpu", FLOAT_DTYPES)
def random_dropout_mask(out: np.ndarray, seed: int, offset: int, keep: float, scale: float,
                        stream: object = None) -> None:
    """``out[i] = scale`` with probability ``keep``, else 0 (Bernoulli as in ``random_bernoulli``).

    Example:
        >>> out = np.empty(3); random_dropout_mask(out, 0, 0, 1.0, 2.0); out.tolist()
        [2.0, 2.0, 2.0]
    """
    words = philox.stream_args(seed, offset, "random_dropout_mask")
    if out.size == 0:
        return
    target = out if out.dtype != np.float16 else np.empty(out.size)
    _pick(_DROPOUT, out.size)(target, *words, float(keep), float(scale))
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
    words = philox.stream_args(seed, offset, "random_exponential_keys")
    if out.size:
        _pick(_KEYS, out.size)(out, *words, w)


@register("random_categorical", "cpu", ["float64"])
def random_categorical(probs: np.ndarray, out: np.ndarray, seed: int, offset: int,
                       stream: object = None) -> None:
    """Draw ``out[r, j]`` from row ``r`` of the non-negative weights ``probs`` (with replacement).

    Element ``(r, j)`` uses counter ``offset + r * out.shape[1] + j``; an
    all-zero row gives -1 (the frontend checks for it).

    Example:
        >>> out = np.empty((1, 2), np.int64)
        >>> random_categorical(np.array([[0.0, 3.0]]), out, 0, 0); out.tolist()
        [[1, 1]]
    """
    words = philox.stream_args(seed, offset, "random_categorical")
    if out.size:
        _pick(_CATEGORICAL, out.size)(probs, out, *words)
