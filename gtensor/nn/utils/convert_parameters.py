"""``parameters_to_vector`` and ``vector_to_parameters``: parameters as one flat vector."""

from __future__ import annotations

from collections.abc import Iterable

from ...errors import ShapeError, check
from ...graph.grad_mode import no_grad
from ...ops.layout.copies import cat
from ...tensor import Tensor


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """The parameters flattened and concatenated into one 1-D tensor (differentiable).

    Example:
        >>> gt.nn.utils.parameters_to_vector(gt.nn.Linear(2, 1).parameters()).shape
        (3,)
    """
    params = list(parameters)
    check(len(params) > 0, "parameters_to_vector", "expected at least one parameter",
          ValueError)
    return cat([p.reshape(-1) for p in params])


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Copy consecutive slices of the 1-D ``vec`` into ``parameters``, in place.

    Example:
        >>> lin = gt.nn.Linear(2, 1)
        >>> gt.nn.utils.vector_to_parameters(gt.tensor([1.0, 2.0, 3.0]), lin.parameters())
        >>> lin.weight.tolist(), lin.bias.tolist()
        ([[1.0, 2.0]], [3.0])
    """
    check(isinstance(vec, Tensor) and vec.ndim == 1, "vector_to_parameters",
          lambda: f"expected a 1-D tensor, got {getattr(vec, 'shape', type(vec).__name__)}",
          ShapeError)
    params = list(parameters)
    total = sum(p.numel() for p in params)
    check(total == vec.shape[0], "vector_to_parameters",
          lambda: f"the vector has {vec.shape[0]} elements, the parameters {total}", ShapeError)
    start = 0
    with no_grad():
        for p in params:
            n = p.numel()
            p.copy_(vec[start:start + n].reshape(p.shape))
            start += n
