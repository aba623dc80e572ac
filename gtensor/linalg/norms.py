"""Norms: ``vector_norm``, ``matrix_norm`` and ``norm``, composed of reductions and ``svdvals``.

They are differentiable through the ops they compose. The array API's
``axis`` and ``keepdims`` are accepted beside PyTorch's ``dim`` and ``keepdim``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ..dtypes import as_dtype
from ..errors import DTypeError, ShapeError, check
from ..graph.autocast_mode import autocast_inputs
from ..ops.reduction import norm as _vector_p_norm
from ..shape_rules import wrap_dim
from ..tensor_base import TensorBase
from .factorizations import svdvals

if TYPE_CHECKING:
    from ..tensor import Tensor

Dims = int | tuple[int, ...] | list[int] | None


def _float_input(op: str, x: Tensor, dtype: Any) -> Tensor:
    check(isinstance(x, TensorBase), op, lambda: f"expected a tensor, got {type(x).__name__}",
          TypeError)
    if dtype is not None:
        x = x.to(as_dtype(dtype))
    check(x.dtype.is_inexact, op, lambda: "expected a floating point or complex tensor as "
          f"input, got {x.dtype.name}", DTypeError)
    return x


def vector_norm(x: Tensor, ord: float = 2, dim: Dims = None, keepdim: bool = False, *,
                dtype: Any = None, axis: Dims = None, keepdims: bool | None = None) -> Tensor:
    """The vector ``ord``-norm over ``dim`` (all dims when None); complex ``x``: of ``|x|``.

    ``ord``: any real p, ``inf`` (largest ``|x|``), ``-inf`` (smallest) or 0
    (number of nonzeros). ``dtype`` converts ``x`` first.

    Example:
        >>> gt.linalg.vector_norm(gt.tensor([3.0, -4.0])).item()
        5.0
    """
    (x,) = autocast_inputs("vector_norm", x)
    op = "linalg.vector_norm"
    x = _float_input(op, x, dtype)
    dim = axis if dim is None else dim
    keep = keepdim if keepdims is None else keepdims
    check(isinstance(ord, (int, float)) and not isinstance(ord, bool), op,
          lambda: f"ord must be a real number, got {ord!r}", TypeError)
    return _vector_p_norm(x.abs() if x.dtype.is_complex else x, ord, dim, keep)


def _matrix_dims(op: str, A: Tensor, dim: Any) -> tuple[int, int]:
    check(A.ndim >= 2, op, lambda: "the input tensor A must have at least 2 dimensions, got "
          f"shape {A.shape}", ShapeError)
    check(isinstance(dim, (tuple, list)) and len(dim) == 2, op, lambda: "dim must be a 2-tuple, "
          f"got {dim!r}", ValueError)
    d0, d1 = wrap_dim(dim[0], A.ndim, op), wrap_dim(dim[1], A.ndim, op)
    check(d0 != d1, op, lambda: f"dims must be different, got ({d0}, {d1})", ValueError)
    return d0, d1


def _spectral(A: Tensor, d0: int, d1: int, ord: Any) -> Tensor:
    """The nuclear norm or the largest/smallest singular value over dims ``d0, d1``."""
    rest = [i for i in range(A.ndim) if i not in (d0, d1)]
    s = svdvals(A.permute(*rest, d0, d1))
    if ord == "nuc":
        return s.sum(-1)
    return s.amax(-1) if ord == 2 else s.amin(-1)


def matrix_norm(A: Tensor, ord: float | str = "fro", dim: tuple[int, int] = (-2, -1),
                keepdim: bool = False, *, dtype: Any = None, keepdims: bool | None = None
                ) -> Tensor:
    """The matrix norm over the two dims ``dim`` (real, also for complex ``A``).

    ``ord``: ``"fro"``, ``"nuc"`` (sum of singular values), 2 / -2 (largest /
    smallest singular value), 1 / -1 (largest / smallest column sum of
    ``|A|``), ``inf`` / ``-inf`` (largest / smallest row sum of ``|A|``).

    Example:
        >>> gt.linalg.matrix_norm(gt.tensor([[1.0, -2.0], [3.0, 4.0]]), ord=1).item()
        6.0
    """
    (A,) = autocast_inputs("matrix_norm", A)
    op = "linalg.matrix_norm"
    A = _float_input(op, A, dtype)
    keep = keepdim if keepdims is None else keepdims
    d0, d1 = _matrix_dims(op, A, dim)
    empty = A.shape[d0] == 0 or A.shape[d1] == 0
    if ord == "fro" or (empty and ord in ("nuc", 1, 2, math.inf)):  # 0 for empty matrices
        return _vector_p_norm(A.abs() if A.dtype.is_complex else A, 2, [d0, d1], keep)
    check(ord in ("nuc", 1, -1, 2, -2, math.inf, -math.inf), op,
          lambda: f"order {ord} not supported", ValueError)
    check(not empty, op, lambda: f"the {ord} norm of an empty matrix (shape {A.shape}) has "
          "no identity", IndexError)
    if ord in ("nuc", 2, -2):
        out = _spectral(A, d0, d1, ord)
        return out.unsqueeze(min(d0, d1)).unsqueeze(max(d0, d1)) if keep else out
    summed, other = (d0, d1) if ord in (1, -1) else (d1, d0)
    sums = A.abs().sum(summed, keepdim=True)
    out = sums.amax(other, keepdim=True) if ord > 0 else sums.amin(other, keepdim=True)
    return out if keep else out.squeeze(max(d0, d1)).squeeze(min(d0, d1))


def norm(A: Tensor, ord: float | str | None = None, dim: Dims = None, keepdim: bool = False,
         *, dtype: Any = None) -> Tensor:
    """A vector or matrix norm, chosen as ``torch.linalg.norm`` does.

    A 2-tuple ``dim`` (or a string ``ord``) asks for :func:`matrix_norm`, an
    int ``dim`` for :func:`vector_norm`. Without ``dim``: the 2-norm of the
    flattened input when ``ord`` is None, else a 1-D or 2-D input's norm.

    Example:
        >>> gt.linalg.norm(gt.tensor([[3.0, 0.0], [0.0, 4.0]])).item()
        5.0
    """
    op = "linalg.norm"
    if isinstance(dim, int):
        dim = (dim,)
    if dim is not None:
        check(len(dim) in (1, 2), op, lambda: f"dim must be an int or a 1- or 2-tuple, got "
              f"{dim!r}", ValueError)
        if len(dim) == 2:
            return matrix_norm(A, "fro" if ord is None else ord, tuple(dim), keepdim,
                               dtype=dtype)
        return vector_norm(A, 2 if ord is None else ord, tuple(dim), keepdim, dtype=dtype)
    if ord is None:
        return vector_norm(A, 2, None, keepdim, dtype=dtype)
    check(A.ndim in (1, 2), op, lambda: "if dim is not given but ord is, the input must be 1-D "
          f"or 2-D, got {A.ndim}-D", ShapeError)
    if A.ndim == 2:
        return matrix_norm(A, ord, (-2, -1), keepdim, dtype=dtype)
    check(not isinstance(ord, str), op, lambda: f"order {ord!r} is a matrix norm, but the "
          "input is 1-D", ValueError)
    return vector_norm(A, ord, None, keepdim, dtype=dtype)

