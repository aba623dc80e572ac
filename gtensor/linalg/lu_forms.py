"""``torch.linalg``'s LU-based forms: ``lu_factor_ex``, ``lu_solve`` and ``inv_ex``.

The ``_ex`` forms report singular matrices in ``info`` (LAPACK's: the 1-based
position of the first zero on ``U``'s diagonal, 0 for none) instead of raising,
unless ``check_errors``. They differentiate through the ops they compose.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..dtypes import int32
from ..errors import ShapeError, check
from ..ops.creation import eye, zeros
from .failures import LinAlgError
from .lu import _check_input, _permutation, factor, lu_factor, zero_pivots
from .lu import lu_solve as _legacy_lu_solve
from .solvers import inv, solve_triangular

if TYPE_CHECKING:
    from ..tensor import Tensor


class LUFactorExResult(NamedTuple):
    """``lu_factor_ex``'s result: ``LU``, ``pivots`` and ``info``."""

    LU: Tensor
    pivots: Tensor
    info: Tensor


class InvExResult(NamedTuple):
    """``inv_ex``'s result: ``inverse`` and ``info``."""

    inverse: Tensor
    info: Tensor


def lu_factor_ex(A: Tensor, *, pivot: bool = True, check_errors: bool = False
                 ) -> LUFactorExResult:
    """:func:`lu_factor` that reports singular matrices in ``info`` instead of raising.

    Example:
        >>> gt.linalg.lu_factor_ex(gt.tensor([[1.0, 2.0], [2.0, 4.0]])).info.item()
        2
    """
    if check_errors:
        return LUFactorExResult(*lu_factor(A, pivot=pivot), zeros(A.shape[:-2], dtype=int32,
                                                                  device=A.device))
    out = factor("linalg.lu_factor_ex", A, pivot)
    return LUFactorExResult(out.LU, out.pivots, zero_pivots(out.LU))


def lu_solve(LU: Tensor, pivots: Tensor, B: Tensor, *, left: bool = True,
             adjoint: bool = False) -> Tensor:
    """Solve ``A X = B`` (``X A = B`` when not ``left``; ``A^H`` for ``A`` when ``adjoint``)
    from :func:`lu_factor`'s ``(LU, pivots)`` of ``A``.

    Example:
        >>> lu, piv = gt.linalg.lu_factor(gt.tensor([[1.0, 2.0], [3.0, 4.0]]))
        >>> x = gt.linalg.lu_solve(lu, piv, gt.tensor([[5.0], [11.0]]))
        >>> [round(v, 6) for v in x.flatten().tolist()]
        [1.0, 2.0]
    """
    op = "linalg.lu_solve"
    _check_input(op, LU)
    _check_input(op, B)
    if not left:  # X A = B  <=>  A^H X^H = B^H
        return lu_solve(LU, pivots, B.mH, adjoint=not adjoint).mH  # type: ignore[attr-defined]
    if not adjoint:
        return _legacy_lu_solve(B, LU, pivots)
    n = LU.shape[-1]
    check(LU.shape[-2] == n and B.shape[-2] == n, op, lambda: f"expected a square LU and B "
          f"with {n} rows, got LU {tuple(LU.shape)} and B {tuple(B.shape)}", ShapeError)
    z = solve_triangular(LU.mH, B, upper=False)  # type: ignore[attr-defined]
    w = solve_triangular(LU.mH, z, upper=True, unitriangular=True)  # type: ignore[attr-defined]
    return _permutation(pivots, n, LU) @ w


def inv_ex(A: Tensor, *, check_errors: bool = False) -> InvExResult:
    """:func:`inv` that reports singular matrices in ``info`` instead of raising.

    A singular matrix's ``inverse`` is not meaningful (non-finite entries).

    Example:
        >>> gt.linalg.inv_ex(gt.tensor([[2.0, 0.0], [0.0, 0.0]])).info.item()
        2
    """
    try:
        return InvExResult(inv(A), zeros(A.shape[:-2], dtype=int32, device=A.device))
    except LinAlgError:
        if check_errors:
            raise
    LU, piv = factor("linalg.inv_ex", A, True)
    ident = eye(A.shape[-1], dtype=A.dtype, device=A.device)
    return InvExResult(_legacy_lu_solve(ident.expand(*A.shape), LU, piv), zero_pivots(LU))
