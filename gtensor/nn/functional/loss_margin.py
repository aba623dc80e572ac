"""Margin, embedding and likelihood losses PyTorch has beside the common ones.

Each is composed of gtensor ops (its gradient comes from autograd) and takes
``reduction`` in ``"none"``, ``"mean"``, ``"sum"``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ...errors import DTypeError, ShapeError, check
from ...graph.autocast_mode import autocast_inputs
from ...ops.elementwise import minimum
from ...ops.indexing.along_dim import gather_indices
from ...ops.layout.copies import one_hot
from ...ops.ternary import where
from ...tensor import Tensor
from .activation import logsigmoid, softplus
from .distance import pairwise_distance
from .loss import _check_same_shape, _reduce


def _no_grad_clamp_min(t: Tensor, eps: float) -> Tensor:
    """``t`` clamped below at ``eps`` with the gradient passed through unchanged."""
    return t + (t.clamp(min=eps) - t).detach()


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False,
                     eps: float = 1e-8, reduction: str = "mean") -> Tensor:
    """Negative log likelihood of ``target`` under a Poisson of rate ``input``.

    Args:
        input: the log-rate (``log_input=True``: loss ``exp(x) - t * x``) or the rate
            (loss ``x - t * log(x + eps)``).
        target: counts, the input's shape.
        log_input: whether ``input`` is a log-rate.
        full: add Stirling's term ``t * log(t) - t + 0.5 * log(2 * pi * t)`` where ``t > 1``.
        eps: keeps the log finite when ``log_input=False``.
        reduction: "none", "mean" or "sum".

    Example:
        >>> F.poisson_nll_loss(gt.zeros(3), gt.ones(3)).item()
        1.0
    """
    op = "poisson_nll_loss"
    input, target = autocast_inputs(op, input, target)
    _check_same_shape(input, target, op)
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * (input + eps).log()
    if full:
        big = target > 1
        safe = where(big, target, 1.0)
        loss = loss + where(big, safe * safe.log() - safe + 0.5 * (2 * math.pi * safe).log(),
                            0.0)
    return _reduce(loss, reduction, op)


def gaussian_nll_loss(input: Tensor, target: Tensor, var: Tensor | float, full: bool = False,
                      eps: float = 1e-6, reduction: str = "mean") -> Tensor:
    """Negative log likelihood of ``target`` under a Gaussian of mean ``input``, variance ``var``.

    ``loss = 0.5 * (log(max(var, eps)) + (input - target)**2 / max(var, eps))`` (plus
    ``0.5 * log(2 * pi)`` with ``full``); the clamp passes the gradient unchanged.

    Args:
        input: the means, ``(N, *)`` or ``(*)``.
        target: samples, the input's shape.
        var: variances: the input's shape, that shape with the last dim 1 or dropped
            (one variance per sample), or a float.
        full: add the constant term.
        eps: lower clamp of ``var``.
        reduction: "none", "mean" or "sum".

    Raises:
        ShapeError: ``var`` of another shape.
        ValueError: a negative variance, or a bad reduction.

    Example:
        >>> F.gaussian_nll_loss(gt.zeros(2, 3), gt.zeros(2, 3), gt.ones(2, 3)).item()
        0.0
    """
    op = "gaussian_nll_loss"
    if not isinstance(var, Tensor):
        var = input.new_full(tuple(input.shape), float(var))
    input, target, var = autocast_inputs(op, input, target, var)
    _check_same_shape(input, target, op)
    if tuple(var.shape) != tuple(input.shape):
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif not (tuple(input.shape[:-1]) == tuple(var.shape[:-1]) and var.shape[-1] == 1):
            raise ShapeError(f"[{op}] var of shape {tuple(var.shape)} does not fit input of "
                             f"shape {tuple(input.shape)}")
    check(reduction in ("none", "mean", "sum"), op, lambda: f"{reduction!r} is not a valid "
          "value for reduction", ValueError)
    check(not bool((var < 0).any()), op, "var has negative entry/entries", ValueError)
    v = _no_grad_clamp_min(var, eps)
    d = input - target
    loss = 0.5 * (v.log() + d * d / v)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction, op)


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0,
                         reduction: str = "mean") -> Tensor:
    """``x`` where ``target`` is 1, ``max(0, margin - x)`` where it is -1.

    Example:
        >>> F.hinge_embedding_loss(gt.tensor([0.3, 2.0]), gt.tensor([1.0, -1.0])).item()
        0.15000000596046448
    """
    op = "hinge_embedding_loss"
    input, target = autocast_inputs(op, input, target)
    neg = where(target != 1, (margin - input).clamp(min=0.0), 0.0)
    pos = where(target != -1, input, 0.0)
    return _reduce(neg + pos, reduction, op)


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                          reduction: str = "mean") -> Tensor:
    """``1 - cos(x1, x2)`` where ``target`` is 1, ``max(0, cos(x1, x2) - margin)`` where -1.

    Args:
        input1: ``(N, D)`` or ``(D,)``.
        input2: the same shape.
        target: ``(N,)`` or ``()`` of 1 and -1.
        margin: in ``[-1, 1]``.
        reduction: "none", "mean" or "sum".

    Example:
        >>> x = gt.tensor([[1.0, 0.0]])
        >>> F.cosine_embedding_loss(x, x, gt.tensor([1.0])).item()
        0.0
    """
    op = "cosine_embedding_loss"
    input1, input2, target = autocast_inputs(op, input1, input2, target)
    check(input1.ndim in (1, 2) and tuple(input1.shape) == tuple(input2.shape), op,
          lambda: f"expected two 1-D or 2-D inputs of one shape, got {tuple(input1.shape)} "
          f"and {tuple(input2.shape)}", ShapeError)
    check(target.ndim == input1.ndim - 1, op, lambda: f"{input1.ndim}D target tensor "
          f"expects {input1.ndim - 1}D target, got {target.ndim}D", ShapeError)
    eps = 1e-12
    dot = (input1 * input2).sum(-1)
    mag = ((input1 * input1).sum(-1) + eps) * ((input2 * input2).sum(-1) + eps)
    cos = dot / mag.sqrt()
    loss = where(target == 1, 1 - cos, 0.0) + where(target == -1, (cos - margin).clamp(min=0.0),
                                                    0.0)
    return _reduce(loss, reduction, op)


def soft_margin_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """Two-class logistic loss ``log(1 + exp(-target * input))``.

    Example:
        >>> round(F.soft_margin_loss(gt.zeros(2), gt.ones(2)).item(), 4)
        0.6931
    """
    op = "soft_margin_loss"
    input, target = autocast_inputs(op, input, target)
    _check_same_shape(input, target, op)
    return _reduce(softplus(-target * input), reduction, op)


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                reduction: str = "mean") -> Tensor:
    """Per-sample mean over classes of the binary logistic loss of ``input`` against 0/1 labels.

    Args:
        input: ``(N, C)`` logits.
        target: ``(N, C)`` of 0 and 1.
        weight: per-class weights ``(C,)`` (broadcast).
        reduction: "none" (one value per sample), "mean" or "sum".

    Example:
        >>> round(F.multilabel_soft_margin_loss(gt.zeros(1, 2), gt.ones(1, 2)).item(), 4)
        0.6931
    """
    op = "multilabel_soft_margin_loss"
    input, target, weight = autocast_inputs(op, input, target, weight)
    _check_same_shape(input, target, op)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    return _reduce(loss.sum(-1) / input.shape[-1], reduction, op)


def _class_targets(input: Tensor, target: Tensor, op: str) -> tuple[Tensor, Tensor, bool]:
    """``(N, C)`` input and its int64 targets, and whether the input was 1-D."""
    check(input.ndim in (1, 2), op, lambda: f"expected a 1-D or 2-D input, got shape "
          f"{tuple(input.shape)}", ShapeError)
    check(target.dtype.name == "int64", op, lambda: "expected int64 class-index targets, got "
          f"{target.dtype.name}", DTypeError)
    flat = input.ndim == 1
    return (input.unsqueeze(0) if flat else input), target, flat


def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0,
                      weight: Tensor | None = None, reduction: str = "mean") -> Tensor:
    """Multi-class hinge: ``sum_{i != y} max(0, margin - x[y] + x[i])**p / C`` per sample.

    Args:
        input: ``(N, C)`` or ``(C,)`` scores.
        target: int64 class indices ``(N,)`` or ``()``.
        p: 1 or 2.
        margin: the hinge's margin.
        weight: per-class weights ``(C,)``; each sample's terms are scaled by ``weight[y]``.
        reduction: "none", "mean" or "sum".

    Example:
        >>> x = gt.tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> round(F.multi_margin_loss(x, gt.tensor([3])).item(), 4)
        0.325
    """
    op = "multi_margin_loss"
    input, weight = autocast_inputs(op, input, weight)
    check(p in (1, 2), op, "only p == 1 and p == 2 supported", ValueError)
    x, target, flat = _class_targets(input, target, op)
    n, c = x.shape
    t = target.reshape(-1)
    check(t.shape[0] == n, op, lambda: f"expected {n} targets, got shape "
          f"{tuple(target.shape)}", ShapeError)
    check(weight is None or tuple(weight.shape) == (c,), op, lambda: f"expected a weight of "
          f"shape ({c},)", ShapeError)
    x_y = gather_indices(x, 1, t.unsqueeze(1), op, strict=True)
    z = (margin - x_y + x).clamp(min=0.0)
    if p == 2:
        z = z * z
    if weight is not None:
        z = z * gather_indices(weight, 0, t, op, strict=True).unsqueeze(1)
    other = 1 - one_hot(t, c).to(z.dtype)
    loss = (z * other).sum(1) / c
    return _reduce(loss.squeeze(0) if flat else loss, reduction, op)


def multilabel_margin_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """Multi-label hinge: ``sum_{j, i} max(0, 1 - (x[y_j] - x[i])) / C`` per sample.

    ``j`` runs over the target classes (``target``'s leading entries up to the first -1)
    and ``i`` over the classes that are not targets.

    Args:
        input: ``(N, C)`` or ``(C,)`` scores.
        target: int64, the input's shape, class indices padded with -1.
        reduction: "none", "mean" or "sum".

    Example:
        >>> x = gt.tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> round(F.multilabel_margin_loss(x, gt.tensor([[3, 0, -1, 1]])).item(), 4)
        0.85
    """
    op = "multilabel_margin_loss"
    (input,) = autocast_inputs(op, input)
    x, target, flat = _class_targets(input, target, op)
    check(tuple(target.shape) == tuple(input.shape), op, lambda: "expected target of shape "
          f"{tuple(input.shape)}, got {tuple(target.shape)}", ShapeError)
    n, c = x.shape
    t = target.reshape(n, c)
    valid = (t >= 0).to(x.dtype).cumprod(1)
    safe = where(t >= 0, t, 0)
    is_target = (one_hot(safe, c).to(x.dtype) * valid.unsqueeze(2)).sum(1).clamp(max=1.0)
    x_y = gather_indices(x, 1, safe, op, strict=True)
    z = (1 - x_y.unsqueeze(2) + x.unsqueeze(1)).clamp(min=0.0)
    z = z * valid.unsqueeze(2) * (1 - is_target).unsqueeze(1)
    loss = z.sum((1, 2)) / c
    return _reduce(loss.squeeze(0) if flat else loss, reduction, op)


def triplet_margin_with_distance_loss(
        anchor: Tensor, positive: Tensor, negative: Tensor, *,
        distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
        margin: float = 1.0, swap: bool = False, reduction: str = "mean") -> Tensor:
    """``max(d(a, p) - d(a, n) + margin, 0)`` for any distance ``d`` (default
    :func:`pairwise_distance`).

    Example:
        >>> a = gt.zeros(2, 3)
        >>> F.triplet_margin_with_distance_loss(a, a, a + 1.0, margin=0.5).item()
        0.0
    """
    op = "triplet_margin_with_distance_loss"
    check(margin > 0, op, lambda: f"margin must be greater than 0, got {margin}", ValueError)
    check(anchor.ndim == positive.ndim == negative.ndim, op, lambda: "the anchor, positive, "
          "and negative tensors are expected to have the same number of dimensions, but got: "
          f"anchor {anchor.ndim}D, positive {positive.ndim}D, and negative {negative.ndim}D "
          "inputs", ShapeError)
    dist = pairwise_distance if distance_function is None else distance_function
    d_pos = dist(anchor, positive)
    d_neg = dist(anchor, negative)
    if swap:
        d_neg = minimum(d_neg, dist(positive, negative))
    return _reduce((margin + d_pos - d_neg).clamp(min=0.0), reduction, op)
