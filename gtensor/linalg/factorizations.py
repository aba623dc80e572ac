"""Factorizations: ``cholesky``, ``qr``, ``eigh``/``eigvalsh`` and ``svd``/``svdvals``, with VJPs.

Each forward is one LAPACK routine over the batch (through :mod:`.lapack`).
The VJPs follow PyTorch's (``torch/csrc/autograd/FunctionsManual.cpp``) and the
QR one Liao et al. (2019); they are written in gtensor ops, so they run on the
input's device and can be differentiated again. Eigen- and singular vectors
have a gradient only where their values are distinct: terms of equal values
are left out (PyTorch gives inf or nan there). Complex vectors are determined
up to a phase each; a loss that depends on those phases has no gradient, and
the VJPs refuse it as PyTorch does. ``eigvalsh`` and ``svdvals`` keep their
vectors as outputs of their graph node, so their gradients can be
differentiated again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import check
from ..graph.node import Node, needs_grad, record
from ..ops.creation import zeros
from ..ops.layout.copies import cat
from .failures import no_convergence, not_positive_definite
from .lapack import Outputs, call, check_matrix
from .solvers import solve_triangular
from .structure import check_phase_free, diag_embed, inverse_gaps, safe_reciprocal

if TYPE_CHECKING:
    from ..tensor import Tensor


class EighResult(NamedTuple):
    """``(eigenvalues, eigenvectors)`` of :func:`eigh`."""

    eigenvalues: Tensor
    eigenvectors: Tensor


class QRResult(NamedTuple):
    """``(Q, R)`` of :func:`qr`."""

    Q: Tensor
    R: Tensor


class SVDResult(NamedTuple):
    """``(U, S, Vh)`` of :func:`svd`."""

    U: Tensor
    S: Tensor
    Vh: Tensor


def cholesky(A: Tensor, *, upper: bool = False) -> Tensor:
    """The Cholesky factor ``L`` (``A = L L^H``) of each Hermitian positive-definite matrix.

    Only the lower triangle of ``A`` is read (the upper one with ``upper=True``,
    which returns ``U = L^H``).

    Raises:
        LinAlgError: a matrix is not positive-definite.

    Example:
        >>> gt.linalg.cholesky(gt.tensor([[4.0, 2.0], [2.0, 2.0]])).tolist()
        [[2.0, 0.0], [1.0, 1.0]]
    """
    op = "linalg.cholesky"
    check_matrix(op, A)
    src = A.mH if upper else A

    def factor(xp: Any, a: Any) -> Any:
        lower = xp.linalg.cholesky(a)
        return xp.conj(lower.swapaxes(-1, -2)) if upper else lower

    (out,) = call(op, factor, src, failure=lambda a: not_positive_definite(op, a),
                  outputs=[(A.shape, A.dtype)])
    record("linalg_cholesky", out, (A,), _cholesky_vjp, save=[out], upper=upper)
    return out


def _cholesky_vjp(ctx: Node, g: Tensor) -> Tensor:
    (factor,) = ctx.saved_tensors
    L, gL = (factor.mH, g.mH) if ctx.upper else (factor, g)
    gA = (L.mH @ gL).tril()
    gA = 0.5 * (gA + gA.tril(-1).mH)
    gA = solve_triangular(L.mH, gA, upper=True)
    return solve_triangular(L, gA, upper=False, left=False)


def qr(A: Tensor, mode: str = "reduced") -> QRResult:
    """The QR factorization ``A = Q R`` of each matrix (``mode``: reduced, complete or r).

    With ``mode="r"`` Q is an empty tensor. Differentiable for ``reduced``, and
    for ``complete`` when rows <= columns.

    Example:
        >>> Q, R = gt.linalg.qr(gt.tensor([[3.0, 0.0], [4.0, 1.0]]))
        >>> [round(abs(v), 4) for v in R.flatten().tolist()]
        [5.0, 0.8, 0.0, 0.6]
    """
    op = "linalg.qr"
    check(mode in ("reduced", "complete", "r"), op, lambda: "qr received unrecognized mode "
          f"'{mode}' but expected one of 'reduced' (default), 'r', or 'complete'", ValueError)
    check_matrix(op, A, square=False)
    *batch, m, n = A.shape
    k = m if mode == "complete" else min(m, n)
    q, r = ((*batch, m, k), A.dtype), ((*batch, k, n), A.dtype)
    if mode == "r":
        (R,) = call(op, lambda xp, a: xp.linalg.qr(a, mode="r"), A, outputs=[r])
        Q = zeros(0, dtype=A.dtype, device=A.device)
    else:
        Q, R = call(op, lambda xp, a: xp.linalg.qr(a, mode=mode), A, outputs=[q, r])
    record("linalg_qr", (Q, R), (A,), _qr_vjp, save=[Q, R], mode=mode)
    return QRResult(Q, R)


def _qr_square_vjp(gQ: Tensor, gR: Tensor, Q: Tensor, R: Tensor) -> Tensor:
    """The VJP of a QR with rows >= columns (Q of A's shape, R square, with a real diagonal)."""
    M = R @ gR.mH - gQ.mH @ Q
    M = M.tril(-1) + M.tril(-1).mH + diag_embed(M.diagonal(0, -2, -1).real)
    return solve_triangular(R, (gQ + Q @ M).mH, upper=True).mH


def _qr_vjp(ctx: Node, gQ: Tensor, gR: Tensor) -> Tensor:
    check(ctx.mode != "r", "linalg.qr", "the derivative of linalg.qr depends on Q, which is "
          "not computed when mode='r'; use mode='reduced' to differentiate through it",
          RuntimeError)
    Q, R = ctx.saved_tensors
    m, n = Q.shape[-2], R.shape[-1]
    check(ctx.mode == "reduced" or m <= n, "linalg.qr", "the QR decomposition is not "
          "differentiable when mode='complete' and nrows > ncols", RuntimeError)
    if m >= n:
        return _qr_square_vjp(gQ, gR, Q, R)
    U, V = R.narrow(-1, 0, m), R.narrow(-1, m, n - m)
    gU, gV = gR.narrow(-1, 0, m), gR.narrow(-1, m, n - m)
    gX = _qr_square_vjp(gQ + Q @ V @ gV.mH, gU, Q, U)
    return cat([gX, Q @ gV], -1)


def _eigh(op: str, A: Tensor, UPLO: str, vectors: bool) -> tuple[Tensor, ...]:
    check_matrix(op, A)
    check(UPLO in ("L", "U"), op, lambda: f"UPLO must be 'L' or 'U', got {UPLO!r}", ValueError)
    values = (A.shape[:-1], A.dtype.real_dtype)
    if vectors:
        return call(op, lambda xp, a: xp.linalg.eigh(a, UPLO), A,
                    failure=lambda a: no_convergence(op), outputs=[values, (A.shape, A.dtype)])
    return call(op, lambda xp, a: xp.linalg.eigvalsh(a, UPLO), A,
                failure=lambda a: no_convergence(op), outputs=[values])


def eigh(A: Tensor, UPLO: str = "L") -> EighResult:
    """Eigenvalues (real, ascending) and orthonormal eigenvectors of each Hermitian matrix.

    Only the ``UPLO`` triangle of ``A`` is read.

    Example:
        >>> gt.linalg.eigh(gt.tensor([[2.0, 0.0], [0.0, 1.0]])).eigenvalues.tolist()
        [1.0, 2.0]
    """
    op = "linalg.eigh"
    L, Q = _eigh(op, A, UPLO, True)
    record("linalg_eigh", (L, Q), (A,), _eigh_vjp, save=[L, Q])
    return EighResult(L, Q)


def _eigh_vjp(ctx: Node, gL: Tensor, gQ: Tensor) -> Tensor:
    L, Q = ctx.saved_tensors
    QgQ = Q.mH @ gQ
    if QgQ.dtype.is_complex:
        check_phase_free("linalg.eigh", QgQ.diagonal(0, -2, -1).imag, "eigenvectors")
    inner = 0.5 * (QgQ - QgQ.mH) * inverse_gaps(L) + diag_embed(gL)
    return Q @ inner @ Q.mH


def eigvalsh(A: Tensor, UPLO: str = "L") -> Tensor:
    """Eigenvalues (real, ascending) of each Hermitian matrix (only the ``UPLO`` triangle is read).

    Example:
        >>> gt.linalg.eigvalsh(gt.tensor([[2.0, 0.0], [0.0, 1.0]])).tolist()
        [1.0, 2.0]
    """
    op = "linalg.eigvalsh"
    if not needs_grad(A):
        return _eigh(op, A, UPLO, False)[0]
    L, Q = _eigh(op, A, UPLO, True)
    record("linalg_eigvalsh", (L, Q), (A,), _eigh_vjp, save=[L, Q])
    return L


def svd(A: Tensor, full_matrices: bool = True, *, driver: str | None = None) -> SVDResult:
    """The singular value decomposition ``A = U diag(S) Vh`` of each matrix.

    ``S`` is real. ``driver`` (a cuSOLVER choice in PyTorch) is accepted and
    ignored. With ``full_matrices`` the gradient flows through the first
    ``min(m, n)`` columns of U and rows of Vh, the ones the factorization
    determines.

    Example:
        >>> gt.linalg.svd(gt.tensor([[3.0, 0.0], [0.0, -4.0]])).S.tolist()
        [4.0, 3.0]
    """
    op = "linalg.svd"
    check_matrix(op, A, square=False)
    U, S, Vh = call(op, lambda xp, a: xp.linalg.svd(a, full_matrices=full_matrices), A,
                    failure=lambda a: no_convergence(op), outputs=_svd_outputs(A, full_matrices))
    record("linalg_svd", (U, S, Vh), (A,), _svd_vjp, save=[U, S, Vh])
    return SVDResult(U, S, Vh)


def _svd_outputs(A: Tensor, full_matrices: bool) -> Outputs:
    """The shapes and dtypes of U, S and Vh of ``A``'s SVD."""
    *batch, m, n = A.shape
    k = min(m, n)
    u, v = (m, n) if full_matrices else (k, k)
    return [((*batch, m, u), A.dtype), ((*batch, k), A.dtype.real_dtype),
            ((*batch, v, n), A.dtype)]


def _svd_vjp(ctx: Node, gU: Tensor, gS: Tensor, gVh: Tensor) -> Tensor:
    U, S, Vh = ctx.saved_tensors
    k = S.shape[-1]
    U, gU, Vh, gVh = U.narrow(-1, 0, k), gU.narrow(-1, 0, k), Vh.narrow(-2, 0, k), \
        gVh.narrow(-2, 0, k)
    m, n = U.shape[-2], Vh.shape[-1]
    V, gV = Vh.mH, gVh.mH
    UgU = U.mH @ gU
    VgV = V.mH @ gV
    UgU, VgV = UgU - UgU.mH, VgV - VgV.mH
    gA = (UgU * S.unsqueeze(-2) + S.unsqueeze(-1) * VgV) * inverse_gaps(S * S) + diag_embed(gS)
    if UgU.dtype.is_complex:
        phase_u, phase_v = UgU.diagonal(0, -2, -1).imag, VgV.diagonal(0, -2, -1).imag
        check_phase_free("linalg.svd", phase_u + phase_v, "singular vectors")
        gA = gA + diag_embed(0.5j * phase_u * safe_reciprocal(S))
    if m > n:
        gUSinv = gU * safe_reciprocal(S).unsqueeze(-2)
        return (U @ gA + gUSinv - U @ (U.mH @ gUSinv)) @ Vh
    if m < n:
        gVSinv = gV * safe_reciprocal(S).unsqueeze(-2)
        return U @ (gA @ Vh + gVSinv.mH - (gVSinv.mH @ V) @ Vh)
    return U @ gA @ Vh


def svdvals(A: Tensor, *, driver: str | None = None) -> Tensor:
    """The singular values (descending) of each matrix.

    Example:
        >>> gt.linalg.svdvals(gt.tensor([[3.0, 0.0], [0.0, -4.0]])).tolist()
        [4.0, 3.0]
    """
    op = "linalg.svdvals"
    check_matrix(op, A, square=False)
    outputs = _svd_outputs(A, False)
    if not needs_grad(A):
        return call(op, lambda xp, a: xp.linalg.svd(a, compute_uv=False), A,
                    failure=lambda a: no_convergence(op), outputs=outputs[1:2])[0]
    U, S, Vh = call(op, lambda xp, a: xp.linalg.svd(a, full_matrices=False), A,
                    failure=lambda a: no_convergence(op), outputs=outputs)
    record("linalg_svdvals", (U, S, Vh), (A,), _svd_vjp, save=[U, S, Vh])
    return S

