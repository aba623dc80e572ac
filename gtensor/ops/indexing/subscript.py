"""``x[idx]`` and ``x[idx] = v``: basic indices as views, advanced ones through an index plan.

``getitem``/``setitem`` answer a basic index (ints, slices, ``None``,
``...``) with a view; an advanced one is planned by :func:`.rows.plan_index`
and read (``advanced_getitem``) or written (``advanced_setitem``,
``index_put``) with the gather/scatter kernels. The indexing rules are
NumPy's (see :mod:`gtensor.ops.indexing`).
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Any

from ...errors import check
from ...graph.autocast_mode import autocast_inputs
from ...graph.grad_mode import no_grad
from ...graph.inplace import check_inplace
from ...graph.node import Node, needs_grad, record
from ...shape_rules import broadcast_shapes
from ...tensor_base import TensorBase
from .. import tracing
from ..creation import as_tensor, zeros
from ..layout.views import basic_index, expand_to
from .rows import IndexPlan, gather_rows, join_index, plan_index, scatter_rows, split_index

if TYPE_CHECKING:
    from ...tensor import Tensor


def _gather_plan(self: Tensor, plan: IndexPlan) -> Tensor:
    return tracing.library_call(
        "index", functools.partial(_gathered, bshape=plan.bshape, n_pre=plan.n_pre),
        (plan.rest, plan.offsets), plan.shape, self.dtype)


def _gathered(rest: Tensor, offsets: Tensor, bshape: tuple[int, ...], n_pre: int) -> Tensor:
    """The library call of :func:`_gather_plan`: a new tensor of the gathered rows."""
    plan = IndexPlan(rest, offsets, bshape, n_pre, ())
    out = TensorBase.empty(plan.shape, rest.dtype, rest.device)
    if out.numel():
        gather_rows(rest, offsets, plan.lead(out))
    return out


def _index_vjp(ctx: Node, g: Tensor) -> Tensor:
    if tracing.state.trace is not None:
        return tracing.library_call(
            "index_backward", functools.partial(_index_grad, template=ctx.template,
                                                in_shape=ctx.in_shape),
            (g, *ctx.saved_tensors), ctx.in_shape, g.dtype)
    return _index_grad(g, *ctx.saved_tensors, template=ctx.template, in_shape=ctx.in_shape)


def _index_grad(g: Tensor, *tensors: Tensor, template: tuple[Any, ...],
                in_shape: tuple[int, ...]) -> Tensor:
    """``g`` added at the positions the index read (repeated positions add up)."""
    items = join_index(template, tensors)
    return index_put(zeros(in_shape, dtype=g.dtype, device=g.device), items, g,
                     accumulate=True)


def advanced_getitem(self: Tensor, plan: IndexPlan) -> Tensor:
    """Materialize ``self[index]`` for an advanced index plan (a new contiguous tensor).

    Differentiable: the gradient is accumulated back at the same positions
    (repeated indices add up).

    Example:
        >>> x = gt.tensor([[1, 2], [3, 4]])
        >>> advanced_getitem(x, plan_index(x, [0, 0], "getitem")).tolist()
        [[1, 2], [1, 2]]
    """
    out = _gather_plan(self, plan)
    if needs_grad(self):
        template, tensors = split_index(plan.items)
        record("index", out, (self,), _index_vjp, save=tensors, template=template,
               in_shape=self.shape)
    return out


def _values_for(self: Tensor, value: Any, shape: tuple[int, ...], op: str) -> Any:
    """``value`` as a tensor of ``self``'s dtype and device that broadcasts to ``shape``."""
    v = value if isinstance(value, TensorBase) else as_tensor(value, dtype=self.dtype,
                                                          device=self.device)
    if v.dtype is not self.dtype or v.device != self.device:
        v = v.to(self.device, self.dtype)
    broadcast_shapes(v.shape, shape, op=op)
    return _leading_ones_dropped(v, shape, op)


def _leading_ones_dropped(v: Tensor, shape: tuple[int, ...], op: str) -> Tensor:
    """``v`` without the leading size-1 dims it has beyond ``shape``'s rank (as PyTorch)."""
    if v.ndim <= len(shape):
        return v
    check(all(n == 1 for n in v.shape[:v.ndim - len(shape)]), op,
          lambda: f"shape mismatch: value of shape {v.shape} cannot be broadcast to {shape}",
          IndexError)
    return v.reshape(v.shape[v.ndim - len(shape):])


def write_plan(self: Tensor, plan: IndexPlan, v: Tensor, mode: str) -> None:
    """Combine ``v`` (broadcastable to ``plan.shape``) into ``self`` at ``plan``; no recording.

    Under ``gt.compile`` the write is a library call making the written copy of
    ``self`` at every call, which the trace then holds as ``self``.
    """
    trace = tracing.state.trace
    if trace is not None:
        template, tensors = split_index(plan.items)
        trace.write(self, tracing.library_call(
            "index_put", functools.partial(_written_copy, template=template, mode=mode),
            (self, v, *tensors), self.shape, self.dtype))
    elif math.prod(plan.shape):
        scatter_rows(plan.rest, plan.offsets, plan.lead(expand_to(v, plan.shape, "setitem")),
                     mode)
    self._bump_version()


def _written_copy(self: Tensor, v: Tensor, *tensors: Tensor, template: tuple[Any, ...],
                  mode: str) -> Tensor:
    """The library call of a traced :func:`write_plan`: a copy of ``self`` with ``v`` written."""
    out = self.clone()
    write_plan(out, plan_index(out, join_index(template, tensors), "setitem"), v, mode)
    return out


def _index_put_vjp(ctx: Node, g: Tensor) -> tuple[Tensor | None, Tensor | None]:
    items = join_index(ctx.template, ctx.saved_tensors)
    grad_self = grad_values = None
    if ctx.needs_input_grad[0]:
        grad_self = g if ctx.accumulate else index_put(g, items, 0.0)
    if ctx.needs_input_grad[1]:
        grad_values = g[items]
    return grad_self, grad_values


def index_put(self: Tensor, indices: Any, values: Any, accumulate: bool = False) -> Tensor:
    """Out-of-place ``x[indices] = values`` (``+=`` with ``accumulate``, repeats adding up).

    Differentiable in ``self`` (zero gradient at overwritten positions) and in
    ``values`` (the gradient read back at ``indices``).

    Args:
        indices: an advanced index, as for ``x[indices]``.
        values: a tensor or number broadcastable to ``x[indices]``'s shape.
        accumulate: add into the existing values instead of overwriting.

    Example:
        >>> gt.zeros(3).index_put((gt.tensor([0, 0]),), gt.ones(2), True).tolist()
        [2.0, 0.0, 0.0]
    """
    self, values = autocast_inputs("index_put", self, values)
    return put_index(self, indices, values, accumulate, "index_put")


def put_index(self: Tensor, indices: Any, values: Any, accumulate: bool, op: str) -> Tensor:
    """:meth:`index_put` with the op name used in errors (``setitem`` for ``x[i] = v``)."""
    items = indices if isinstance(indices, tuple) else (indices,)
    with no_grad():
        out = self.clone()
        plan = plan_index(out, items, op)
    check(plan is not None, op, "expected an advanced index (tensors, lists or masks)",
          IndexError)
    assert plan is not None
    v = _values_for(self, values, plan.shape, op)
    with no_grad():
        write_plan(out, plan, v, "add" if accumulate else "copy")
    if needs_grad(self, v):
        template, tensors = split_index(plan.items)
        record("index_put", out, (self, v), _index_put_vjp, save=tensors, template=template,
               accumulate=accumulate)
    return out


def index_put_(self: Tensor, indices: Any, values: Any, accumulate: bool = False) -> Tensor:
    """In-place :func:`index_put` (differentiable on non-leaf tensors).

    Example:
        >>> gt.zeros(3).index_put_((gt.tensor([1]),), gt.tensor(5.0)).tolist()
        [0.0, 5.0, 0.0]
    """
    items = indices if isinstance(indices, tuple) else (indices,)
    self._check_writable("index_put_")
    if needs_grad(self, values):
        check_inplace(self, "index_put_")
        return self.copy_(index_put(self, items, values, accumulate))
    plan = plan_index(self, items, "index_put_")
    check(plan is not None, "index_put_", "expected an advanced index (tensors, lists or "
          "masks)", IndexError)
    assert plan is not None
    write_plan(self, plan, _values_for(self, values, plan.shape, "index_put_"),
               "add" if accumulate else "copy")
    return self


def advanced_setitem(self: Tensor, plan: IndexPlan, value: Any) -> None:
    """Write ``value`` (broadcast to the indexed shape) at an advanced index; bumps the version.

    With repeated indices one of the writes wins (the last one on the cpu).
    When recording, the write becomes ``self.copy_(index_put(self, index, value))``,
    so both the overwritten tensor and ``value`` get gradients.

    Example:
        >>> x = gt.zeros(3)
        >>> advanced_setitem(x, plan_index(x, [0, 2], "setitem"), 1.0)
        >>> x.tolist()
        [1.0, 0.0, 1.0]
    """
    if needs_grad(self, value):
        check_inplace(self, "setitem")
        self.copy_(put_index(self, plan.items, value, False, "setitem"))
        return
    write_plan(self, plan, _values_for(self, value, plan.shape, "setitem"), "copy")


def getitem(self: Tensor, index: Any) -> Tensor:
    """NumPy-style indexing (``x[index]``): a view for basic indices, a copy for advanced ones.

    Example:
        >>> gt.arange(6).view(2, 3)[[1, 0], 1:].tolist()
        [[4, 5], [1, 2]]
    """
    plan = plan_index(self, index, "getitem")
    return basic_index(self, index) if plan is None else advanced_getitem(self, plan)


def setitem(self: Tensor, index: Any, value: Any) -> None:
    """``x[index] = value``: write ``value`` (broadcast) into ``self[index]``; bumps the version."""
    self._check_writable("setitem")
    plan = plan_index(self, index, "setitem")
    if plan is None:
        target = basic_index(self, index)
        if isinstance(value, TensorBase):
            value = _leading_ones_dropped(value, target.shape, "setitem")
        target.copy_(value)
    else:
        advanced_setitem(self, plan, value)


# Functional forms, exported as gt.<name> (PyTorch's torch.<name>).
EXPORTS = ("index_put", "index_put_")
