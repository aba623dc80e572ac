"""Fused optimizer steps on CUDA (one grid-stride kernel per parameter)."""

from __future__ import annotations

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
        >>> gtensor_adam_step_cuda(p, g, m, v, v, *hyper, stream=s)  # doctest: +SKIP
    """
    on(gtensor_adam_step, p.size, stream)(p, g, m, v, vmax, *hyper)
