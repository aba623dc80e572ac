"""Fused optimizer steps and GradScaler's check-and-unscale on the CPU (``numba.njit``, parallel
for large tensors)."""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from ..common.optim_math import adam_element
from ..registry import register

# The parallel loop vectorizes and the serial one does not (7 ms against 0.5 ms for 400k
# float32 on 2 threads), so all but small parameters take the parallel one.
PARALLEL_MIN = 1 << 12
# NumPy's error model: with Python's, every division checks for zero and nothing vectorizes.
_JIT = {"cache": True, "error_model": "numpy"}
_element = numba.njit(inline="always", **_JIT)(adam_element)


def gtensor_adam_step(p, g, m, v, vmax, lr, beta1, beta2, eps, wd, bias1,  # noqa: ANN001, ANN201
                      bias2_sqrt, decoupled, amsgrad, sign):
    for i in numba.prange(p.size):
        _element(i, p, g, m, v, vmax, lr, beta1, beta2, eps, wd, bias1, bias2_sqrt, decoupled,
                 amsgrad, sign)


_serial = numba.njit(**_JIT)(gtensor_adam_step)
_parallel = numba.njit(parallel=True, **_JIT)(gtensor_adam_step)


@register("adam_step", "cpu", ["float32", "float64"])
def gtensor_adam_step_cpu(p: np.ndarray, g: np.ndarray, m: np.ndarray, v: np.ndarray,
                          vmax: np.ndarray, *hyper: Any, stream: Any = None) -> None:
    """One Adam/AdamW update of the contiguous 1-D ``p``, ``m``, ``v`` (and ``vmax``) in place.

    Args:
        p, g, m, v, vmax: parameter, gradient, moments and running maximum (same dtype).
        *hyper: ``lr, beta1, beta2, eps, weight_decay, bias1, bias2_sqrt, decoupled,
            amsgrad, sign`` (``sign`` is -1 to maximize).
        stream: ignored on the CPU.

    Example:
        >>> p, g, m, v = np.ones(2), np.array([1.0, -1.0]), np.zeros(2), np.zeros(2)
        >>> gtensor_adam_step_cpu(p, g, m, v, v, 0.1, .9, .999, 1e-8, 0., .1, .001 ** .5, False,
        ...                       False, 1.0)
        >>> p.round(4).tolist()
        [0.9, 1.1]
    """
    fn = _parallel if p.size >= PARALLEL_MIN else _serial
    fn(p, g, m, v, vmax, *hyper)


def gtensor_amp_unscale(g, inv_scale, found):  # noqa: ANN001, ANN201
    scale = inv_scale[0]
    bad = 0
    for i in numba.prange(g.size):
        x = g[i]
        if not np.isfinite(x):
            bad += 1
        g[i] = x * scale
    if bad:
        found[0] = 1.0


_unscale_serial = numba.njit(**_JIT)(gtensor_amp_unscale)
_unscale_parallel = numba.njit(parallel=True, **_JIT)(gtensor_amp_unscale)


@register("amp_unscale", "cpu", ["float32", "float64"])
def gtensor_amp_unscale_cpu(g: np.ndarray, inv_scale: np.ndarray, found: np.ndarray,
                            stream: Any = None) -> None:
    """Multiply the contiguous 1-D gradient ``g`` by ``inv_scale[0]`` in place; set ``found[0]``
    to 1.0 if ``g`` held an inf or NaN before (GradScaler's check and unscale, one pass).

    Args:
        g: the gradient (float32 or float64).
        inv_scale: one float32 value, the inverse of the loss scale.
        found: one float32 flag, left as it is when every value is finite.
        stream: ignored on the CPU.

    Example:
        >>> g = np.array([2.0, np.inf], np.float32); found = np.zeros(1, np.float32)
        >>> gtensor_amp_unscale_cpu(g, np.array([0.5], np.float32), found)
        >>> g.tolist(), found.tolist()
        ([1.0, inf], [1.0])
    """
    fn = _unscale_parallel if g.size >= PARALLEL_MIN else _unscale_serial
    fn(g, inv_scale, found)
