"""Tracing for ``gt.compile``: elementwise ops and reductions recorded on symbolic tensors.

While :data:`state` holds a :class:`Trace`, the compiled function runs on
*symbolic* tensors: real :class:`~gtensor.Tensor` objects whose storage is a
:class:`SymbolicStorage` with a device but no bytes. The elementwise ops,
``where``, casts and the reductions that :mod:`gtensor.compiler` can fuse check
for them first and record a :class:`TraceNode` instead of launching a kernel
(the dtype rules, broadcasting and errors are the eager ones, worked out on
metadata). Views only change metadata, so they run as usual and are recorded
when a fused op reads them. Any other op reaches for the data of a symbolic
tensor and raises
:class:`~gtensor.errors.Untraceable`, so nothing the tracer does not know can
slip into a trace unnoticed.
"""

from __future__ import annotations

import operator
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..device import CPU
from ..dtypes import dtype
from ..errors import Untraceable
from ..shape_rules import broadcast_shapes
from ..tensor_base import TensorBase, contiguous_strides, from_storage
from ..trace_state import state as state
from .trace_effects import Effects

if TYPE_CHECKING:
    from ..tensor import Tensor

FUSABLE_REDUCTIONS = ("sum", "mean", "amax", "amin")


class SymbolicStorage:
    """The storage of a symbolic tensor: a device, and no data to read.

    Example:
        >>> from gtensor.device import CPU
        >>> SymbolicStorage(CPU).device
        device(type='cpu')
    """

    __slots__ = ("device", "version")
    readonly = False  # writable: in-place ops on it are traced
    ptr = None  # no address: a kernel handed a symbolic tensor's _ptr refuses None

    def __init__(self, dev: Any) -> None:
        self.device = dev
        self.version = 0

    def __getattr__(self, name: str) -> Any:
        raise Untraceable(f"[compile] {_calling_op()} is not traced: it reads a traced "
                          "tensor's data")


def _calling_op() -> str:
    """The outermost gtensor function on the stack, named as the user called it."""
    frame = sys._getframe(2)
    name = "an op"
    while frame is not None and frame.f_globals.get("__name__", "").startswith("gtensor."):
        code = frame.f_code.co_name
        if code in _WRAPPERS:  # a decorator's frame: name the function it wraps
            wrapped = [v.__name__ for v in frame.f_locals.values() if callable(v) and
                       not getattr(v, "__name__", "_").startswith(("_", "<"))]
            code = wrapped[0] if wrapped else "_"
        if not code.startswith("_"):
            name = code
        frame = frame.f_back
    return name


_WRAPPERS = ("wrapper", "forward", "reflected", "method", "inner")  # decorators' own frames


@dataclass
class TraceNode:
    """One value of a trace.

    ``kind`` is ``"input"`` (an argument, ``index`` its position among the
    tensor arguments), ``"capture"`` (a real tensor the function read or wrote, kept in
    ``tensor``), ``"elementwise"``, ``"reduce"``, ``"view"`` (a view of an
    input or a reduction's result, read at ``strides`` and ``offset``),
    ``"broadcast"`` (a computed value read as a larger shape), ``"external"``
    (a library call such as matmul, run as it is), ``"empty"`` (a tensor
    allocated and not yet written) or ``"scalar"`` (a Python number computed
    afresh on every call, see :meth:`Effects.dynamic`). ``args`` holds node indices
    (ints) and numbers (as ``("const", value)``); ``compute`` is the dtype the
    op computes in, ``dtype`` the one it returns.
    """

    kind: str
    op: str
    shape: tuple[int, ...]
    dtype: dtype
    compute: dtype | None = None
    args: tuple[Any, ...] = ()
    index: int = -1
    tensor: Any = None
    dims: tuple[int, ...] = ()
    keepdim: bool = False
    strides: tuple[int, ...] = ()
    offset: int = 0
    materialize: bool = False  # an elementwise value that a view reads from memory
    fn: Any = None  # an external node's library call
    grad_of: bool = False  # an input node standing for argument ``index``'s ``.grad``


@dataclass
class Trace(Effects):
    """The nodes recorded while one call of a compiled function ran on symbolic tensors.

    Node values are immutable: an in-place op records a new node and makes
    the written tensor name it from then on (:class:`Effects` keeps the writes
    that must reach memory).
    """

    device: Any  # None until the first tensor is read, for a function without tensor arguments
    nodes: list[TraceNode] = field(default_factory=list)
    symbols: list[Tensor] = field(default_factory=list)  # node i's symbolic tensor (or None)
    arguments: list[Tensor] = field(default_factory=list)  # the real tensor arguments
    _by_storage: dict[int, int] = field(default_factory=dict)
    _captured: dict[int, int] = field(default_factory=dict)
    _views: dict[Any, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.init_effects()

    def input(self, t: Tensor, index: int, grad_of: bool = False) -> Tensor:
        """Return the symbolic stand-in of tensor argument ``t`` (number ``index``), or of
        that argument's ``.grad`` ``t``."""
        check_device(self, t)
        node = TraceNode("input", "input", t._shape, t._dtype, index=index, strides=t._strides,
                         grad_of=grad_of)
        symbol = self._add(node, t._strides)
        if index == len(self.arguments) and not grad_of:
            self.arguments.append(t)
        return symbol

    def node_of(self, t: Any) -> Any:
        """Return the node index of tensor ``t`` in this trace, or ``("const", number)``."""
        if not isinstance(t, TensorBase):
            return ("const", t.item() if isinstance(t, np.generic) else t)
        storage = t._storage
        if storage.__class__ is SymbolicStorage:
            i = self._by_storage.get(id(storage), -1)
            if i < 0:
                raise Untraceable("[compile] a tensor of another trace reached a fused op")
            node = self.nodes[i]
            if t._dtype is not node.dtype:
                _refuse_dtype_view()
            if node.kind == "empty":
                raise Untraceable(f"[compile] {_calling_op()} reads a tensor made by empty() "
                                  "before anything wrote it")
            layout = self.written_layout(storage)
            if layout is not None and layout == (t._shape, t._strides, t._offset):
                return i
            if layout is not None and (layout[1] != contiguous_strides(layout[0]) or layout[2]):
                raise Untraceable("[compile] a tensor written in place through a view is read "
                                  "through another view")
            if t._shape == node.shape and t._offset == 0 and (
                    t._strides == self.symbols[i]._strides):
                return i
            return self._view(i, t)
        check_device(self, t)
        i = self._captured.get(id(t), -1)
        if i < 0:
            self.check_unwritten(t)
        if i < 0 and t._base is not None:  # a view: its base is captured, the view read
            if t._dtype is not t._base._dtype:
                _refuse_dtype_view()
            base = self.node_of(t._base)
            key = (base, t._shape, t._strides, t._offset)
            i = self._views.get(key, -1)
            if i < 0:
                i = self._views[key] = len(self.nodes)
                self.nodes.append(TraceNode("view", "view", t._shape, t._dtype, args=(base,),
                                            strides=t._strides,
                                            offset=t._offset - t._base._offset))
                self.symbols.append(t)
            return i
        if i < 0:
            i = self.capture(t)
        return i

    def refuse(self, t: Tensor) -> None:
        """Raise :class:`~gtensor.errors.Untraceable`: an untraced op reads real ``t``'s data.

        Its result would be computed once, while tracing, and replayed stale.
        """
        raise Untraceable(f"[compile] {_calling_op()} is not traced: it reads a tensor's data")

    def capture(self, t: Tensor) -> int:
        """Add a node reading real tensor ``t`` (as the call finds it) and return its index."""
        node = TraceNode("capture", "capture", t._shape, t._dtype, tensor=t, strides=t._strides)
        i = self._captured[id(t)] = len(self.nodes)
        self.nodes.append(node)
        self.symbols.append(t)
        return i

    def _view(self, i: int, t: Tensor) -> int:
        """The node reading ``t``, a view of node ``i``'s symbolic tensor.

        Any view of a value in memory (an argument, a reduction's result) is
        read in place at the view's strides and offset. A broadcast of a
        computed value (``expand``, new leading dims) is recomputed at each
        point of the loop that reads it; any other view of a computed value
        (a transpose, a reshape) makes that value live in memory.
        """
        node, symbol = self.nodes[i], self.symbols[i]
        key = (i, t._shape, t._strides, t._offset)
        j = self._views.get(key, -1)
        if j >= 0:
            return j
        if node.kind == "broadcast" or node.kind == "elementwise" and _broadcasts(t, symbol):
            if node.kind == "broadcast":
                raise Untraceable("[compile] a view of a broadcast value reached a fused op")
            view = TraceNode("broadcast", "broadcast", t._shape, node.dtype, args=(i,))
        else:
            node.materialize = True  # written to memory by its own loop, then read as a view
            view = TraceNode("view", "view", t._shape, node.dtype, args=(i,), strides=t._strides,
                             offset=t._offset)
        j = self._views[key] = len(self.nodes)
        self.nodes.append(view)
        self.symbols.append(t)
        return j

    def elementwise(self, op: str, operands: tuple[Any, ...], compute: dtype, want: dtype,
                    out: Any = None) -> Tensor:
        """Record elementwise ``op`` of ``operands`` (computing in ``compute``, giving ``want``).

        With ``out``, the value is written into ``out`` (see :meth:`Effects.write`),
        which is returned.
        """
        args = tuple(self.node_of(x) for x in operands)
        shape = broadcast_shapes(*(x._shape for x in operands if isinstance(x, TensorBase)),
                                 op=op)
        result = self._add(TraceNode("elementwise", op, shape, want, compute, args))
        if out is None:
            return result
        self.write(out, result)
        return out

    def value_node(self, kind: str, shape: tuple[int, ...], dt: dtype,
                   args: tuple[Any, ...] = ()) -> Tensor:
        """Record a node of ``kind`` (``"empty"``, ``"scalar"``, or a ``"cast"`` of ``args``)."""
        if kind == "cast":
            return self._add(TraceNode("elementwise", "cast", shape, dt, dt, args))
        return self._add(TraceNode(kind, kind, shape, dt))

    def reduce(self, op: str, x: Tensor, dims: tuple[int, ...], keepdim: bool,
               out_dt: dtype) -> Tensor:
        """Record reduction ``op`` of ``x`` over ``dims``."""
        if op not in FUSABLE_REDUCTIONS:
            raise Untraceable(f"[compile] {op} is not fused yet")
        arg = self.node_of(x)
        shape = tuple(1 if d in dims else n for d, n in enumerate(x._shape) if keepdim or
                      d not in dims)
        node = TraceNode("reduce", op, shape, out_dt, x._dtype, (arg,), dims=tuple(dims),
                         keepdim=keepdim)
        return self._add(node)

    def external(self, op: str, fn: Any, operands: tuple[Any, ...], shape: tuple[int, ...],
                 out_dt: dtype) -> Tensor:
        """Record a library call (matmul...) that stays as it is: ``fn(*operands)`` at run time.

        Its tensor operands live in memory (a computed one gets a loop of its own);
        its result, contiguous, is read by the fused loops around it.
        """
        args = []
        for x in operands:
            i = self.node_of(x)
            if not isinstance(i, tuple):
                node = self.nodes[i]
                if node.kind == "broadcast":  # a copy of its own, at the broadcast shape
                    i = self.node_of(self.elementwise("cast", (x,), x._dtype, x._dtype))
                    node = self.nodes[i]
                if node.kind == "elementwise":
                    node.materialize = True
            args.append(i)
        return self._add(TraceNode("external", op, shape, out_dt, out_dt, tuple(args), fn=fn))

    def externals(self, op: str, fn: Any, operands: tuple[Any, ...],
                  outputs: list[tuple[tuple[int, ...], dtype]]) -> tuple[Tensor, ...]:
        """Record a library call returning a tuple of tensors of ``outputs``' shapes and dtypes."""
        call = self.node_of(self.external(op, fn, operands, (), outputs[0][1]))
        return tuple(self._add(TraceNode("external", f"{op}[{k}]", shape, dt, dt, (call,),
                                         fn=operator.itemgetter(k)))
                     for k, (shape, dt) in enumerate(outputs))

    def _add(self, node: TraceNode, strides: tuple[int, ...] | None = None) -> Tensor:
        if self.device is None:  # a tensor made before any was read: the cpu's
            self.device = CPU
        storage = SymbolicStorage(self.device)
        t = from_storage(storage, node.shape, strides or contiguous_strides(node.shape), 0,
                         node.dtype)
        self._by_storage[id(storage)] = len(self.nodes)
        self.nodes.append(node)
        self.symbols.append(t)
        return t


def library_call(op: str, fn: Any, operands: tuple[Any, ...], shape: tuple[int, ...],
                 out_dt: dtype) -> Tensor:
    """Return ``fn(*operands)``, a library call (matmul, a convolution) making a new tensor of
    ``shape`` and ``out_dt``; while tracing, record it to run at every call instead.

    Example:
        >>> library_call("neg", lambda t: -t, (gt.ones(2),), (2,), gt.float32).tolist()
        [-1.0, -1.0]
    """
    trace = state.trace
    if trace is None:
        return fn(*operands)
    return trace.external(op, fn, operands, shape, out_dt)


def library_calls(op: str, fn: Any, operands: tuple[Any, ...],
                  outputs: list[tuple[tuple[int, ...], dtype]]) -> tuple[Tensor, ...]:
    """:func:`library_call` for a call returning a tuple of tensors of ``outputs``' shapes and
    dtypes (a max pool's values and indices)."""
    trace = state.trace
    if trace is None:
        return fn(*operands)
    return trace.externals(op, fn, operands, outputs)


def _refuse_dtype_view() -> None:
    raise Untraceable(f"[compile] {_calling_op()} reads a view of a tensor as another dtype "
                      "(view_as_real, view_as_complex): not traced")


def _broadcasts(t: Tensor, symbol: Tensor) -> bool:
    """True when view ``t`` only broadcasts ``symbol`` (new leading dims, size-1 dims expanded)."""
    lead = len(t._shape) - len(symbol._shape)
    if lead < 0 or t._offset != symbol._offset or any(t._strides[:lead]):
        return False
    for n, s, m, r in zip(t._shape[lead:], t._strides[lead:], symbol._shape, symbol._strides,
                          strict=True):
        if not (n == m and (s == r or n == 1) or m == 1 and s == 0):
            return False
    return True


def check_device(trace: Trace, t: Tensor) -> None:
    """Refuse a tensor on another device than the trace's (the eager op would, too).

    A trace of a function without tensor arguments takes the device of the
    first tensor it reads.
    """
    if trace.device is None:
        trace.device = t._storage.device
    elif t._storage.device != trace.device:
        raise Untraceable(f"[compile] tensors on {trace.device} and {t._storage.device}")


def is_symbolic(x: Any) -> bool:
    """True for a tensor of the trace being recorded.

    Example:
        >>> is_symbolic(1.0)
        False
    """
    return isinstance(x, TensorBase) and x._storage.__class__ is SymbolicStorage
