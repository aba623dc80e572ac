"""Gradients through a compiled function: the backward pass traced and fused like the forward.

When a traced call has outputs that require grad, the ops on symbolic tensors
have recorded the usual autograd graph (the hooks replace kernel launches
only). The autograd engine then runs that graph backward on symbolic
gradients, inside the same trace, so every VJP (written with gtensor ops) is
recorded as well. The backward values get their own fused kernels: they read
the incoming gradients, the arguments and captured tensors, and the forward's
reductions, and recompute forward elementwise values in registers instead of
saving them. A call then records one autograd node whose VJP runs those
kernels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..autograd.engine import run_backward
from ..graph.node import edge_of, make_node
from ..ops import tracing
from ..tensor_base import contiguous_strides


@dataclass
class Backward:
    """What a compiled call needs to give its outputs a gradient.

    ``outputs``: positions (among the traced results) of the differentiable
    outputs; ``grad_slots``: the trace nodes their incoming gradients fill;
    ``wrt``: the trace nodes of the tensors differentiated against (arguments
    and captured tensors that require grad); ``grads``: the node holding each
    one's gradient, or None where none reaches it; ``reads``: the arguments and
    captured tensors the backward kernels read (narrowed once they are planned),
    checked for in-place changes before the backward reads them; ``kernels`` is
    filled by the caller once the trace is planned.
    """

    outputs: list[int]
    grad_slots: list[int]
    wrt: list[int]
    grads: list[int | None]
    reads: list[int]
    start: int
    kernels: list[Any]


def trace_backward(trace: tracing.Trace, results: list[int]) -> Backward | None:
    """Trace the backward pass of ``trace``'s ``results`` (None when none requires grad)."""
    symbols = trace.symbols
    diff = [p for p, i in enumerate(results) if symbols[i].grad_fn is not None]
    if not diff:
        return None
    wrt = [i for i, n in enumerate(trace.nodes) if n.kind in ("input", "capture")
           and symbols[i].requires_grad]
    start = len(trace.nodes)
    arguments = sum(1 for n in trace.nodes if n.kind == "input" and not n.grad_of)
    grad_inputs = [trace.input(symbols[results[p]], arguments + j) for j, p in enumerate(diff)]
    tracing.state.trace = trace
    try:
        got = run_backward([symbols[results[p]] for p in diff], grad_inputs, retain_graph=True,
                           create_graph=False, capture=[edge_of(symbols[i]) for i in wrt],
                           accumulate=False)
        # a forward library call's result is copied: this call's buffers are not kept for it
        grads = [None if g is None else trace.computed(trace.node_of(g), ("elementwise", "reduce"))
                 for g in got]
    finally:
        tracing.state.trace = None
    slots = [trace.node_of(g) for g in grad_inputs]
    reads = [i for i, n in enumerate(trace.nodes[:start]) if n.kind in ("input", "capture")]
    return Backward(diff, slots, wrt, grads, reads, start, [])


def attach(backward: Backward, values: list[Any], results: list[Any],
           run: Any) -> None:
    """Record one autograd node from the tensors differentiated against to the results.

    Args:
        backward: the traced backward pass.
        values: the call's value of every trace node (forward nodes filled).
        results: the call's traced results.
        run: ``run(kernels, values)``, which fills ``values`` by running kernels.
    """
    inputs = [values[i] for i in backward.wrt]
    read = [values[i] for i in backward.reads]
    versions = [t._storage.version for t in read]

    def vjp(ctx: Any, *grads: Any) -> tuple[Any, ...]:
        for t, version in zip(read, versions, strict=True):
            if t._storage.version != version:
                raise RuntimeError(
                    "[backward] one of the variables needed for gradient computation has been "
                    "modified by an inplace operation: a compiled function's input of shape "
                    f"{t.shape} changed after the call")
        filled = list(values)
        for slot, g in zip(backward.grad_slots, grads, strict=True):
            if g._strides != contiguous_strides(g._shape):  # the kernels read it contiguous
                g = g.contiguous()
            filled[slot] = g
        run(backward.kernels, filled)
        return tuple(None if i is None else filled[i] for i in backward.grads)

    make_node("compiled", [results[p] for p in backward.outputs], inputs, vjp, (), None)
