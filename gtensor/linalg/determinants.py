"""Determinants: ``det`` and ``slogdet`` (one LU through LAPACK each), with their VJPs.

The gradient of ``det`` is the conjugate of the cofactor matrix, formed from
the SVD ``A = U diag(S) Vh`` as ``conj(det(U) det(Vh)) U diag(prod_{j != i} S_j) Vh``,
so it is defined for singular matrices too (PyTorch switches to an SVD there as
well). For complex ``A``, ``slogdet``'s sign is complex and differentiable too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..graph.grad_mode import no_grad
from ..graph.node import Node, record
from ..ops.complex_rules import conj_of
from ..ops.creation import eye
from ..ops.elementwise import where
from ..ops.reduction import prod
from .factorizations import svd
from .failures import LinAlgError
from .lapack import call, check_matrix
from .solvers import inv

if TYPE_CHECKING:
    from ..tensor import Tensor


class SlogdetResult(NamedTuple):
    """``(sign, logabsdet)`` of :func:`slogdet`."""

    sign: Tensor
    logabsdet: Tensor


def det(A: Tensor) -> Tensor:
    """The determinant of each square matrix.

    Example:
        >>> gt.linalg.det(gt.tensor([[2.0, 1.0], [1.0, 3.0]])).item()
        5.0
    """
    op = "linalg.det"
    check_matrix(op, A)
    (out,) = call(op, lambda xp, a: xp.linalg.det(a), A, outputs=[(A.shape[:-2], A.dtype)])
    record("linalg_det", out, (A,), _det_vjp, save=[A])
    return out


def _cofactors(A: Tensor) -> Tensor:
    """The conjugate cofactor matrix ``conj(det(A)) A^-H`` of each square matrix, by its SVD."""
    U, S, Vh = svd(A)
    n = S.shape[-1]
    others = prod(where(eye(n, dtype=S.dtype, device=A.device) == 1, 1.0, S.unsqueeze(-2)), -1)
    with no_grad():
        orientation = conj_of(det(U) * det(Vh))
    return (U * (orientation.unsqueeze(-1) * others).unsqueeze(-2)) @ Vh


def _det_vjp(ctx: Node, g: Tensor) -> Tensor:
    (A,) = ctx.saved_tensors
    return g.unsqueeze(-1).unsqueeze(-1) * _cofactors(A)


def slogdet(A: Tensor) -> SlogdetResult:
    """The sign and the log of the absolute value of each square matrix's determinant.

    ``sign`` is 0 and ``logabsdet`` is ``-inf`` for a singular matrix. ``logabsdet``
    is real; ``sign`` has ``A``'s dtype and is differentiable only when it is complex
    (huge or infinite gradients at a singular matrix).

    Example:
        >>> gt.linalg.slogdet(gt.tensor([[-2.0, 0.0], [0.0, 1.0]])).sign.item()
        -1.0
    """
    op = "linalg.slogdet"
    check_matrix(op, A)
    sign, logabsdet = call(op, lambda xp, a: xp.linalg.slogdet(a), A,
                           outputs=[(A.shape[:-2], A.dtype), (A.shape[:-2], A.dtype.real_dtype)])
    if A.dtype.is_complex:
        record("linalg_slogdet", (sign, logabsdet), (A,), _complex_slogdet_vjp, save=[A, sign])
    else:
        record("linalg_slogdet", logabsdet, (A,), _slogdet_vjp, save=[A])
    return SlogdetResult(sign, logabsdet)


def _inverse_h(A: Tensor) -> Tensor:
    """``A^-H``; for a singular ``A`` the SVD's, with huge or infinite entries (PyTorch: inf)."""
    try:
        return inv(A).mH
    except LinAlgError:
        U, S, Vh = svd(A)
        return (U / S.unsqueeze(-2)) @ Vh


def _slogdet_vjp(ctx: Node, g: Tensor) -> Tensor:
    (A,) = ctx.saved_tensors
    return g.unsqueeze(-1).unsqueeze(-1) * _inverse_h(A)


def _complex_slogdet_vjp(ctx: Node, g_sign: Tensor, g_logabs: Tensor) -> Tensor:
    """The sign turns with ``Im tr(A^-1 dA)``: its gradient joins ``logabsdet``'s as ``-i Im``."""
    A, sign = ctx.saved_tensors
    g = g_logabs - 1j * (g_sign.conj() * sign).imag
    return g.unsqueeze(-1).unsqueeze(-1) * _inverse_h(A)

