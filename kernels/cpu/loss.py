"""CPU negative log-likelihood over class-index targets: the loss and its gradient, one kernel
each.

Calling conventions (``lp`` of shape ``(N, C)``, ``target`` ``(N,)`` int64 or
uint8, ``weight`` ``(C,)`` of ``lp``'s dtype or None, any strides;
``reduction`` one of ``nll_math.NONE``/``SUM``/``MEAN``):

- ``nll_loss(lp, target, weight, out, total, ignore_index, eps, reduction, opname)``
  writes the per-row losses into ``out`` ``(N,)`` (NONE) or their sum, or the
  sum divided by the kept rows' summed target weights (MEAN; NaN when that is 0),
  into ``out`` (one element); ``total`` (one float64) gets the summed weights.
  Targets are checked before anything is written.
- ``nll_loss_backward(g, target, weight, total, out, ignore_index, eps, reduction)``
  writes every element of ``out`` ``(N, C)``: the gradient of the loss with
  respect to ``lp`` for incoming gradient ``g`` (``(N,)`` for NONE, one element
  otherwise; MEAN divides by ``total``).

Sums are kept in float64. Rows run in parallel above ``PARALLEL_MIN`` elements.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from ..common.index_layout import out_of_range
from ..common.nll_math import MEAN, NONE, grad_value, row_loss
from ..registry import register
from ._elementwise_build import _JIT, PARALLEL_MIN

_row_loss = njit(**_JIT)(row_loss)
_grad_value = njit(**_JIT)(grad_value)
_NO_WEIGHT = {np.dtype(d): np.empty(0, d) for d in (np.float32, np.float64)}


def gtensor_nll_loss(lp, target, weight, out, total, ignore, eps, reduction):  # noqa: ANN001, ANN201
    n, c = lp.shape
    for i in range(n):
        t = target[i]
        if t != ignore and (t < 0 or t >= c):
            return i
    weighted = weight.shape[0] != 0
    s = 0.0
    wsum = 0.0
    for i in prange(n):
        t = np.int64(target[i])
        v = 0.0
        wt = 0.0
        if t != ignore:
            wt = weight[t] if weighted else 1.0
            acc = 0.0
            if eps != 0.0:
                for k in range(c):
                    acc += (weight[k] if weighted else 1.0) * lp[i, k]
            v = _row_loss(lp[i, t], wt, acc, eps, c)
        if reduction == NONE:
            out[i] = v
        s += v
        wsum += wt
    if reduction != NONE:
        out[0] = s if reduction != MEAN else (s / wsum if wsum != 0.0 else np.nan)
    total[0] = wsum
    return -1


def gtensor_nll_loss_backward(g, target, weight, total, out, ignore, eps, reduction):  # noqa: ANN001, ANN201
    n, c = out.shape
    weighted = weight.shape[0] != 0
    scale = 1.0
    if reduction == MEAN and total[0] != 0.0:
        scale = 1.0 / total[0]
    for i in prange(n):
        t = np.int64(target[i])
        if t == ignore or t < 0 or t >= c:
            for k in range(c):
                out[i, k] = 0.0
            continue
        gi = (g[i] if reduction == NONE else g[0]) * scale
        wt = weight[t] if weighted else 1.0
        for k in range(c):
            out[i, k] = _grad_value(k, t, wt, weight[k] if weighted else 1.0, gi, eps, c)


_FORWARD = (njit(**_JIT)(gtensor_nll_loss), njit(parallel=True, **_JIT)(gtensor_nll_loss))
_BACKWARD = (njit(**_JIT)(gtensor_nll_loss_backward),
             njit(parallel=True, **_JIT)(gtensor_nll_loss_backward))
_SIGNATURES = [(f, t) for f in ("float32", "float64") for t in ("int64", "uint8")]


@register("nll_loss", "cpu", _SIGNATURES)
def nll_loss(lp: np.ndarray, target: np.ndarray, weight: np.ndarray | None, out: np.ndarray,
             total: np.ndarray, ignore_index: int, eps: float, reduction: int, opname: str,
             stream: Any = None) -> None:
    """The loss of log-probabilities ``lp`` ``(N, C)`` at class indices ``target`` ``(N,)``.

    Raises:
        IndexError: a target outside ``[0, C)`` other than ``ignore_index``, named ``opname``;
            nothing is written then.

    Example:
        >>> out, total = np.empty(1), np.empty(1)
        >>> nll_loss(np.log([[0.5, 0.5]]), np.array([1]), None, out, total, -100, 0.0, 2, "nll")
        >>> round(float(out[0]), 4), total.tolist()
        (0.6931, [1.0])
    """
    w = _NO_WEIGHT[lp.dtype] if weight is None else weight
    fn = _FORWARD[lp.size >= PARALLEL_MIN]
    bad = fn(lp, target, w, out if out.ndim else out.reshape(1), total, ignore_index, eps,
             reduction)
    if bad >= 0:
        raise out_of_range(opname, int(target[bad]), 1, lp.shape[1])


@register("nll_loss_backward", "cpu", _SIGNATURES)
def nll_loss_backward(g: np.ndarray, target: np.ndarray, weight: np.ndarray | None,
                      total: np.ndarray, out: np.ndarray, ignore_index: int, eps: float,
                      reduction: int, stream: Any = None) -> None:
    """The gradient ``(N, C)`` of :func:`nll_loss` for incoming gradient ``g``, into ``out``.

    Example:
        >>> out = np.empty((1, 2))
        >>> nll_loss_backward(np.ones(1), np.array([1]), None, np.ones(1), out, -100, 0.0, 2)
        >>> out.tolist()
        [[0.0, -1.0]]
    """
    w = _NO_WEIGHT[out.dtype] if weight is None else weight
    _BACKWARD[out.size >= PARALLEL_MIN](g if g.ndim else g.reshape(1), target, w, total, out,
                                        ignore_index, eps, reduction)
