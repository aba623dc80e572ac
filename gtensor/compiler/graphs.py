"""A compiled call replayed as one captured graph, through static buffers.

With ``gt.compile(fn, cuda_graphs=True)`` a signature's calls run in three stages:

1. **warm-up** (its first call): the plan runs on a stream of its own, every
   kernel compiled; the buffers that outlive a call (results, ``.grad``
   values, input copies, the scalar buffer) are kept as *static* buffers.
2. **capture** (the next call): the same launches, writing into the same
   buffers, are captured into one graph, which is then launched.
3. **replay** (every later call): copy the call's inputs into the static
   input buffers, write its per-call scalars into their buffer, launch the
   graph.

What the graph reads and writes must stay where it was captured:

- arguments the step writes in place or that require grad (parameters passed
  as arguments), and the real tensors it reads or writes (parameters,
  optimizer state), are used in their own memory; a call where one of them
  lives elsewhere (``p.data = ...``, another tensor passed) captures again
  (at most :data:`RECAPTURES` times, then the function replays without a graph);
- the other arguments (a batch) are copied, device to device on the graph's
  stream, into static buffers of their layout; the copy is skipped when the
  call passes the tensor of the last call and nothing wrote it since (its
  storage's version is unchanged: a write by another library through DLPack
  or ``__cuda_array_interface__`` is not seen, pass a new tensor then);
- per-call scalars (learning rate, step counts) are read from a device buffer
  (:mod:`gtensor.compiler.staging`), written before each launch;
- the blocks the graph uses stay reserved: its stream's segments are pinned in
  the caching allocator for the graph's lifetime, and only the graph allocates
  on that stream (PyTorch gives a graph a private memory pool for the same
  reason). The plan's temporaries are let go of after their last read, as
  without a graph, so the capture reuses their blocks: between launches they
  hold nothing.

Results are **copies** of the static output buffers, so a result stays valid
after the next call (as with ``torch.compile``'s results, unlike a raw
``torch.cuda.CUDAGraph``'s static outputs). The ``.grad`` tensors a step
assigns are the static buffers themselves, written again by each replay, as
the gradients of a captured PyTorch step are.

A step the graph cannot replay faithfully runs without a graph, with one
warning saying why: a step whose results are differentiated outside (its
backward runs later, on the call's buffers), a library call taking a per-call
scalar (baked into its launch), **random ops** (a draw's seed and offset are
kernel arguments computed on the host, so a graph would replay the captured
draw: steps that draw are refused), a copy between host and device during
the step (``.item()``, a read back), or a capture that fails (a host
synchronization inside a library call, an operation CUDA does not capture).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..cuda import runtime
from ..cuda.streams import Event, Stream, current_stream, stream
from ..dtypes import float64
from ..generator import Generator
from ..graph.grad_mode import no_grad
from ..kernels.common import transfers
from ..kernels.common.strided import span
from ..kernels.cuda._launch import PlannedLaunch
from ..memory import allocator_for
from ..tensor_base import TensorBase, contiguous_strides
from .graph_backends import graph_type
from .staging import StagedScalars

if TYPE_CHECKING:
    from .compiled import Program

RECAPTURES = 3
"""Captures of one signature, after the first, before it replays without a graph."""


def refusal(program: Program) -> str | None:
    """Why ``program`` cannot replay through a graph (None: it can try).

    Example:
        >>> f = gt.compile(lambda a: a * 2 + 1)
        >>> _ = f(gt.ones(2, requires_grad=True)); (program,) = f._programs.values()
        >>> refusal(program)[:38]
        'its results are differentiated outside'
    """
    if program.backward is not None:
        return ("its results are differentiated outside the compiled function (the backward "
                "runs later, on this call's buffers)")
    scalars = set(program.scalars)
    for _, leaves, roots in program.kernels + program.replay.kernels:
        if roots.__class__ is int and any(a[0] == "value" and a[1] in scalars for a in leaves):
            return "a library call takes a per-call scalar (a graph would keep its first value)"
    return None


class GraphRunner:
    """Runs a :class:`~gtensor.compiler.compiled.Program`'s calls through one captured graph.

    Args:
        program: the signature's plan.
        refuse: called with the reason when the program must replay without a graph
            (it warns and drops this runner); the call that met it still completes.

    Example:
        >>> f = gt.compile(lambda a: a * 2 + 1, cuda_graphs=True)
        >>> x = gt.ones(2, device="cuda")
        >>> [f(x).tolist() for _ in range(3)]  # warm-up, capture, then a replay of the graph
        [[3.0, 3.0], [3.0, 3.0], [3.0, 3.0]]
        >>> (program,) = f._programs.values(); type(program.graph).__name__
        'GraphRunner'
    """

    def __init__(self, program: Program, refuse: Callable[[str], None]) -> None:
        self.program = program
        self.refuse = refuse
        dev = program.device
        self.stream = Stream(dev)  # non-blocking, as CuPy and PyTorch capture on
        self.graph: Any = None
        self.values: list[Any] | None = None  # the static buffers, once warmed up
        self.scalars: Any = None  # their scalar buffer's writer (StagedScalars)
        self.captures_left = RECAPTURES + 1
        self.fixed: list[tuple[Any, Any, int]] = []  # (tensor or (arg, is .grad), storage, offset)
        self.copied: list[list[Any]] = []  # [node, arg, grad, static, last arg, its version]
        self.kernels = [_on(k, self.stream) for k in program.kernels]
        self.stores = [_on(k, self.stream) for k in program.replay.kernels]
        # the plan's frees, but the scalar buffer stays: each call writes it
        self.drops = [tuple(i for i in d if i != program.size) for d in program.drops]
        self.new_graph = graph_type(runtime.is_simulated())
        self.started, self.done = Event(), Event()  # the caller's work, then the graph's
        allocator = allocator_for(dev)
        allocator.pin_stream(self.stream.handle)
        weakref.finalize(self, _unpin, allocator, self.stream)

    def run(self, tensors: list[TensorBase]) -> Any:
        """Run one call: warm up, capture, or launch the graph; return the function's result."""
        program = self.program
        if self.values is not None and not self._in_place(tensors):
            self.stream.synchronize()  # the graph's last launch is done with its buffers
            self.graph = self.values = None  # captured memory moved: warm up and capture again
        values = self.values
        if values is None:
            self.captures_left -= 1
            if self.captures_left < 0:
                self._refuse("a tensor it uses in its own memory (written in place, requiring "
                             "grad, or read from outside) is elsewhere at every call")
                return program.run(tensors)
        caller = current_stream(program.device)
        with stream(self.stream):
            self.stream.wait_event(caller.record_event(self.started))
            if values is None:
                values = self._warm_up(tensors)
            else:
                self._refill(values, tensors)
                if self.graph is None:
                    self._capture(values)
                if self.graph is not None:
                    self.graph.launch()
                else:  # the capture failed: this call runs the plan itself
                    self._step(values)
        caller.wait_event(self.stream.record_event(self.done))
        return self._finish(values, tensors)

    # -- stages ----------------------------------------------------------------------------
    def _warm_up(self, tensors: list[TensorBase]) -> list[Any]:
        """Run the plan once into buffers kept for the graph; check it can be captured."""
        program = self.program
        values = program.bind(tensors)
        self.fixed, self.copied = [], []
        for i, k, grad in program.inputs:
            if k >= len(tensors):
                continue
            t = values[i]
            if i in program.written or not grad and t.requires_grad or _broadcast(t):
                self.fixed.append(((k, grad), t._storage, t._offset))
            else:
                static = _static_like(t)
                _copy(static, t)
                self.copied.append([i, k, grad, static, t, t._storage.version])
                values[i] = static
        for _, t, _ in program.captures:
            self.fixed.append((t, t._storage, t._offset))
        program.replay.start(values)
        if program.scalars:
            values[program.size] = TensorBase.empty((len(program.scalars),), float64,
                                                    program.device)
            self.scalars = StagedScalars(values[program.size])
            self.scalars.write([values[i] for i in program.scalars])
        draws, moved = Generator.draws, transfers.counts()
        self._step(values)
        self.values = values
        if Generator.draws != draws:
            self._refuse("it draws random numbers (a graph would replay the captured seed and "
                         "offset)")
        elif transfers.counts() != moved:
            self._refuse("it copies between host and device (a host read such as .item())")
        return values

    def _refill(self, values: list[Any], tensors: list[TensorBase]) -> None:
        """Copy the call's inputs into the static buffers, write its scalars."""
        program = self.program
        for entry in self.copied:
            _, k, grad, static, last, version = entry
            t = tensors[k]._grad if grad else tensors[k]
            if t is not last or t._storage.version != version:
                _copy(static, t)
                entry[4], entry[5] = t, t._storage.version
        program.replay.start(values)  # the scalar nodes' values: plain numbers
        if program.scalars:
            self.scalars.write([values[i] for i in program.scalars])

    def _step(self, values: list[Any]) -> None:
        """Queue the plan's launches, writing into the static buffers (a buffer the plan lets
        go of goes back to the graph's stream, where only this graph allocates)."""
        n = len(self.kernels)
        self.program.launch(self.kernels, values, self.drops[:n], static=True)
        self.program.launch(self.stores, values, self.drops[n:], static=True)

    def _capture(self, values: list[Any]) -> None:
        """Capture the plan's launches into the graph (on failure the runner refuses, and
        this call runs the plan itself)."""
        for kernel in self.kernels + self.stores:
            if kernel[2].__class__ is int:  # a library call's result: made again by the capture
                values[kernel[2]] = None
        graph = self.new_graph(self.stream)
        try:
            graph.capture(lambda: self._step(values))
        except Exception as exc:  # any failure: replay without a graph
            self._refuse(f"its capture failed ({type(exc).__name__}: {exc})")
            return
        self.graph = graph

    def _finish(self, values: list[Any], tensors: list[TensorBase]) -> Any:
        """Assign ``.grad`` values, mark written tensors, return copies of the results."""
        program = self.program
        program.replay.finish(values, tensors)
        with no_grad():
            results = [values[i].clone() for i in program.outputs]
        return program.rebuild(results, tensors)

    def _in_place(self, tensors: list[TensorBase]) -> bool:
        """True when the tensors the graph uses in their own memory are still there."""
        for held, storage, offset in self.fixed:
            if held.__class__ is tuple:  # an argument, or its .grad
                held = tensors[held[0]]._grad if held[1] else tensors[held[0]]
            if held is None or held._storage is not storage or held._offset != offset:
                return False
        return True

    def _refuse(self, why: str) -> None:
        self.program.graph = None
        self.refuse(why)


def _unpin(allocator: Any, graph_stream: Stream) -> None:
    """Let the allocator release a dropped graph's memory, once its last launch is done."""
    if graph_stream.cupy is not None:
        graph_stream.cupy.synchronize()
    allocator.unpin_stream(graph_stream.handle)


def _on(kernel: Any, on: Stream) -> Any:
    """A bound kernel of the plan launched on stream ``on`` (a library call: as it is, it
    queues its work on the current stream)."""
    fn, leaves, roots = kernel
    if isinstance(fn, PlannedLaunch):
        return (fn.on(on.numba), leaves, roots)
    return kernel


def _copy(static: TensorBase, t: TensorBase) -> None:
    """Copy input ``t`` into its static buffer (on the current stream, never recorded)."""
    with no_grad():
        static.copy_(t)


def _broadcast(t: TensorBase) -> bool:
    """True when ``t`` reads one element at several indices (a static copy could not)."""
    return any(s == 0 and n > 1 for s, n in zip(t._strides, t._shape, strict=True))


def _static_like(t: TensorBase) -> TensorBase:
    """A new tensor of ``t``'s shape, strides and dtype, on the current stream."""
    dev = t._storage.device
    if t._strides == contiguous_strides(t._shape) or 0 in t._shape:
        return TensorBase.empty(t._shape, t._dtype, dev)
    lo, hi = span(t._shape, t._strides)
    flat = TensorBase.empty((hi - lo + 1,), t._dtype, dev)
    return flat._make_view(t._shape, t._strides, -lo)
