"""Loss modules wrapping :mod:`gtensor.nn.functional`'s losses."""

from __future__ import annotations

import warnings
from typing import Any

from ...tensor import Tensor
from .. import functional as F
from .module import Module


class _Loss(Module):
    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction

    def extra_repr(self) -> str:
        return f"reduction={self.reduction!r}" if self.reduction != "mean" else ""


class _WeightedLoss(_Loss):
    def __init__(self, weight: Tensor | None = None, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.register_buffer("weight", weight)


class CrossEntropyLoss(_WeightedLoss):
    """:func:`~gtensor.nn.functional.cross_entropy` as a module.

    Example:
        >>> logits = gt.tensor([[2.0, 0.0], [0.0, 2.0]])
        >>> gt.nn.CrossEntropyLoss(label_smoothing=0.1)(logits, gt.tensor([0, 1]))
        tensor(0.2269)
    """

    def __init__(self, weight: Tensor | None = None, ignore_index: int = -100,
                 reduction: str = "mean", label_smoothing: float = 0.0) -> None:
        super().__init__(weight, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """The loss of logits ``input`` against ``target``."""
        return F.cross_entropy(input, target, self.weight, self.ignore_index, self.reduction,
                               self.label_smoothing)


class NLLLoss(_WeightedLoss):
    """:func:`~gtensor.nn.functional.nll_loss` as a module."""

    def __init__(self, weight: Tensor | None = None, ignore_index: int = -100,
                 reduction: str = "mean") -> None:
        super().__init__(weight, reduction)
        self.ignore_index = ignore_index

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """The loss of log-probabilities ``input`` against ``target``."""
        return F.nll_loss(input, target, self.weight, self.ignore_index, self.reduction)


class NLLLoss2d(NLLLoss):
    """Deprecated alias of :class:`NLLLoss` (warns when built, as in PyTorch).

    Example:
        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     loss = gt.nn.NLLLoss2d()
        >>> isinstance(loss, gt.nn.NLLLoss)
        True
    """

    def __init__(self, weight: Tensor | None = None, ignore_index: int = -100,
                 reduction: str = "mean") -> None:
        warnings.warn("NLLLoss2d has been deprecated. Please use NLLLoss instead as a drop-in "
                      "replacement.", UserWarning, stacklevel=2)
        super().__init__(weight, ignore_index, reduction)


class MSELoss(_Loss):
    """:func:`~gtensor.nn.functional.mse_loss` as a module."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """The mean (or summed) squared error."""
        return F.mse_loss(input, target, self.reduction)


class L1Loss(_Loss):
    """:func:`~gtensor.nn.functional.l1_loss` as a module."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """The mean (or summed) absolute error."""
        return F.l1_loss(input, target, self.reduction)


class SmoothL1Loss(_Loss):
    """:func:`~gtensor.nn.functional.smooth_l1_loss` as a module."""

    def __init__(self, reduction: str = "mean", beta: float = 1.0) -> None:
        super().__init__(reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """The smooth L1 loss."""
        return F.smooth_l1_loss(input, target, self.reduction, self.beta)


class BCELoss(_WeightedLoss):
    """:func:`~gtensor.nn.functional.binary_cross_entropy` as a module."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """The loss of probabilities ``input`` against ``target``."""
        return F.binary_cross_entropy(input, target, self.weight, self.reduction)


class BCEWithLogitsLoss(_WeightedLoss):
    """:func:`~gtensor.nn.functional.binary_cross_entropy_with_logits` as a module."""

    def __init__(self, weight: Tensor | None = None, reduction: str = "mean",
                 pos_weight: Tensor | None = None) -> None:
        super().__init__(weight, reduction)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """The loss of logits ``input`` against ``target``."""
        return F.binary_cross_entropy_with_logits(input, target, self.weight, self.reduction,
                                                  self.pos_weight)


class KLDivLoss(_Loss):
    """:func:`~gtensor.nn.functional.kl_div` as a module."""

    def __init__(self, reduction: str = "mean", log_target: bool = False) -> None:
        super().__init__(reduction)
        self.log_target = log_target

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """The divergence of log-probabilities ``input`` from ``target``."""
        return F.kl_div(input, target, self.reduction, self.log_target)


class HuberLoss(_Loss):
    """:func:`~gtensor.nn.functional.huber_loss` as a module."""

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction)
        self.delta = delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """The Huber loss."""
        return F.huber_loss(input, target, self.reduction, self.delta)


class MarginRankingLoss(_Loss):
    """:func:`~gtensor.nn.functional.margin_ranking_loss` as a module."""

    def __init__(self, margin: float = 0.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        """The loss of ranking ``input1`` against ``input2`` as ``target`` says."""
        return F.margin_ranking_loss(input1, input2, target, self.margin, self.reduction)


class TripletMarginLoss(_Loss):
    """:func:`~gtensor.nn.functional.triplet_margin_loss` as a module.

    Example:
        >>> a, p, n = gt.zeros(1, 2), gt.tensor([[1.0, 0.0]]), gt.tensor([[0.0, 1.2]])
        >>> gt.nn.TripletMarginLoss(margin=0.5, swap=True)(a, p, n)  # 1 - 1.2 + 0.5
        tensor(0.3000)
    """

    def __init__(self, margin: float = 1.0, p: float = 2.0, eps: float = 1e-6,
                 swap: bool = False, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.margin = margin
        self.p = p
        self.eps = eps
        self.swap = swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        """The triplet loss of ``anchor`` with ``positive`` and ``negative``."""
        return F.triplet_margin_loss(anchor, positive, negative, self.margin, self.p, self.eps,
                                     self.swap, self.reduction)


class CTCLoss(_Loss):
    """:func:`~gtensor.nn.functional.ctc_loss` as a module.

    Example:
        >>> log_probs = gt.zeros(2, 1, 2).log_softmax(2)  # (T, N, C)
        >>> gt.nn.CTCLoss()(log_probs, gt.tensor([[1]]), [2], [1])
        tensor(0.2877)
    """

    def __init__(self, blank: int = 0, reduction: str = "mean",
                 zero_infinity: bool = False) -> None:
        super().__init__(reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(self, log_probs: Tensor, targets: Tensor, input_lengths: Any,
                target_lengths: Any) -> Tensor:
        """The CTC loss of ``log_probs`` ``(T, N, C)`` against ``targets``."""
        return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                          self.reduction, self.zero_infinity)
