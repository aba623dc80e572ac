"""Tensors arranged from others or from index patterns: atleast_1d/2d/3d, rot90, block_diag,
cartesian_prod, combinations, tril_indices, triu_indices.

Compositions of views, ``flip``, ``pad``, ``cat``, ``meshgrid`` and
``nonzero``: the values ones differentiate through them, the index ones are
built on the requested device.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..device import DeviceLike
from ..dtypes import as_dtype, int64, result_type
from ..errors import ShapeError, check
from ..shape_rules import wrap_dim
from ..tensor_base import TensorBase
from .creation import arange, empty
from .indexing.along_dim import index_select
from .indexing.masked import masked_select, nonzero
from .layout.copies import cat, flip, pad, stack
from .layout.views import meshgrid, tensor_list

if TYPE_CHECKING:
    from ..tensor import Tensor


def _each(tensors: tuple[Any, ...], at_least: int) -> Any:
    """``tensors`` (one tensor, several, or one sequence) each viewed with ``at_least`` dims."""
    single = len(tensors) == 1 and isinstance(tensors[0], TensorBase)
    ts = list(tensors[0]) if len(tensors) == 1 and not single else list(tensors)
    out = []
    for t in ts:
        if t.ndim >= at_least:
            out.append(t)
        elif t.ndim == 0:
            out.append(t.reshape((1,) * at_least))
        elif t.ndim == 1:
            out.append(t.reshape((1, -1) if at_least == 2 else (1, -1, 1)))
        else:
            out.append(t.unsqueeze(-1))
    return out[0] if single else tuple(out)


def atleast_1d(*tensors: Any) -> Any:
    """Each tensor viewed with at least 1 dim (0-d becomes ``(1,)``); a tuple for several.

    Example:
        >>> gt.atleast_1d(gt.tensor(1.0)).shape
        (1,)
    """
    return _each(tensors, 1)


def atleast_2d(*tensors: Any) -> Any:
    """Each tensor viewed with at least 2 dims (``(n,)`` becomes ``(1, n)``).

    Example:
        >>> gt.atleast_2d(gt.ones(3)).shape
        (1, 3)
    """
    return _each(tensors, 2)


def atleast_3d(*tensors: Any) -> Any:
    """Each tensor viewed with at least 3 dims (``(n,)`` becomes ``(1, n, 1)``, ``(m, n)``
    becomes ``(m, n, 1)``).

    Example:
        >>> gt.atleast_3d(gt.ones(3)).shape
        (1, 3, 1)
    """
    return _each(tensors, 3)


def rot90(input: Tensor, k: int = 1, dims: Sequence[int] = (0, 1)) -> Tensor:
    """Rotate by 90 degrees ``k`` times in the plane of ``dims``, from the first toward the
    second.

    Example:
        >>> gt.tensor([[1, 2], [3, 4]]).rot90().tolist()
        [[2, 4], [1, 3]]
    """
    check(len(dims) == 2, "rot90", lambda: f"expected 2 rotation dims, got {len(dims)}",
          ShapeError)
    check(input.ndim >= 2, "rot90", lambda: f"expected at least 2 dims, got {input.ndim}",
          ShapeError)
    d0, d1 = (wrap_dim(d, input.ndim, "rot90") for d in dims)
    check(d0 != d1, "rot90", lambda: f"expected different rotation dims, got {d0} and {d1}",
          ShapeError)
    k %= 4
    if k == 1:
        return flip(input, d1).transpose(d0, d1)
    if k == 2:
        return flip(input, [d0, d1])
    if k == 3:
        return flip(input, d0).transpose(d0, d1)
    return input.clone()


def block_diag(*tensors: Tensor) -> Tensor:
    """The block diagonal matrix of ``tensors`` (0-d is ``1 x 1``, 1-D ``n`` is ``1 x n``).

    Example:
        >>> gt.block_diag(gt.tensor([[1, 2]]), gt.tensor(3)).tolist()
        [[1, 2, 0], [0, 0, 3]]
    """
    if not tensors:
        return empty(1, 0)
    ts = tensor_list(tensors, "block_diag")
    for i, t in enumerate(ts):
        check(t.ndim <= 2, "block_diag", lambda: "input tensors must have 2 or fewer dims, "
              f"input {i} has {t.ndim}", ShapeError)
    dt = result_type(*ts)
    mats = [t.reshape(1, -1) if t.ndim < 2 else t for t in ts]
    width = sum(m.shape[1] for m in mats)
    rows, left = [], 0
    for m in mats:
        rows.append(pad(m.to(dt), (left, width - left - m.shape[1])))
        left += m.shape[1]
    return cat(rows, 0)


def _vectors(op: str, tensors: Sequence[Tensor]) -> list[Tensor]:
    ts = tensor_list(tensors, op)
    for t in ts:
        check(t.ndim == 1, op, lambda: f"expected 1-D tensors, got shape {t.shape}", ShapeError)
    return ts


def cartesian_prod(*tensors: Tensor) -> Tensor:
    """Every combination of one element from each 1-D tensor, in order: ``(N, len(tensors))``.

    Example:
        >>> gt.cartesian_prod(gt.tensor([1, 2]), gt.tensor([3, 4])).tolist()
        [[1, 3], [1, 4], [2, 3], [2, 4]]
    """
    ts = _vectors("cartesian_prod", tensors)
    if len(ts) == 1:
        return ts[0]
    return stack([g.reshape(-1) for g in meshgrid(*ts, indexing="ij")], 1)


def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:
    """The length-``r`` subsequences of a 1-D tensor, in order: ``(N, r)``.

    Example:
        >>> gt.combinations(gt.tensor([1, 2, 3])).tolist()
        [[1, 2], [1, 3], [2, 3]]
    """
    (x,) = _vectors("combinations", (input,))
    check(isinstance(r, int) and r >= 0, "combinations", lambda: f"r must be non-negative, "
          f"got {r}", ValueError)
    if r == 0:
        return empty(0, dtype=x.dtype, device=x.device)
    positions = arange(x.shape[0], device=x.device)
    grids = meshgrid(*([positions] * r), indexing="ij")
    picked = [g.reshape(-1) for g in grids]
    if r > 1:
        keep = None
        for a, b in zip(grids, grids[1:], strict=False):
            ordered = a <= b if with_replacement else a < b
            keep = ordered if keep is None else keep & ordered
        picked = [masked_select(g, keep) for g in grids]
    return stack([index_select(x, 0, p) for p in picked], 1)


def _triangle_indices(op: str, row: int, col: int, offset: int, lower: bool, dtype: Any,
                      device: DeviceLike | None) -> Tensor:
    check(row >= 0 and col >= 0, op, lambda: f"row and col must be non-negative, got {row} and "
          f"{col}", ValueError)
    above = arange(col, device=device).reshape(1, -1) - arange(row, device=device).reshape(-1, 1)
    keep = above <= offset if lower else above >= offset
    out = nonzero(keep).t().contiguous()
    dt = int64 if dtype is None else as_dtype(dtype)
    return out if dt is int64 else out.to(dt)


def tril_indices(row: int, col: int, offset: int = 0, *, dtype: Any = None,
                 device: DeviceLike | None = None, layout: Any = None) -> Tensor:
    """The ``(2, N)`` row and column indices of the lower triangle of a ``row x col`` matrix
    (the ``offset``-th diagonal and below), row by row.

    Example:
        >>> gt.tril_indices(2, 2).tolist()
        [[0, 1, 1], [0, 0, 1]]
    """
    return _triangle_indices("tril_indices", row, col, offset, True, dtype, device)


def triu_indices(row: int, col: int, offset: int = 0, *, dtype: Any = None,
                 device: DeviceLike | None = None, layout: Any = None) -> Tensor:
    """The ``(2, N)`` row and column indices of the upper triangle of a ``row x col`` matrix
    (the ``offset``-th diagonal and above), row by row.

    Example:
        >>> gt.triu_indices(2, 2).tolist()
        [[0, 0, 1], [0, 1, 1]]
    """
    return _triangle_indices("triu_indices", row, col, offset, False, dtype, device)


# Functional forms, exported as gt.<name> (PyTorch's torch.<name>).
EXPORTS = ("atleast_1d", "atleast_2d", "atleast_3d", "rot90", "block_diag", "cartesian_prod",
           "combinations", "tril_indices", "triu_indices")
