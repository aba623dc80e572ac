"""Sorting and searching: sort, argsort, topk, kthvalue, unique, unique_consecutive,
searchsorted, bincount, histc.

Sorts move the sorted dim last into a contiguous ``(rows, n)`` buffer and run
the stable ``sort_rows`` kernel (NaN last ascending, first descending).

``sort`` values are differentiable (the gradient is scattered back through the
indices); ``topk`` and ``kthvalue`` values are views or copies of them, so
they are too. Index outputs, ``unique``, counts and histograms never carry
gradients.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Any, NamedTuple

from ..determinism import alert_not_deterministic
from ..dtypes import bool_, float32, int64
from ..errors import ShapeError, check, check_same_device
from ..graph.grad_mode import no_grad
from ..graph.node import Node, record
from ..shape_rules import wrap_dim
from ..tensor_base import TensorBase
from .complex_rules import refuse_complex
from .creation import arange, as_tensor, tensor, zeros
from .dispatch import launch
from .indexing.along_dim import scatter
from .indexing.rows import mask_rows, plan_index
from .indexing.subscript import advanced_getitem
from .tracing import library_call, library_calls

if TYPE_CHECKING:
    from ..tensor import Tensor


class SortResult(NamedTuple):
    """``(values, indices)`` of sort, topk and kthvalue."""

    values: Tensor
    indices: Tensor


def _rows(self: Tensor, dim: int, op: str) -> tuple[Tensor, list[int], int]:
    """A view with ``dim`` last, the permutation, and ``dim``."""
    refuse_complex(op, self.dtype)
    if self.ndim == 0:
        return self.reshape(1, 1), [], 0
    d = wrap_dim(dim, self.ndim, op)
    order = [i for i in range(self.ndim) if i != d] + [d]
    return self.permute(order), order, d


def _sorted(moved: Tensor, descending: bool) -> tuple[Tensor, Tensor]:
    """The library call of :func:`sort`: new values and indices, sorted along the last dim."""
    half = moved.dtype.is_half  # sorted as float32 (exact both ways), not as their bits
    values = moved.to(float32) if half else moved.clone()
    indices = TensorBase.empty(values.shape, int64, values.device)
    if values.numel():
        n = values.shape[-1]
        launch("sort_rows", values.device, (values.dtype,),
               values.view(math.prod(values.shape[:-1]), n)._native(),
               indices.view(math.prod(values.shape[:-1]), n)._native(), descending)
    return (values.to(moved.dtype) if half else values), indices


def _unrows(t: Tensor, self: Tensor, order: list[int], n: int) -> Tensor:
    if not order:
        return t.reshape(())
    shape = tuple(self.shape[i] for i in order[:-1]) + (n,)
    inverse = [order.index(i) for i in range(len(order))]
    return t.view(shape).permute(inverse)


def sort(self: Tensor, dim: int = -1, descending: bool = False, stable: bool = False
         ) -> SortResult:
    """Sort along ``dim``; returns ``(values, indices)``. The sort is always stable.

    Args:
        dim: the dim to sort.
        descending: largest first.
        stable: accepted for PyTorch compatibility (every sort here is stable).

    Example:
        >>> gt.tensor([3, 1, 2]).sort().values.tolist()
        [1, 2, 3]
    """
    with no_grad():
        moved, order, d = _rows(self, dim, "sort")
        values, indices = library_calls(
            "sort", functools.partial(_sorted, descending=bool(descending)), (moved,),
            [(moved.shape, self.dtype), (moved.shape, int64)])
        n = moved.shape[-1]
        out = SortResult(_unrows(values, self, order, n), _unrows(indices, self, order, n))
    record("sort", out.values, (self,), _sort_vjp, save=(out.indices,), dim=d,
           in_shape=self.shape)
    return out


def _sort_vjp(ctx: Node, g: Tensor) -> Tensor:
    (indices,) = ctx.saved_tensors
    if not ctx.in_shape:
        return g
    return scatter(zeros(ctx.in_shape, dtype=g.dtype, device=g.device), ctx.dim, indices, g)


def argsort(self: Tensor, dim: int = -1, descending: bool = False, stable: bool = False
            ) -> Tensor:
    """Indices that sort ``self`` along ``dim`` (stable).

    Example:
        >>> gt.tensor([3, 1, 2]).argsort().tolist()
        [1, 2, 0]
    """
    refuse_complex("argsort", self.dtype)
    with no_grad():
        return sort(self, dim, descending).indices


def topk(self: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True
         ) -> SortResult:
    """The ``k`` largest (or smallest) entries along ``dim``, in sorted order.

    Example:
        >>> gt.tensor([1, 5, 3]).topk(2).values.tolist()
        [5, 3]
    """
    refuse_complex("topk", self.dtype)
    n = self.shape[wrap_dim(dim, self.ndim, "topk")] if self.ndim else 1
    check(isinstance(k, int) and 0 <= k <= n, "topk", lambda: f"k ({k}) must be in [0, {n}]",
          ValueError)
    values, indices = sort(self, dim, descending=largest)
    d = wrap_dim(dim, self.ndim, "topk") if self.ndim else None
    if d is None:
        return SortResult(values, indices)
    return SortResult(values.narrow(d, 0, k), indices.narrow(d, 0, k))


def kthvalue(self: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> SortResult:
    """The ``k``-th smallest entry (1-based) along ``dim`` and its index.

    Example:
        >>> gt.tensor([4, 1, 3]).kthvalue(2).values.item()
        3
    """
    refuse_complex("kthvalue", self.dtype)
    d = wrap_dim(dim, self.ndim, "kthvalue") if self.ndim else 0
    n = self.shape[d] if self.ndim else 1
    check(isinstance(k, int) and 1 <= k <= n, "kthvalue", lambda: f"k ({k}) must be in "
          f"[1, {n}]", IndexError)
    values, indices = sort(self, dim)
    if not self.ndim:
        return SortResult(values, indices)
    v, i = values.select(d, k - 1), indices.select(d, k - 1)
    if keepdim:
        v, i = v.unsqueeze(d), i.unsqueeze(d)
    return SortResult(v.clone(), i.clone())


def unique(self: Tensor, sorted: bool = True, return_inverse: bool = False,
           return_counts: bool = False, dim: int | None = None) -> Any:
    """Distinct values (or slices along ``dim``), sorted; optionally inverse indices and counts.

    NaNs never equal each other: each one is its own value (or makes its slice
    distinct), sorted last, as in PyTorch.

    Args:
        sorted: accepted for PyTorch compatibility (the result is always sorted).
        return_inverse: also return, for each input element (or slice), its position
            in the result.
        return_counts: also return how often each value (or slice) occurs.
        dim: None for the flattened tensor; else the dim whose slices are compared
            (sorted lexicographically).

    Example:
        >>> gt.tensor([3, 1, 3]).unique(return_counts=True)[1].tolist()
        [1, 2]
        >>> gt.tensor([[1, 2], [0, 5], [1, 2]]).unique(dim=0).tolist()
        [[0, 5], [1, 2]]
    """
    refuse_complex("unique", self.dtype)
    with no_grad():
        if dim is None:
            out, inverse, counts = _unique_flat(self)
            inverse = inverse.view(self.shape)
        else:
            out, inverse, counts = _unique_dim(self, wrap_dim(dim, self.ndim, "unique"))
    result: list[Tensor] = [out]
    if return_inverse:
        result.append(inverse)
    if return_counts:
        result.append(counts)
    return result[0] if len(result) == 1 else tuple(result)


def unique_consecutive(self: Tensor, return_inverse: bool = False, return_counts: bool = False,
                       dim: int | None = None) -> Any:
    """Collapse each run of equal consecutive values (or slices along ``dim``) to one.

    Args:
        return_inverse: also return, for each input element (or slice), its run's index.
        return_counts: also return each run's length.
        dim: None for the flattened tensor; else the dim whose slices are compared.

    Example:
        >>> gt.tensor([1, 1, 2, 1]).unique_consecutive().tolist()
        [1, 2, 1]
    """
    refuse_complex("unique_consecutive", self.dtype)
    with no_grad():
        if dim is None:
            rows = self.reshape(-1, 1)
        else:
            d = wrap_dim(dim, self.ndim, "unique_consecutive")
            order = [d] + [i for i in range(self.ndim) if i != d]
            rows = self.permute(order).reshape(self.shape[d], -1)
        n = rows.shape[0]
        starts = TensorBase.empty((n,), bool_, self.device)
        if n:
            starts[:1] = True
            starts[1:] = (rows[1:] != rows[:-1]).any(1) if rows.shape[1] else False
        first = mask_rows(starts, "unique_consecutive")[0].contiguous()
        if dim is None:
            out = self.reshape(-1)[first]
        else:
            out = self.index_select(d, first)  # type: ignore[attr-defined]
    result: list[Tensor] = [out]
    if return_inverse:
        inverse = starts.to(int64).cumsum(0) - 1
        result.append(inverse.view(self.shape) if dim is None else inverse)
    if return_counts:
        result.append(_run_lengths(first, n))
    return result[0] if len(result) == 1 else tuple(result)


def _run_lengths(first: Tensor, n: int) -> Tensor:
    """The lengths of the runs starting at ``first`` in a sequence of length ``n``."""
    nxt = TensorBase.empty(first.shape, int64, first.device)
    if n:
        nxt[:-1] = first[1:]
        nxt[-1:] = n
    return nxt - first


def _runs(starts: Tensor, perm: Tensor) -> tuple[Tensor, Tensor]:
    """Run lengths and each source element's run, from run starts and the sort permutation."""
    counts = TensorBase.empty(starts.shape, int64, starts.device)
    inverse = TensorBase.empty(perm.shape, int64, starts.device)
    if perm.numel():
        launch("unique_runs", starts.device, (int64,), starts._native(),
               perm.contiguous()._native(), counts._native(),
               inverse._native())
    return counts, inverse


def _unique_flat(self: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    values, perm = sort(self.reshape(-1))
    flags = TensorBase.empty(values.shape, bool_, self.device)
    keys = values.to(float32) if values.dtype.is_half else values  # compared as values
    launch("unique_flags", self.device, (keys.dtype, flags.dtype), keys._native(),
           flags._native())
    starts = mask_rows(flags, "unique")[0].contiguous()
    counts, inverse = _runs(starts, perm)
    plan = plan_index(values, (starts,), "unique")
    assert plan is not None
    return advanced_getitem(values, plan), inverse, counts


def _unique_dim(self: Tensor, d: int) -> tuple[Tensor, Tensor, Tensor]:
    """Unique slices along ``d``: lexicographic sort of the slices (one stable sort per
    column, last column first), then run starts wherever any column changes."""
    n = self.shape[d]
    order = [d] + [i for i in range(self.ndim) if i != d]
    moved = self.permute(order).contiguous()
    m = math.prod(moved.shape[1:])
    rows = moved.reshape(n, m)
    perm = arange(n, dtype=int64, device=self.device)
    for c in reversed(range(m)):
        perm = perm[sort(rows[perm, c]).indices]
    ordered = rows[perm]
    if m == 0 or n == 0:
        starts = tensor([0] if n else [], dtype=int64, device=self.device)
    else:
        flags = TensorBase.empty((m, n), bool_, self.device)
        for c in range(m):
            column = ordered.select(1, c)
            column = (column.to(float32) if column.dtype.is_half else column).contiguous()
            launch("unique_flags", self.device, (column.dtype, bool_), column._native(),
                   flags.select(0, c)._native())
        changed = mask_rows(flags, "unique")[1]
        starts = _unique_flat(changed)[0].contiguous()
    counts, inverse = _runs(starts, perm)
    out = ordered[starts].reshape((starts.shape[0],) + moved.shape[1:])
    inverse_order = [order.index(i) for i in range(self.ndim)]
    return out.permute(inverse_order), inverse, counts


def searchsorted(sorted_sequence: Tensor, values: Any, *, right: bool = False,
                 side: str | None = None) -> Tensor:
    """Indices where ``values`` would be inserted to keep ``sorted_sequence`` sorted.

    Args:
        sorted_sequence: 1-D, or N-D sorted along the last dim with leading dims
            matching ``values``.
        values: a tensor or a number.
        right: insert after equal entries (``side="right"`` does the same).

    Example:
        >>> searchsorted(gt.tensor([1, 3, 5]), gt.tensor([3, 6])).tolist()
        [1, 3]
    """
    check(side in (None, "left", "right"), "searchsorted", lambda: f"side must be 'left' or "
          f"'right', got {side!r}", ValueError)
    right = right or side == "right"
    seq = sorted_sequence
    scalar = not isinstance(values, TensorBase)
    vals = as_tensor(values, dtype=seq.dtype, device=seq.device) if scalar else values
    check_same_device("searchsorted", seq.device, vals.device)
    check(seq.ndim >= 1, "searchsorted", "sorted_sequence must have at least one dim",
          ShapeError)
    check(seq.ndim == 1 or seq.shape[:-1] == vals.shape[:-1], "searchsorted", lambda: "leading "
          f"dims of sorted_sequence {seq.shape} and values {vals.shape} must match", ShapeError)
    if vals.dtype is not seq.dtype:
        vals = vals.to(seq.dtype)
    return library_call("searchsorted", functools.partial(_search, bool(right)), (seq, vals),
                        vals.shape, int64)


def _search(right: bool, seq: Tensor, vals: Tensor) -> Tensor:
    """The library call of :func:`searchsorted` (operands checked, of one dtype)."""
    m = seq.shape[-1]
    s2 = seq.contiguous().reshape(-1, m)
    q = vals.shape[-1] if vals.ndim else 1
    v2 = vals.contiguous().reshape(-1 if seq.ndim > 1 else 1, q if seq.ndim > 1 else -1)
    out = TensorBase.empty(v2.shape, int64, seq.device)
    if out.numel():
        launch("searchsorted", seq.device, (seq.dtype, seq.dtype), s2._native(), v2._native(),
               out._native(), right)
    return out.view(vals.shape)


def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """Count occurrences of each non-negative int in a 1-D tensor (or sum their ``weights``).

    Example:
        >>> bincount(gt.tensor([0, 2, 2])).tolist()
        [1, 0, 2]
    """
    check(input.ndim == 1 and input.dtype.name.startswith(("int", "uint")), "bincount",
          lambda: f"expected a 1-D integer tensor, got {input.ndim}-D {input.dtype.name}",
          TypeError)
    check(minlength >= 0, "bincount", "minlength must be non-negative", ValueError)
    x = input.to(int64).contiguous() if input.dtype is not int64 else input.contiguous()
    w = None
    if weights is not None:
        check_same_device("bincount", input.device, weights.device)
        check(weights.shape == input.shape, "bincount", lambda: f"weights {weights.shape} must "
              f"match input {input.shape}", ShapeError)
        wt = weights.dtype if weights.dtype.name in ("float32", "float64") else None
        w = (weights if wt else weights.to("float64")).contiguous()
    hi = -1
    if x.numel():
        lo, hi = launch("value_range", x.device, (int64,), x._native())
        check(lo >= 0, "bincount", lambda: f"input must be non-negative, got {lo}", ValueError)
    out = zeros(max(hi + 1, minlength), dtype=int64 if w is None else w.dtype, device=x.device)
    if w is not None and x.device.type == "cuda":
        alert_not_deterministic("bincount", "a weighted bincount on cuda")
    if x.numel():
        launch("bincount", x.device, (int64, int64 if w is None else w.dtype), x._native(),
               None if w is None else w._native(), out._native())
    return out


def histc(self: Tensor, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:
    """Histogram of ``bins`` equal bins over ``[min, max]`` (the data range when both are 0).

    Example:
        >>> gt.tensor([0.0, 0.6, 1.0, 2.0]).histc(2, 0, 1).tolist()
        [1.0, 2.0]
    """
    check(self.dtype.is_floating_point, "histc", lambda: "expected a floating tensor, got "
          f"{self.dtype.name}", TypeError)
    check(isinstance(bins, int) and bins > 0, "histc", lambda: f"bins must be > 0, got {bins}",
          ValueError)
    x = self.reshape(-1).contiguous()
    if x.dtype.is_half:
        x = x.to("float32")
    lo, hi = float(min), float(max)
    if lo == hi and x.numel():
        lo, hi = (float(v) for v in launch("value_range", x.device, (x.dtype,), x._native()))
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    check(lo < hi, "histc", lambda: f"max must be larger than min, got min={lo}, max={hi}",
          ValueError)
    out = zeros(bins, dtype=x.dtype, device=self.device)
    launch("histc", self.device, (x.dtype,), x._native(), out._native(), lo, hi)
    return out if out.dtype is self.dtype else out.to(self.dtype)


# Functional forms, exported as gt.<name> (PyTorch's torch.<name>).
EXPORTS = ("sort", "argsort", "topk", "kthvalue", "unique", "histc")
