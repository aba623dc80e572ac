"""``matrix_exp``: the matrix exponential by scaling and squaring a Taylor polynomial.

Each matrix is scaled by ``2**-s`` so its 1-norm is at most 1/2, where 18 Taylor
terms are exact to rounding in float64; the polynomial (Horner's rule, all matmuls)
is then squared ``s`` times. The gradient comes from the composition (matmuls and
scalings), so it is the exact derivative of the same approximation.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..errors import DTypeError, ShapeError, check
from ..graph.grad_mode import no_grad
from ..ops.creation import eye
from ..ops.matmul import matmul
from ..tensor_base import TensorBase

if TYPE_CHECKING:
    from ..tensor import Tensor

_TERMS = 18


def matrix_exp(A: Tensor) -> Tensor:
    """``exp(A)`` of each square matrix in ``A`` (batched over leading dims).

    Args:
        A: ``(*, n, n)`` real or complex floating tensor.

    Returns:
        ``sum_k A^k / k!``, the same shape and dtype as ``A``.

    Example:
        >>> gt.linalg.matrix_exp(gt.zeros(2, 2)).tolist()
        [[1.0, 0.0], [0.0, 1.0]]
    """
    check(isinstance(A, TensorBase), "matrix_exp",
          lambda: f"expected a tensor, got {type(A).__name__}", TypeError)
    check(A.ndim >= 2 and A.shape[-1] == A.shape[-2], "matrix_exp",
          lambda: f"expected a batch of square matrices, got shape {tuple(A.shape)}", ShapeError)
    check(A.dtype.is_floating_point or A.dtype.is_complex, "matrix_exp",
          lambda: f"expected a floating point or complex tensor, got {A.dtype.name}", DTypeError)
    n = A.shape[-1]
    ident = eye(n, dtype=A.dtype, device=A.device)
    if A.numel() == 0:
        return A + ident
    with no_grad():
        norm = float(A.abs().sum(-2).amax().item())  # type: ignore[attr-defined]
    squarings = max(0, math.ceil(math.log2(norm / 0.5))) if norm > 0.5 else 0
    scaled = A * (0.5 ** squarings) if squarings else A
    out = ident + scaled * (1.0 / _TERMS)
    for k in range(_TERMS - 1, 0, -1):
        out = ident + matmul(scaled, out) * (1.0 / k)
    for _ in range(squarings):
        out = matmul(out, out)
    return out
