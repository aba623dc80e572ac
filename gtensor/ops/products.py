"""Products, distances and norms composed from matmul: addmm, addmv, addr, baddbmm (and their
in-place forms), chain_matmul, cdist, renorm, vander.

``addmv``/``addr``/``baddbmm`` are ``beta * input + alpha * product`` (with
``beta = 0`` ignoring ``input``, nans included, as BLAS does); ``chain_matmul``
multiplies in the cheapest order; ``cdist`` takes the norm of all pairwise
differences, or for ``p = 2`` on more than 25 rows PyTorch's one-matmul form
``|a|^2 + |b|^2 - 2 a.b``. All differentiate through the ops they are made of.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ..dtypes import int64, promote_types
from ..errors import DTypeError, ShapeError, check
from ..graph.autocast_mode import autocast_inputs
from ..graph.inplace import differentiable_inplace
from ..shape_rules import broadcast_shapes, wrap_dim
from .arrangement import triu_indices
from .creation import ones, zeros
from .elementwise import where
from .layout.copies import cat
from .matmul import matmul
from .reduction import norm
from .special_functions import write_inplace

if TYPE_CHECKING:
    from ..tensor import Tensor

_COMPUTE_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                  "donot_use_mm_for_euclid_dist")


def _scaled_sum(op: str, input: Tensor, product: Tensor, beta: Any, alpha: Any) -> Tensor:
    """``beta * input + alpha * product``, ``input`` broadcast to the product's shape."""
    check(broadcast_shapes(input.shape, product.shape, op=op) == product.shape, op,
          lambda: f"input of shape {input.shape} does not broadcast to the product's shape "
          f"{product.shape}", ShapeError)
    out = product if alpha == 1 else product * alpha
    if beta == 0:
        return out
    return out + (input if beta == 1 else input * beta)


def _dims(op: str, names: tuple[str, ...], tensors: tuple[Tensor, ...],
          ndims: tuple[int, ...]) -> None:
    for name, t, n in zip(names, tensors, ndims, strict=True):
        check(t.ndim == n, op, lambda: f"expected {name} to be {n}-D, got {t.ndim}-D", ShapeError)


def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (mat @ vec)``.

    Example:
        >>> gt.addmv(gt.zeros(2), gt.ones(2, 3), gt.ones(3)).tolist()
        [3.0, 3.0]
    """
    input, mat, vec = autocast_inputs("addmv", input, mat, vec)
    _dims("addmv", ("mat", "vec"), (mat, vec), (2, 1))
    return _scaled_sum("addmv", input, matmul(mat, vec), beta, alpha)


def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Any = 1, alpha: Any = 1
          ) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)``.

    Example:
        >>> gt.addmm(gt.zeros(2, 2), gt.ones(2, 3), gt.ones(3, 2)).tolist()
        [[3.0, 3.0], [3.0, 3.0]]
    """
    input, mat1, mat2 = autocast_inputs("addmm", input, mat1, mat2)
    _dims("addmm", ("mat1", "mat2"), (mat1, mat2), (2, 2))
    check(mat1.shape[1] == mat2.shape[0], "addmm", lambda: f"mat1 and mat2 shapes cannot be "
          f"multiplied ({mat1.shape[0]}x{mat1.shape[1]} and {mat2.shape[0]}x{mat2.shape[1]})",
          ShapeError)
    return _scaled_sum("addmm", input, matmul(mat1, mat2), beta, alpha)


def addr(input: Tensor, vec1: Tensor, vec2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * outer(vec1, vec2)``.

    Example:
        >>> gt.addr(gt.zeros(2, 2), gt.ones(2), gt.ones(2)).tolist()
        [[1.0, 1.0], [1.0, 1.0]]
    """
    input, vec1, vec2 = autocast_inputs("addr", input, vec1, vec2)
    _dims("addr", ("vec1", "vec2"), (vec1, vec2), (1, 1))
    return _scaled_sum("addr", input, vec1.unsqueeze(1) * vec2.unsqueeze(0), beta, alpha)


def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1,
            alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * bmm(batch1, batch2)``.

    Example:
        >>> b = gt.ones(1, 2, 3)
        >>> gt.baddbmm(gt.zeros(1, 2, 2), b, b.mT).shape
        (1, 2, 2)
    """
    input, batch1, batch2 = autocast_inputs("baddbmm", input, batch1, batch2)
    _dims("baddbmm", ("batch1", "batch2"), (batch1, batch2), (3, 3))
    check(batch1.shape[0] == batch2.shape[0], "baddbmm", lambda: "batch sizes differ: "
          f"{batch1.shape[0]} and {batch2.shape[0]}", ShapeError)
    return _scaled_sum("baddbmm", input, matmul(batch1, batch2), beta, alpha)


def addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1,
           alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * sum_b batch1[b] @ batch2[b]`` (the batch summed away).

    Example:
        >>> b = gt.ones(3, 2, 4)
        >>> gt.addbmm(gt.zeros(2, 2), b, b.mT).tolist()
        [[12.0, 12.0], [12.0, 12.0]]
    """
    input, batch1, batch2 = autocast_inputs("addbmm", input, batch1, batch2)
    _dims("addbmm", ("batch1", "batch2"), (batch1, batch2), (3, 3))
    check(batch1.shape[0] == batch2.shape[0] and batch1.shape[2] == batch2.shape[1], "addbmm",
          lambda: f"batch1 {tuple(batch1.shape)} and batch2 {tuple(batch2.shape)} cannot be "
          "multiplied batch by batch", ShapeError)
    return _scaled_sum("addbmm", input, matmul(batch1, batch2).sum(0), beta, alpha)


@differentiable_inplace(addbmm)
def addbmm_(self: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1,
            alpha: Any = 1) -> Tensor:
    """In-place :func:`addbmm`."""
    return write_inplace("addbmm_", self, addbmm(self, batch1, batch2, beta=beta, alpha=alpha))


@differentiable_inplace(addmv)
def addmv_(self: Tensor, mat: Tensor, vec: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """In-place :func:`addmv`."""
    return write_inplace("addmv_", self, addmv(self, mat, vec, beta=beta, alpha=alpha))


@differentiable_inplace(addmm)
def addmm_(self: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """In-place :func:`addmm`."""
    return write_inplace("addmm_", self, addmm(self, mat1, mat2, beta=beta, alpha=alpha))


@differentiable_inplace(addr)
def addr_(self: Tensor, vec1: Tensor, vec2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """In-place :func:`addr`."""
    return write_inplace("addr_", self, addr(self, vec1, vec2, beta=beta, alpha=alpha))


@differentiable_inplace(baddbmm)
def baddbmm_(self: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1,
             alpha: Any = 1) -> Tensor:
    """In-place :func:`baddbmm`."""
    return write_inplace("baddbmm_", self, baddbmm(self, batch1, batch2, beta=beta, alpha=alpha))


def chain_matmul(*matrices: Tensor) -> Tensor:
    """The product of 2-D ``matrices``, in the order of fewest multiplications.

    Example:
        >>> gt.chain_matmul(gt.ones(2, 3), gt.ones(3, 4), gt.ones(4, 1)).shape
        (2, 1)
    """
    matrices = autocast_inputs("chain_matmul", *matrices)
    check(len(matrices) > 0, "chain_matmul", "expected one or more matrices", ValueError)
    for m in matrices:
        check(m.ndim == 2, "chain_matmul", lambda: f"expected 2-D matrices, got {m.ndim}-D",
              ShapeError)
    if len(matrices) == 1:
        return matrices[0].clone()
    sizes = [matrices[0].shape[0]] + [m.shape[1] for m in matrices]
    n = len(matrices)
    cost = {(i, i): 0 for i in range(n)}
    split: dict[tuple[int, int], int] = {}
    for length in range(2, n + 1):
        for i in range(n - length + 1):
            j = i + length - 1
            cost[i, j], split[i, j] = min(
                (cost[i, k] + cost[k + 1, j] + sizes[i] * sizes[k + 1] * sizes[j + 1], k)
                for k in range(i, j))

    def product(i: int, j: int) -> Tensor:
        if i == j:
            return matrices[i]
        k = split[i, j]
        return matmul(product(i, k), product(k + 1, j))

    return product(0, n - 1)


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0,
          compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """The ``p``-norm distance between each row of ``x1`` and each row of ``x2``.

    Args:
        x1: ``(*, P, M)``.
        x2: ``(*, R, M)``; batch dims broadcast with ``x1``'s.
        p: the norm (0 counts differing coordinates, ``inf`` takes the largest).
        compute_mode: for ``p = 2``, whether to use the matmul form (always,
            never, or by default when ``P`` or ``R`` exceeds 25).

    Returns:
        ``(*, P, R)``.

    Example:
        >>> gt.cdist(gt.zeros(1, 2), gt.tensor([[3.0, 4.0]])).item()
        5.0
    """
    x1, x2 = autocast_inputs("cdist", x1, x2)
    check(x1.ndim >= 2 and x2.ndim >= 2, "cdist", lambda: "expected tensors of at least 2 dims, "
          f"got {x1.ndim}-D and {x2.ndim}-D", ShapeError)
    check(x1.shape[-1] == x2.shape[-1], "cdist", lambda: "x1 and x2 must have the same number "
          f"of columns, got {x1.shape[-1]} and {x2.shape[-1]}", ShapeError)
    check(x1.dtype.is_floating_point and x2.dtype.is_floating_point, "cdist", lambda: "expected "
          f"floating point tensors, got {x1.dtype.name} and {x2.dtype.name}", DTypeError)
    check(p >= 0, "cdist", lambda: f"p must be non-negative, got {p}", ValueError)
    check(compute_mode in _COMPUTE_MODES, "cdist", lambda: "compute_mode must be one of "
          f"{', '.join(_COMPUTE_MODES)}, got {compute_mode!r}", ValueError)
    many = x1.shape[-2] > 25 or x2.shape[-2] > 25
    if p == 2 and (compute_mode == _COMPUTE_MODES[1] or (compute_mode == _COMPUTE_MODES[0]
                                                          and many)):
        squares = (x1 * x1).sum(-1, keepdim=True) + (x2 * x2).sum(-1).unsqueeze(-2)
        return (squares - matmul(x1, x2.transpose(-1, -2)) * 2.0).clamp(min=0).sqrt()
    return norm(x1.unsqueeze(-2) - x2.unsqueeze(-3), p, dim=-1)


def pdist(input: Tensor, p: float = 2.0) -> Tensor:
    """The ``p``-norm distance between each pair of rows ``i < j`` of an ``(N, M)`` tensor.

    Returns:
        The ``N (N - 1) / 2`` distances, row pairs in order (as ``triu_indices(N, N, 1)``).

    Example:
        >>> gt.pdist(gt.tensor([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]])).tolist()
        [5.0, 1.0, 4.242640495300293]
    """
    check(input.ndim == 2, "pdist", lambda: f"expected a 2-D tensor, got shape "
          f"{tuple(input.shape)}", ShapeError)
    check(p >= 0, "pdist", lambda: f"p must be non-negative, got {p}", ValueError)
    n = input.shape[0]
    rows, cols = triu_indices(n, n, 1, device=input.device)
    diff = input[rows] - input[cols]  # type: ignore[index]
    if p != math.inf:
        return norm(diff, p, dim=-1)
    # PyTorch's gradient for p = inf: the whole gradient to every tied extreme, not a share
    size = diff.abs()  # type: ignore[attr-defined]
    dist = size.detach().amax(-1, keepdim=True)
    return ((size - dist) * (size.detach() == dist)).sum(-1) + dist.squeeze(-1)


def renorm(input: Tensor, p: float, dim: int, maxnorm: float) -> Tensor:
    """``input`` with each slice along ``dim`` whose ``p``-norm exceeds ``maxnorm`` scaled down to
    ``maxnorm`` (by ``maxnorm / (norm + 1e-7)``, as PyTorch).

    Example:
        >>> gt.renorm(gt.tensor([[3.0, 4.0], [0.3, 0.4]]), 2, 0, 1.0)
        tensor([[0.6000, 0.8000],
                [0.3000, 0.4000]])
    """
    (input,) = autocast_inputs("renorm", input)
    check(input.ndim >= 2, "renorm", lambda: f"input needs at least 2 dims, got {input.ndim}",
          ShapeError)
    check(p > 0, "renorm", lambda: f"p must be positive, got {p}", ValueError)
    check(maxnorm >= 0, "renorm", lambda: f"maxnorm must be >= 0, got {maxnorm}", ValueError)
    d = wrap_dim(dim, input.ndim, "renorm")
    x = input.float() if input.dtype.is_half else input
    norms = norm(x, p, dim=[i for i in range(input.ndim) if i != d], keepdim=True)
    factor = where(norms > maxnorm, maxnorm / (norms + 1e-7), 1.0)
    return input * factor.to(input.dtype)


@differentiable_inplace(renorm)
def renorm_(self: Tensor, p: float, dim: int, maxnorm: float) -> Tensor:
    """In-place :func:`renorm`."""
    return write_inplace("renorm_", self, renorm(self, p, dim, maxnorm))


def vander(x: Tensor, N: int | None = None, increasing: bool = False) -> Tensor:  # noqa: N803
    """The Vandermonde matrix of ``x``: columns ``x**(N-1), ..., x, 1`` (reversed if
    ``increasing``); integers give int64.

    Example:
        >>> gt.vander(gt.tensor([1, 2, 3])).tolist()
        [[1, 1, 1], [4, 2, 1], [9, 3, 1]]
    """
    check(x.ndim == 1, "vander", lambda: f"x must be a 1-D tensor, got {x.ndim}-D", ShapeError)
    n = x.shape[0] if N is None else N
    check(n >= 0, "vander", lambda: f"N must be non-negative, got {n}", ValueError)
    dt = promote_types(x.dtype, int64)
    rows = x.shape[0]
    if n == 0:
        return zeros(rows, 0, dtype=dt, device=x.device)
    xs = x.to(dt).unsqueeze(1).expand(rows, n - 1)
    out = cat([ones(rows, 1, dtype=dt, device=x.device), xs], 1).cumprod(1)
    return out if increasing else out.flip(1)


# Functional forms, exported as gt.<name> (PyTorch's torch.<name>).
EXPORTS = ("addmm", "addmv", "addmv_", "addr", "baddbmm", "chain_matmul", "cdist", "renorm",
           "vander")
