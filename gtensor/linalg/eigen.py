"""The eigendecomposition of general square matrices: ``eig`` and ``eigvals``, with their VJPs.

Real or complex input, complex results (as ``torch.linalg.eig``): LAPACK's
``geev`` through NumPy for host memory, ``cupy.linalg.eig`` (cuSOLVER's
``Xgeev``, CuPy 14 and later) on a GPU. Each eigenvector has unit norm and
is fixed only up to a phase. The VJP is PyTorch's ``linalg_eig_backward``:
``gA = V^-H (diag(gL) + P(V^H gV) / conj(L_j - L_i)) V^H``, where ``P`` removes
the part that only rescales the vectors; it is undefined for repeated
eigenvalues (their terms are left out) and for a loss that depends on the
vectors' phases (refused, as PyTorch does).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ..dtypes import complex_of
from ..errors import check
from ..graph.node import Node, needs_grad, record
from .failures import no_convergence
from .lapack import call, check_matrix
from .solvers import solve
from .structure import check_phase_free, diag_embed, inverse_gaps

if TYPE_CHECKING:
    from ..tensor import Tensor


class EigResult(NamedTuple):
    """``(eigenvalues, eigenvectors)`` of :func:`eig`."""

    eigenvalues: Tensor
    eigenvectors: Tensor


def _geev(op: str, A: Tensor, vectors: bool) -> tuple[Tensor, ...]:
    """The eigenvalues (and unit eigenvectors) of each matrix of ``A``, complex."""
    check_matrix(op, A)
    target = complex_of(A.dtype).numpy

    def routine(xp: Any, a: Any) -> Any:
        check(hasattr(xp.linalg, "eig"), op, "needs cupy.linalg.eig (CuPy 14 or later, on "
              "CUDA 12.6.2 or later) for GPU tensors; move the input to the cpu or upgrade CuPy")
        if vectors:
            w, v = xp.linalg.eig(a)
            return w.astype(target, copy=False), v.astype(target, copy=False)
        return xp.linalg.eigvals(a).astype(target, copy=False)

    return call(op, routine, A, failure=lambda a: no_convergence(op))


def eig(A: Tensor) -> EigResult:
    """The eigenvalues and unit-norm eigenvectors of each square matrix (complex results).

    ``A V = V diag(L)``; the eigenvalues come in no particular order.

    Example:
        >>> L, V = gt.linalg.eig(gt.tensor([[0.0, -1.0], [1.0, 0.0]]))
        >>> sorted(L.tolist(), key=lambda z: z.imag)
        [-1j, 1j]
    """
    op = "linalg.eig"
    L, V = _geev(op, A, True)
    record("linalg_eig", (L, V), (A,), _eig_vjp, save=[L, V])
    return EigResult(L, V)


def _eig_vjp(ctx: Node, gL: Tensor, gV: Tensor) -> Tensor:
    L, V = ctx.saved_tensors
    Vh = V.mH
    VgV = Vh @ gV
    diag = VgV.diagonal(0, -2, -1)
    check_phase_free("linalg.eig", diag.imag, "eigenvectors")
    VgV = VgV - Vh @ (V * diag.real.unsqueeze(-2))
    return solve(Vh, (VgV * inverse_gaps(L.conj()) + diag_embed(gL)) @ Vh)


def eigvals(A: Tensor) -> Tensor:
    """The eigenvalues of each square matrix, complex, in no particular order.

    Example:
        >>> gt.linalg.eigvals(gt.tensor([[2.0, 1.0], [0.0, 3.0]])).tolist()
        [(2+0j), (3+0j)]
    """
    op = "linalg.eigvals"
    if not needs_grad(A):
        return _geev(op, A, False)[0]
    L, V = _geev(op, A, True)
    record("linalg_eigvals", (L, V), (A,), _eig_vjp, save=[L, V])
    return L
