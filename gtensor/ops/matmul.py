"""matmul / mm / bmm / ``@`` with NumPy's 1-D rules and batch broadcasting; einsum.

One primitive (``matmul`` on >= 2-D operands with broadcast batch dims) has a
kernel and a VJP; 1-D operands become matrices through (differentiable) views
and the extra dim is squeezed away, as NumPy does. ``einsum`` takes diagonals
for repeated labels and contracts operands pairwise onto the primitive with
permutes, reshapes and sums.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ..errors import DTypeError, ShapeError, check, check_same_device
from ..graph.autocast_mode import autocast_inputs
from ..graph.node import Node, needs_grad, record
from ..shape_rules import broadcast_shapes
from ..tensor_base import TensorBase
from . import tracing
from .copy import broadcast_view
from .dispatch import launch
from .layout.views import expand_to

if TYPE_CHECKING:
    from ..tensor import Tensor

def _column_major(m: Tensor) -> bool:
    """Whether a 2-D operand is a transposed contiguous matrix (a weight seen as ``W.T``)."""
    return m.ndim == 2 and m._strides[0] == 1 and m._strides[1] == m._shape[0] != 1


def _matmul_vjp(ctx: Node, g: Tensor) -> tuple[Tensor | None, Tensor | None]:
    # The gradient of a column-major operand is computed transposed, (B^T A)^T rather than
    # A^T B: it then comes out in the operand's own layout, and a weight used as W.T gets a
    # contiguous gradient that needs no transposing copy when it is accumulated. A product
    # whose gradient nothing wants (a network's input) is not computed.
    need_a, need_b = ctx.needs_input_grad
    a, b = ctx.saved_tensors
    if a.dtype.is_complex:  # g @ b^H and a^H @ g (conj is the identity on real tensors)
        a, b = a.conj(), b.conj()  # type: ignore[attr-defined]
    grad_a = grad_b = None
    if b.ndim == 2 and a.ndim > 2:
        # one matrix for the whole batch (a linear layer): its gradient is one product over
        # every row of the batch, not a product per batch entry summed afterwards
        if need_a:
            grad_a = g @ b.mT
        a = a.reshape(-1, a.shape[-1])
        g = g.reshape(a.shape[0], g.shape[-1])
    elif need_a:
        grad_a = (b @ g.mT).mT if _column_major(a) else g @ b.mT
    if need_b:
        grad_b = (g.mT @ a).mT if _column_major(b) else a.mT @ g
    return grad_a, grad_b


def _product(a: Tensor, b: Tensor) -> Tensor:
    """The library call: a new contiguous ``a @ b`` (one dtype, batch dims broadcast)."""
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2], op="matmul")
    out = TensorBase.empty((*batch, a.shape[-2], b.shape[-1]), a.dtype, a.device)
    if out.numel():
        av = broadcast_view(a, (*batch, *a.shape[-2:]), "matmul")
        bv = broadcast_view(b, (*batch, *b.shape[-2:]), "matmul")
        launch("matmul", a.device, (a.dtype, b.dtype), av._native(), bv._native(),
               out._native())
    return out


def _matmul_nd(a: Tensor, b: Tensor) -> Tensor:
    """The primitive: ``a (..., M, K) @ b (..., K, N)`` with broadcast batch dims."""
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2], op="matmul")
    m, n = a.shape[-2], b.shape[-1]
    want = a.dtype
    out = tracing.library_call("matmul", _product, (a, b), (*batch, m, n), want)
    if want.is_inexact:
        record("matmul", out, (a, b), _matmul_vjp, save=[a, b])
    return out


def matmul(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Matrix product with NumPy's rules (1-D operands, broadcast batch dims).

    Example:
        >>> (gt.ones(2, 3) @ gt.ones(3)).tolist()
        [3.0, 3.0]
    """
    input, other = autocast_inputs("matmul", input, other)
    check(isinstance(input, TensorBase) and isinstance(other, TensorBase), "matmul",
          "expected two tensors", TypeError)
    check_same_device("matmul", input.device, other.device)
    check(input.ndim >= 1 and other.ndim >= 1, "matmul", lambda: "both arguments need at "
          f"least 1 dim, got {input.ndim}-D and {other.ndim}-D", ShapeError)
    check(input.dtype is other.dtype, "matmul", lambda: "expected both operands to have the "
          f"same dtype, got {input.dtype.name} and {other.dtype.name}", DTypeError)
    a = input.unsqueeze(0) if input.ndim == 1 else input
    b = other.unsqueeze(-1) if other.ndim == 1 else other
    check(a.shape[-1] == b.shape[-2], "matmul", lambda: f"shapes {input.shape} and "
          f"{other.shape} cannot be multiplied ({a.shape[-1]} != {b.shape[-2]})", ShapeError)
    if out is not None:
        _check_out(out, input, other)
    result = _matmul_nd(a, b)
    if input.ndim == 1:
        result = result.squeeze(-2)
    if other.ndim == 1:
        result = result.squeeze(-1)
    if out is None:
        return result
    return out.copy_(result)


def _check_out(out: Tensor, input: Tensor, other: Tensor) -> None:
    """Refuse an ``out=`` of another dtype, device or shape before any work (as PyTorch)."""
    check(isinstance(out, TensorBase), "matmul", "out must be a tensor", TypeError)
    check(not needs_grad(input, other), "matmul", "out=... arguments don't support automatic "
          "differentiation", RuntimeError)
    check(out.dtype is input.dtype, "matmul", lambda: f"expected out tensor to have dtype "
          f"{input.dtype.name}, but got {out.dtype.name} instead", DTypeError)
    check_same_device("matmul", input.device, out.device)
    batch = broadcast_shapes(input.shape[:-2], other.shape[:-2], op="matmul")
    cols = other.shape[-1:] if other.ndim > 1 else ()
    shape = (*batch, *input.shape[-2:-1], *cols)
    check(out.shape == shape, "matmul", lambda: f"out has shape {out.shape} but the result "
          f"has shape {shape}", ShapeError)


def mm(input: Tensor, mat2: Tensor) -> Tensor:
    """2-D matrix product.

    Example:
        >>> gt.mm(gt.ones(2, 3), gt.ones(3, 4)).shape
        (2, 4)
    """
    input, mat2 = autocast_inputs("mm", input, mat2)
    check(input.ndim == 2 and mat2.ndim == 2, "mm", lambda: f"expected 2-D tensors, got "
          f"{input.ndim}-D and {mat2.ndim}-D", ShapeError)
    return matmul(input, mat2)


def _vectors(op: str, a: Tensor, b: Tensor) -> None:
    check(isinstance(a, TensorBase) and isinstance(b, TensorBase), op, "expected two tensors",
          TypeError)
    check(a.ndim == 1 and b.ndim == 1, op, lambda: f"1D tensors expected, but got {a.ndim}D "
          f"and {b.ndim}D tensors", ShapeError)
    check(a.shape == b.shape, op, lambda: "inconsistent tensor size, expected tensor "
          f"[{a.shape[0]}] and src [{b.shape[0]}] to have the same number of elements",
          ShapeError)
    check(a.dtype is b.dtype, op, lambda: "expected both vectors to have the same dtype, got "
          f"{a.dtype.name} and {b.dtype.name}", DTypeError)


def dot(input: Tensor, tensor: Tensor) -> Tensor:
    """The dot product of two 1-D tensors of one dtype and length (no conjugation).

    Example:
        >>> gt.dot(gt.tensor([1.0, 2.0]), gt.tensor([3.0, 4.0])).item()
        11.0
    """
    _vectors("dot", input, tensor)
    return matmul(input, tensor)


def vdot(input: Tensor, other: Tensor) -> Tensor:
    """``sum(conj(input) * other)`` over two 1-D tensors: the complex inner product.

    Example:
        >>> gt.vdot(gt.tensor([1j]), gt.tensor([1j])).item()
        (1+0j)
    """
    _vectors("vdot", input, other)
    return matmul(input.conj(), other)  # type: ignore[attr-defined]


def bmm(input: Tensor, mat2: Tensor) -> Tensor:
    """Batched 3-D matrix product (no broadcasting).

    Example:
        >>> gt.bmm(gt.ones(5, 2, 3), gt.ones(5, 3, 4)).shape
        (5, 2, 4)
    """
    input, mat2 = autocast_inputs("bmm", input, mat2)
    check(input.ndim == 3 and mat2.ndim == 3, "bmm", lambda: f"expected 3-D tensors, got "
          f"{input.ndim}-D and {mat2.ndim}-D", ShapeError)
    check(input.shape[0] == mat2.shape[0], "bmm", lambda: f"batch sizes differ: "
          f"{input.shape[0]} and {mat2.shape[0]}", ShapeError)
    return matmul(input, mat2)


def rmatmul(self: Tensor, other: Tensor) -> Tensor:
    """``other @ self`` (Python's reflected ``@``)."""
    return matmul(other, self)


Labels = list[int]  # one label per dim: a letter's code point, or an ellipsis dim's number < 0


def _split_term(term: str, equation: str) -> tuple[str, str, bool]:
    """Split ``"a...b"`` into its letters before and after ``...`` and whether it has one."""
    head, ell, tail = term.partition("...")
    check((head + tail).isalpha() or not head + tail, "einsum", lambda: "labels must be "
          f"letters, with at most one '...' per operand: {equation!r}", ValueError)
    return head, tail, bool(ell)


def _parse(equation: str, shapes: list[tuple[int, ...]]) -> tuple[list[Labels], Labels]:
    """Turn ``equation`` into labels per operand dim and the output labels.

    ``...`` stands for the operand's unnamed dims, right-aligned across operands
    (ellipsis dim ``k`` counted from the right gets label ``-k - 1``). Without
    ``->`` the output is ``...`` followed by the labels used once, sorted.
    """
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    check(len(terms) == len(shapes), "einsum", lambda: f"equation {equation!r} names "
          f"{len(terms)} operands but {len(shapes)} were given", ValueError)
    inputs: list[Labels] = []
    n_ell = 0
    for term, shape in zip(terms, shapes, strict=True):
        head, tail, has_ell = _split_term(term, equation)
        named = len(head) + len(tail)
        extra = len(shape) - named
        check(extra == 0 or (has_ell and extra > 0), "einsum", lambda: f"operand of shape "
              f"{shape} has {len(shape)} dims but {term!r} names {named}", ShapeError)
        n_ell = max(n_ell, extra)
        inputs.append([ord(c) for c in head] + list(range(-extra, 0)) + [ord(c) for c in tail])
    used = [c for labels in inputs for c in labels if c >= 0]
    if arrow:
        head, tail, has_ell = _split_term(rhs, equation)
        check(not has_ell or n_ell or any("..." in t for t in terms), "einsum",
              lambda: f"output has '...' but no operand does: {equation!r}", ValueError)
        out = [ord(c) for c in head] + (list(range(-n_ell, 0)) if has_ell else []) + [
            ord(c) for c in tail]
        for c in out:
            check(c < 0 or c in used, "einsum", lambda: f"output label {chr(c)!r} does not "
                  f"appear in any operand: {equation!r}", ValueError)
        check(len(set(out)) == len(out), "einsum", lambda: f"output labels repeat: "
              f"{equation!r}", ValueError)
    else:
        out = list(range(-n_ell, 0)) + sorted(c for c in set(used) if used.count(c) == 1)
    return inputs, out


def _take_diagonals(t: Tensor, labels: Labels) -> tuple[Tensor, Labels]:
    """Replace each label repeated within one operand by the diagonal over its dims."""
    labels = list(labels)
    while len(set(labels)) < len(labels):
        c = next(c for c in labels if labels.count(c) > 1)
        i = labels.index(c)
        j = labels.index(c, i + 1)
        check(t.shape[i] == t.shape[j], "einsum", lambda: f"label {chr(c)!r} is repeated "
              f"with sizes {t.shape[i]} and {t.shape[j]}", ShapeError)
        t = t.diagonal(0, i, j)
        labels = [x for k, x in enumerate(labels) if k not in (i, j)] + [c]
    return t, labels


def _sum_out(t: Tensor, labels: Labels, keep: set[int]) -> tuple[Tensor, Labels]:
    """Sum the dims whose labels are not in ``keep``."""
    dims = tuple(i for i, c in enumerate(labels) if c not in keep)
    if dims:
        t = t.sum(dim=dims)
        labels = [c for c in labels if c in keep]
    return t, labels


def _label_name(c: int) -> str:
    """A label as written in the equation (``...`` for an ellipsis dim)."""
    return chr(c) if c >= 0 else "..."


def _contract(a: Tensor, la: Labels, b: Tensor, lb: Labels, keep: set[int],
              size: dict[int, int]) -> tuple[Tensor, Labels]:
    """Contract two operands over their shared labels not in ``keep``, as one batched matmul."""
    a, la = _sum_out(a, la, keep | set(lb))
    b, lb = _sum_out(b, lb, keep | set(la))
    shared = [c for c in la if c in lb]
    a = expand_to(a, tuple(size[c] if c in shared else n for c, n in zip(la, a.shape,
                                                                         strict=True)), "einsum")
    b = expand_to(b, tuple(size[c] if c in shared else n for c, n in zip(lb, b.shape,
                                                                         strict=True)), "einsum")
    batch = [c for c in shared if c in keep]
    contract = [c for c in shared if c not in keep]
    rows = [c for c in la if c not in lb]
    cols = [c for c in lb if c not in la]

    def prod(labels: Labels) -> int:
        return math.prod(size[c] for c in labels)

    am = a.permute(*[la.index(c) for c in batch + rows + contract]).reshape(
        prod(batch), prod(rows), prod(contract))
    bm = b.permute(*[lb.index(c) for c in batch + contract + cols]).reshape(
        prod(batch), prod(contract), prod(cols))
    res = matmul(am, bm).reshape(*[size[c] for c in batch + rows + cols])
    return res, batch + rows + cols


_SUBLIST_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _sublist_term(sub: Any) -> str:
    check(isinstance(sub, (list, tuple)), "einsum", lambda: "expected a sublist of ints after "
          f"each operand, got {type(sub).__name__}", TypeError)
    out = []
    for d in sub:
        if d is Ellipsis:
            out.append("...")
            continue
        check(isinstance(d, int) and 0 <= d < 52, "einsum", lambda: "sublist labels must be "
              f"ints in [0, 52) or ..., got {d!r}", ValueError)
        out.append(_SUBLIST_LETTERS[d])
    return "".join(out)


def _from_sublists(args: tuple[Any, ...]) -> tuple[str, tuple[Any, ...]]:
    """``einsum(op0, sub0, op1, sub1, ..., [out])`` as an equation and its operands."""
    operands, terms = args[0::2], [_sublist_term(s) for s in args[1::2]]
    if len(args) % 2:
        operands = operands[:-1]
        return ",".join(terms) + "->" + _sublist_term(args[-1]), operands
    return ",".join(terms), operands


def einsum(equation: str | Tensor, *operands: Any) -> Tensor:
    """Einstein summation, as in PyTorch (differentiable through the ops it composes).

    Supports any number of operands, repeated labels within an operand
    (diagonals: ``"ii->i"``, traces: ``"ii"``), ``...`` for broadcast batch
    dims (``"...ij,...jk->...ik"``) and the implicit output (labels used once,
    sorted, after the ``...`` dims). The sublist form ``einsum(a, [0, 1], b,
    [1, 2], [0, 2])`` labels dims with ints in [0, 52) instead. Size-1 dims
    broadcast against the others of the same label. Operands are contracted
    left to right, each pair as one batched ``matmul``.

    Example:
        >>> gt.einsum("ij,j->i", gt.ones(2, 3), gt.ones(3)).tolist()
        [3.0, 3.0]
    """
    if isinstance(equation, TensorBase):
        equation, operands = _from_sublists((equation, *operands))
    elif len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    operands = autocast_inputs("einsum", *operands)
    check(len(operands) >= 1, "einsum", "expected at least one operand", ValueError)
    for t in operands:
        check(isinstance(t, TensorBase), "einsum", lambda: f"operands must be tensors, got "
              f"{type(t).__name__}", TypeError)
    check_same_device("einsum", *(t.device for t in operands))
    inputs, out_labels = _parse(equation, [t.shape for t in operands])
    ops = [_take_diagonals(t, labels) for t, labels in zip(operands, inputs, strict=True)]
    size: dict[int, int] = {}
    for t, labels in ops:
        for c, n in zip(labels, t.shape, strict=True):
            seen = size.setdefault(c, n)
            check(n in (1, seen) or seen == 1, "einsum", lambda: f"label "
                  f"{_label_name(c)!r} has sizes {seen} and {n}", ShapeError)
            size[c] = max(seen, n) if n and seen else 0
    res, labels = ops[0]
    for k in range(1, len(ops)):
        keep = set(out_labels).union(*(set(lb) for _, lb in ops[k + 1:]))
        res, labels = _contract(res, labels, ops[k][0], ops[k][1], keep, size)
    res, labels = _sum_out(res, labels, set(out_labels))
    res = res.permute(*[labels.index(c) for c in out_labels])
    return expand_to(res, tuple(size[c] for c in out_labels), "einsum")


EXPORTS = ("matmul", "mm", "bmm", "einsum")
