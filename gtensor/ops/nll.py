"""Negative log-likelihood of class-index targets over rows of log-probabilities: one kernel
forward, one backward, one graph node each.

``F.nll_loss`` and ``F.cross_entropy`` (after ``log_softmax``) move the
classes last and call :func:`nll_rows`. The loss is linear in the
log-probabilities, so its gradient does not depend on them: the backward
kernel writes ``-(g / total) * ((1 - e) * w[t] * [k == t] + (e / C) * w[k])``
per element (0 on ignored rows), and that gradient, linear in ``g``, has as
its own VJP the forward applied to the incoming gradient, so double backward
goes through the same kernels. As in PyTorch, the class weights get no
gradient.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from ..dtypes import float64
from ..graph.node import Node, needs_grad, record
from ..tensor_base import TensorBase
from . import tracing
from .dispatch import launch

if TYPE_CHECKING:
    from ..tensor import Tensor

REDUCTIONS = {"none": 0, "sum": 1, "mean": 2}
"""The reductions, as the ``nll_loss`` kernels number them."""


def _forward(lp: Tensor, target: Tensor, *weight: Tensor, ignore_index: int, eps: float,
             reduction: int, op: str) -> tuple[Tensor, Tensor]:
    """The kernel call: ``(loss, total weight)`` into new tensors."""
    dev = lp.device
    out = TensorBase.empty((lp.shape[0],) if reduction == 0 else (), lp.dtype, dev)
    total = TensorBase.empty((1,), float64, dev)
    launch("nll_loss", dev, (lp.dtype, target.dtype), lp._native(), target._native(),
           weight[0]._native() if weight else None, out._native(), total._native(),
           ignore_index, eps, reduction, op)
    return out, total


def _backward(g: Tensor, target: Tensor, total: Tensor, *weight: Tensor,
              shape: tuple[int, int], ignore_index: int, eps: float, reduction: int) -> Tensor:
    """The kernel call: the gradient ``(N, C)`` for incoming ``g``, into a new tensor."""
    out = TensorBase.empty(shape, g.dtype, g.device)
    launch("nll_loss_backward", g.device, (g.dtype, target.dtype), g._native(),
           target._native(), weight[0]._native() if weight else None, total._native(),
           out._native(), ignore_index, eps, reduction)
    return out


def _nll_vjp(ctx: Node, g: Tensor) -> Tensor:
    target, total, weight = ctx.saved_tensors
    return nll_rows_grad(g, target, weight, total, ctx.shape, ctx.ignore_index,  # type: ignore
                         ctx.eps, ctx.reduction, ctx.op)  # type: ignore[attr-defined]


def _grad_vjp(ctx: Node, v: Tensor) -> Tensor:
    target, weight = ctx.saved_tensors
    return nll_rows(v, target, weight, ctx.ignore_index, ctx.eps, ctx.reduction,  # type: ignore
                    ctx.op)  # type: ignore[attr-defined]


def nll_rows(lp: Tensor, target: Tensor, weight: Tensor | None, ignore_index: int,
             label_smoothing: float, reduction: str, op: str) -> Tensor:
    """``-(1 - e) * w[t_i] * lp[i, t_i] - (e / C) * sum_k w[k] * lp[i, k]`` per row, reduced.

    Rows whose target is ``ignore_index`` count 0 (and nothing toward the
    mean's divisor, the kept rows' summed target weights; NaN when that is 0).

    Args:
        lp: log-probabilities ``(N, C)``, float32 or float64, any strides.
        target: ``(N,)`` int64 or uint8 class indices.
        weight: ``(C,)`` class weights of ``lp``'s dtype, or None.
        ignore_index: the target value to skip.
        label_smoothing: ``e`` in ``[0, 1]``.
        reduction: ``"none"`` (``(N,)`` losses), ``"sum"`` or ``"mean"`` (0-d).
        op: the op named in errors.

    Returns:
        The loss, differentiable in ``lp`` (twice and more).

    Raises:
        IndexError: a target outside ``[0, C)`` other than ``ignore_index``; on CUDA at the
            next synchronizing call.

    Example:
        >>> lp = gt.tensor([[0.5, 0.5], [0.9, 0.1]]).log()
        >>> round(nll_rows(lp, gt.tensor([0, 1]), None, -100, 0.0, "mean", "nll").item(), 4)
        1.4979
    """
    mode = REDUCTIONS[reduction]
    extra = () if weight is None else (weight,)
    run = functools.partial(_forward, ignore_index=ignore_index, eps=float(label_smoothing),
                            reduction=mode, op=op)
    out, total = tracing.library_calls(
        op, run, (lp, target, *extra), [((lp.shape[0],) if mode == 0 else (), lp.dtype),
                                        ((1,), float64)])
    if needs_grad(lp):
        record("nll_loss", out, (lp,), _nll_vjp, save=(target, total, weight),
               shape=tuple(lp.shape), ignore_index=ignore_index, eps=float(label_smoothing),
               reduction=reduction, op=op)
    return out


def nll_rows_grad(g: Tensor, target: Tensor, weight: Tensor | None, total: Tensor,
                  shape: tuple[int, int], ignore_index: int, label_smoothing: float,
                  reduction: str, op: str) -> Tensor:
    """The gradient of :func:`nll_rows` with respect to ``lp`` (of ``shape``) for incoming
    ``g``; ``total`` is the forward's summed target weights (``(1,)`` float64).

    Differentiable in ``g``.

    Example:
        >>> g = nll_rows_grad(gt.ones(()), gt.tensor([1]), None, gt.ones(1, dtype=gt.float64),
        ...                   (1, 2), -100, 0.0, "mean", "nll")
        >>> g.tolist()
        [[0.0, -1.0]]
    """
    extra = () if weight is None else (weight,)
    run = functools.partial(_backward, shape=shape, ignore_index=ignore_index,
                            eps=float(label_smoothing), reduction=REDUCTIONS[reduction])
    out = tracing.library_call("nll_loss_backward", run, (g, target, total, *extra), shape,
                               g.dtype)
    if needs_grad(g):
        record("nll_loss_backward", out, (g,), _grad_vjp, save=(target, weight),
               ignore_index=ignore_index, eps=float(label_smoothing), reduction=reduction, op=op)
    return out
