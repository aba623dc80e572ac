"""matmul / mm / bmm / ``@`` with NumPy's 1-D rules and batch broadcasting; einsum.

One primitive (``matmul`` on >= 2-D operands with broadcast batch dims) has a
kernel and a VJP; 1-D operands become matrices through (differentiable) views
and the extra dim is squeezed away, as NumPy does. ``einsum`` maps two-operand
contractions onto the primitive with permutes, reshapes and sums.
"""

from __future__ import annotations

import math

from ..autograd.node import Node, needs_grad, record
from ..dtypes import float16, float32
from ..errors import DTypeError, ShapeError, check, check_same_device
from ..shape_rules import broadcast_shapes
from ..tensor import Tensor, tensor_method
from .copy import broadcast_view
from .dispatch import launch


def _matmul_vjp(ctx: Node, g: Tensor) -> tuple[Tensor, Tensor]:
    a, b = ctx.saved_tensors
    return g @ b.mT, a.mT @ g  # type: ignore[attr-defined,operator]


def _matmul_nd(a: Tensor, b: Tensor) -> Tensor:
    """The primitive: ``a (..., M, K) @ b (..., K, N)`` with broadcast batch dims."""
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2], op="matmul")
    m, n = a.shape[-2], b.shape[-1]
    want = a.dtype
    ka, kb = (a.to(float32), b.to(float32)) if want is float16 else (a, b)  # type: ignore[attr-defined]
    out = Tensor.empty((*batch, m, n), ka.dtype, a.device)
    if out.numel():
        av = broadcast_view(ka, (*batch, *a.shape[-2:]), "matmul")
        bv = broadcast_view(kb, (*batch, *b.shape[-2:]), "matmul")
        launch("matmul", a.device, (ka.dtype, kb.dtype), av._native(), bv._native(),
               out._native())
    if want is float16:
        out = out.to(float16)  # type: ignore[attr-defined]
    if want.is_floating_point:
        record("matmul", out, (a, b), _matmul_vjp, save=[a, b])
    return out


@tensor_method()
def matmul(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Matrix product with NumPy's rules (1-D operands, broadcast batch dims).

    Example:
        >>> (gt.ones(2, 3) @ gt.ones(3)).tolist()  # doctest: +SKIP
        [3.0, 3.0]
    """
    check(isinstance(input, Tensor) and isinstance(other, Tensor), "matmul",
          "expected two tensors", TypeError)
    check_same_device("matmul", input.device, other.device)
    check(input.ndim >= 1 and other.ndim >= 1, "matmul", lambda: "both arguments need at "
          f"least 1 dim, got {input.ndim}-D and {other.ndim}-D", ShapeError)
    check(input.dtype is other.dtype, "matmul", lambda: "expected both operands to have the "
          f"same dtype, got {input.dtype.name} and {other.dtype.name}", DTypeError)
    a = input.unsqueeze(0) if input.ndim == 1 else input  # type: ignore[attr-defined]
    b = other.unsqueeze(-1) if other.ndim == 1 else other  # type: ignore[attr-defined]
    check(a.shape[-1] == b.shape[-2], "matmul", lambda: f"shapes {input.shape} and "
          f"{other.shape} cannot be multiplied ({a.shape[-1]} != {b.shape[-2]})", ShapeError)
    result = _matmul_nd(a, b)
    if input.ndim == 1:
        result = result.squeeze(-2)  # type: ignore[attr-defined]
    if other.ndim == 1:
        result = result.squeeze(-1)  # type: ignore[attr-defined]
    if out is None:
        return result
    check(not needs_grad(result), "matmul", "out=... arguments don't support automatic "
          "differentiation", RuntimeError)
    check(out.shape == result.shape, "matmul", lambda: f"out has shape {out.shape} but the "
          f"result has shape {result.shape}", ShapeError)
    return out.copy_(result)  # type: ignore[attr-defined]


@tensor_method()
def mm(input: Tensor, mat2: Tensor) -> Tensor:
    """2-D matrix product.

    Example:
        >>> gt.mm(gt.ones(2, 3), gt.ones(3, 4)).shape  # doctest: +SKIP
        (2, 4)
    """
    check(input.ndim == 2 and mat2.ndim == 2, "mm", lambda: f"expected 2-D tensors, got "
          f"{input.ndim}-D and {mat2.ndim}-D", ShapeError)
    return matmul(input, mat2)


@tensor_method()
def bmm(input: Tensor, mat2: Tensor) -> Tensor:
    """Batched 3-D matrix product (no broadcasting).

    Example:
        >>> gt.bmm(gt.ones(5, 2, 3), gt.ones(5, 3, 4)).shape  # doctest: +SKIP
        (5, 2, 4)
    """
    check(input.ndim == 3 and mat2.ndim == 3, "bmm", lambda: f"expected 3-D tensors, got "
          f"{input.ndim}-D and {mat2.ndim}-D", ShapeError)
    check(input.shape[0] == mat2.shape[0], "bmm", lambda: f"batch sizes differ: "
          f"{input.shape[0]} and {mat2.shape[0]}", ShapeError)
    return matmul(input, mat2)


tensor_method("__matmul__")(matmul)
tensor_method("__rmatmul__")(lambda self, other: matmul(other, self))


def _parse(equation: str, count: int) -> tuple[list[str], str]:
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    inputs = lhs.split(",")
    check(len(inputs) == count, "einsum", lambda: f"equation {equation!r} names "
          f"{len(inputs)} operands but {count} were given", ValueError)
    for labels in inputs:
        check(labels.isalpha() and len(set(labels)) == len(labels), "einsum", lambda: "each "
              f"operand needs distinct letter labels (no '...', no repeats): {equation!r}",
              ValueError)
    if not arrow:
        counts = {c: lhs.count(c) for c in lhs if c.isalpha()}
        rhs = "".join(sorted(c for c, k in counts.items() if k == 1))
    return inputs, rhs


def _sum_unused(t: Tensor, labels: str, keep: str) -> tuple[Tensor, str]:
    dims = tuple(i for i, c in enumerate(labels) if c not in keep)
    if dims:
        t = t.sum(dim=dims)  # type: ignore[attr-defined]
        labels = "".join(c for c in labels if c in keep)
    return t, labels


def einsum(equation: str, *operands: Tensor) -> Tensor:
    """Einstein summation over one or two operands (``"ij,jk->ik"``, ``"bij,bjk->bik"``, ...).

    Labels are letters, distinct within an operand; ``...`` and repeated labels
    (diagonals) are not supported. Two-operand contractions run as one batched
    ``matmul``.

    Example:
        >>> gt.einsum("ij,j->i", gt.ones(2, 3), gt.ones(3)).tolist()  # doctest: +SKIP
        [3.0, 3.0]
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    check(len(operands) in (1, 2), "einsum", "supports one or two operands", ValueError)
    inputs, out_labels = _parse(equation, len(operands))
    for labels, t in zip(inputs, operands, strict=True):
        check(len(labels) == t.ndim, "einsum", lambda: f"operand of shape {t.shape} has "
              f"{t.ndim} dims but {labels!r} names {len(labels)}", ShapeError)
    if len(operands) == 1:
        t, labels = _sum_unused(operands[0], inputs[0], out_labels)
        return t.permute(*[labels.index(c) for c in out_labels])  # type: ignore[attr-defined]
    (la, lb), (a, b) = inputs, operands
    a, la = _sum_unused(a, la, lb + out_labels)
    b, lb = _sum_unused(b, lb, la + out_labels)
    size = {c: n for labels, t in ((la, a), (lb, b)) for c, n in zip(labels, t.shape,
                                                                      strict=True)}
    batch = [c for c in la if c in lb and c in out_labels]
    contract = [c for c in la if c in lb and c not in out_labels]
    rows = [c for c in la if c not in lb]
    cols = [c for c in lb if c not in la]
    for c in batch + contract:
        check(a.shape[la.index(c)] == b.shape[lb.index(c)], "einsum", lambda: f"label {c!r} "
              f"has sizes {a.shape[la.index(c)]} and {b.shape[lb.index(c)]}", ShapeError)

    def prod(labels: list[str]) -> int:
        return math.prod(size[c] for c in labels)

    am = a.permute(*[la.index(c) for c in batch + rows + contract]).reshape(  # type: ignore[attr-defined]
        prod(batch), prod(rows), prod(contract))
    bm = b.permute(*[lb.index(c) for c in batch + contract + cols]).reshape(  # type: ignore[attr-defined]
        prod(batch), prod(contract), prod(cols))
    res = matmul(am, bm).reshape(*[size[c] for c in batch + rows + cols])  # type: ignore[attr-defined]
    order = batch + rows + cols
    return res.permute(*[order.index(c) for c in out_labels])  # type: ignore[attr-defined]


EXPORTS = ("matmul", "mm", "bmm", "einsum")
