"""Launch plans of elementwise kernels: per call signature, what does not depend on the data.

:func:`run_kernel` broadcasts any operands (tensors in the kernel's dtypes, or
numbers); :func:`planned_binary` and :func:`unary_same_dtype` are the common
cases of operands of one dtype and shape, which the cpu runs by address. Each
plan also keeps its new result's strides and bytes (:func:`planned_empty`).
A cpu plan key leaves out the device index and stream (one device, no
streams); a cuda key has them, so the two never collide.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..dtypes import dtype
from ..shape_rules import broadcast_shapes, broadcast_strides
from ..tensor_base import contiguous_strides, planned_empty
from . import tracing
from .dispatch import PlanCache, current_stream_of, kernel

if TYPE_CHECKING:
    from ..tensor import Tensor
else:
    from ..tensor_base import TensorBase as Tensor  # run time: the core class, below the ops

Scalar = bool | int | float | complex
Operand = Tensor | Scalar

_plans = PlanCache()


def run_kernel(op: str, values: Sequence[Operand], out_dtype: dtype, dev: Any,
               sig: tuple[dtype, ...], out: Tensor | None = None) -> Tensor:
    """Broadcast ``values`` (already in the kernel dtypes), allocate and fill the result.

    The broadcast shape and the kernel's collapsed loop are planned once per call
    signature (op, device, stream, dtypes, each operand's shape and strides);
    a call then binds each operand's buffer and offset and launches.

    Example:
        >>> a = gt.tensor([1.0, 2.0])
        >>> run_kernel("add", [a, 1.0], a.dtype, a.device, (a.dtype, a.dtype)).tolist()
        [2.0, 3.0]
    """
    trace = tracing.state.trace
    if trace is not None:
        return trace.elementwise(op, tuple(values), sig[-1], out_dtype, out)
    stream = current_stream_of(dev)
    key = (op, dev._type, dev._index, None if stream is None else stream.handle, out_dtype, sig,
           None if out is None else (out._shape, out._strides),
           *[(v._shape, v._strides) if isinstance(v, Tensor) else None for v in values])
    plan = _plans.get(key)
    if plan is None:
        plan = _plans.add(key, _plan_kernel(op, values, out_dtype, dev, sig, out, stream))
    shape, run, strides, nbytes = plan
    if out is None:
        out = planned_empty(nbytes, shape, strides, out_dtype, dev, stream)
    args: list[Any] = []
    for v in values:
        if isinstance(v, Tensor):
            args += (v._storage.flat(v._dtype.kernel), v._offset)
        else:
            args += (v, 0)
    run(*args, out._storage.flat(out._dtype.kernel), out._offset)
    return out


def _plan_kernel(op: str, values: Sequence[Operand], out_dtype: dtype, dev: Any,
                 sig: tuple[dtype, ...], out: Tensor | None, stream: Any
                 ) -> tuple[Any, Any, tuple[int, ...], int]:
    """The result shape, the bound kernel, and a new result's strides and bytes."""
    shape = broadcast_shapes(*(v.shape for v in values if isinstance(v, Tensor)), op=op)
    strides = [broadcast_strides(v._shape, v._strides, shape, op) if isinstance(v, Tensor)
               else None for v in values]
    new_strides = contiguous_strides(shape)
    out_strides = new_strides if out is None else out._strides
    fn = kernel(op, dev, *sig)
    return (shape, fn.plan(shape, strides, out_strides, sig[-1].compute,
                           None if stream is None else stream.numba),
            new_strides, math.prod(shape) * out_dtype.itemsize)


_same_layout = PlanCache()


def _same_dtype_plan(op: str, dev: Any, stream: Any, dt: dtype, shape: tuple[int, ...],
                     strides: tuple[tuple[int, ...], ...], out_dt: dtype,
                     out_strides: tuple[int, ...] | None
                     ) -> tuple[Any, Any, tuple[int, ...], int]:
    """Work out the plans of kernel ``op`` over inputs of dtype ``dt`` and one ``shape``.

    ``out_strides``: the output's strides, or None for a new contiguous output.
    Returns ``(by_address, run, strides, nbytes)``: the plan taking each
    operand's address (``None`` when the kernel or layout has none), the one
    taking flat buffers and offsets, and a new result's strides and bytes. The
    callers look plans up in ``_same_layout`` first, inline: a call for the
    lookup cost 0.2-0.4 µs of a 4 µs ``a + b``.
    """
    fn = kernel(op, dev, *(dt,) * len(strides))
    new_strides = contiguous_strides(shape)
    out_strides = new_strides if out_strides is None else out_strides
    by_address = getattr(fn, "plan_pointers", None)
    return (None if by_address is None else by_address(
                shape, strides, out_strides, (dt.kernel,) * len(strides), out_dt.kernel),
            fn.plan(shape, strides, out_strides, None, None if stream is None else stream.numba),
            new_strides, math.prod(shape) * out_dt.itemsize)


def planned_binary(op: str, a: Tensor, b: Tensor, out_dt: dtype,
                   out: Tensor | None = None) -> Tensor:
    """Run binary kernel ``op`` on ``a`` and ``b`` of one dtype, shape and device (planned).

    The caller has checked that the kernel takes the operands as they are. The
    result goes into ``out`` (of their shape, ``out_dt``, any strides; it may
    be ``a`` itself) or into a new contiguous tensor of ``out_dt``.

    Example:
        >>> planned_binary("add", gt.ones(2), gt.ones(2), gt.float32).tolist()
        [2.0, 2.0]
    """
    dt = a._dtype
    dev = a._storage.device
    if tracing.state.trace is not None:
        return tracing.state.trace.elementwise(op, (a, b), dt, out_dt, out)
    out_strides = None if out is None else out._strides
    if dev._type == "cpu":  # one device, no streams: a shorter key (lengths never collide)
        stream = None
        key: tuple[Any, ...] = (op, dt, out_dt, a._shape, a._strides, b._strides, out_strides)
    else:
        stream = current_stream_of(dev)
        key = (op, dev._index, stream.handle, dt, out_dt, a._shape, a._strides, b._strides,
               out_strides)
    plans = _same_layout.get(key)
    if plans is None:
        plans = _same_layout.add(key, _same_dtype_plan(
            op, dev, stream, dt, a._shape, (a._strides, b._strides), out_dt, out_strides))
    if out is None:
        out = planned_empty(plans[3], a._shape, plans[2], out_dt, dev, stream)
    by_address = plans[0]
    if by_address is not None:  # the tensors are held here while the kernel runs
        by_address(a._ptr, b._ptr, out._ptr)
        return out
    np_dt = dt.kernel
    plans[1](a._storage.flat(np_dt), a._offset, b._storage.flat(np_dt), b._offset,
             out._storage.flat(out_dt.kernel), out._offset)
    return out


def unary_same_dtype(op: str, x: Tensor) -> Tensor:
    """Run unary kernel ``op`` on ``x`` into a new contiguous tensor of ``x``'s dtype (planned).

    Example:
        >>> unary_same_dtype("exp", gt.zeros(2)).tolist()
        [1.0, 1.0]
    """
    dt = x._dtype
    if tracing.state.trace is not None:
        return tracing.state.trace.elementwise(op, (x,), dt, dt)
    dev = x._storage.device
    if dev._type == "cpu":  # as in planned_binary
        stream = None
        key: tuple[Any, ...] = (op, dt, x._shape, x._strides)
    else:
        stream = current_stream_of(dev)
        key = (op, dev._index, stream.handle, dt, x._shape, x._strides)
    plans = _same_layout.get(key)
    if plans is None:
        plans = _same_layout.add(key, _same_dtype_plan(op, dev, stream, dt, x._shape,
                                                       (x._strides,), dt, None))
    result = planned_empty(plans[3], x._shape, plans[2], dt, dev, stream)
    by_address = plans[0]
    if by_address is not None:
        by_address(x._ptr, result._ptr)
        return result
    np_dt = dt.kernel
    plans[1](x._storage.flat(np_dt), x._offset, result._storage.flat(np_dt), 0)
    return result
