"""Fused optimizer steps on the CPU (``numba.njit``, parallel for large parameters)."""

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
        >>> gtensor_adam_step_cpu(p, g, m, v, v, 1e-3, .9, .999, 1e-8, 0., .1, .03, False,
        ...                       False, 1.0)  # doctest: +SKIP
    """
    fn = _parallel if p.size >= PARALLEL_MIN else _serial
    fn(p, g, m, v, vmax, *hyper)
