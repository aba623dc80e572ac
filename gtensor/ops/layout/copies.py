"""Layout ops that copy into a new tensor: concatenation, repeats, padding, triangles.

``cat``, ``stack``, ``flip``, ``roll``, ``repeat``, ``tile``,
``repeat_interleave``, ``one_hot``, ``pad``, ``tril``, ``triu``, ``diag``,
``trace``.

Most are compositions of views and the copy / gather / scatter kernels;
``cat`` (and ``stack``, a ``cat`` of unsqueezed views) runs the ``cat``
kernel, ``pad``'s constant mode is :func:`.padding.constant_pad` and
``tril``/``triu`` run the ``triangle`` kernel. An op that copies computes its result without
recording and records one node whose VJP sits right after it;
``stack``/``repeat_interleave`` are differentiable compositions.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ...dtypes import int64, promote_types
from ...errors import ShapeError, check
from ...graph.autocast_mode import autocast_inputs
from ...graph.grad_mode import no_grad
from ...graph.node import Node, record
from ...shape_rules import keyword_sizes, normalize_shape, wrap_dim, wrap_sized_dim
from ...tensor_base import TensorBase, contiguous_strides, from_storage
from ...trace_state import state as trace_state
from ..copy import write_out
from ..creation import arange, tensor, zeros
from ..dispatch import launch
from ..indexing.along_dim import index_select, scatter_, scatter_add_
from ..tracing import library_call
from .padding import constant_pad, pad_pairs
from .views import diagonal, expand_to, tensor_list

if TYPE_CHECKING:
    from ...tensor import Tensor


def _cat_vjp(ctx: Node, g: Tensor) -> tuple[Tensor, ...]:
    grads, start = [], 0
    for n in ctx.sizes:
        grads.append(g.narrow(ctx.dim, start, n))  # type: ignore[attr-defined]
        start += n
    return tuple(grads)


def cat(tensors: Sequence[Tensor], dim: int = 0, *, axis: int | None = None,
        out: Tensor | None = None) -> Tensor:
    """Concatenate tensors along an existing dim (dtypes promote; 1-D empty tensors are skipped).

    ``axis`` is NumPy's name for ``dim``, which PyTorch accepts too.

    Differentiable: each input gets its slice of the gradient.

    Example:
        >>> gt.cat([gt.ones(2), gt.zeros(1)]).tolist()
        [1.0, 1.0, 0.0]
    """
    dim = dim if axis is None else axis
    (tensors,) = autocast_inputs("cat", tensors)
    ts = tensor_list(tensors, "cat")
    dt = ts[0].dtype
    for t in ts[1:]:
        dt = promote_types(dt, t.dtype, "cat")
    parts = [t for t in ts if not (t.ndim == 1 and t.shape[0] == 0)] or ts[:1]
    ref = parts[0]
    check(ref.ndim > 0, "cat", "zero-dimensional tensors cannot be concatenated", ShapeError)
    d = wrap_dim(dim, ref.ndim, "cat")
    for t in parts:
        check(t.ndim == ref.ndim and all(a == b for j, (a, b) in enumerate(
            zip(t.shape, ref.shape, strict=True)) if j != d), "cat",
            lambda: f"sizes of tensors must match except in dimension {d}: got {ref.shape} "
            f"and {t.shape}", ShapeError)
    shape = list(ref.shape)
    shape[d] = sum(t.shape[d] for t in parts)
    result = library_call("cat", functools.partial(_concatenated, tuple(shape), dt, d),
                       tuple(parts), tuple(shape), dt)
    record("cat", result, parts, _cat_vjp, dim=d, sizes=[t.shape[d] for t in parts])
    return result if out is None else write_out(result, out, "cat")


def _concatenated(shape: tuple[int, ...], dt: Any, dim: int, *parts: Tensor) -> Tensor:
    """The concatenation itself, into a new contiguous tensor (no recording)."""
    out = TensorBase.empty(shape, dt, parts[0].device)
    if out.numel():
        # the kernel converts values as it copies; a half type's bits convert here first
        natives = [(t.to(dt) if t.dtype.is_half and t.dtype is not dt else t)._native()
                   for t in parts]
        launch("cat", out.device, (dt,), natives, out._native(), dim)
    return out


def stack(tensors: Sequence[Tensor], dim: int = 0, *, out: Tensor | None = None) -> Tensor:
    """Stack same-shape tensors along a new dim.

    Example:
        >>> gt.stack([gt.ones(2), gt.zeros(2)], 1).shape
        (2, 2)
    """
    (tensors,) = autocast_inputs("stack", tensors)
    ts = tensor_list(tensors, "stack")
    check(all(t.shape == ts[0].shape for t in ts), "stack", lambda: "stack expects each "
          f"tensor to be equal size, got {[t.shape for t in ts]}", ShapeError)
    d = wrap_dim(dim, ts[0].ndim + 1, "stack")
    return write_out(cat([t.unsqueeze(d) for t in ts], d), out, "stack")


def split(self: Tensor, split_size_or_sections: int | Sequence[int], dim: int = 0
          ) -> tuple[Tensor, ...]:
    """Split into views of ``split_size`` along ``dim`` (the last may be smaller) or given sizes.

    Differentiable: one node for all the pieces, whose backward concatenates
    their gradients.

    Example:
        >>> [t.shape for t in gt.ones(5).split(2)]
        [(2,), (2,), (1,)]
    """
    d = wrap_sized_dim(dim, self.ndim, "split")
    n = self.shape[d]
    if isinstance(split_size_or_sections, int):
        size = split_size_or_sections
        check(size > 0 or (size == 0 and n == 0), "split", lambda: f"split size must be "
              f"positive, got {size}", ValueError)
        sizes = [min(size, n - s) for s in range(0, n, size)] if size else [0]
    else:
        sizes = [int(s) for s in split_size_or_sections]
        check(sum(sizes) == n and all(s >= 0 for s in sizes), "split", lambda: f"split sizes "
              f"{sizes} do not sum to the size {n} of dimension {d}", ValueError)
    out, start = [], 0
    with no_grad():  # one node for all the views: its backward is one cat
        for s in sizes:
            out.append(self.narrow(d, start, s))  # type: ignore[attr-defined]
            start += s
    record("split", out, (self,), _split_vjp, dim=d)
    return tuple(out)


def _split_vjp(ctx: Node, *grads: Tensor) -> Tensor:
    return cat(grads, ctx.dim)  # the engine passes zeros for the pieces no gradient reached


def chunk(self: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """Split into at most ``chunks`` views of equal size (``ceil(n / chunks)``) along ``dim``.

    Example:
        >>> len(gt.ones(5).chunk(3))
        3
    """
    check(isinstance(chunks, int) and chunks > 0, "chunk", lambda: "chunks must be a positive "
          f"int, got {chunks!r}", ValueError)
    n = self.shape[wrap_sized_dim(dim, self.ndim, "chunk")]
    return split(self, -(-n // chunks) if n else [0] * chunks, dim)  # n == 0: chunks empties


def _dims(dims: Any, ndim: int, op: str) -> list[int]:
    seq = [dims] if isinstance(dims, int) else list(dims)
    out = [wrap_dim(d, ndim, op) for d in seq]
    check(len(set(out)) == len(out), op, lambda: f"dims {tuple(seq)} repeat a dim", ValueError)
    return out


def flip(self: Tensor, dims: int | Sequence[int]) -> Tensor:
    """Return a copy with the order of elements reversed along ``dims`` (differentiable).

    Example:
        >>> gt.tensor([1, 2, 3]).flip(0).tolist()
        [3, 2, 1]
    """
    ds = _dims(dims, self.ndim, "flip")
    if not self.ndim:  # dim 0 or -1 of a 0-d tensor names it; nothing to reverse
        ds = []
    items = [slice(None)] * self.ndim
    for d in ds:
        items[d] = slice(None, None, -1)
    with no_grad():
        out = self[tuple(items)].clone()
    record("flip", out, (self,), _flip_vjp, dims=ds)
    return out


def _flip_vjp(ctx: Node, g: Tensor) -> Tensor:
    return flip(g, ctx.dims)


def roll(self: Tensor, shifts: int | Sequence[int], dims: int | Sequence[int] | None = None
         ) -> Tensor:
    """Rotate elements along ``dims`` by ``shifts`` (the flattened tensor when dims is None).

    Differentiable: the gradient is rolled back.

    Example:
        >>> gt.tensor([1, 2, 3]).roll(1).tolist()
        [3, 1, 2]
    """
    if dims is None:
        check(isinstance(shifts, int) or len(shifts) == 1, "roll", "shifts must be one int "
              "when dims is None", ValueError)
        shift = shifts if isinstance(shifts, int) else shifts[0]
        return roll(self.reshape(-1), shift, 0).reshape(self.shape)
    ss = [shifts] if isinstance(shifts, int) else list(shifts)
    ds = [wrap_sized_dim(d, self.ndim, "roll") for d in ([dims] if isinstance(dims, int) else dims)]
    check(len(ss) == len(ds), "roll", lambda: f"got {len(ss)} shifts for {len(ds)} dims",
          ValueError)
    out = self
    with no_grad():
        for s, d in zip(ss, ds, strict=True):
            n = out.shape[d]
            k = s % n if n else 0
            if k:
                out = cat([out.narrow(d, n - k, k), out.narrow(d, 0, n - k)], d)
        out = out.clone() if out is self else out
    record("roll", out, (self,), _roll_vjp, shifts=[-s for s in ss], dims=ds)
    return out


def _roll_vjp(ctx: Node, g: Tensor) -> Tensor:
    return roll(g, ctx.shifts, ctx.dims)


def repeat(self: Tensor, *sizes: Any, repeats: Any = None) -> Tensor:
    """Tile the tensor ``sizes[i]`` times along dim ``i`` (extra leading sizes add dims).

    Differentiable: the gradient sums the copies.

    Example:
        >>> gt.tensor([1, 2]).repeat(2).tolist()
        [1, 2, 1, 2]
    """
    if repeats is not None:
        sizes = keyword_sizes(sizes, repeats, "repeats", "repeat")
    reps = normalize_shape(sizes, "repeat")
    check(len(reps) >= self.ndim, "repeat", lambda: "number of repeat dims can not be smaller "
          f"than number of tensor dims ({len(reps)} < {self.ndim})", ShapeError)
    check(all(r >= 0 for r in reps), "repeat", lambda: f"repeats must be >= 0, got {reps}",
          ValueError)
    shape = (1,) * (len(reps) - self.ndim) + self.shape
    inter = tuple(v for n in shape for v in (1, n))
    big = tuple(v for r, n in zip(reps, shape, strict=True) for v in (r, n))
    with no_grad():
        x = self.reshape(inter)
        out = expand_to(x, big, "repeat").contiguous().view(
            tuple(r * n for r, n in zip(reps, shape, strict=True)))
    record("repeat", out, (self,), _repeat_vjp, big=big, in_shape=self.shape)
    return out


def _repeat_vjp(ctx: Node, g: Tensor) -> Tensor:
    copies = tuple(range(0, len(ctx.big), 2))
    return g.reshape(ctx.big).sum(dim=copies).reshape(ctx.in_shape)  # type: ignore


def tile(self: Tensor, *reps: Any, dims: Any = None) -> Tensor:
    """Like :meth:`repeat`, but fewer ``dims`` than tensor dims are padded with leading ones.

    Example:
        >>> gt.ones(2, 2).tile(2).shape
        (2, 4)
    """
    if dims is not None:
        reps = keyword_sizes(reps, dims, "dims", "tile")
    sizes = normalize_shape(reps, "tile")
    return repeat(self, (1,) * (self.ndim - len(sizes)) + sizes)


def repeat_interleave(self: Tensor, repeats: int | Tensor | None = None, dim: int | None = None,
                      *, output_size: int | None = None) -> Tensor:
    """Repeat each element ``repeats`` times (an int, or one count per element) along ``dim``.

    With a tensor of counts the host reads them once to size the result.
    Differentiable (an ``index_select``). Without ``repeats``, ``self`` holds
    the counts and the result repeats their positions: ``arange(n)`` repeated.
    ``output_size``, when given, must be the result's length along ``dim``.

    Example:
        >>> gt.tensor([1, 2]).repeat_interleave(gt.tensor([1, 3])).tolist()
        [1, 2, 2, 2]
        >>> gt.repeat_interleave(gt.tensor([2, 0, 1])).tolist()
        [0, 0, 2]
    """
    if repeats is None:
        check(self.ndim <= 1, "repeat_interleave", "repeats must be 0-d or 1-d", ShapeError)
        return repeat_interleave(arange(self.numel(), dtype=int64, device=self.device), self,
                                 output_size=output_size)
    x = self.reshape(-1) if dim is None else self
    d = 0 if dim is None else wrap_sized_dim(dim, self.ndim, "repeat_interleave")
    n = x.shape[d]
    if isinstance(repeats, int):
        check(repeats >= 0, "repeat_interleave", "repeats must be >= 0", ValueError)
        counts = np.full(n, repeats, np.int64)
    else:
        check(repeats.ndim <= 1, "repeat_interleave", "repeats must be 0-d or 1-d", ShapeError)
        counts = np.asarray(repeats.cpu().numpy(), np.int64).reshape(-1)
        counts = np.broadcast_to(counts, (n,)) if counts.size == 1 else counts
        check(counts.size == n, "repeat_interleave", lambda: f"repeats must have {n} elements, "
              f"got {counts.size}", ShapeError)
        check(bool((counts >= 0).all()), "repeat_interleave", "repeats must be >= 0",
              ValueError)
    ends = tensor(np.cumsum(counts).reshape(1, -1), dtype=int64, device=self.device)
    total = int(counts.sum())
    check(output_size is None or output_size == total, "repeat_interleave", lambda: "output_size "
          f"{output_size} is not the repeated length {total}", ValueError)
    positions = arange(total, dtype=int64, device=self.device).reshape(1, -1)
    index = TensorBase.empty((1, total), int64, self.device)
    if total:
        launch("searchsorted", self.device, (int64, int64), ends._native(),
               positions._native(), index._native(), True)
    return index_select(x, d, index.reshape(-1))


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """Return int64 one-hot rows (a new last dim of ``num_classes``, inferred as max + 1).

    Example:
        >>> one_hot(gt.tensor([0, 2])).tolist()
        [[1, 0, 0], [0, 0, 1]]
    """
    check(tensor.dtype is int64, "one_hot", lambda: "expected an int64 tensor, got "
          f"{tensor.dtype.name}", TypeError)
    if trace_state.trace is not None and num_classes >= 0:
        # traced with a known class count: a comparison with every class, fused (the range of
        # the values is not checked at each call, as that would wait for the device)
        classes = arange(num_classes, dtype=int64, device=tensor.device)
        return (tensor.unsqueeze(-1) == classes).to(int64)
    lo, hi = (0, -1)
    if tensor.numel():
        lo, hi = launch("value_range", tensor.device, (tensor.dtype,),
                        tensor.contiguous()._native())
    check(lo >= 0, "one_hot", "class values must be non-negative", ValueError)
    classes = hi + 1 if num_classes == -1 else num_classes
    check(tensor.numel() or num_classes != -1, "one_hot", "can not infer the number of "
          "classes from an empty tensor", ValueError)
    check(hi < classes, "one_hot", lambda: f"class values must be smaller than num_classes "
          f"({classes}), got {hi}", ValueError)
    out = zeros(tensor.shape + (classes,), dtype=int64, device=tensor.device)
    if tensor.numel():
        scatter_(out, -1, tensor.unsqueeze(-1), 1)
    return out


def pad(input: Tensor, pad: Sequence[int], mode: str = "constant", value: float = 0.0
        ) -> Tensor:
    """Pad the last ``len(pad) // 2`` dims; ``pad`` lists (left, right) pairs, last dim first.

    Args:
        input: the tensor.
        pad: even-length ints; negative values crop (in every mode, as in PyTorch).
        mode: ``constant``, ``reflect``, ``replicate`` or ``circular``.
        value: the fill value of ``constant`` mode.

    Differentiable in every mode: ``constant`` crops the gradient back (pads
    it where the input was cropped); ``reflect``/``replicate``/``circular``
    are index selects whose gradients add up at the reused positions.

    Example:
        >>> pad(gt.tensor([1, 2, 3]), (1, 2), mode="reflect").tolist()
        [2, 1, 2, 3, 2, 1]
    """
    pads = [int(p) for p in pad]
    pairs = pad_pairs(input, pads)
    check(mode in _PAD_MODES, "pad", lambda: "mode must be 'constant', 'reflect', "
          f"'replicate' or 'circular', got {mode!r}", ValueError)
    if mode == "constant":
        return constant_pad(input, pads, value)
    out = input
    for d, (lo, hi) in sorted(pairs.items()):
        if lo or hi:
            out = index_select(out, d, _pad_index(out.shape[d], lo, hi, mode, input.device))
    return out if out is not input else input.clone()


def _pad_index(n: int, left: int, right: int, mode: str, dev: Any) -> Tensor:
    check(n > 0, "pad", lambda: f"{mode} padding needs a non-empty dim", ValueError)
    if mode == "reflect":
        check(left < n and right < n, "pad", lambda: f"reflect padding ({left}, {right}) must "
              f"be smaller than the dim size {n}", ValueError)
    if mode == "circular":
        check(left <= n and right <= n, "pad", lambda: f"circular padding ({left}, {right}) "
              f"must be no larger than the dim size {n}", ValueError)
    check(n + left + right > 0, "pad", lambda: f"padding ({left}, {right}) leaves no "
          f"elements of a dim of size {n}", ValueError)
    grow, crop = (max(left, 0), max(right, 0)), (max(-left, 0), max(-right, 0))
    if mode == "circular":  # PyTorch crops first and wraps around what is left
        idx = np.pad(np.arange(n)[crop[0]:n - crop[1]], grow, mode="wrap")
    else:  # reflect/replicate read the whole dim, then crop
        idx = np.pad(np.arange(n), grow, mode=_PAD_MODES[mode])
        idx = idx[crop[0]:idx.size - crop[1]]
    return tensor(idx, dtype=int64, device=dev)


_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge",
              "circular": "wrap"}  # gtensor's mode -> NumPy's, for the index it selects


def _triangle(self: Tensor, diagonal: int, lower: bool, op: str) -> Tensor:
    check(self.ndim >= 2, op, lambda: f"expected a tensor with >= 2 dims, got {self.ndim}",
          ShapeError)
    out = library_call(op, functools.partial(_triangle_run, int(diagonal), lower), (self,),
                       self.shape, self.dtype)
    record(op, out, (self,), _triangle_vjp, diagonal=int(diagonal), lower=lower)
    return out


def _triangle_run(diagonal: int, lower: bool, x: Tensor) -> Tensor:
    rows, cols = x.shape[-2:]
    batch = int(np.prod(x.shape[:-2]))  # not -1: a size-0 shape has no inferable dim
    src = x.contiguous().reshape((batch, rows, cols))  # one layout per launch plan
    out = TensorBase.empty(src.shape, x.dtype, x.device)
    if out.numel():  # an empty grid is no launch on a GPU
        launch("triangle", x.device, (x.dtype,), src._native(), out._native(), diagonal, lower)
    return from_storage(out._storage, x.shape, contiguous_strides(x.shape), 0, out.dtype)


def _triangle_vjp(ctx: Node, g: Tensor) -> Tensor:
    return tril(g, ctx.diagonal) if ctx.lower else triu(g, ctx.diagonal)


def tril(self: Tensor, diagonal: int = 0) -> Tensor:
    """Keep the lower triangle (``col - row <= diagonal``) of the last two dims, zero the rest.

    Differentiable: the gradient is masked the same way.

    Example:
        >>> gt.ones(2, 2).tril().tolist()
        [[1.0, 0.0], [1.0, 1.0]]
    """
    return _triangle(self, diagonal, True, "tril")


def triu(self: Tensor, diagonal: int = 0) -> Tensor:
    """Keep the upper triangle (``col - row >= diagonal``) of the last two dims, zero the rest.

    Example:
        >>> gt.ones(2, 2).triu(1).tolist()
        [[0.0, 1.0], [0.0, 0.0]]
    """
    return _triangle(self, diagonal, False, "triu")


def diag(self: Tensor, diagonal: int = 0) -> Tensor:
    """1-D input: a square matrix with it on a diagonal. 2-D input: a copy of a diagonal.

    Differentiable in both forms.

    Example:
        >>> gt.tensor([1, 2]).diag().tolist()
        [[1, 0], [0, 2]]
    """
    check(self.ndim in (1, 2), "diag", lambda: f"expected a 1-D or 2-D tensor, got {self.ndim}-D",
          ShapeError)
    if self.ndim == 2:
        return diagonal_of(self, diagonal).clone()
    n = self.shape[0] + abs(diagonal)
    out = zeros((n, n), dtype=self.dtype, device=self.device)
    if self.numel():
        with no_grad():
            diagonal_of(out, diagonal).copy_(self)
    record("diag", out, (self,), _diag_vjp, offset=diagonal)
    return out


def _diag_vjp(ctx: Node, g: Tensor) -> Tensor:
    return diagonal_of(g, ctx.offset)


def diagonal_of(t: Tensor, offset: int) -> Tensor:
    """The main-diagonal view of a matrix shifted by ``offset`` (helper for :meth:`diag`)."""
    return diagonal(t, offset, 0, 1)


def trace(self: Tensor) -> Tensor:
    """Sum of the main diagonal of a 2-D tensor (integers sum in int64); differentiable.

    Example:
        >>> gt.tensor([[1, 2], [3, 4]]).trace().item()
        5
    """
    (self,) = autocast_inputs("trace", self)
    check(self.ndim == 2, "trace", lambda: f"expected a 2-D tensor, got {self.ndim}-D",
          ShapeError)
    d = diagonal(self)
    dt = d.dtype if d.dtype.is_inexact else int64
    out = zeros(1, dtype=dt, device=self.device)
    if d.numel():
        with no_grad():
            vals = d if d.dtype is dt else d.to(dt)
            scatter_add_(out, 0, zeros(d.numel(), dtype=int64, device=self.device), vals)
    out = out.reshape(())
    record("trace", out, (self,), _trace_vjp, in_shape=self.shape)
    return out


def _trace_vjp(ctx: Node, g: Tensor) -> Tensor:
    z = zeros(ctx.in_shape, dtype=g.dtype, device=g.device)
    diagonal(z).copy_(g)
    return z


# Functional forms, exported as gt.<name> (PyTorch's torch.<name>).
EXPORTS = ("split", "chunk", "flip", "roll", "tile", "repeat_interleave", "tril", "triu", "diag",
           "trace")
