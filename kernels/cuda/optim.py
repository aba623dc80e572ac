"""Fused optimizer steps and GradScaler's check-and-unscale on CUDA (grid-stride kernels)."""

from __future__ import annotations

import math
from typing import Any

from numba import cuda

from ..common.optim_math import adam_element
from ..registry import register
from ._launch import on

_element = cuda.jit(device=True)(adam_element)


@cuda.jit
def gtensor_adam_step(p, g, m, v, vmax, lr, beta1, beta2, eps, wd, bias1,  # noqa: ANN001
                      bias2_sqrt, decoupled, amsgrad, sign):
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < p.size:
        _element(i, p, g, m, v, vmax, lr, beta1, beta2, eps, wd, bias1, bias2_sqrt, decoupled,
                 amsgrad, sign)
        i += step


@register("adam_step", "cuda", ["float32", "float64"])
def gtensor_adam_step_cuda(p: Any, g: Any, m: Any, v: Any, vmax: Any, *hyper: Any,
                           stream: Any = None) -> None:
    """One Adam/AdamW update in place (see the CPU kernel for the arguments).

    Example:
        >>> p, g, m, v = np.ones(2), np.array([1.0, -1.0]), np.zeros(2), np.zeros(2)
        >>> hyper = (0.1, .9, .999, 1e-8, 0., .1, .001 ** .5, False, False, 1.0)
        >>> gtensor_adam_step_cuda(p, g, m, v, np.zeros(2), *hyper); p.round(4).tolist()
        [0.9, 1.1]
    """
    on(gtensor_adam_step, p.size, stream)(p, g, m, v, vmax, *hyper)


@cuda.jit
def gtensor_amp_unscale(g, inv_scale, found):  # noqa: ANN001
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    scale = inv_scale[0]
    while i < g.size:
        x = g[i]
        if math.isinf(x) or math.isnan(x):
            found[0] = 1.0  # every writer stores the same value: no atomic needed
        g[i] = x * scale
        i += step


@register("amp_unscale", "cuda", ["float32", "float64"])
def gtensor_amp_unscale_cuda(g: Any, inv_scale: Any, found: Any, stream: Any = None) -> None:
    """GradScaler's check and unscale of one gradient in one pass (see the CPU kernel).

    Example:
        >>> g = np.array([2.0, np.inf], np.float32); found = np.zeros(1, np.float32)
        >>> gtensor_amp_unscale_cuda(g, np.array([0.5], np.float32), found)
        >>> g.tolist(), found.tolist()
        ([1.0, inf], [1.0])
    """
    on(gtensor_amp_unscale, g.size, stream)(g, inv_scale, found)
