"""The condition number ``cond``, composed of ``svdvals``, ``matrix_norm`` and ``inv``.

Differentiable through the ops it composes. A singular matrix has condition
number ``inf`` for every order, as in PyTorch.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..errors import check
from ..ops.creation import full
from ..ops.layout.copies import stack
from .factorizations import svdvals
from .failures import LinAlgError
from .lapack import check_matrix
from .norms import matrix_norm
from .solvers import inv

if TYPE_CHECKING:
    from ..tensor import Tensor

_NORM_ORDERS = ("fro", "nuc", 1, -1, math.inf, -math.inf)


def _one(A: Tensor, p: float | str) -> Tensor:
    """``|A| |A^-1|`` for one square matrix; ``inf`` when it is singular."""
    try:
        return matrix_norm(A, p) * matrix_norm(inv(A), p)
    except LinAlgError:
        return full((), math.inf, dtype=A.real.dtype if A.dtype.is_complex else A.dtype,
                    device=A.device)


def cond(A: Tensor, p: float | str | None = None) -> Tensor:
    """The condition number of each matrix of ``A`` in the matrix norm of order ``p``.

    ``p``: None or 2 (largest over smallest singular value; any ``m x n``
    matrices), -2 (its inverse), or ``"fro"``, ``"nuc"``, 1, -1, ``inf``,
    ``-inf`` (``matrix_norm(A, p) * matrix_norm(inv(A), p)``; square matrices).

    Example:
        >>> gt.linalg.cond(gt.tensor([[1.0, 0.0], [0.0, 4.0]])).item()
        4.0
    """
    op = "linalg.cond"
    check(p is None or p in (2, -2, *_NORM_ORDERS), op,
          lambda: f"order {p!r} not supported", ValueError)
    if p in (None, 2, -2):
        check_matrix(op, A, square=False)
        s = svdvals(A)
        big, small = s.amax(-1), s.amin(-1)
        return small / big if p == -2 else big / small
    check_matrix(op, A)
    try:
        return matrix_norm(A, p) * matrix_norm(inv(A), p)
    except LinAlgError:  # some matrix is singular: take them one by one
        flat = A.reshape(-1, *A.shape[-2:])
        return stack([_one(flat[i], p) for i in range(flat.shape[0])]).reshape(A.shape[:-2])
