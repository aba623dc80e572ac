"""``gt.compile``: trace a function of tensors once per signature, then run its fused kernels.

The first call with a new signature (each tensor argument's shape, strides,
dtype, device and ``requires_grad``, the cuda stream, grad mode and the autocast
state; other arguments by value) runs the function on symbolic tensors
(:mod:`gtensor.ops.tracing`), which records its elementwise ops and reductions
without computing anything, and builds the fused kernels of
:mod:`gtensor.compiler.fusion`. Later calls with that signature only allocate
the results and run those kernels: no Python per op, no temporaries. Anything
the tracer cannot capture (another op, a reshape or transpose of a computed
value, ``.item()``, gradients) makes that signature run eagerly,
with one warning that says why; ``fullgraph=True`` raises instead.

On a GPU, ``cuda_graphs=True`` replays each signature's calls as one
captured CUDA graph (:mod:`gtensor.compiler.graphs`; on the simulator, an
emulated graph that runs the same launches), like ``torch.compile``'s
``mode="reduce-overhead"``.

Like ``jax.jit`` and ``torch.compile``, Python side effects run while tracing
only (twice for a call that then runs eagerly: once in the failed trace), and
Python values the function reads (globals, attributes) are frozen into the
trace; tensors it reads are read afresh on every call.
"""

from __future__ import annotations

import functools
import threading
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..cuda import runtime
from ..dtypes import float64
from ..errors import NotYetTraceable, Untraceable
from ..graph.autocast_mode import autocast_key
from ..graph.grad_mode import state as grad_state
from ..ops import tracing
from ..ops.dispatch import current_stream_of
from ..tensor_base import TensorBase
from .effects import Replay, collect
from .gradients import Backward, attach, trace_backward
from .staging import StagedScalars

if TYPE_CHECKING:
    from .codegen import Kernel

CACHE_LIMIT = 64  # signatures kept per compiled function
DEFAULT_CUDA_GRAPHS = False
"""Whether ``cuda_graphs=None`` captures CUDA graphs on a real GPU. Off until a GPU run of
``tests/compiler/test_compile_graphs.py`` (CuPy's capture there) and the benchmark have
proven it; the simulator proves the static-buffer replay through its emulated graph only."""
_one_trace = threading.Lock()
_EAGER = object()  # a signature that runs eagerly


class CompiledFunction:
    """A function of tensors whose calls run fused kernels (see :func:`compile`).

    Example:
        >>> import gtensor as gt
        >>> f = gt.compile(lambda a, b: (a * b + 1.0).relu())
        >>> f(gt.ones(3), gt.ones(3)).tolist()
        [2.0, 2.0, 2.0]
    """

    def __init__(self, fn: Callable[..., Any], fullgraph: bool = False,
                 cuda_graphs: bool | None = None) -> None:
        self.fn = fn
        self.fullgraph = fullgraph
        self.cuda_graphs = cuda_graphs
        self._programs: dict[Any, Any] = {}
        self._warned: set[str] = set()
        functools.update_wrapper(self, fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if tracing.state.trace is not None:  # called inside another compiled function's trace
            return self.fn(*args, **kwargs)
        tensors: list[TensorBase] = []
        modes = (grad_state.enabled, autocast_key())
        key: Any = _tensor_signature(args, modes) if not kwargs else None
        if key is not None:
            tensors = list(args)
        else:
            try:
                key = (_signature(args, tensors), _signature(kwargs, tensors), modes)
            except TypeError:
                return self._eager("an argument is not hashable", args, kwargs)
        program = self._programs.get(key)
        if program is None or (program is not _EAGER and not program.holds(tensors)):
            program = self._trace(key, args, kwargs, tensors)
        if program is _EAGER or program is None:
            return self.fn(*args, **kwargs)
        if program.replay.aliased(tensors):
            return self._eager("an argument written in place shares memory with another one",
                               args, kwargs)
        return program.run(tensors)

    def _trace(self, key: Any, args: Any, kwargs: Any, tensors: list[TensorBase]) -> Any:
        if len(self._programs) >= CACHE_LIMIT:
            self._programs.clear()
        try:
            with _one_trace:  # the ops see one trace at a time (tracing.state is global)
                program: Any = _trace(self.fn, args, kwargs, tensors)
        except NotYetTraceable:  # this call runs eagerly; a later one is traced
            self._programs.pop(key, None)
            return None
        except Untraceable as exc:
            if self.fullgraph:
                raise
            self._warn(str(exc))
            program = _EAGER
        else:
            self._use_graph(program)
        self._programs[key] = program
        return program

    def _use_graph(self, program: Program) -> None:
        """Replay ``program`` through a CUDA graph when asked and possible."""
        wanted = self.cuda_graphs
        if program.device.type == "cpu" or wanted is False:
            return
        simulated = runtime.is_simulated()
        if wanted is None and (simulated or not DEFAULT_CUDA_GRAPHS):
            return
        # numba.cuda, an optional dependency, loads with the first cuda graph
        from .graphs import GraphRunner, refusal

        why = refusal(program)
        if why is not None:
            self._no_graph(why)
            return
        program.graph = GraphRunner(program, self._no_graph)

    def _no_graph(self, why: str) -> None:
        self._warn(f"[compile] {why}", "replays without a CUDA graph")

    def _eager(self, why: str, args: Any, kwargs: Any) -> Any:
        if self.fullgraph:
            raise Untraceable(f"[compile] {why}")
        self._warn(f"[compile] {why}")
        return self.fn(*args, **kwargs)

    def _warn(self, why: str, outcome: str = "runs eagerly for these arguments") -> None:
        if why not in self._warned:
            self._warned.add(why)
            name = getattr(self.fn, "__qualname__", repr(self.fn))
            warnings.warn(f"{why}; {name} {outcome}", stacklevel=4)


def compile(fn: Callable[..., Any] | None = None, *,  # noqa: A001 - PyTorch's and MLX's name
            fullgraph: bool = False, cuda_graphs: bool | None = None) -> Any:
    """Compile a function of tensors into fused kernels (a decorator, with or without options).

    Args:
        fn: the function; its tensor arguments and the tensors it reads may
            change values between calls.
        fullgraph: raise :class:`~gtensor.errors.Untraceable` instead of running
            eagerly when the function cannot be traced.
        cuda_graphs: on a cuda device, replay each call as one captured CUDA graph
            (True; the simulator emulates the graph), never (False), or as
            :data:`DEFAULT_CUDA_GRAPHS` says on a real GPU (None). A call whose step
            cannot be captured replays without a graph, with one warning saying why.
            Results are copies of the graph's buffers; ``.grad`` tensors the step
            assigns are its static buffers (see :mod:`gtensor.compiler.graphs`).

    Returns:
        A :class:`CompiledFunction` (or a decorator making one).

    Example:
        >>> import gtensor as gt
        >>> @gt.compile
        ... def f(x):
        ...     return (x * 2.0).exp().sum()
        >>> round(f(gt.zeros(4)).item(), 3)
        4.0
    """
    if fn is None:
        return lambda f: CompiledFunction(f, fullgraph, cuda_graphs)
    return CompiledFunction(fn, fullgraph, cuda_graphs)


class Program:
    """The fused kernels of one signature and how to assemble the function's result."""

    def __init__(self, trace: tracing.Trace, kernels: list[Kernel], outputs: list[int],
                 rebuild: Callable[[list[Any], list[TensorBase]], Any],
                 backward: Backward | None, replay: Replay) -> None:
        nodes = trace.nodes
        self.kernels = _bound(nodes, kernels)
        self.inputs = [(i, n.index, n.grad_of) for i, n in enumerate(nodes)
                       if n.kind == "input"]
        self.captures = [(i, n.tensor, _layout(n.tensor))
                         for i, n in enumerate(nodes) if n.kind == "capture"]
        self.outputs = outputs
        self.rebuild = rebuild
        self.backward = backward
        self.replay = replay
        self.size = len(nodes)
        self.device = trace.device
        self.written = {t for t, _ in replay.stores}
        self.graph: Any = None  # a GraphRunner when calls replay through a CUDA graph
        self.staged: StagedScalars | None = None  # writes the scalars of calls without a graph
        # on cuda the per-call scalars go to one buffer, value ``size``, that the kernels read
        self.scalars = [] if self.device.type == "cpu" else [
            i for i, n in enumerate(nodes) if n.kind == "scalar"]
        if self.scalars:
            slots = {i: (self.size, k, False) for k, i in enumerate(self.scalars)}
            self.kernels = _read_scalars(self.kernels, slots)
            replay.kernels = _read_scalars(replay.kernels, slots)
            if backward is not None:
                backward.kernels = _read_scalars(backward.kernels, slots)
        keep = {i for i, n in enumerate(nodes) if n.kind in ("input", "capture")}
        keep.update(outputs)
        keep.update(v for _, v in replay.grads if v.__class__ is int)
        if backward is not None:  # its kernels run later, on the values of this call
            for kernel in backward.kernels:
                keep.update(_reads(kernel))
        self.drops = _drops(self.kernels + replay.kernels, keep)

    def holds(self, tensors: list[TensorBase]) -> bool:
        """True while the call may replay: captured tensors keep the layout they were traced
        with, and the trace's guards hold."""
        for _, t, layout in self.captures:
            if _layout(t) != layout:
                return False
        return self.replay.holds(tensors)

    def run(self, tensors: list[TensorBase]) -> Any:
        """Run the kernels on this call's tensor arguments; return the function's result."""
        if self.graph is not None:
            return self.graph.run(tensors)
        values = self.bind(tensors)
        self.replay.start(values)
        if self.scalars:
            buffer = TensorBase.empty((len(self.scalars),), float64, self.device)
            if self.staged is None:
                self.staged = StagedScalars(buffer)
            self.staged.write([values[i] for i in self.scalars], buffer)
            values[self.size] = buffer
        return self.execute(values, tensors)

    def bind(self, tensors: list[TensorBase]) -> list[Any]:
        """The node values of a call before any kernel runs: its arguments, captured tensors."""
        values: list[Any] = [None] * (self.size + 1)
        for i, k, grad in self.inputs:
            if k < len(tensors):  # the others are the backward's incoming gradients
                values[i] = tensors[k]._grad if grad else tensors[k]
        for i, t, _ in self.captures:
            values[i] = t
        return values

    def execute(self, values: list[Any], tensors: list[TensorBase]) -> Any:
        """Run the kernels on bound ``values`` (scalars computed); return the result."""
        replay = self.replay
        self.launch(self.kernels, values, self.drops)
        results = [values[i] for i in self.outputs]
        if self.backward is not None:
            attach(self.backward, values, results, self.launch)
        if replay.kernels:
            self.launch(replay.kernels, values, self.drops[len(self.kernels):])
        replay.finish(values, tensors)
        return self.rebuild(results, tensors)

    def launch(self, kernels: list[Any], values: list[Any],
               drops: list[tuple[int, ...]] | None = None, static: bool = False) -> None:
        """Run ``kernels``, reading and filling the node values ``values``; after kernel
        ``k``, let go of the buffers ``drops[k]`` names (read for the last time). With
        ``static``, a kernel writes again into the buffers ``values`` already holds."""
        dev = self.device
        for k, (fn, leaves, roots) in enumerate(kernels):
            if drops is not None and k and drops[k - 1]:
                for i in drops[k - 1]:
                    values[i] = None  # back to the caching allocator, for the next kernels
            if roots.__class__ is int:  # a library call on tensors
                values[roots] = fn(*[_operand(values, a) for a in leaves])
                continue
            args: list[Any] = []
            for i, offset, number in leaves:
                t = values[i]
                if number:
                    args += (t, 0)
                else:
                    args += (t._storage.flat(t._dtype.kernel), t._offset + offset)
            for r, shape, dt, dest in roots:
                if dest is not None:
                    out = values[r] = values[dest]
                elif static and values[r] is not None:
                    out = values[r]
                else:
                    out = values[r] = TensorBase.empty(shape, dt, dev)
                args += (out._storage.flat(dt.kernel), out._offset)
            fn(*args)


def _bound(nodes: list[tracing.TraceNode], kernels: list[Kernel]) -> list[Any]:
    """Each kernel as (callable, (value, offset, is a number) per leaf, (node, shape, dtype,
    destination node or None) per root); a library call as (callable, its operands, its node)."""
    bound: list[Any] = []
    for k in kernels:
        if nodes[k.roots[0]].kind == "external":
            bound.append((k.fn, [_reference(nodes, a) for a in k.leaves], k.roots[0]))
        else:
            dests = k.dests or [None] * len(k.roots)
            bound.append((k.fn, [_source(nodes, i) for i in k.leaves],
                          [(r, nodes[r].shape, nodes[r].dtype, d)
                           for r, d in zip(k.roots, dests, strict=True)]))
    return bound


def _read_scalars(kernels: list[Any], slots: dict[int, tuple[int, int, bool]]) -> list[Any]:
    """``kernels`` with each per-call scalar leaf read from its slot of the scalar buffer."""
    return [kernel if kernel[2].__class__ is int else
            (kernel[0], [slots.get(leaf[0], leaf) if leaf[2] else leaf for leaf in kernel[1]],
             kernel[2]) for kernel in kernels]


def _reads(kernel: Any) -> list[int]:
    """The nodes whose values a bound kernel reads."""
    _, leaves, roots = kernel
    if roots.__class__ is int:
        return [a[1] for a in leaves if a[0] in ("value", "view")]
    return [i for i, _, _ in leaves]


def _drops(kernels: list[Any], keep: set[int]) -> list[tuple[int, ...]]:
    """The memory plan: for each kernel, the values it is the last to read (or that it made
    and no kernel reads), other than those in ``keep``."""
    last: dict[int, int] = {}
    for k, kernel in enumerate(kernels):
        roots = kernel[2]
        for i in [roots] if roots.__class__ is int else [r[0] for r in roots]:
            last.setdefault(i, k)
        for i in _reads(kernel):
            last[i] = k
    drops: list[list[int]] = [[] for _ in kernels]
    for i, k in last.items():
        if i not in keep:
            drops[k].append(i)
    return [tuple(d) for d in drops]


def _reference(nodes: list[tracing.TraceNode], a: Any) -> Any:
    """How a library call's operand is found at run time: a number, a value, or a view."""
    if isinstance(a, tuple):
        return a
    node = nodes[a]
    if node.kind == "view":
        return ("view", node.args[0], node.shape, node.strides, node.offset)
    return ("value", a)


def _operand(values: list[Any], ref: tuple[Any, ...]) -> Any:
    if ref[0] == "value":
        return values[ref[1]]
    if ref[0] == "view":
        base = values[ref[1]]
        return base._make_view(ref[2], ref[3], base._offset + ref[4])
    return ref[1]


def _layout(t: TensorBase) -> tuple[Any, ...]:
    return t._shape, t._strides, t._dtype, t.requires_grad


def _source(nodes: list[tracing.TraceNode], i: int) -> tuple[int, int, bool]:
    """The node whose memory leaf ``i`` reads, the element offset it adds (views), and
    whether the leaf is a number instead."""
    node = nodes[i]
    if node.kind == "view":
        return node.args[0], node.offset, False
    return i, 0, node.kind == "scalar"


def _trace(fn: Callable[..., Any], args: Any, kwargs: Any,
           tensors: list[TensorBase]) -> Program:
    trace = tracing.Trace(tensors[0]._storage.device if tensors else None)
    symbols = [trace.input(t, k) for k, t in enumerate(tensors)]
    for symbol, t in zip(symbols, tensors, strict=True):
        symbol._requires_grad = grad_state.enabled and t.requires_grad  # a leaf of the trace
    swap = iter(symbols)
    sym_args, sym_kwargs = _replace((args, kwargs), lambda _: next(swap))
    tracing.state.trace = trace
    try:
        result = fn(*sym_args, **sym_kwargs)
    finally:
        tracing.state.trace = None
        trace.restore_grads()
    dev = trace.device
    if dev is None:
        raise Untraceable("[compile] the function reads and makes no tensor")
    outputs: list[int] = []
    arguments = {id(s): k for k, s in enumerate(symbols)}

    def output(t: TensorBase) -> Any:
        if not tracing.is_symbolic(t):  # a real tensor the function read or wrote: itself
            return t
        k = arguments.get(id(t))
        if k is not None:  # an argument (perhaps written in place): itself
            return _Argument(k)
        outputs.append(trace.computed(trace.node_of(t)))
        return _Slot(len(outputs) - 1)

    # Numba (and numba.cuda, an optional dependency) load on the first trace, not with gtensor
    from .fusion import plan, plan_stores
    from .fusion_cpu import use_numpy_loops

    template = _replace(result, output)
    rebuild = _first if type(template) is _Slot else functools.partial(_fill, template)
    if dev.type == "cpu":
        use_numpy_loops(trace)
    results = len(outputs)
    replay = collect(trace, outputs)  # adds the values the effects need to outputs
    if replay.aliased(tensors):
        raise NotYetTraceable("[compile] an argument written in place shares memory with "
                              "another one")
    forward = len(trace.nodes)
    backward = None
    if grad_state.enabled and not trace.ran_backward:
        backward = trace_backward(trace, outputs[:results])
        if dev.type == "cpu":
            use_numpy_loops(trace)
    kernels = plan(trace, outputs, 0, forward)
    if backward is not None:
        computed = [i for i in backward.grads if i is not None]
        backward.kernels = _bound(trace.nodes, plan(trace, computed, backward.start))
        read = {i for kernel in backward.kernels for i in _reads(kernel)}
        backward.reads = [i for i in backward.reads if i in read]  # others may change freely
    replay.kernels = _bound(trace.nodes, plan_stores(trace, replay.stores))
    return Program(trace, kernels, outputs[:results], rebuild, backward, replay)


def _tensor_signature(args: tuple[Any, ...], modes: Any) -> tuple[Any, ...] | None:
    """The key of a call whose arguments are all tensors (the common case), else None.

    ``modes`` holds what else the trace depends on: grad mode and the autocast state.
    """
    key: list[Any] = [modes]
    for t in args:
        if not isinstance(t, TensorBase):
            return None
        dev = t._storage.device  # by its fields: a device hashes in Python
        key += (t._shape, t._strides, t._dtype, dev._type, dev._index,
                t._requires_grad or t._base is not None and t.requires_grad)
    if args and dev._type != "cpu":  # kernels launch on the stream current when traced
        key.append(current_stream_of(dev).handle)
    return tuple(key)


def _signature(value: Any, tensors: list[TensorBase]) -> Any:
    """A hashable key of ``value``'s structure; collects its tensors in order."""
    if isinstance(value, TensorBase):
        tensors.append(value)
        dev = value._storage.device
        return ("T", value._shape, value._strides, value._dtype, dev,
                value.requires_grad, None if dev.type == "cpu" else current_stream_of(dev).handle)
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, *[_signature(v, tensors) for v in value])
    if isinstance(value, dict):
        return ("dict", *[(k, _signature(v, tensors)) for k, v in value.items()])
    hash(value)
    return ("V", type(value), value)


def _replace(value: Any, fn: Callable[[TensorBase], Any]) -> Any:
    """``value`` with each tensor replaced by ``fn(tensor)`` (tuples, lists, dicts walked)."""
    if isinstance(value, TensorBase):
        return fn(value)
    if isinstance(value, (tuple, list)):
        return type(value)(_replace(v, fn) for v in value)
    if isinstance(value, dict):
        return {k: _replace(v, fn) for k, v in value.items()}
    return value


def _first(values: list[Any], tensors: list[TensorBase]) -> Any:
    return values[0]


class _Slot(int):
    """The position of a result tensor in a result template."""


class _Argument(int):
    """The position of a tensor argument returned as the result (or in it)."""


def _fill(template: Any, values: list[Any], tensors: list[TensorBase]) -> Any:
    """``template`` with each slot replaced by its result tensor, each argument by itself."""
    if isinstance(template, _Slot):
        return values[template]
    if isinstance(template, _Argument):
        return tensors[template]
    if isinstance(template, (tuple, list)):
        return type(template)(_fill(v, values, tensors) for v in template)
    if isinstance(template, dict):
        return {k: _fill(v, values, tensors) for k, v in template.items()}
    return template
