"""The pseudo-inverse, least squares and the numerical rank: ``pinv``, ``lstsq``, ``matrix_rank``.

``pinv`` is one SVD (an eigendecomposition with ``hermitian=True``) through
LAPACK, with PyTorch's VJP, which needs no singular vectors and so holds for
repeated singular values. ``lstsq`` is ``pinv(A) @ B`` (the minimum-norm
solution that LAPACK's default ``gelsy`` driver returns) and differentiates
through it; ``matrix_rank`` counts singular values above the tolerance.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..dtypes import int64
from ..errors import ShapeError, check
from ..graph.grad_mode import no_grad
from ..graph.node import Node, record
from ..ops.creation import zeros
from ..ops.elementwise import maximum
from .factorizations import eigvalsh, svdvals
from .lapack import call, check_lapack_dtype, check_matrix

if TYPE_CHECKING:
    from ..tensor import Tensor


class LstsqResult(NamedTuple):
    """``(solution, residuals, rank, singular_values)`` of :func:`lstsq`."""

    solution: Tensor
    residuals: Tensor
    rank: Tensor
    singular_values: Tensor


def _default_rtol(A: Tensor) -> float:
    """PyTorch's default relative tolerance: ``eps * max(m, n)``."""
    return float(np.finfo(A.dtype.numpy).eps) * max(A.shape[-2], A.shape[-1])


def _tolerances(A: Tensor, atol: float | None, rtol: float | None) -> tuple[float, float]:
    """``(atol, rtol)`` with PyTorch's defaults (rtol is 0 when only a positive atol is given)."""
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else _default_rtol(A)
    return float(atol or 0.0), float(rtol)


def _pinv_routine(xp: Any, a: Any, atol: float, rtol: float, hermitian: bool) -> Any:
    if hermitian:
        w, q = xp.linalg.eigh(a)
        mag = xp.abs(w)
    else:
        u, w, vh = xp.linalg.svd(a, full_matrices=False)
        mag = w
    tol = xp.maximum(atol, rtol * mag.max(axis=-1, keepdims=True))
    keep = mag > tol
    inverse = xp.where(keep, 1 / xp.where(keep, w, 1), 0)[..., None, :]
    if hermitian:
        return (q * inverse) @ xp.conj(q.swapaxes(-1, -2))
    return (xp.conj(vh.swapaxes(-1, -2)) * inverse) @ xp.conj(u.swapaxes(-1, -2))


def pinv(A: Tensor, *, atol: float | None = None, rtol: float | None = None,
         hermitian: bool = False) -> Tensor:
    """The Moore-Penrose pseudo-inverse of each matrix.

    Singular values at or below ``max(atol, rtol * largest)`` count as zero
    (default ``rtol``: ``eps * max(m, n)``). ``hermitian=True`` reads only the
    lower triangle of a Hermitian ``A`` and uses its eigendecomposition.

    Example:
        >>> gt.linalg.pinv(gt.tensor([[2.0, 0.0], [0.0, 0.0]])).tolist()
        [[0.5, 0.0], [0.0, 0.0]]
    """
    op = "linalg.pinv"
    check_matrix(op, A, square=hermitian)
    m, n = A.shape[-2:]
    if not A.numel():
        out = zeros(*A.shape[:-2], n, m, dtype=A.dtype, device=A.device)
    else:
        a_tol, r_tol = _tolerances(A, atol, rtol)
        (out,) = call(op, lambda xp, a: _pinv_routine(xp, a, a_tol, r_tol, hermitian), A)
    record("linalg_pinv", out, (A,), _pinv_vjp, save=[A, out])
    return out


def _pinv_vjp(ctx: Node, g: Tensor) -> Tensor:
    A, P = ctx.saved_tensors
    Ph, gh = P.mH, g.mH
    if A.shape[-2] <= A.shape[-1]:
        K = gh @ P
        KPh = K @ Ph
        return -(P @ K).mH + KPh - (A @ P) @ KPh + (Ph @ P) @ (gh - K @ A)
    K = P @ gh
    PhK = Ph @ K
    return -(K @ P).mH + (gh - A @ K) @ P @ Ph + PhK - PhK @ P @ A


def matrix_rank(A: Tensor, *, atol: float | None = None, rtol: float | None = None,
                hermitian: bool = False) -> Tensor:
    """The numerical rank of each matrix: its singular values above ``max(atol, rtol * largest)``.

    Example:
        >>> gt.linalg.matrix_rank(gt.tensor([[1.0, 2.0], [2.0, 4.0]])).item()
        1
    """
    op = "linalg.matrix_rank"
    check_matrix(op, A, square=hermitian)
    if not A.numel():
        return zeros(*A.shape[:-2], dtype=int64, device=A.device)
    a_tol, r_tol = _tolerances(A, atol, rtol)
    with no_grad():
        s = eigvalsh(A).abs() if hermitian else svdvals(A)
        tol = maximum(s.amax(-1, keepdim=True) * r_tol, a_tol)
        return (s > tol).sum(-1)


_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def lstsq(A: Tensor, B: Tensor, rcond: float | None = None, *, driver: str | None = None
          ) -> LstsqResult:
    """The least-squares solution ``X`` minimizing ``||A X - B||`` for each pair of matrices.

    Returns PyTorch's four fields: the solution; the squared residuals per
    column (for ``driver`` ``gels``, or ``gelsd``/``gelss`` when every ``A``
    has full rank, and ``m > n``; else empty); the ranks (empty for
    ``gels``); and the singular values of ``A`` (for ``gelsd``/``gelss``, else
    empty). Singular values at or below ``rcond`` times the largest count as
    zero. The default driver is ``gelsy`` on every device (PyTorch's cpu default).

    Example:
        >>> A = gt.tensor([[1.0], [1.0]])
        >>> round(gt.linalg.lstsq(A, gt.tensor([[1.0], [3.0]])).solution.item(), 4)
        2.0
    """
    op = "linalg.lstsq"
    check_matrix(op, A, square=False)
    check_lapack_dtype(op, A, B)
    check(driver is None or driver in _DRIVERS, op, lambda: f"driver must be one of "
          f"{', '.join(_DRIVERS)}, got {driver!r}", ValueError)
    vector = B.ndim == A.ndim - 1
    rhs = B.unsqueeze(-1) if vector else B
    check(rhs.ndim >= 2 and rhs.shape[-2] == A.shape[-2], op, lambda: f"shapes {A.shape} and "
          f"{B.shape} are incompatible: A and B must have the same number of rows",
          ShapeError)
    m, n = A.shape[-2:]
    X = pinv(A, rtol=rcond) @ rhs
    empty = zeros(0, dtype=A.dtype.real_dtype, device=A.device)
    rank = zeros(0, dtype=int64, device=A.device)
    full_rank = driver == "gels"
    if driver != "gels":
        rank = matrix_rank(A, rtol=rcond)
        full_rank = driver is not None and bool((rank == min(m, n)).all())
    misfit = A @ X - rhs
    residuals = (misfit * misfit.conj()).real.sum(-2) if m > n and full_rank else empty
    sv = svdvals(A) if driver in ("gelsd", "gelss") else empty
    if vector:
        X = X.squeeze(-1)
    return LstsqResult(X, residuals, rank, sv)

