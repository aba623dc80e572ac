"""PyTorch's top-level linear-algebra functions (``torch.mv``, ``torch.kron``,
``torch.logdet``...) composed from :mod:`gtensor.linalg` and matmul.

``cross`` is ``torch.cross``: without ``dim`` it takes the first dim of
length 3 (``linalg.cross`` takes the last). ``logdet`` is NaN for a negative
determinant and ``-inf`` for a singular matrix. All differentiate through the
ops they are made of.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import ShapeError, check
from ..ops.elementwise import where
from ..ops.matmul import matmul
from ..ops.reduction import norm
from ..shape_rules import broadcast_shapes
from ..tensor_base import TensorBase
from .determinants import slogdet
from .products import cross as linalg_cross
from .products import tensordot

if TYPE_CHECKING:
    from ..tensor import Tensor


def _tensors(op: str, *ts: object) -> None:
    for t in ts:
        check(isinstance(t, TensorBase), op, lambda: f"expected a tensor, got "
              f"{type(t).__name__}", TypeError)


def mv(input: Tensor, vec: Tensor) -> Tensor:
    """The product of a matrix and a vector.

    Example:
        >>> gt.mv(gt.ones(2, 3), gt.ones(3)).tolist()
        [3.0, 3.0]
    """
    _tensors("mv", input, vec)
    check(input.ndim == 2 and vec.ndim == 1, "mv", lambda: f"vector + matrix @ vector expected, "
          f"got {input.ndim}-D and {vec.ndim}-D", ShapeError)
    check(input.shape[1] == vec.shape[0], "mv", lambda: f"size mismatch, got input "
          f"{input.shape}, vec {vec.shape}", ShapeError)
    return matmul(input, vec)


def inner(input: Tensor, other: Tensor) -> Tensor:
    """The dot product over the last dims (a plain product when either is 0-d).

    Example:
        >>> gt.inner(gt.ones(2, 3), gt.ones(3)).tolist()
        [3.0, 3.0]
    """
    _tensors("inner", input, other)
    if input.ndim == 0 or other.ndim == 0:
        return input * other
    check(input.shape[-1] == other.shape[-1], "inner", lambda: f"inner() the last dimension "
          f"must match on both input tensors but got shapes {input.shape} and {other.shape}",
          ShapeError)
    return tensordot(input, other, ([-1], [-1]))


def dist(input: Tensor, other: Tensor, p: float = 2) -> Tensor:
    """The ``p``-norm of ``input - other`` (broadcast together).

    Example:
        >>> gt.dist(gt.tensor([3.0, 0.0]), gt.tensor([0.0, 4.0])).item()
        5.0
    """
    _tensors("dist", input, other)
    broadcast_shapes(input.shape, other.shape, op="dist")
    return norm(input - other, p)


def kron(input: Tensor, other: Tensor) -> Tensor:
    """The Kronecker product: blocks ``input[i] * other``, dims padded to the same number.

    Example:
        >>> gt.kron(gt.eye(2), gt.ones(1, 2)).tolist()
        [[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]]
    """
    _tensors("kron", input, other)
    n = max(input.ndim, other.ndim)
    a_shape = (1,) * (n - input.ndim) + input.shape
    b_shape = (1,) * (n - other.ndim) + other.shape
    a = input.reshape(tuple(x for d in a_shape for x in (d, 1)))
    b = other.reshape(tuple(x for d in b_shape for x in (1, d)))
    return (a * b).reshape(tuple(p * q for p, q in zip(a_shape, b_shape, strict=True)))


def cross(input: Tensor, other: Tensor, dim: int | None = None) -> Tensor:
    """``torch.cross``: the cross product along ``dim``, by default the first dim of length 3.

    Example:
        >>> gt.cross(gt.tensor([[1.0, 0.0, 0.0]]), gt.tensor([[0.0, 1.0, 0.0]])).tolist()
        [[0.0, 0.0, 1.0]]
    """
    _tensors("cross", input, other)
    if dim is None:
        shape = broadcast_shapes(input.shape, other.shape, op="cross")
        found = [d for d, n in enumerate(shape) if n == 3]
        check(bool(found), "cross", lambda: f"no dimension of size 3 in input shapes "
              f"{input.shape} and {other.shape}", ShapeError)
        dim = found[0] - len(shape)
    return linalg_cross(input, other, dim=dim)


def logdet(input: Tensor) -> Tensor:
    """The log of each square matrix's determinant (NaN when negative, ``-inf`` when 0).

    Example:
        >>> round(gt.logdet(gt.tensor([[2.0, 0.0], [0.0, 3.0]])).item(), 4)
        1.7918
    """
    _tensors("logdet", input)
    sign, logabs = slogdet(input)
    if input.dtype.is_complex:
        return logabs + sign.log()  # type: ignore[attr-defined]
    return where(sign < 0, float("nan"), logabs)

