"""Fused kernels for a trace: one loop per reduction, one per group of same-shape outputs.

Only inputs, captured tensors and reduction results live in memory. Every
elementwise value is recomputed, in registers, inside each loop that needs it,
so a chain such as ``(a * b + c).relu()`` reads its three inputs and writes its
output once, where eager execution writes and reads back two temporaries.
Each loop is generated as Python source for its exact shapes, strides and
dtypes, compiled with ``numba.njit`` (parallel above ``PARALLEL_MIN``
elements) and cached on disk under a name that hashes its source.

Values are computed as the eager ops compute them: each op's scalar body from
the kernel tables, its operands converted to its computation dtype and its
result to its own dtype; float32 sums accumulate in float64, complex64 ones in
complex128. Complex values are Numba's complex types (``.real``/``.imag`` read as
elementwise ops); fft and matmul are library calls between the fused loops.
"""

from __future__ import annotations

from collections.abc import Callable

from ..ops.tracing import Trace
from .codegen import Kernel
from .fusion_cpu import cpu_map, cpu_reduction


def plan(trace: Trace, outputs: list[int], start: int = 0, stop: int | None = None
         ) -> list[Kernel]:
    """Return the kernels computing ``outputs`` and the reductions and values in memory that
    nodes ``start:stop`` of ``trace`` hold, in order (values before ``start`` are in memory).

    Example:
        >>> from gtensor.trace_state import state
        >>> trace = Trace(gt.device("cpu")); x = trace.input(gt.ones(3), 0)
        >>> state.trace = trace; y = (x * 2 + 1).relu().sum(); state.trace = None
        >>> [(k.leaves, k.roots) for k in plan(trace, [4])]  # one loop: reads x, writes the sum
        [([0], [4])]
    """
    reduction, fused_map = _generators(trace)
    stop = len(trace.nodes) if stop is None else stop
    bound_recomputation(trace, start, stop)
    kernels = []
    for i in range(start, stop):
        node = trace.nodes[i]  # in trace order: producers before readers
        if node.kind == "reduce":
            kernels.append(reduction(trace, i))
        elif node.kind == "external":
            kernels.append(Kernel(node.fn, list(node.args), [i], ""))
        elif node.kind == "elementwise" and node.materialize:
            kernels.append(fused_map(trace, [i], node.shape))
    groups: dict[tuple[int, ...], list[int]] = {}
    for i in dict.fromkeys(outputs):
        node = trace.nodes[i]
        if node.kind == "elementwise" and not node.materialize:
            groups.setdefault(node.shape, []).append(i)
    kernels += [fused_map(trace, roots, shape) for shape, roots in groups.items()]
    return kernels


RECOMPUTE_LIMIT = 32
"""Most elementwise ops a loop computes per element for one value it reads from registers."""


def bound_recomputation(trace: Trace, start: int, stop: int) -> None:
    """Put in memory each elementwise value whose recomputation would pass the limit.

    A loop recomputes every value it reads that is not in memory, back to
    the values that are. A chain running through many steps (an RNN's cell
    state: each step's state is the previous one's, updated elementwise) would
    be recomputed from its start by every loop that reads one of its steps,
    which costs the square of its length. Counting each value's ops down to
    memory (as a tree: an upper bound) and keeping the value in memory once
    it passes :data:`RECOMPUTE_LIMIT` bounds every loop's work per element.

    Example:
        >>> from gtensor.trace_state import state
        >>> trace = Trace(gt.device("cpu")); x = trace.input(gt.ones(3), 0)
        >>> state.trace = trace
        >>> for _ in range(40): x = x + 1
        >>> state.trace = None; bound_recomputation(trace, 0, len(trace.nodes))
        >>> [i for i, node in enumerate(trace.nodes) if node.materialize]
        [33]
    """
    nodes = trace.nodes
    cost: dict[int, int] = {}  # ops recomputed per element to get node i into registers
    for i in range(stop):  # values before start were planned already: counted, kept as they are
        node = nodes[i]
        if node.kind == "broadcast":
            cost[i] = cost.get(node.args[0], 0)
        elif node.kind == "elementwise" and not node.materialize:
            total = 1 + sum(cost.get(a, 0) for a in node.args if isinstance(a, int))
            if total > RECOMPUTE_LIMIT and i >= start:
                node.materialize = True  # its own loop writes it; readers load it
                total = 0
            cost[i] = total


def plan_stores(trace: Trace, stores: list[tuple[int, int]]) -> list[Kernel]:
    """One loop per target shape, writing each ``(target, value)`` into the target's memory."""
    fused_map = _generators(trace)[1]
    groups: dict[tuple[int, ...], list[tuple[int, int]]] = {}
    for target, value in stores:
        groups.setdefault(trace.nodes[target].shape, []).append((target, value))
    return [fused_map(trace, [v for _, v in group], shape, [t for t, _ in group])
            for shape, group in groups.items()]


def _generators(trace: Trace) -> tuple[Callable[..., Kernel], Callable[..., Kernel]]:
    """The reduction and map generators of the trace's device."""
    if trace.device.type == "cpu":
        return cpu_reduction, cpu_map
    # numba.cuda is an optional dependency: loaded for the first cuda trace only
    from .fusion_cuda import cuda_map, cuda_reduction

    return cuda_reduction, cuda_map
