"""Connectionist temporal classification loss, composed of gtensor ops.

The forward (alpha) recursion runs over time in log space on the extended
label sequence (blanks between and around the targets), all batch elements
and all states at once: per step, the log-sum-exp of the state, its left
neighbour and (where the labels allow a skip) the state two to the left, plus
the emission. Autograd differentiates through the recursion, which gives the
usual alpha-beta gradient: the exact gradient with respect to ``log_probs``.
PyTorch's kernel instead returns the gradient taken through a ``log_softmax``
(it adds ``exp(log_probs)``); the two agree on anything upstream of a
``log_softmax``, the way ``log_probs`` are meant to be made.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...dtypes import int64
from ...errors import DTypeError, ShapeError, check
from ...graph.autocast_mode import autocast_inputs
from ...ops.creation import full, tensor
from ...ops.elementwise import where
from ...ops.layout.copies import pad
from ...tensor import Tensor
from ...tensor_base import TensorBase

NEG_INF = -np.inf


def _host_lengths(op: str, name: str, value: Any, batch: int) -> np.ndarray:
    lengths = np.asarray(value.cpu().numpy() if isinstance(value, TensorBase) else value,
                         dtype=np.int64).reshape(-1)
    check(lengths.size == batch and np.all(lengths >= 0), op, lambda: f"expected {batch} "
          f"non-negative {name}, got {lengths.tolist()}", ValueError)
    return lengths


def _logsumexp3(a: Tensor, b: Tensor, c: Tensor) -> Tensor:
    """``log(exp(a) + exp(b) + exp(c))``; ``-inf`` with a zero gradient where all are ``-inf``."""
    top = a.maximum(b).maximum(c).detach()
    shift = where(top == NEG_INF, 0.0, top)
    total = (a - shift).exp() + (b - shift).exp() + (c - shift).exp()
    empty = total == 0
    return where(empty, NEG_INF, where(empty, 1.0, total).log() + shift)


def _padded_targets(op: str, targets: Tensor, lengths: np.ndarray) -> Tensor:
    """``(N, S)`` targets from a padded 2-D tensor or the 1-D concatenation of all targets."""
    check(targets.dtype.name in ("int64", "int32"), op, lambda: "expected integer targets, "
          f"got {targets.dtype.name}", DTypeError)
    width = int(lengths.max(initial=0))
    if targets.ndim == 2:
        check(targets.shape[1] >= width, op, lambda: f"targets of shape {targets.shape} are "
              f"shorter than the longest target length {width}", ShapeError)
        return targets[:, :width].to(int64)
    check(targets.ndim == 1 and targets.shape[0] == int(lengths.sum()), op, lambda: (
        f"expected 1-D targets of {int(lengths.sum())} labels or 2-D (N, S) targets, got "
        f"shape {targets.shape}"), ShapeError)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    lanes = np.arange(width)
    pos = np.where(lanes[None, :] < lengths[:, None], starts[:, None] + lanes[None, :], 0)
    if targets.shape[0] == 0:
        return tensor(np.zeros(pos.shape, dtype=np.int64), device=targets.device)
    flat = targets.index_select(0, tensor(pos.reshape(-1), device=targets.device))
    return flat.reshape(*pos.shape).to(int64)


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths: Any, target_lengths: Any,
             blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    """The negative log-likelihood of ``targets`` summed over all CTC alignments.

    Args:
        log_probs: ``(T, N, C)`` (or unbatched ``(T, C)``) log-probabilities.
        targets: ``(N, S)`` padded labels, or the 1-D concatenation of all targets;
            labels lie in ``[0, C)`` and are not ``blank``.
        input_lengths: ``N`` lengths ``<= T`` (tensor or sequence; read on the host).
        target_lengths: ``N`` lengths (tensor or sequence; read on the host).
        blank: the blank class.
        reduction: ``"none"`` (per sample), ``"sum"``, or ``"mean"`` (each loss
            divided by its target length, then averaged over the batch).
        zero_infinity: infinite losses (no alignment fits) and their gradients become 0.

    Example:
        >>> lp = gt.zeros(2, 1, 2).log_softmax(2)  # 2 steps, 1 sample, 2 classes
        >>> F.ctc_loss(lp, gt.tensor([[1]]), [2], [1])  # -log(3/4): 3 alignments of 1/4
        tensor(0.2877)
    """
    (log_probs,) = autocast_inputs("ctc_loss", log_probs)
    op = "ctc_loss"
    check(isinstance(log_probs, TensorBase) and isinstance(targets, TensorBase), op,
          "log_probs and targets must be tensors", TypeError)
    check(log_probs.ndim in (2, 3), op, lambda: f"expected a 2-D or 3-D log_probs, got shape "
          f"{log_probs.shape}", ShapeError)
    check(log_probs.dtype.name in ("float32", "float64"), op,
          lambda: f"expected float log_probs, got {log_probs.dtype.name}", DTypeError)
    check(reduction in ("none", "mean", "sum"), op,
          lambda: f"reduction must be 'none', 'mean' or 'sum', got {reduction!r}", ValueError)
    if log_probs.ndim == 2:
        loss = ctc_loss(log_probs.unsqueeze(1), targets.unsqueeze(0), [input_lengths],
                        [target_lengths], blank, "none", zero_infinity)[0]
        return loss if reduction != "mean" else loss / max(int(target_lengths), 1)
    steps, batch, classes = log_probs.shape
    check(0 <= blank < classes, op, lambda: f"blank {blank} is not a class of {classes}",
          ValueError)
    in_len = _host_lengths(op, "input_lengths", input_lengths, batch)
    tgt_len = _host_lengths(op, "target_lengths", target_lengths, batch)
    check(np.all(in_len <= steps), op, lambda: f"input_lengths {in_len.tolist()} exceed the "
          f"{steps} time steps", ValueError)
    labels = _padded_targets(op, targets, tgt_len)
    dev = log_probs.device
    states = 2 * labels.shape[1] + 1
    ext = full((batch, states), blank, dtype=int64, device=dev)
    if states > 1:
        ext[:, 1::2] = labels
    skip_ok = np.zeros((1, states), dtype=bool)
    skip_ok[0, 3::2] = True
    skip = (ext != blank) & tensor(skip_ok, device=dev)
    if states > 2:
        skip = skip & (ext != pad(ext, (2, 0), value=blank)[:, :states])
    emit = log_probs.gather(2, ext.unsqueeze(0).expand(steps, batch, states))
    first = tensor(np.arange(states)[None, :] < 2, device=dev)
    alpha = where(first, emit[0], NEG_INF)
    alive = tensor(np.arange(steps)[:, None, None] < in_len[None, :, None], device=dev)
    for t in range(1, steps):
        one = pad(alpha, (1, 0), value=NEG_INF)[:, :states]
        two = where(skip, pad(alpha, (2, 0), value=NEG_INF)[:, :states], NEG_INF)
        alpha = where(alive[t], _logsumexp3(alpha, one, two) + emit[t], alpha)
    ends = np.stack([2 * tgt_len, np.maximum(2 * tgt_len - 1, 0)], axis=1)
    last = alpha.gather(1, tensor(ends, device=dev))
    last = where(tensor(ends[:, :1] != ends[:, 1:], device=dev).expand(batch, 2) |
                 tensor(np.array([[True, False]]), device=dev), last, NEG_INF)
    nothing = full((batch,), NEG_INF, dtype=log_probs.dtype, device=dev)
    none = -_logsumexp3(last[:, 0], last[:, 1], nothing)
    none = where(tensor(in_len == 0, device=dev), np.inf, none) if np.any(in_len == 0) else none
    if zero_infinity:
        none = where(none == np.inf, 0.0, none)
    if reduction == "none":
        return none
    if reduction == "sum":
        return none.sum()
    divisor = tensor(np.maximum(tgt_len, 1).astype(log_probs.dtype.name), device=dev)
    return (none / divisor).mean()
