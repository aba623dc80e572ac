"""``torch.linalg``'s ``_ex`` forms (``lu_factor_ex``, ``inv_ex``, ``solve_ex``,
``cholesky_ex``) and ``lu_solve``.

The ``_ex`` forms report failing matrices in ``info`` instead of raising, unless
``check_errors``: for the LU-based ones, LAPACK's 1-based position of the first
zero on ``U``'s diagonal; for ``cholesky_ex``, the order of the first leading
minor that is not positive-definite (0: no failure). They differentiate
through the ops they compose.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..dtypes import int32
from ..errors import ShapeError, check
from ..ops.creation import eye, full_like, tensor, zeros
from ..ops.layout.copies import stack
from ..tensor_base import TensorBase
from .factorizations import cholesky
from .failures import LinAlgError, _first_bad_minor
from .lu import _check_input, _permutation, factor, lu_factor, zero_pivots
from .lu import lu_solve as _legacy_lu_solve
from .solvers import inv, solve, solve_triangular

if TYPE_CHECKING:
    from ..tensor import Tensor


class LUFactorExResult(NamedTuple):
    """``lu_factor_ex``'s result: ``LU``, ``pivots`` and ``info``."""

    LU: Tensor
    pivots: Tensor
    info: Tensor


class SolveExResult(NamedTuple):
    """``solve_ex``'s result: ``result`` and ``info``."""

    result: Tensor
    info: Tensor


class CholeskyExResult(NamedTuple):
    """``cholesky_ex``'s result: ``L`` and ``info``."""

    L: Tensor
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


def solve_ex(A: Tensor, B: Tensor, *, left: bool = True, check_errors: bool = False
             ) -> SolveExResult:
    """:func:`solve` that reports singular matrices in ``info`` instead of raising.

    Example:
        >>> gt.linalg.solve_ex(gt.tensor([[1.0, 2.0], [2.0, 4.0]]), gt.ones(2)).info.item()
        2
    """
    try:
        out = solve(A, B, left=left)
        return SolveExResult(out, zeros(A.shape[:-2], dtype=int32, device=A.device))
    except LinAlgError:
        if check_errors:
            raise
    LU, piv = factor("linalg.solve_ex", A, True)
    vector = isinstance(B, TensorBase) and (B.ndim == 1 or (
        B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1])))
    rhs = B.unsqueeze(-1 if left else -2) if vector else B  # type: ignore[attr-defined]
    out = lu_solve(LU, piv, rhs, left=left)
    return SolveExResult(out.squeeze(-1 if left else -2) if vector else out, zero_pivots(LU))


def cholesky_ex(A: Tensor, *, upper: bool = False, check_errors: bool = False
                ) -> CholeskyExResult:
    """:func:`cholesky` that reports matrices that are not positive-definite in ``info``.

    A failing matrix's factor is not meaningful (NaN).

    Example:
        >>> gt.linalg.cholesky_ex(gt.tensor([[1.0, 2.0], [2.0, 1.0]])).info.item()
        2
    """
    try:
        out = cholesky(A, upper=upper)
        return CholeskyExResult(out, zeros(A.shape[:-2], dtype=int32, device=A.device))
    except LinAlgError:
        if check_errors:
            raise
    n = A.shape[-1]
    factors, infos = [], []
    for m in A.reshape(-1, n, n):  # type: ignore[attr-defined]
        try:
            factors.append(cholesky(m, upper=upper))
            infos.append(0)
        except LinAlgError:
            factors.append(full_like(m, float("nan")))
            lower = m.mH if upper else m  # type: ignore[attr-defined]
            infos.append(_first_bad_minor(lower.detach().cpu().numpy()))
    info = tensor(infos, dtype=int32, device=A.device).reshape(A.shape[:-2])
    return CholeskyExResult(stack(factors).reshape(A.shape), info)
