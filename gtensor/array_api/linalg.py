"""The array API's ``linalg`` extension, over :mod:`gtensor.linalg` with the standard's names.

Also the main namespace's ``matmul``, ``matrix_transpose``, ``tensordot`` and
``vecdot``. Operands promote by the standard's rules first. ``solve`` reads
``x2`` as a stack of matrices unless it is 1-d (PyTorch also reads an ``x2``
shaped like ``x1`` without its last axis as a stack of vectors). Real and
complex floating-point arrays are accepted wherever the standard allows them;
``eig`` and ``eigvals`` (added to the standard after 2024.12) are here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .. import linalg as _linalg
from ..errors import ShapeError, check
from ..linalg import (
    EighResult,
    EigResult,
    QRResult,
    SlogdetResult,
    SVDResult,
    cholesky,
    det,
    eig,
    eigh,
    eigvals,
    eigvalsh,
    inv,
    matrix_power,
    matrix_transpose,
    qr,
    slogdet,
    svd,
    svdvals,
)
from ..ops import matmul as _products
from ..shape_rules import broadcast_shapes
from .data_types import result_type
from .statistics import Axis

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = [
    "EigResult", "EighResult", "QRResult", "SVDResult", "SlogdetResult", "cholesky", "cross",
    "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv", "matmul", "matrix_norm",
    "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv", "qr", "slogdet", "solve",
    "svd", "svdvals", "tensordot", "trace", "vecdot", "vector_norm",
]


def _common(x1: Tensor, x2: Tensor) -> tuple[Tensor, Tensor]:
    """Both operands in their promoted dtype (the products take one dtype)."""
    dt = result_type(x1, x2)
    return (x1 if x1.dtype is dt else x1.to(dt)), (x2 if x2.dtype is dt else x2.to(dt))


def matmul(x1: Tensor, x2: Tensor, /) -> Tensor:
    """The matrix product, with NumPy's rules for 1-d operands and broadcast batch axes."""
    return _products.matmul(*_common(x1, x2))


def tensordot(x1: Tensor, x2: Tensor, /, *, axes: int | Sequence[Sequence[int]] = 2) -> Tensor:
    """The sum of products over ``axes`` of ``x1`` and ``x2``.

    ``axes``: a count (the last ones of ``x1`` with the first ones of ``x2``)
    or two sequences of axes.
    """
    return _linalg.tensordot(*_common(x1, x2), dims=axes)


def vecdot(x1: Tensor, x2: Tensor, /, *, axis: int = -1) -> Tensor:
    """The dot product of vectors along ``axis`` (other axes broadcast).

    Example:
        >>> vecdot(gt.tensor([1.0, 2.0]), gt.tensor([3.0, 4.0])).item()
        11.0
    """
    return _linalg.vecdot(*_common(x1, x2), dim=axis)


def cross(x1: Tensor, x2: Tensor, /, *, axis: int = -1) -> Tensor:
    """The cross product of 3-vectors along ``axis`` (other axes broadcast)."""
    return _linalg.cross(*_common(x1, x2), dim=axis)


def outer(x1: Tensor, x2: Tensor, /) -> Tensor:
    """The outer product of two 1-d arrays."""
    return _linalg.outer(*_common(x1, x2))


def diagonal(x: Tensor, /, *, offset: int = 0) -> Tensor:
    """A view of the ``offset`` diagonal of each matrix (the last two axes)."""
    return _linalg.diagonal(x, offset=offset)


def trace(x: Tensor, /, *, offset: int = 0, dtype: Any = None) -> Tensor:
    """The sum of the ``offset`` diagonal of each matrix, in ``dtype``."""
    return _linalg.trace(x, offset=offset, dtype=dtype)


def matrix_norm(x: Tensor, /, *, keepdims: bool = False, ord: float | str | None = "fro"
                ) -> Tensor:
    """The norm of each matrix: ``"fro"``, ``"nuc"``, 1, -1, 2, -2, ``inf`` or ``-inf``."""
    return _linalg.matrix_norm(x, "fro" if ord is None else ord, keepdim=keepdims)


def vector_norm(x: Tensor, /, *, axis: Axis = None, keepdims: bool = False,
                ord: float = 2) -> Tensor:
    """The vector ``ord``-norm over ``axis`` (every axis when None).

    Example:
        >>> vector_norm(gt.tensor([3.0, -4.0]), ord=1).item()
        7.0
    """
    dims = axis if axis is None or isinstance(axis, int) else tuple(axis)
    return _linalg.vector_norm(x, ord, dims, keepdims)


def matrix_rank(x: Tensor, /, *, rtol: float | Tensor | None = None) -> Tensor:
    """The number of singular values of each matrix above ``rtol`` times the largest."""
    return _linalg.matrix_rank(x, rtol=rtol)


def pinv(x: Tensor, /, *, rtol: float | Tensor | None = None) -> Tensor:
    """The pseudo-inverse, ignoring singular values below ``rtol`` times the largest."""
    return _linalg.pinv(x, rtol=rtol)


def solve(x1: Tensor, x2: Tensor, /) -> Tensor:
    """The solution ``X`` of ``x1 @ X = x2``; ``x2`` is a vector only when 1-d.

    Example:
        >>> solve(gt.eye(2) * 2, gt.tensor([2.0, 4.0])).tolist()
        [1.0, 2.0]
    """
    a, b = _common(x1, x2)
    if b.ndim == 1:
        return _linalg.solve(a, b)
    check(a.ndim >= 2, "linalg.solve", lambda: f"expected x1 with at least 2 axes, got shape "
          f"{a.shape}", ShapeError)
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2], op="linalg.solve")
    return _linalg.solve(a.expand(*batch, *a.shape[-2:]), b.expand(*batch, *b.shape[-2:]))

