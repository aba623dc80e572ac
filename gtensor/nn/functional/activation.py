"""Activation functions (the elementwise ops, under their ``nn.functional`` names)."""

from __future__ import annotations

from ...errors import check
from ...tensor import Tensor


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """``max(x, 0)``.

    Example:
        >>> F.relu(gt.tensor([-1.0, 2.0])).tolist()  # doctest: +SKIP
        [0.0, 2.0]
    """
    return input.relu_() if inplace else input.relu()


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """Gaussian error linear unit: ``x * Phi(x)`` (``approximate="tanh"`` for the tanh form).

    Example:
        >>> F.gelu(x, approximate="tanh")  # doctest: +SKIP
    """
    check(approximate in ("none", "tanh"), "gelu", lambda: "approximate must be 'none' or "
          f"'tanh', got {approximate!r}", ValueError)
    return input.gelu(approximate=approximate)


def silu(input: Tensor) -> Tensor:
    """``x * sigmoid(x)``."""
    return input.silu()


def tanh(input: Tensor) -> Tensor:
    """Hyperbolic tangent."""
    return input.tanh()


def sigmoid(input: Tensor) -> Tensor:
    """``1 / (1 + exp(-x))``."""
    return input.sigmoid()


def softmax(input: Tensor, dim: int) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``dim`` (numerically stable).

    Example:
        >>> F.softmax(logits, dim=-1)  # doctest: +SKIP
    """
    return input.softmax(dim)


def log_softmax(input: Tensor, dim: int) -> Tensor:
    """``x - logsumexp(x)`` along ``dim`` (numerically stable).

    Example:
        >>> F.log_softmax(logits, dim=1)  # doctest: +SKIP
    """
    return input.log_softmax(dim)
