"""``tensorinv`` and ``tensorsolve``: ``inv`` and ``solve`` of tensors seen as matrices.

Reshapes around one :func:`.solvers.inv` / :func:`.solvers.solve`, differentiable
through them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import ShapeError, check
from .lapack import check_lapack_dtype
from .solvers import inv, solve

if TYPE_CHECKING:
    from ..tensor import Tensor


def tensorinv(A: Tensor, ind: int = 2) -> Tensor:
    """The inverse of ``A`` in :func:`gtensor.tensordot` with ``ind`` dims: shape
    ``A.shape[ind:] + A.shape[:ind]``.

    Example:
        >>> gt.linalg.tensorinv(gt.eye(4).reshape(4, 2, 2), ind=1).shape
        (2, 2, 4)
    """
    op = "linalg.tensorinv"
    check_lapack_dtype(op, A)
    check(isinstance(ind, int) and ind > 0, op, lambda: f"ind must be a positive int, got "
          f"{ind!r}", ValueError)
    rows, cols = math.prod(A.shape[:ind]), math.prod(A.shape[ind:])
    check(rows == cols, op, lambda: f"prod(A.shape[ind:]) must equal prod(A.shape[:ind]), got "
          f"{cols} and {rows} for shape {tuple(A.shape)}", ShapeError)
    return inv(A.reshape(rows, cols)).reshape(*A.shape[ind:], *A.shape[:ind])


def tensorsolve(A: Tensor, B: Tensor, dims: Sequence[int] | None = None) -> Tensor:
    """The ``X`` with ``tensordot(A, X, X.ndim) == B``; ``dims`` of ``A`` move to the end first.

    Example:
        >>> gt.linalg.tensorsolve(gt.eye(6).reshape(2, 3, 6), gt.ones(2, 3)).shape
        (6,)
    """
    op = "linalg.tensorsolve"
    check_lapack_dtype(op, A, B)
    if dims is not None:
        dims = list(dims)
        A = A.movedim(dims, list(range(A.ndim - len(dims), A.ndim)))  # type: ignore[attr-defined]
    out_shape = tuple(A.shape[B.ndim:])
    rows, cols = math.prod(B.shape), math.prod(out_shape)
    check(tuple(A.shape[:B.ndim]) == tuple(B.shape) and rows == cols, op, lambda: "A's "
          f"leading dims must be B's shape {tuple(B.shape)} and the rest have as many "
          f"elements, got A of shape {tuple(A.shape)}", ShapeError)
    return solve(A.reshape(rows, cols), B.reshape(rows)).reshape(out_shape)
