"""``householder_product``: the first columns of a product of Householder reflectors.

Composed of gtensor ops (differentiable), one rank-1 update per reflector.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import ShapeError, check
from ..ops.creation import arange, eye
from ..ops.elementwise import where
from .lapack import check_lapack_dtype

if TYPE_CHECKING:
    from ..tensor import Tensor


def householder_product(A: Tensor, tau: Tensor) -> Tensor:
    """The first ``n`` columns of ``H_1 ... H_k``, ``H_i = I - tau_i v_i v_i^H``, as LAPACK's
    ``orgqr`` (``v_i``: column ``i`` of ``A`` below the diagonal, with 1 on it).

    Args:
        A: ``(*, m, n)`` with ``m >= n``.
        tau: ``(*, k)`` with ``k <= n``.

    Example:
        >>> gt.linalg.householder_product(gt.zeros(2, 2), gt.tensor([2.0, 0.0])).tolist()
        [[-1.0, 0.0], [0.0, 1.0]]
    """
    op = "linalg.householder_product"
    check_lapack_dtype(op, A, tau)
    check(A.ndim >= 2 and tau.ndim == A.ndim - 1, op, lambda: "expected A (*, m, n) and tau "
          f"(*, k), got shapes {tuple(A.shape)} and {tuple(tau.shape)}", ShapeError)
    m, n = A.shape[-2:]
    k = tau.shape[-1]
    check(m >= n >= k and tuple(tau.shape[:-1]) == tuple(A.shape[:-2]), op, lambda: "expected "
          f"m >= n >= k and one batch shape, got A {tuple(A.shape)} and tau "
          f"{tuple(tau.shape)}", ShapeError)
    rows = arange(m, device=A.device)
    Q = eye(m, n, dtype=A.dtype, device=A.device).expand(*A.shape)
    for i in reversed(range(k)):
        v = where(rows > i, A[..., :, i], where(rows == i, 1.0, 0.0)).to(A.dtype)
        vh_q = v.conj().unsqueeze(-2) @ Q  # (*, 1, n)
        Q = Q - tau[..., i, None, None] * (v.unsqueeze(-1) @ vh_q)
    return Q
