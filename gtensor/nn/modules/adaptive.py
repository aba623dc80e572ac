"""AdaptiveLogSoftmaxWithLoss: the adaptive softmax of Grave et al. for large vocabularies.

The head scores the frequent classes (the shortlist) and one entry per tail
cluster; each cluster's classes are scored by a low-rank projection of the
input, and their log-probabilities add the head's log-probability of the
cluster. The loss reads each target's entry of the full log-probabilities
(one ``gather``), so only the target's cluster receives gradient, as in
PyTorch, whose per-cluster row selection this computes in one pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ...errors import DTypeError, ShapeError, check
from ...ops.layout.copies import cat
from ...tensor import Tensor
from .. import functional as F
from .container import ModuleList, Sequential
from .linear import Linear
from .module import Module


class ASMOutput(NamedTuple):
    """The target log-probabilities and the mean negative log likelihood."""

    output: Tensor
    loss: Tensor


class AdaptiveLogSoftmaxWithLoss(Module):
    """Adaptive softmax: shortlist in the head, rarer classes in low-rank tail clusters.

    Args:
        in_features: features of each input row.
        n_classes: number of classes.
        cutoffs: increasing class indices in ``[1, n_classes - 1]`` where the clusters
            start (the first ends the shortlist).
        div_value: each successive cluster's projection is this much narrower.
        head_bias: give the head a bias.
        device: where to create the parameters.
        dtype: the parameters' floating dtype.

    Example:
        >>> asm = gt.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [4, 7])
        >>> out = asm(gt.randn(3, 8), gt.tensor([0, 5, 9]))
        >>> out.output.shape, out.loss.shape
        ((3,), ())
    """

    def __init__(self, in_features: int, n_classes: int, cutoffs: Sequence[int],
                 div_value: float = 4.0, head_bias: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        cuts = list(cutoffs)
        if not cuts:
            raise ValueError("[AdaptiveLogSoftmaxWithLoss] cutoffs should be a sequence of "
                             "length larger than 0")
        if (cuts != sorted(cuts) or min(cuts) <= 0 or max(cuts) > n_classes - 1
                or len(set(cuts)) != len(cuts) or any(int(c) != c for c in cuts)):
            raise ValueError("[AdaptiveLogSoftmaxWithLoss] cutoffs should be a sequence of "
                             "unique, positive integers sorted in an increasing order, where "
                             "each value is between 1 and n_classes-1")
        self.in_features, self.n_classes = in_features, n_classes
        self.cutoffs = [int(c) for c in cuts] + [n_classes]
        self.div_value, self.head_bias = div_value, head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head = Linear(in_features, self.head_size, head_bias, device, dtype)
        self.tail = ModuleList()
        for i in range(self.n_clusters):
            hsz = int(in_features // (div_value ** (i + 1)))
            osz = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail.append(Sequential(Linear(in_features, hsz, False, device, dtype),
                                        Linear(hsz, osz, False, device, dtype)))

    def reset_parameters(self) -> None:
        """Draw fresh initial values for the head and every cluster."""
        self.head.reset_parameters()
        for projection in self.tail:
            for layer in projection:
                layer.reset_parameters()

    def _full_log_prob(self, input: Tensor) -> Tensor:
        head = F.log_softmax(self.head(input), 1)
        parts = [head[:, :self.shortlist_size]]
        for i, projection in enumerate(self.tail):
            cluster = F.log_softmax(projection(input), 1)
            parts.append(cluster + head[:, self.shortlist_size + i].unsqueeze(1))
        return cat(parts, 1)

    def forward(self, input: Tensor, target: Tensor) -> ASMOutput:
        """Each target's log-probability and the mean negative log likelihood."""
        name = type(self).__name__
        check(target.ndim in (0, 1), name, lambda: f"0D or 1D target tensor expected, got "
              f"shape {target.shape}", ShapeError)
        check(not target.dtype.is_floating_point, name, lambda: "expected integer targets, got "
              f"{target.dtype.name}", DTypeError)
        batched = target.ndim == 1
        check(input.ndim == (2 if batched else 1), name, lambda: "input and target should have "
              f"matching dims, got input {input.shape} and target {target.shape}", ShapeError)
        if batched:
            check(input.shape[0] == target.shape[0], name, lambda: "Input and target should "
                  f"have the same size in the batch dimension, got {input.shape[0]} and "
                  f"{target.shape[0]}", ShapeError)
        x, t = (input, target) if batched else (input.unsqueeze(0), target.unsqueeze(0))
        check(x.shape[1] == self.in_features, name, lambda: f"expected {self.in_features} "
              f"input features, got input of shape {input.shape}", ShapeError)
        if t.numel():
            lo, hi = int(t.min()), int(t.max())
            check(lo >= 0 and hi < self.n_classes, name, lambda: "Target values should be in "
                  f"[0, {self.n_classes - 1}], but values in range [{lo}, {hi}] were found.",
                  IndexError)
        output = self._full_log_prob(x).gather(1, t.unsqueeze(1).to("int64")).squeeze(1)
        loss = (-output).mean()
        return ASMOutput(output if batched else output.squeeze(0), loss)

    def log_prob(self, input: Tensor) -> Tensor:
        """Log-probabilities of every class for ``(N, in_features)`` or ``(in_features,)``
        input."""
        if input.ndim == 1:
            return self._full_log_prob(input.unsqueeze(0)).squeeze(0)
        return self._full_log_prob(input)

    def predict(self, input: Tensor) -> Tensor:
        """The most likely class of each row."""
        return self.log_prob(input).argmax(-1)
