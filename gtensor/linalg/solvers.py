"""Linear solves and inverses: ``solve``, ``solve_triangular``, ``inv`` and ``matrix_power``.

``solve`` and ``inv`` are one LAPACK routine each (through :mod:`.lapack`).
The solves broadcast their batch dims first (as views), so their VJPs see
operands of one batch shape and the broadcast's own VJP sums the gradients
back. NumPy has no triangular solve, so ``solve_triangular`` substitutes row
by row over the array module: ``n`` steps, each one batched matrix-vector
product (on a GPU one cuBLAS call per step); it reads only the named
triangle and, as LAPACK's ``trsm``, gives inf or nan rather than an error
for a zero on the diagonal. ``matrix_power`` squares repeatedly with
``matmul`` (on ``inv(A)`` for negative powers) and differentiates through it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ShapeError, check
from ..graph.node import Node, record
from ..ops.creation import eye, zeros_like
from ..tensor_base import TensorBase
from .failures import singular
from .lapack import call, check_lapack_dtype, check_matrix
from .structure import expand_batch

if TYPE_CHECKING:
    from ..tensor import Tensor


def inv(A: Tensor) -> Tensor:
    """The inverse of each square matrix of ``A`` (``torch.linalg.inv``).

    Raises:
        LinAlgError: a matrix is singular.

    Example:
        >>> gt.linalg.inv(gt.tensor([[2.0, 0.0], [0.0, 4.0]])).tolist()
        [[0.5, 0.0], [0.0, 0.25]]
    """
    op = "linalg.inv"
    check_matrix(op, A)
    (out,) = call(op, lambda xp, a: xp.linalg.inv(a), A,
                  failure=lambda a: singular(op, a, "the inversion could not be completed"),
                  outputs=[(A.shape, A.dtype)])
    record("linalg_inv", out, (A,), _inv_vjp, save=[out])
    return out


def _inv_vjp(ctx: Node, g: Tensor) -> Tensor:
    (inverse,) = ctx.saved_tensors
    return -(inverse.mH @ g @ inverse.mH)


def _solve(op: str, A: Tensor, B: Tensor) -> Tensor:
    """``A^-1 B`` for square ``A (..., n, n)`` and ``B (..., n, k)`` of one batch shape."""
    (out,) = call(op, lambda xp, a, b: xp.linalg.solve(a, b), A, B,
                  failure=lambda a, b: singular(op, a, "the solver failed"),
                  outputs=[(B.shape, A.dtype)])
    record("linalg_solve", out, (A, B), _solve_vjp, save=[A, out])
    return out


def _solve_vjp(ctx: Node, g: Tensor) -> tuple[Tensor, Tensor]:
    A, X = ctx.saved_tensors
    gB = _solve("linalg.solve", A.mH, g)
    return -(gB @ X.mH), gB


def solve(A: Tensor, B: Tensor, *, left: bool = True) -> Tensor:
    """The solution ``X`` of ``A X = B`` (``X A = B`` when ``left=False``), batched.

    ``B`` is a batch of vectors when it is 1-D or has the shape of ``A``
    without its last dim, as in PyTorch; batch dims broadcast.

    Raises:
        LinAlgError: a matrix of ``A`` is singular.

    Example:
        >>> A = gt.tensor([[2.0, 0.0], [0.0, 4.0]])
        >>> gt.linalg.solve(A, gt.tensor([2.0, 2.0])).tolist()
        [1.0, 0.5]
    """
    op = "linalg.solve"
    check_matrix(op, A)
    check_lapack_dtype(op, A, B)
    vector = B.ndim == 1 or (B.ndim == A.ndim - 1 and B.shape == A.shape[:-1])
    n = A.shape[-1]
    rhs = B.unsqueeze(-1) if vector else B
    check(rhs.ndim >= 2 and rhs.shape[-2 if left else -1] == n, op, lambda: f"shapes {A.shape} "
          f"and {B.shape} are incompatible for the equation {'AX' if left else 'XA'} = B",
          ShapeError)
    if not left:
        out = solve(A.mT, rhs.mT).mT
        return out.squeeze(-1) if vector else out
    a, b = expand_batch(op, A, rhs)
    out = _solve(op, a, b)
    return out.squeeze(-1) if vector else out


def _substitute(xp: Any, a: Any, b: Any, upper: bool, unit: bool) -> Any:
    """Forward or back substitution, one row of the result at a time."""
    n = a.shape[-1]
    x = xp.array(b, copy=True)
    rows = range(n - 1, -1, -1) if upper else range(n)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in rows:
            done = slice(i + 1, n) if upper else slice(0, i)
            xi = x[..., i, :] - (a[..., i:i + 1, done] @ x[..., done, :])[..., 0, :]
            x[..., i, :] = xi if unit else xi / a[..., i, i, None]
    return x


def _solve_triangular(op: str, A: Tensor, B: Tensor, upper: bool, unit: bool) -> Tensor:
    """``A^-1 B`` for triangular ``A``, reading only its ``upper`` or lower triangle."""
    (out,) = call(op, lambda xp, a, b: _substitute(xp, a, b, upper, unit), A, B,
                  outputs=[(B.shape, A.dtype)])
    record("linalg_solve_triangular", out, (A, B), _solve_triangular_vjp, save=[A, out],
           upper=upper, unit=unit)
    return out


def _solve_triangular_vjp(ctx: Node, g: Tensor) -> tuple[Tensor, Tensor]:
    A, X = ctx.saved_tensors
    gB = _solve_triangular("linalg.solve_triangular", A.mH, g, not ctx.upper, ctx.unit)
    gA = -(gB @ X.mH)
    shift = 1 if ctx.unit else 0
    return (gA.triu(shift) if ctx.upper else gA.tril(-shift)), gB


def solve_triangular(A: Tensor, B: Tensor, *, upper: bool, left: bool = True,
                     unitriangular: bool = False) -> Tensor:
    """The solution of ``A X = B`` (``X A = B`` when ``left=False``) for triangular ``A``.

    Only the ``upper`` (or lower) triangle of ``A`` is read; with
    ``unitriangular`` its diagonal is taken to be ones. Batch dims broadcast.

    Example:
        >>> A = gt.tensor([[2.0, 0.0], [1.0, 1.0]])
        >>> gt.linalg.solve_triangular(A, gt.tensor([[2.0], [3.0]]), upper=False).tolist()
        [[1.0], [2.0]]
    """
    op = "linalg.solve_triangular"
    check_matrix(op, A)
    check_matrix(op, B, square=False, name="B")
    check_lapack_dtype(op, A, B)
    n = A.shape[-1]
    check((B.shape[-2] if left else B.shape[-1]) == n, op, lambda: f"shapes {A.shape} and "
          f"{B.shape} are incompatible for the equation {'AX' if left else 'XA'} = B",
          ShapeError)
    if not left:
        return solve_triangular(A.mT, B.mT, upper=not upper, unitriangular=unitriangular).mT
    a, b = expand_batch(op, A, B)
    return _solve_triangular(op, a, b, upper, unitriangular)


def _constant_vjp(ctx: Node, g: Tensor) -> Tensor:
    return zeros_like(g)


def matrix_power(A: Tensor, n: int) -> Tensor:
    """``A`` multiplied by itself ``n`` times (the identity for 0, powers of ``inv(A)`` below).

    Computed by repeated squaring with ``matmul``, so it is differentiable
    through it; integer matrices are accepted for ``n >= 0``.

    Example:
        >>> gt.linalg.matrix_power(gt.tensor([[1, 1], [0, 1]]), 3).tolist()
        [[1, 3], [0, 1]]
    """
    op = "linalg.matrix_power"
    check(isinstance(A, TensorBase), op, lambda: f"expected a tensor, got {type(A).__name__}",
          TypeError)
    check(isinstance(n, int) and not isinstance(n, bool), op, lambda: "the exponent must be "
          f"an int, got {type(n).__name__}", TypeError)
    check(A.ndim >= 2 and A.shape[-1] == A.shape[-2], op, lambda: "A must be batches of square "
          f"matrices, but got shape {A.shape}", ShapeError)
    if n == 0:
        out = eye(A.shape[-1], dtype=A.dtype, device=A.device).expand(*A.shape).clone()
        record("linalg_matrix_power", out, (A,), _constant_vjp)
        return out
    base = inv(A) if n < 0 else A
    result = None
    k = abs(n)
    while True:
        if k & 1:
            result = base if result is None else result @ base
        k >>= 1
        if not k:
            return result if result is not A else A.clone()
        base = base @ base

