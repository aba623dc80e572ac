"""Products and views of matrices: ``cross``, ``outer``, ``tensordot``, ``vecdot``,
``multi_dot``, ``diagonal``, ``trace``, ``matmul`` and ``matrix_transpose``.

All are compositions of gtensor ops (elementwise products, reductions,
``matmul``, views), differentiable through them; none has a kernel of its own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..dtypes import bool_, int64, promote_types
from ..errors import DTypeError, ShapeError, check, check_same_device
from ..graph.autocast_mode import autocast_inputs
from ..ops.creation import ones
from ..ops.layout.copies import cat
from ..ops.layout.views import diagonal as _diagonal
from ..ops.matmul import matmul
from ..shape_rules import broadcast_shapes, wrap_dim
from ..tensor_base import TensorBase

if TYPE_CHECKING:
    from ..tensor import Tensor


def _tensors(op: str, *xs: Any) -> None:
    for x in xs:
        check(isinstance(x, TensorBase), op, lambda: f"expected a tensor, got "
              f"{type(x).__name__}", TypeError)
    check_same_device(op, *(x.device for x in xs))


def cross(input: Tensor, other: Tensor, *, dim: int = -1, axis: int | None = None) -> Tensor:
    """The cross product of 3-vectors along ``dim`` (other dims broadcast, as size-1 dims).

    Example:
        >>> gt.linalg.cross(gt.tensor([1.0, 0.0, 0.0]), gt.tensor([0.0, 1.0, 0.0])).tolist()
        [0.0, 0.0, 1.0]
    """
    input, other = autocast_inputs("cross", input, other)
    op = "linalg.cross"
    _tensors(op, input, other)
    check(input.ndim == other.ndim, op, lambda: "inputs must have the same number of dims, got "
          f"shapes {input.shape} and {other.shape}", ShapeError)
    shape = broadcast_shapes(input.shape, other.shape, op=op)
    d = wrap_dim(dim if axis is None else axis, len(shape), op)
    check(shape[d] == 3, op, lambda: f"inputs dimension {d} must have length 3, got shapes "
          f"{input.shape} and {other.shape}", ShapeError)
    a, b = input.expand(*shape), other.expand(*shape)
    # component i is a[i+1] b[i+2] - a[i+2] b[i+1]
    return a.roll(-1, d) * b.roll(-2, d) - a.roll(-2, d) * b.roll(-1, d)


def outer(input: Tensor, vec2: Tensor) -> Tensor:
    """The outer product of two vectors: ``out[i, j] = input[i] * vec2[j]``.

    Example:
        >>> gt.linalg.outer(gt.tensor([1, 2]), gt.tensor([3, 4])).tolist()
        [[3, 4], [6, 8]]
    """
    op = "outer"
    _tensors(op, input, vec2)
    check(input.ndim == 1 and vec2.ndim == 1, op, lambda: "expected 1-D arguments, got "
          f"{input.ndim}-D and {vec2.ndim}-D", ShapeError)
    return input.unsqueeze(-1) * vec2


def _contracted_dims(a: Tensor, b: Tensor, dims: Any, op: str) -> tuple[list[int], list[int]]:
    if isinstance(dims, int):
        check(0 <= dims <= min(a.ndim, b.ndim), op, lambda: f"dims ({dims}) must be between 0 "
              f"and the smaller number of dims ({min(a.ndim, b.ndim)})", ValueError)
        return list(range(a.ndim - dims, a.ndim)), list(range(dims))
    check(len(dims) == 2, op, "dims must be an int or a pair of lists of dims", ValueError)
    da = [dims[0]] if isinstance(dims[0], int) else list(dims[0])
    db = [dims[1]] if isinstance(dims[1], int) else list(dims[1])
    check(len(da) == len(db), op, lambda: f"both lists of dims must have the same length, got "
          f"{len(da)} and {len(db)}", ValueError)
    return [wrap_dim(d, a.ndim, op) for d in da], [wrap_dim(d, b.ndim, op) for d in db]


def tensordot(a: Tensor, b: Tensor, dims: Any = 2, *, axes: Any = None) -> Tensor:
    """Contract the ``dims`` last dims of ``a`` with the first of ``b`` (or two lists of dims).

    Example:
        >>> gt.linalg.tensordot(gt.ones(2, 3), gt.ones(3, 4), dims=1).shape
        (2, 4)
    """
    a, b = autocast_inputs("tensordot", a, b)
    op = "tensordot"
    _tensors(op, a, b)
    da, db = _contracted_dims(a, b, dims if axes is None else axes, op)
    for i, j in zip(da, db, strict=True):
        check(a.shape[i] == b.shape[j], op, lambda: "contracted dimensions need to match, but "
              f"first has size {a.shape[i]} in dim {i} and second has size {b.shape[j]} in "
              f"dim {j}", ShapeError)
    free_a = [i for i in range(a.ndim) if i not in da]
    free_b = [j for j in range(b.ndim) if j not in db]
    k = math.prod(a.shape[i] for i in da)
    am = a.permute(*free_a, *da).reshape(-1, k)
    bm = b.permute(*db, *free_b).reshape(k, -1)
    shape = [a.shape[i] for i in free_a] + [b.shape[j] for j in free_b]
    return matmul(am, bm).reshape(*shape)


def vecdot(x: Tensor, y: Tensor, *, dim: int = -1, axis: int | None = None) -> Tensor:
    """The dot product of vectors along ``dim`` (batch dims broadcast); complex ``x`` is
    conjugated, as the array API standard says.

    Example:
        >>> gt.linalg.vecdot(gt.tensor([1.0, 2.0]), gt.tensor([3.0, 4.0])).item()
        11.0
    """
    x, y = autocast_inputs("vecdot", x, y)
    op = "linalg.vecdot"
    _tensors(op, x, y)
    ndim = len(broadcast_shapes(x.shape, y.shape, op=op))
    return (x.conj() * y).sum(wrap_dim(dim if axis is None else axis, ndim, op))


def _chain_order(shapes: list[tuple[int, int]]) -> list[list[int]]:
    """Split points of the cheapest product order of matrices of ``shapes`` (dynamic programming).

    ``split[i][j]`` is where the product of matrices ``i..j`` splits.
    """
    n = len(shapes)
    dims = [shapes[0][0]] + [s[1] for s in shapes]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf  # type: ignore[call-overload]
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _multiply(ms: list[Tensor], split: list[list[int]], i: int, j: int) -> Tensor:
    if i == j:
        return ms[i]
    k = split[i][j]
    return matmul(_multiply(ms, split, i, k), _multiply(ms, split, k + 1, j))


def multi_dot(tensors: Sequence[Tensor]) -> Tensor:
    """The product of a chain of matrices, in the order that costs the fewest multiplications.

    The first may be a 1-D row vector and the last a 1-D column vector.

    Example:
        >>> gt.linalg.multi_dot([gt.ones(2), gt.ones(2, 3), gt.ones(3)]).item()
        6.0
    """
    (tensors,) = autocast_inputs("multi_dot", tensors)
    op = "linalg.multi_dot"
    ms = list(tensors)
    check(len(ms) >= 2, op, lambda: f"expected at least 2 tensors, got {len(ms)}", ValueError)
    _tensors(op, *ms)
    first_vector, last_vector = ms[0].ndim == 1, ms[-1].ndim == 1
    for i, t in enumerate(ms):
        vector_ok = (i == 0 and first_vector) or (i == len(ms) - 1 and last_vector)
        check(t.ndim == 2 or vector_ok, op, lambda: f"tensor {i} must be 2-D, got "
              f"{t.ndim}-D", ShapeError)
    if first_vector:
        ms[0] = ms[0].unsqueeze(0)
    if last_vector:
        ms[-1] = ms[-1].unsqueeze(-1)
    for i in range(len(ms) - 1):
        check(ms[i].shape[1] == ms[i + 1].shape[0], op, lambda: f"tensors {i} and {i + 1} with "
              f"shapes {tensors[i].shape} and {tensors[i + 1].shape} cannot be multiplied",
              ShapeError)
    out = _multiply(ms, _chain_order([(t.shape[0], t.shape[1]) for t in ms]), 0, len(ms) - 1)
    if first_vector:
        out = out.squeeze(0)
    return out.squeeze(-1) if last_vector else out


def diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """The view of the ``offset`` diagonal of each matrix (over ``dim1``, ``dim2``).

    Example:
        >>> gt.linalg.diagonal(gt.eye(2)).tolist()
        [1.0, 1.0]
    """
    _tensors("linalg.diagonal", A)
    return _diagonal(A, offset, dim1, dim2)


def trace(x: Tensor, *, offset: int = 0, dtype: Any = None) -> Tensor:
    """The sum of the ``offset`` diagonal of each matrix (the array API's batched trace).

    Example:
        >>> gt.linalg.trace(gt.ones(3, 2, 2)).tolist()
        [2.0, 2.0, 2.0]
    """
    op = "linalg.trace"
    _tensors(op, x)
    check(x.ndim >= 2, op, lambda: f"expected at least 2 dims, got shape {x.shape}", ShapeError)
    return _diagonal(x, offset, -2, -1).sum(-1, dtype=dtype)


def matrix_transpose(x: Tensor) -> Tensor:
    """The view of each matrix transposed (``x.mT``; the array API's name).

    Example:
        >>> gt.linalg.matrix_transpose(gt.ones(2, 3)).shape
        (3, 2)
    """
    op = "linalg.matrix_transpose"
    _tensors(op, x)
    check(x.ndim >= 2, op, lambda: f"expected at least 2 dims, got shape {x.shape}", ShapeError)
    return x.mT


def vander(x: Tensor, *, N: int | None = None) -> Tensor:  # noqa: N803
    """The Vandermonde matrices of the vectors ``x``: ``(..., n) -> (..., n, N)``, powers
    ``x**0, ..., x**(N-1)`` increasing (differentiable; integers give int64).

    Args:
        x: a (batch of) vector(s).
        N: the number of columns, more than 1 (default: ``x.shape[-1]``).

    Example:
        >>> gt.linalg.vander(gt.tensor([2, 3])).tolist()
        [[1, 2], [1, 3]]
    """
    op = "linalg.vander"
    _tensors(op, x)
    check(x.dtype is not bool_, op, "expected a floating point, complex or integer tensor, "
          "got bool", DTypeError)
    check(x.ndim >= 1, op, "expected a tensor with at least one dim, got a 0-d tensor",
          ShapeError)
    n = x.shape[-1] if N is None else N
    check(n > 1, op, lambda: f"N must be greater than 1, got {n}", ValueError)
    x = x.to(promote_types(x.dtype, int64))
    first = ones(*x.shape, 1, dtype=x.dtype, device=x.device)
    return cat([first, x.unsqueeze(-1).expand(*x.shape, n - 1)], -1).cumprod(-1)
