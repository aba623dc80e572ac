"""Loss functions, composed of gtensor ops (so their gradients come from autograd); the
class-index NLL of ``nll_loss`` and ``cross_entropy`` is one fused op.

Every loss takes ``reduction`` in ``"none"``, ``"mean"``, ``"sum"`` (and
``"batchmean"`` for :func:`kl_div`).
"""

from __future__ import annotations

import math
import warnings

from ...errors import DTypeError, ShapeError, check, check_same_device
from ...graph.autocast_mode import autocast_inputs
from ...graph.grad_mode import no_grad
from ...graph.node import Node, record
from ...ops.elementwise import minimum
from ...ops.indexing.along_dim import gather_indices
from ...ops.nll import nll_rows
from ...ops.ternary import where
from ...shape_rules import broadcast_shapes
from ...tensor import Tensor
from .activation import log_softmax
from .distance import pairwise_distance

_REDUCTIONS = ("none", "mean", "sum")


def _reduce(loss: Tensor, reduction: str, op: str) -> Tensor:
    check(reduction in _REDUCTIONS, op, lambda: f"reduction must be one of {_REDUCTIONS}, got "
          f"{reduction!r}", ValueError)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _check_same_shape(input: Tensor, target: Tensor, op: str) -> None:
    check(tuple(input.shape) == tuple(target.shape), op, lambda: f"target shape {target.shape} "
          f"differs from input shape {input.shape}", ShapeError)


def _check_broadcast(input: Tensor, target: Tensor, op: str) -> None:
    """Accept a target that broadcasts against the input, warning as PyTorch does."""
    if tuple(input.shape) == tuple(target.shape):
        return
    try:
        broadcast_shapes(input.shape, target.shape, op=op)
    except ShapeError:
        raise ShapeError(f"[{op}] target shape {target.shape} differs from input shape "
                         f"{input.shape} and does not broadcast against it") from None
    warnings.warn(f"[{op}] using a target size {tuple(target.shape)} that is different to the "
                  f"input size {tuple(input.shape)}; this will likely lead to incorrect results "
                  "due to broadcasting. Please ensure they have the same size.", UserWarning,
                  stacklevel=3)


def _classes_last(t: Tensor) -> Tensor:
    """``(N, C, d1, ...)`` -> ``(N * d1 * ..., C)``; ``(C,)`` -> ``(1, C)``."""
    if t.ndim == 2:
        return t
    if t.ndim == 1:
        return t.reshape(1, -1)
    t = t.permute(0, *range(2, t.ndim), 1)
    return t.reshape(-1, t.shape[-1])


def _index_nll(logp: Tensor, target: Tensor, weight: Tensor | None, ignore_index: int,
               label_smoothing: float, reduction: str, op: str) -> Tensor:
    """NLL (with optional smoothing) of class-index targets over log-probabilities.

    One fused op (:func:`~gtensor.ops.nll.nll_rows`) for float32 and float64;
    half-precision inputs, a weight of another dtype than the input's, or one
    that requires grad take :func:`_index_nll_composed`.
    """
    check(target.dtype.name in ("int64", "uint8"), op, lambda: "expected integer class-index "
          f"targets of dtype int64 (or uint8), got {target.dtype.name}", DTypeError)
    n_classes = logp.shape[1] if logp.ndim > 1 else logp.shape[0]
    expect = (logp.shape[0], *logp.shape[2:]) if logp.ndim > 1 else ()
    check(tuple(target.shape) == expect, op, lambda: f"expected target of shape {expect} for "
          f"input of shape {logp.shape}, got {target.shape}", ShapeError)
    check(weight is None or tuple(weight.shape) == (n_classes,), op, lambda: "weight tensor "
          f"should be defined either for all {n_classes} classes or no classes but got weight "
          f"tensor of shape {tuple(weight.shape)}", ShapeError)  # type: ignore[union-attr]
    check(reduction in _REDUCTIONS, op, lambda: f"reduction must be one of {_REDUCTIONS}, got "
          f"{reduction!r}", ValueError)
    lp = _classes_last(logp)
    t = target if target.ndim == 1 else target.reshape(-1)
    check_same_device(op, lp.device, t.device, *(() if weight is None else (weight.device,)))
    if lp.dtype.is_half or weight is not None and (weight.dtype is not lp.dtype
                                                    or weight.requires_grad):
        return _index_nll_composed(lp, t, weight, ignore_index, label_smoothing, reduction, op,
                                   target.shape)
    loss = nll_rows(lp, t, weight, ignore_index, label_smoothing, reduction, op)
    return loss if reduction != "none" or target.ndim == 1 else loss.reshape(target.shape)


def _index_nll_composed(lp: Tensor, t: Tensor, weight: Tensor | None, ignore_index: int,
                        label_smoothing: float, reduction: str, op: str,
                        shape: tuple[int, ...]) -> Tensor:
    """:func:`_index_nll` written with ops, over ``lp`` ``(N, C)`` and ``t`` ``(N,)``: the
    reference the fused op is tested against.

    The target's log-probability is picked with ``gather`` (its gradient scatters back).
    """
    n_classes = lp.shape[1]
    valid = t != ignore_index
    safe = where(valid, t, 0)
    picked = gather_indices(lp, 1, safe.unsqueeze(1), op, strict=True).squeeze(1)
    mask = valid.to(lp.dtype)
    w = mask if weight is None else gather_indices(weight, 0, safe, op, strict=True) * mask
    loss = -(picked * w)
    if label_smoothing:
        total = lp.sum(1) if weight is None else (lp * weight).sum(1)
        smooth = -(total * mask)
        loss = loss * (1 - label_smoothing) + smooth * (label_smoothing / n_classes)
    if reduction == "mean":
        total = w.sum()
        none = total == 0  # every target ignored: PyTorch's nan, with a zero gradient
        nan_if = where(none, math.nan, 0.0)
        if nan_if.dtype is not loss.dtype:  # a half-precision loss stays in its dtype
            nan_if = nan_if.to(loss.dtype)
        return loss.sum() / where(none, 1.0, total) + nan_if
    if reduction == "sum":
        return loss.sum()
    return loss.reshape(shape)


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
             ignore_index: int = -100, reduction: str = "mean") -> Tensor:
    """Negative log likelihood of class indices given log-probabilities.

    Args:
        input: log-probabilities ``(N, C)``, ``(N, C, d1, ...)`` or ``(C,)``.
        target: int64 (or uint8) class indices in ``[0, C)``, ``(N,)``, ``(N, d1, ...)``
            or ``()``.
        weight: per-class weights ``(C,)``.
        ignore_index: target value that contributes nothing (nor to the mean's divisor);
            with every target ignored the "mean" is nan, with a zero gradient.
        reduction: "none", "mean" (weighted mean) or "sum".

    Returns:
        The loss.

    Raises:
        IndexError: a target outside ``[0, C)`` other than ``ignore_index`` (negatives
            do not count from the end); on CUDA at the next synchronizing call.
        DTypeError: targets of another dtype (int32 included, as in PyTorch).
        ShapeError: a target of the wrong shape, or a weight of another length than C.

    Example:
        >>> F.nll_loss(gt.tensor([[-0.5, -1.0], [-2.0, -0.1]]), gt.tensor([0, 1]))  # (0.5+0.1)/2
        tensor(0.3000)
    """
    input, weight = autocast_inputs("nll_loss", input, weight)
    return _index_nll(input, target, weight, ignore_index, 0.0, reduction, "nll_loss")


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                  ignore_index: int = -100, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """Cross entropy between logits and class indices or class probabilities.

    With class indices and ``label_smoothing = e``, each target becomes the
    mixture ``(1 - e) * one_hot + e / C``; with ``weight``, the "mean"
    reduction divides by the summed weights of the (non-ignored) targets, as
    in PyTorch. With probability targets (same shape as ``input``), "mean"
    divides by the number of samples.

    Args:
        input: logits ``(N, C)``, ``(N, C, d1, ...)`` or ``(C,)``.
        target: class indices (int64 or uint8, in ``[0, C)``, the input's shape
            without C; checked as in :func:`nll_loss`) or probabilities (floating,
            the input's shape).
        weight: per-class weights ``(C,)``.
        ignore_index: class-index target that contributes nothing.
        reduction: "none", "mean" or "sum".
        label_smoothing: in ``[0, 1]``.

    Returns:
        The loss.

    Example:
        >>> logits = gt.tensor([[2.0, 0.0], [0.0, 2.0]])
        >>> F.cross_entropy(logits, gt.tensor([0, 1]), label_smoothing=0.1)
        tensor(0.2269)
    """
    input, target, weight = autocast_inputs("cross_entropy", input, target, weight)
    check(0.0 <= label_smoothing <= 1.0, "cross_entropy", lambda: "label_smoothing must be in "
          f"[0, 1], got {label_smoothing}", ValueError)
    logp = log_softmax(input, 1 if input.ndim > 1 else 0)
    if not target.dtype.is_floating_point:
        return _index_nll(logp, target, weight, ignore_index, label_smoothing, reduction,
                          "cross_entropy")
    _check_same_shape(input, target, "cross_entropy")
    n_classes = input.shape[1] if input.ndim > 1 else input.shape[0]
    if label_smoothing:
        target = target * (1 - label_smoothing) + label_smoothing / n_classes
    lp = logp
    if weight is not None:
        shape = [1] * input.ndim
        shape[1 if input.ndim > 1 else 0] = n_classes
        lp = lp * weight.reshape(shape)
    loss = -(lp * target).sum(1 if input.ndim > 1 else 0)
    return _reduce(loss, reduction, "cross_entropy")


def mse_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """Squared error ``(input - target) ** 2``.

    A target of another shape broadcasts against ``input``, with a warning (as in
    PyTorch).

    Example:
        >>> F.mse_loss(gt.tensor([1.0, 2.0]), gt.tensor([1.0, 4.0]))
        tensor(2.)
    """
    input, target = autocast_inputs("mse_loss", input, target)
    _check_broadcast(input, target, "mse_loss")
    d = input - target
    return _reduce(d * d, reduction, "mse_loss")


def l1_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """Absolute error ``|input - target|``.

    A target of another shape broadcasts against ``input``, with a warning (as in
    PyTorch).

    Example:
        >>> F.l1_loss(gt.tensor([1.0, 2.0]), gt.tensor([1.0, 4.0]))
        tensor(1.)
    """
    input, target = autocast_inputs("l1_loss", input, target)
    _check_broadcast(input, target, "l1_loss")
    return _reduce((input - target).abs(), reduction, "l1_loss")


def smooth_l1_loss(input: Tensor, target: Tensor, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    """Huber-like loss: ``0.5 * d**2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 * beta``.

    Here ``d = input - target`` (broadcast, with a warning when the shapes differ);
    ``beta = 0`` gives the L1 loss.

    Example:
        >>> F.smooth_l1_loss(gt.zeros(2), gt.tensor([0.2, 2.0]), beta=0.5, reduction="none")
        tensor([0.0400, 1.7500])
    """
    input, target = autocast_inputs("smooth_l1_loss", input, target)
    _check_broadcast(input, target, "smooth_l1_loss")
    check(beta >= 0, "smooth_l1_loss", lambda: f"beta must be >= 0, got {beta}", ValueError)
    a = (input - target).abs()
    if beta == 0:
        return _reduce(a, reduction, "smooth_l1_loss")
    loss = where(a < beta, a * a * (0.5 / beta), a - 0.5 * beta)
    return _reduce(loss, reduction, "smooth_l1_loss")


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0,
               weight: Tensor | None = None) -> Tensor:
    """``0.5 * d**2`` where ``|d| < delta``, else ``delta * (|d| - 0.5 * delta)``.

    Here ``d = input - target`` (broadcast, with a warning when the shapes differ);
    ``huber_loss`` is ``delta`` times :func:`smooth_l1_loss` with ``beta = delta``.

    Args:
        input: predictions.
        target: targets.
        reduction: "none", "mean" or "sum".
        delta: where the loss turns from quadratic to linear (> 0).
        weight: multiplies each element's loss; the input's shape.

    Example:
        >>> F.huber_loss(gt.zeros(2), gt.tensor([1.0, 4.0]), delta=2.0, reduction="none")
        tensor([0.5000, 6.0000])
    """
    input, target, weight = autocast_inputs("huber_loss", input, target, weight)
    _check_broadcast(input, target, "huber_loss")
    check(delta > 0, "huber_loss", "does not support non-positive values for delta",
          ValueError)
    check(weight is None or tuple(weight.shape) == tuple(input.shape), "huber_loss",
          "weights and input must have the same size", ShapeError)
    a = (input - target).abs()
    loss = where(a < delta, a * a * 0.5, (a - 0.5 * delta) * delta)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction, "huber_loss")


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                        reduction: str = "mean") -> Tensor:
    """``max(0, -target * (input1 - input2) + margin)`` with ``target`` in {1, -1}.

    Raises:
        ShapeError: the three tensors differ in their number of dimensions.

    Example:
        >>> a, b, prefer_a = gt.tensor([2.0, 1.0]), gt.tensor([1.0, 1.5]), gt.ones(2)
        >>> F.margin_ranking_loss(a, b, prefer_a, reduction="none")
        tensor([0.0000, 0.5000])
    """
    input1, input2, target = autocast_inputs("margin_ranking_loss", input1, input2, target)
    check(input1.ndim == input2.ndim == target.ndim, "margin_ranking_loss", lambda: "all input "
          "tensors should have the same number of dimensions, got input1: "
          f"{tuple(input1.shape)}, input2: {tuple(input2.shape)}, target: "
          f"{tuple(target.shape)}", ShapeError)
    loss = (-target * (input1 - input2) + margin).clamp(min=0.0)
    return _reduce(loss, reduction, "margin_ranking_loss")


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor,
                        margin: float = 1.0, p: float = 2.0, eps: float = 1e-6,
                        swap: bool = False, reduction: str = "mean") -> Tensor:
    """``max(d(a, p) - d(a, n) + margin, 0)`` with ``d`` :func:`pairwise_distance`.

    With ``swap``, ``d(a, n)`` becomes ``min(d(a, n), d(p, n))`` (the distance swap
    of Balntas et al.).

    Raises:
        ValueError: ``margin <= 0``.
        ShapeError: the three tensors differ in their number of dimensions.

    Example:
        >>> a, p, n = gt.zeros(1, 2), gt.tensor([[1.0, 0.0]]), gt.tensor([[0.0, 1.2]])
        >>> F.triplet_margin_loss(a, p, n, margin=0.5)  # 1 - 1.2 + 0.5
        tensor(0.3000)
    """
    anchor, positive, negative = autocast_inputs("triplet_margin_loss", anchor, positive, negative)
    check(margin > 0, "triplet_margin_loss", lambda: f"margin must be greater than 0, got "
          f"{margin}", ValueError)
    check(anchor.ndim == positive.ndim == negative.ndim, "triplet_margin_loss", lambda: "the "
          "anchor, positive, and negative tensors are expected to have the same number of "
          f"dimensions, but got: anchor {anchor.ndim}D, positive {positive.ndim}D, and "
          f"negative {negative.ndim}D inputs", ShapeError)
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = minimum(d_neg, pairwise_distance(positive, negative, p, eps))
    loss = (d_pos + margin - d_neg).clamp(min=0.0)
    return _reduce(loss, reduction, "triplet_margin_loss")


def _bce_vjp(ctx: Node, g: Tensor) -> tuple[Tensor, Tensor]:
    """torch's gradients: ``(x - t) / max(x (1 - x), 1e-12)``, finite at 0 and 1."""
    x, t = ctx.saved_tensors
    gx = g * (x - t) / (x * (1 - x)).clamp(min=1e-12)
    gt_ = g * ((1 - x).log().clamp(min=-100) - x.log().clamp(min=-100))
    return gx, gt_


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                         reduction: str = "mean") -> Tensor:
    """``-(t * log(x) + (1 - t) * log(1 - x))`` for probabilities ``x``; logs clamped at -100.

    Example:
        >>> F.binary_cross_entropy(gt.tensor([0.5, 0.9]), gt.ones(2), reduction="none")
        tensor([0.6931, 0.1054])
    """
    input, target, weight = autocast_inputs("binary_cross_entropy", input, target, weight)
    _check_same_shape(input, target, "binary_cross_entropy")
    with no_grad():
        log_x = input.log().clamp(min=-100)
        log_1mx = (1 - input).log().clamp(min=-100)
        loss = -(target * log_x + (1 - target) * log_1mx)
    record("binary_cross_entropy", loss, (input, target), _bce_vjp, save=[input, target])
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction, "binary_cross_entropy")


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor,
                                     weight: Tensor | None = None, reduction: str = "mean",
                                     pos_weight: Tensor | None = None) -> Tensor:
    """Binary cross entropy of ``sigmoid(input)``, computed stably from the logits.

    ``loss = (1 - t) * x + (1 + (pos_weight - 1) * t) * (log1p(exp(-|x|)) + max(-x, 0))``.

    Args:
        input: logits.
        target: targets in ``[0, 1]``, same shape.
        weight: rescales each element's loss (broadcast).
        reduction: "none", "mean" or "sum".
        pos_weight: weight of the positive term, per class (broadcast over the last dim).

    Example:
        >>> F.binary_cross_entropy_with_logits(gt.tensor([0.0, 2.0]), gt.tensor([1.0, 0.0]),
        ...                                    reduction="none")
        tensor([0.6931, 2.1269])
    """
    input, target, weight, pos_weight = autocast_inputs(
        "binary_cross_entropy_with_logits", input, target, weight, pos_weight)
    _check_same_shape(input, target, "binary_cross_entropy_with_logits")
    # |x| and max(-x, 0) written so that at x = 0 their slopes (1 and 0) sum to the true one
    nonneg = input >= 0
    abs_x = where(nonneg, input, -input)
    softplus_neg = (-abs_x).exp().log1p() + where(nonneg, 0.0, -input)
    if pos_weight is None:
        loss = (1 - target) * input + softplus_neg
    else:
        loss = (1 - target) * input + (1 + (pos_weight - 1) * target) * softplus_neg
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction, "binary_cross_entropy_with_logits")


def kl_div(input: Tensor, target: Tensor, reduction: str = "mean",
           log_target: bool = False) -> Tensor:
    """Kullback-Leibler divergence ``target * (log(target) - input)`` with ``input`` log-probs.

    Elements where ``target`` is 0 contribute 0. ``reduction="batchmean"``
    divides the sum by the batch size (the mathematically correct KL);
    ``"mean"`` divides by the number of elements, as in PyTorch.

    Example:
        >>> log_q, p = gt.tensor([[0.5, 0.5]]).log(), gt.tensor([[0.25, 0.75]])
        >>> F.kl_div(log_q, p, reduction="batchmean")
        tensor(0.1308)
    """
    input, target = autocast_inputs("kl_div", input, target)
    _check_same_shape(input, target, "kl_div")
    if log_target:
        loss = target.exp() * (target - input)
    else:
        positive = target > 0
        safe = where(positive, target, 1.0)
        loss = where(positive, target * (safe.log() - input), 0.0)
    if reduction == "batchmean":
        return loss.sum() / (input.shape[0] if input.ndim else 1)
    return _reduce(loss, reduction, "kl_div")
