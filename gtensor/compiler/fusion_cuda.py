"""Fused CUDA kernels: a grid-stride loop per group of outputs, a block per reduction output.

- **map**: one thread per output element in a grid-stride loop over the
  output (contiguous), the grid from ``_launch.grid`` (at most a few waves of
  resident blocks); each element's index is unravelled once over the
  non-broadcast dims, and each leaf is read at its own strides.
- **reduce**: one block of ``THREADS`` threads per output (grid-stride over
  outputs); each thread folds a strided share of the reduced elements, then a
  shared-memory tree merges the block's partials in a fixed order, so results
  are deterministic. float32 sums accumulate in float64 (complex64 ones in
  complex128), as on the cpu.

A call's per-call scalars (an optimizer's learning rate) are read from a
small device buffer (:mod:`gtensor.compiler.staging`), not passed as
arguments, so a captured CUDA graph sees each call's values.

Kernels are launched through ``_launch.PlannedLaunch`` (grid, block and stream
fixed once, no per-call type dispatch).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import cuda

from ..dtypes import dtype
from ..kernels.cuda import half as half_bits
from ..kernels.cuda._launch import PlannedLaunch
from ..kernels.simulator import SIMULATED
from ..ops.dispatch import current_stream_of
from ..ops.tracing import Trace
from ..tensor_base import contiguous_strides
from .codegen import (
    Body,
    Kernel,
    accumulate,
    indexer,
    kernel_name,
    np_type,
    params,
    reduction_body,
    root_strides,
    scalar_body,
    stored,
)

THREADS = 4 if SIMULATED else 256  # threads per block of a reduction (a power of two)
_MAX_BLOCKS = 65535
_device_fns: dict[Any, Callable] = {}


def cuda_map(trace: Trace, roots: list[int], shape: tuple[int, ...],
             dests: list[int | None] | None = None) -> Kernel:
    """Return the kernel writing the elementwise ``roots`` (all of ``shape``).

    Each root goes into a new contiguous buffer, or into the memory of node
    ``dests[j]`` (a tensor the trace writes in place), at its strides.
    """
    body = Body(trace, device_fn, roots, half_bits, scalars_in_memory=True)
    dims = [d for d, n in enumerate(shape) if n != 1]
    index = indexer(trace, shape, dims)
    for r in roots:
        body.value(r, index)
    count = int(np.prod(shape)) if shape else 1
    lines = body.views + [f"w{j} = out{j}[oo{j}:]" for j in range(len(roots))]
    lines += [f"for j in range(cuda.grid(1), {count}, cuda.gridsize(1)):"]
    inner = _unravel("j", [(d, shape[d]) for d in dims])
    inner += body.lines
    contiguous = contiguous_strides(shape)
    for j, (r, strides) in enumerate(zip(roots, root_strides(trace, roots, dests),
                                         strict=True)):
        at = "j" if strides == contiguous else " + ".join(
            [f"i{d} * {strides[d]}" for d in dims if strides[d]] or ["0"])
        inner.append(f"w{j}[{at}] = {stored(trace.nodes[r].dtype, body.names[r])}")
    lines += ["    " + line for line in inner]
    kernel = _compile("cuda_map", params(len(body.leaves), len(roots)), lines, body, roots,
                      count, None, trace)
    kernel.dests = dests
    return kernel


def cuda_reduction(trace: Trace, r: int) -> Kernel:
    """Return the kernel computing reduction node ``r`` (its input chain fused in)."""
    node, full, body, kept, reduced, value = reduction_body(
        trace, r, device_fn, half_bits, scalars_in_memory=True)
    acc_type, init, update = accumulate(node, value)
    outputs = int(np.prod([full[d] for d in kept])) if kept else 1
    count = int(np.prod([full[d] for d in reduced])) if reduced else 1
    merge = [line.replace(value, "other") for line in update]
    if node.op in ("sum", "mean"):
        merge = ["acc += other"]
    result = f"part[0] / {count}" if node.op == "mean" else "part[0]"
    lines = body.views + ["w0 = out0[oo0:]",
                          f"part = cuda.shared.array({THREADS}, {acc_type})",
                          "tid = cuda.threadIdx.x",
                          f"for o in range(cuda.blockIdx.x, {outputs}, cuda.gridDim.x):"]
    per_output = _unravel("o", [(d, full[d]) for d in kept])
    per_output += [f"acc = {acc_type}({init})", f"for q in range(tid, {count}, {THREADS}):"]
    per_output += ["    " + line for line in _unravel("q", [(d, full[d]) for d in reduced])
                   + body.lines + update]
    per_output += ["part[tid] = acc", "cuda.syncthreads()", f"s = {THREADS // 2}",
                   "while s > 0:", "    if tid < s:", "        acc = part[tid]",
                   "        other = part[tid + s]"]
    per_output += ["        " + line for line in merge]
    per_output += ["        part[tid] = acc", "    cuda.syncthreads()", "    s //= 2",
                   "if tid == 0:",
                   f"    w0[o] = {stored(node.dtype, f'{np_type(node.dtype)}({result})')}",
                   "cuda.syncthreads()"]
    lines += ["    " + line for line in per_output]
    return _compile("cuda_reduce", params(len(body.leaves), 1), lines, body, [r],
                    outputs * THREADS, min(outputs, _MAX_BLOCKS), trace)


def _unravel(flat: str, dims: list[tuple[int, int]]) -> list[str]:
    """Lines setting ``i{d}`` for each ``(d, size)`` from the row-major index ``flat``."""
    lines = []
    inner = 1
    for d, n in reversed(dims):
        step = f"{flat} // {inner}" if inner != 1 else flat
        lines.append(f"i{d} = {step} % {n}")
        inner *= n
    return lines


def _compile(kind: str, signature: str, lines: list[str], body: Body, roots: list[int],
             work: int, blocks: int | None, trace: Trace) -> Kernel:
    name = kernel_name(kind, signature, lines, body.namespace)
    text = "\n".join("    " + line for line in lines)
    source = f"def {name}({signature}):\n{text}\n"
    namespace = {"__name__": __name__, "cuda": cuda, **body.namespace}
    exec(compile(source, __file__, "exec"), namespace)  # noqa: S102 - generated kernel source
    kernel = cuda.jit(namespace[name])
    stream = current_stream_of(trace.device)  # the signature holds the stream's handle
    launch = PlannedLaunch(kernel, work, stream.numba, blocks, THREADS if blocks else None)
    return Kernel(launch, body.leaves, roots, source)


def device_fn(op: str, compute: dtype, arity: int) -> Callable:
    """The CUDA device function of elementwise ``op``'s scalar body for ``compute`` inputs."""
    fn = scalar_body(op, compute, arity)
    compiled = _device_fns.get(fn)
    if compiled is None:
        compiled = _device_fns[fn] = cuda.jit(device=True)(fn)
    return compiled

