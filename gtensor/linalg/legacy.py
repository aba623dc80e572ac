"""PyTorch's older linear-algebra functions with their return conventions, as thin calls
into :mod:`gtensor.linalg`: ``inverse``, ``pinverse``, ``cholesky(upper=)``,
``cholesky_solve``, ``cholesky_inverse``, ``qr(some=)``, ``svd(some=, compute_uv=)``
(which returns ``V``, not ``Vh``), ``triangular_solve`` (solution first, then a copy of the
coefficient matrix), ``frobenius_norm`` and ``nuclear_norm``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..errors import ShapeError, check
from ..ops.creation import eye, zeros
from ..tensor_base import TensorBase
from .factorizations import QRResult, svdvals
from .factorizations import cholesky as _cholesky
from .factorizations import qr as _qr
from .factorizations import svd as _svd
from .least_squares import pinv
from .lu import LUFactorResult, factor, lu_factor, lu_solve, lu_unpack, zero_pivots
from .matrix_exp import matrix_exp
from .norms import matrix_norm, vector_norm
from .solvers import inv, solve_triangular

if TYPE_CHECKING:
    from ..tensor import Tensor

inverse = inv

__all__ = ["cholesky", "cholesky_inverse", "cholesky_solve", "frobenius_norm", "inverse", "lu",
           "lu_solve", "lu_unpack", "matrix_exp", "nuclear_norm", "pinverse", "qr", "svd",
           "triangular_solve"]


class SVDLegacyResult(NamedTuple):
    """``torch.svd``'s result: ``U``, ``S`` and ``V`` (so that ``A = U diag(S) V^H``)."""

    U: Tensor
    S: Tensor
    V: Tensor


class TriangularSolveResult(NamedTuple):
    """``triangular_solve``'s result: the solution and a copy of the coefficient matrix."""

    solution: Tensor
    cloned_coefficient: Tensor


def _matrices(op: str, *named: tuple[str, Tensor]) -> None:
    for name, t in named:
        check(isinstance(t, TensorBase), op, lambda: f"{name} must be a tensor, got "
              f"{type(t).__name__}", TypeError)
        check(t.ndim >= 2, op, lambda: f"{name} must have at least 2 dims, got shape "
              f"{tuple(t.shape)}", ShapeError)


def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:
    """The pseudo-inverse, dropping singular values below ``rcond`` times the largest.

    Example:
        >>> gt.pinverse(gt.eye(2) * 2).tolist()
        [[0.5, 0.0], [0.0, 0.5]]
    """
    return pinv(input, rtol=rcond)


def cholesky(input: Tensor, upper: bool = False) -> Tensor:
    """The Cholesky factor: ``L`` with ``A = L L^H``, or ``U = L^H`` when ``upper``.

    Example:
        >>> gt.cholesky(gt.eye(2) * 4.0).tolist()
        [[2.0, 0.0], [0.0, 2.0]]
    """
    return _cholesky(input, upper=upper)


def cholesky_solve(B: Tensor, L: Tensor, upper: bool = False) -> Tensor:
    """Solve ``A X = B`` given ``A``'s Cholesky factor (``L``, or ``U`` when ``upper``).

    Example:
        >>> gt.cholesky_solve(gt.ones(2, 1), gt.eye(2) * 2.0).tolist()
        [[0.25], [0.25]]
    """
    _matrices("cholesky_solve", ("B", B), ("L", L))
    check(L.shape[-1] == L.shape[-2] and B.shape[-2] == L.shape[-1], "cholesky_solve",
          lambda: f"expected a square factor matching B's rows, got L {tuple(L.shape)} and "
          f"B {tuple(B.shape)}", ShapeError)
    lower = L.mH if upper else L  # type: ignore[attr-defined]
    y = solve_triangular(lower, B, upper=False)
    return solve_triangular(lower.mH, y, upper=True)  # type: ignore[attr-defined]


def cholesky_inverse(L: Tensor, upper: bool = False) -> Tensor:
    """The inverse of ``A`` from its Cholesky factor (``L``, or ``U`` when ``upper``).

    Example:
        >>> gt.cholesky_inverse(gt.eye(2) * 2.0).tolist()
        [[0.25, 0.0], [0.0, 0.25]]
    """
    _matrices("cholesky_inverse", ("L", L))
    return cholesky_solve(eye(L.shape[-1], dtype=L.dtype, device=L.device).expand(L.shape), L,
                          upper)


def qr(input: Tensor, some: bool = True) -> QRResult:
    """The QR decomposition: reduced when ``some`` (the default), else complete.

    Example:
        >>> q, r = gt.qr(gt.eye(2)); r.shape
        (2, 2)
    """
    return _qr(input, mode="reduced" if some else "complete")


def svd(input: Tensor, some: bool = True, compute_uv: bool = True) -> SVDLegacyResult:
    """The SVD ``A = U diag(S) V^H``, returning ``V`` (not ``Vh`` as ``gt.linalg.svd``).

    Args:
        input: ``(*, m, n)``.
        some: the reduced decomposition (else ``U`` is ``m x m`` and ``V`` ``n x n``).
        compute_uv: when False, ``U`` and ``V`` are zero-filled ``m x m`` and ``n x n``.

    Example:
        >>> u, s, v = gt.svd(gt.eye(2) * 3.0); s.tolist()
        [3.0, 3.0]
    """
    _matrices("svd", ("input", input))
    if not compute_uv:
        m, n = input.shape[-2:]
        batch = tuple(input.shape[:-2])
        return SVDLegacyResult(zeros(*batch, m, m, dtype=input.dtype, device=input.device),
                               svdvals(input),
                               zeros(*batch, n, n, dtype=input.dtype, device=input.device))
    u, s, vh = _svd(input, full_matrices=not some)
    return SVDLegacyResult(u, s, vh.mH)  # type: ignore[attr-defined]


def triangular_solve(b: Tensor, A: Tensor, upper: bool = True, transpose: bool = False,
                     unitriangular: bool = False) -> TriangularSolveResult:
    """Solve ``A X = b`` (or ``A^T X = b``) for triangular ``A``.

    Returns:
        ``(solution, cloned_coefficient)``, the legacy order.

    Example:
        >>> x, a = gt.triangular_solve(gt.ones(2, 1), gt.eye(2) * 2.0); x.tolist()
        [[0.5], [0.5]]
    """
    _matrices("triangular_solve", ("b", b), ("A", A))
    coef = A.mT if transpose else A  # type: ignore[attr-defined]
    x = solve_triangular(coef, b, upper=upper != transpose, unitriangular=unitriangular)
    return TriangularSolveResult(x, A.clone())  # type: ignore[attr-defined]


def frobenius_norm(input: Tensor, dim: Sequence[int] = (-2, -1), keepdim: bool = False
                   ) -> Tensor:
    """The 2-norm over the dims ``dim`` (the Frobenius norm of each matrix by default).

    Example:
        >>> gt.frobenius_norm(gt.ones(2, 2)).item()
        2.0
    """
    return vector_norm(input, 2, dim=tuple(dim), keepdim=keepdim)


def nuclear_norm(input: Tensor, dim: Sequence[int] | bool = (-2, -1), keepdim: bool = False
                 ) -> Tensor:
    """The sum of the singular values of each matrix (over the dims ``dim``).

    ``nuclear_norm(x, True)`` is PyTorch's ``(input, keepdim)`` overload.

    Example:
        >>> gt.nuclear_norm(gt.eye(2) * 3.0).item()
        6.0
    """
    if isinstance(dim, bool):
        dim, keepdim = (-2, -1), dim
    return matrix_norm(input, "nuc", dim=tuple(dim), keepdim=keepdim)


def lu(A: Tensor, pivot: bool = True, get_infos: bool = False
       ) -> LUFactorResult | tuple[Tensor, Tensor, Tensor]:
    """PyTorch's legacy ``lu``: :func:`gtensor.linalg.lu_factor`, with ``get_infos`` the
    position of each matrix's first zero pivot (0 when none) instead of an error.

    Example:
        >>> lu, piv = gt.lu(gt.tensor([[1.0, 2.0], [3.0, 4.0]])); piv.tolist()
        [2, 2]
    """
    if not get_infos:
        return lu_factor(A, pivot=pivot)
    out = factor("lu", A, pivot)
    return out.LU, out.pivots, zero_pivots(out.LU)
