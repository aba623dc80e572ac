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
result to its own dtype; float32 sums accumulate in float64.
"""

from __future__ import annotations

from collections.abc import Callable

from ..dtypes import float16
from ..errors import Untraceable
from ..ops.tracing import Trace
from .codegen import Kernel
from .fusion_cpu import cpu_map, cpu_reduction


def plan(trace: Trace, outputs: list[int], start: int = 0, stop: int | None = None
         ) -> list[Kernel]:
    """Return the kernels computing ``outputs`` and the reductions and values in memory that
    nodes ``start:stop`` of ``trace`` hold, in order (values before ``start`` are in memory).

    Example:
        >>> plan(trace, [3])  # doctest: +SKIP
    """
    for node in trace.nodes:
        if node.dtype is float16 or node.compute is float16:
            raise Untraceable("[compile] float16 is not fused yet")
    reduction, fused_map = _generators(trace)
    kernels = []
    for i in range(start, len(trace.nodes) if stop is None else stop):
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
