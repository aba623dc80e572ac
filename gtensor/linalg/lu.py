"""LU factorization with partial pivoting (``lu_factor``, ``lu``), ``lu_unpack`` and
``lu_solve``, composed of gtensor ops so they run on every device and differentiate
through the elimination.

``lu_factor`` eliminates one column per step (right-looking, as LAPACK's ``getf2``): the
row with the largest magnitude in the column becomes the pivot, and a zero pivot leaves
its column unscaled (the factorization of a singular matrix still completes). Pivots are
1-based int32, LAPACK's and PyTorch's convention.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..dtypes import int32, int64
from ..errors import DTypeError, ShapeError, check
from ..graph.grad_mode import no_grad
from ..ops import elementwise as ew
from ..ops.creation import arange, eye
from ..ops.indexing.along_dim import gather
from ..ops.layout.copies import cat, stack, tril, triu
from ..tensor_base import TensorBase
from .failures import LinAlgError
from .solvers import solve_triangular

if TYPE_CHECKING:
    from ..tensor import Tensor


class LUFactorResult(NamedTuple):
    """``lu_factor``'s result: ``LU`` (L below the diagonal, U on and above) and pivots."""

    LU: Tensor
    pivots: Tensor


class LUResult(NamedTuple):
    """``lu``'s and ``lu_unpack``'s result: ``A = P @ L @ U``."""

    P: Tensor
    L: Tensor
    U: Tensor


def _check_input(op: str, A: Tensor) -> None:
    check(isinstance(A, TensorBase), op, lambda: f"expected a tensor, got {type(A).__name__}",
          TypeError)
    check(A.ndim >= 2, op, lambda: f"expected a matrix or a batch of matrices, got shape "
          f"{tuple(A.shape)}", ShapeError)
    check(A.dtype.is_floating_point or A.dtype.is_complex, op, lambda: "expected a floating "
          f"point or complex tensor, got {A.dtype.name}", DTypeError)


def lu_factor(A: Tensor, *, pivot: bool = True) -> LUFactorResult:
    """The compact LU factorization ``A = P L U`` of each ``(m, n)`` matrix in ``A``.

    Args:
        A: ``(*, m, n)`` floating or complex.
        pivot: must be True (partial pivoting).

    Returns:
        ``(LU, pivots)``: ``LU`` holds ``L`` (unit diagonal, not stored) below the
        diagonal and ``U`` on and above it; ``pivots`` ``(*, min(m, n))`` 1-based int32 rows.

    Raises:
        LinAlgError: a diagonal entry of ``U`` is zero (as PyTorch; :func:`lu` accepts
            singular matrices).

    Example:
        >>> lu, piv = gt.linalg.lu_factor(gt.tensor([[1.0, 2.0], [3.0, 4.0]]))
        >>> piv.tolist()
        [2, 2]
    """
    out = factor("lu_factor", A, pivot)
    first = int(zero_pivots(out.LU).amax().item()) if out.pivots.numel() else 0  # type: ignore[attr-defined]
    if first:
        raise LinAlgError(f"[lu_factor] U[{first},{first}] is zero and using it on lu_solve "
                          "would result in a division by zero")
    return out


def zero_pivots(LU: Tensor) -> Tensor:
    """The 1-based position of the first zero on each ``U``'s diagonal, 0 where none is
    (LAPACK's ``info``), int32."""
    with no_grad():
        diag = LU.diagonal(0, -2, -1)  # type: ignore[attr-defined]
        k = diag.shape[-1]
        place = ew.where(diag == 0, arange(1, k + 1, device=LU.device), k + 1).amin(-1)
        return ew.where(place > k, 0, place).to(int32)  # type: ignore[attr-defined]


def factor(op: str, A: Tensor, pivot: bool) -> LUFactorResult:
    """:func:`lu_factor` without the check for zero pivots."""
    _check_input(op, A)
    check(pivot, op, "only partial pivoting (pivot=True) is supported", ValueError)
    m, n = A.shape[-2:]
    rows = arange(m, device=A.device)
    pivots = []
    for j in range(min(m, n)):
        with no_grad():
            p = A[..., j:, j].abs().argmax(-1) + j  # type: ignore[attr-defined]
            p_col = p.unsqueeze(-1)
            order = ew.where(rows == j, p_col, ew.where(rows == p_col, j, rows))
        pivots.append(p)
        A = gather(A, -2, order.unsqueeze(-1).expand(*A.shape[:-1], n))
        head = A[..., j, j].unsqueeze(-1)  # type: ignore[attr-defined]
        zero = head == 0
        below = A[..., j + 1:, :]
        factors = ew.where(zero, 0.0, below[..., j] / ew.where(zero, 1.0, head))
        rest = below[..., j + 1:] - factors.unsqueeze(-1) * A[..., j:j + 1, j + 1:]
        A = cat([A[..., :j + 1, :], cat([below[..., :j], factors.unsqueeze(-1), rest], -1)], -2)
    piv = (stack(pivots, -1) + 1).to(int32) if pivots else arange(
        0, dtype=int32, device=A.device).expand(*A.shape[:-2], 0)  # type: ignore[attr-defined]
    return LUFactorResult(A, piv)


def lu_unpack(LU_data: Tensor, LU_pivots: Tensor, unpack_data: bool = True,
              unpack_pivots: bool = True) -> LUResult:
    """Split :func:`lu_factor`'s result into ``P``, ``L`` and ``U`` with ``A = P @ L @ U``.

    Example:
        >>> a = gt.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> p, l, u = gt.lu_unpack(*gt.linalg.lu_factor(a))
        >>> (p @ l @ u).tolist()
        [[1.0, 2.0], [3.0, 4.0]]
    """
    _check_input("lu_unpack", LU_data)
    m, n = LU_data.shape[-2:]
    k = min(m, n)
    check(tuple(LU_pivots.shape) == (*LU_data.shape[:-2], k), "lu_unpack", lambda: "expected "
          f"pivots of shape {(*LU_data.shape[:-2], k)}, got {tuple(LU_pivots.shape)}",
          ShapeError)
    empty = LU_data.new_zeros(0)  # type: ignore[attr-defined]
    if unpack_data:
        unit = eye(m, k, dtype=LU_data.dtype, device=LU_data.device)
        L = tril(LU_data[..., :, :k].contiguous(), -1) + unit  # type: ignore[attr-defined]
        U = triu(LU_data[..., :k, :].contiguous())  # type: ignore[attr-defined]
    else:
        L = U = empty
    P = _permutation(LU_pivots, m, LU_data) if unpack_pivots else empty
    return LUResult(P, L, U)


def _row_order(pivots: Tensor, m: int) -> Tensor:
    """Row ``i`` of ``P^T A`` is row ``order[i]`` of ``A`` (the swaps applied in turn)."""
    with no_grad():
        rows = arange(m, device=pivots.device, dtype=int64).expand(*pivots.shape[:-1], m)
        order = rows.clone()  # type: ignore[attr-defined]
        piv = pivots.to(int64) - 1  # type: ignore[attr-defined]
        for j in range(pivots.shape[-1]):
            p = piv[..., j:j + 1]
            at_j = gather(order, -1, p)
            at_p = order[..., j:j + 1]
            order = ew.where(rows == j, at_j, ew.where(rows == p, at_p, order))
    return order


def _permutation(pivots: Tensor, m: int, like: Tensor) -> Tensor:
    order = _row_order(pivots, m)
    ident = eye(m, dtype=like.dtype, device=like.device).expand(*order.shape[:-1], m, m)
    # P^T = ident[order]: P's column i is the unit vector e_order[i]
    return gather(ident, -2, order.unsqueeze(-1).expand(*order.shape, m)).mT  # type: ignore[attr-defined]


def lu(A: Tensor, *, pivot: bool = True) -> LUResult:
    """The LU decomposition ``A = P @ L @ U`` (``P`` a permutation, ``L`` unit lower).

    Example:
        >>> p, l, u = gt.linalg.lu(gt.tensor([[0.0, 1.0], [2.0, 3.0]]))
        >>> u.tolist()
        [[2.0, 3.0], [0.0, 1.0]]
    """
    return lu_unpack(*factor("lu", A, pivot))


def lu_solve(b: Tensor, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:
    """Solve ``A X = b`` from :func:`lu_factor`'s result (PyTorch's legacy argument order).

    Example:
        >>> a = gt.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> lu, piv = gt.linalg.lu_factor(a)
        >>> x = gt.lu_solve(gt.tensor([[5.0], [11.0]]), lu, piv)
        >>> [round(v, 6) for v in x.flatten().tolist()]
        [1.0, 2.0]
    """
    _check_input("lu_solve", LU_data)
    m = LU_data.shape[-1]
    check(LU_data.shape[-2] == m and b.ndim >= 2 and b.shape[-2] == m, "lu_solve",
          lambda: f"expected a square LU and b with {m} rows, got LU {tuple(LU_data.shape)} "
          f"and b {tuple(b.shape)}", ShapeError)
    order = _row_order(LU_pivots, m)
    batch = tuple(b.shape[:-2]) if b.ndim >= order.ndim + 1 else tuple(order.shape[:-1])
    order = order.expand(*batch, m) if order.ndim > 1 or batch else order  # type: ignore[attr-defined]
    permuted = gather(b.expand(*batch, m, b.shape[-1]), -2,  # type: ignore[attr-defined]
                      order.unsqueeze(-1).expand(*batch, m, b.shape[-1]))
    y = solve_triangular(LU_data, permuted, upper=False, unitriangular=True)
    return solve_triangular(LU_data, y, upper=True)
