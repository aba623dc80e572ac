"""Margin, embedding and likelihood loss modules wrapping :mod:`gtensor.nn.functional`."""

from __future__ import annotations

from collections.abc import Callable

from ...tensor import Tensor
from .. import functional as F
from .loss import _Loss, _WeightedLoss


class PoissonNLLLoss(_Loss):
    """:func:`~gtensor.nn.functional.poisson_nll_loss` as a module.

    Example:
        >>> gt.nn.PoissonNLLLoss()(gt.zeros(3), gt.ones(3)).item()
        1.0
    """

    def __init__(self, log_input: bool = True, full: bool = False, eps: float = 1e-8,
                 reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input: Tensor, target: Tensor) -> Tensor:
        """The Poisson negative log likelihood of ``target``."""
        return F.poisson_nll_loss(log_input, target, self.log_input, self.full, self.eps,
                                  self.reduction)


class GaussianNLLLoss(_Loss):
    """:func:`~gtensor.nn.functional.gaussian_nll_loss` as a module.

    Example:
        >>> gt.nn.GaussianNLLLoss()(gt.zeros(2, 3), gt.zeros(2, 3), gt.ones(2, 1)).item()
        0.0
    """

    def __init__(self, *, full: bool = False, eps: float = 1e-6,
                 reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.full = full
        self.eps = eps

    def forward(self, input: Tensor, target: Tensor, var: Tensor | float) -> Tensor:
        """The Gaussian negative log likelihood of ``target``."""
        return F.gaussian_nll_loss(input, target, var, self.full, self.eps, self.reduction)


class HingeEmbeddingLoss(_Loss):
    """:func:`~gtensor.nn.functional.hinge_embedding_loss` as a module."""

    def __init__(self, margin: float = 1.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.margin = margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """The hinge embedding loss of distances ``input``."""
        return F.hinge_embedding_loss(input, target, self.margin, self.reduction)


class CosineEmbeddingLoss(_Loss):
    """:func:`~gtensor.nn.functional.cosine_embedding_loss` as a module."""

    def __init__(self, margin: float = 0.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        """The cosine embedding loss of the pairs."""
        return F.cosine_embedding_loss(input1, input2, target, self.margin, self.reduction)


class SoftMarginLoss(_Loss):
    """:func:`~gtensor.nn.functional.soft_margin_loss` as a module."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """The two-class logistic loss."""
        return F.soft_margin_loss(input, target, self.reduction)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    """:func:`~gtensor.nn.functional.multilabel_soft_margin_loss` as a module."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """The multi-label logistic loss."""
        return F.multilabel_soft_margin_loss(input, target, self.weight, self.reduction)


class MultiLabelMarginLoss(_Loss):
    """:func:`~gtensor.nn.functional.multilabel_margin_loss` as a module."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """The multi-label hinge loss."""
        return F.multilabel_margin_loss(input, target, self.reduction)


class MultiMarginLoss(_WeightedLoss):
    """:func:`~gtensor.nn.functional.multi_margin_loss` as a module.

    Example:
        >>> x = gt.tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> round(gt.nn.MultiMarginLoss()(x, gt.tensor([3])).item(), 4)
        0.325
    """

    def __init__(self, p: int = 1, margin: float = 1.0, weight: Tensor | None = None,
                 reduction: str = "mean") -> None:
        super().__init__(weight, reduction)
        self.p = p
        self.margin = margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        """The multi-class hinge loss."""
        return F.multi_margin_loss(input, target, self.p, self.margin, self.weight,
                                   self.reduction)


class TripletMarginWithDistanceLoss(_Loss):
    """:func:`~gtensor.nn.functional.triplet_margin_with_distance_loss` as a module.

    Example:
        >>> loss = gt.nn.TripletMarginWithDistanceLoss(margin=0.5)
        >>> loss(gt.zeros(2, 3), gt.zeros(2, 3), gt.ones(2, 3)).item()
        0.0
    """

    def __init__(self, *, distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
                 margin: float = 1.0, swap: bool = False, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.distance_function = distance_function
        self.margin = margin
        self.swap = swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        """The triplet loss of ``anchor`` with ``positive`` and ``negative``."""
        return F.triplet_margin_with_distance_loss(
            anchor, positive, negative, distance_function=self.distance_function,
            margin=self.margin, swap=self.swap, reduction=self.reduction)
