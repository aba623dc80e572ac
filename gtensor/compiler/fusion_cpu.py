"""Fused CPU loops: ``numba.njit`` source per kernel, parallel above ``PARALLEL_MIN`` elements.

Indices are typed unsigned (:func:`~gtensor.compiler.codegen.unsigned`) so that
LLVM vectorizes the innermost loop; kernels are cached on disk under a name
that hashes their source.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit, prange

from ..dtypes import dtype
from ..kernels.cpu import half as half_bits
from ..kernels.cpu._call import PlannedCall
from ..ops.launch_plans import unary_same_dtype
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
    unsigned,
)

PARALLEL_MIN = 1 << 15  # elements (map) or outputs x length (reduce) from which loops run parallel
_JIT = {"cache": True, "error_model": "numpy", "nogil": True}
_scalar_fns: dict[Any, Callable] = {}


def cpu_map(trace: Trace, roots: list[int], shape: tuple[int, ...],
            dests: list[int | None] | None = None) -> Kernel:
    """Return the loop nest writing the elementwise ``roots`` (all of ``shape``).

    Each root goes into a new contiguous buffer, or into the memory of node
    ``dests[j]`` (a tensor the trace writes in place), at its strides.
    """
    body = Body(trace, scalar_fn, roots, half_bits)
    dims = [d for d, n in enumerate(shape) if n != 1]
    loop = [f"i{d}" for d in dims]
    index = indexer(trace, shape, dims)
    for r in roots:
        body.value(r, index)
    stores = []
    for j, (r, strides) in enumerate(zip(roots, root_strides(trace, roots, dests),
                                         strict=True)):
        at = unsigned(" + ".join(f"i{d} * {strides[d]}" for d in dims if strides[d]))
        stores.append(f"w{j}[{at}] = {stored(trace.nodes[r].dtype, body.names[r])}")
    body.views += [f"w{j} = out{j}[oo{j}:]" for j in range(len(roots))]
    count = int(np.prod(shape)) if shape else 1
    header = params(len(body.leaves), len(roots))
    lines = body.views + _nest([(v, shape[d]) for v, d in zip(loop, dims, strict=True)],
                               body.lines + stores, count >= PARALLEL_MIN)
    kernel = _compile("map", header, lines, body, roots, count >= PARALLEL_MIN)
    kernel.dests = dests
    return kernel


def cpu_reduction(trace: Trace, r: int) -> Kernel:
    """Return the loop nest computing reduction node ``r``: kept dims outside, reduced inside."""
    node, full, body, kept, reduced, value = reduction_body(trace, r, scalar_fn, half_bits)
    kept_shape = tuple(full[d] for d in kept)
    out_strides = contiguous_strides(kept_shape)
    store = unsigned(" + ".join(f"i{d} * {s}" for d, s in zip(kept, out_strides, strict=True)))
    count = int(np.prod([full[d] for d in node.dims])) if node.dims else 1
    acc_type, init, update = accumulate(node, value)
    result = f"acc / {count}" if node.op == "mean" else "acc"
    outputs = int(np.prod(kept_shape)) if kept_shape else 1
    total = outputs * count
    inner = _nest([(f"i{d}", full[d]) for d in reduced], body.lines + update,
                  parallel=not kept and total >= PARALLEL_MIN and node.op in ("sum", "mean"))
    per_output = [f"acc = {acc_type}({init})", *inner,
                  f"w0[{store}] = {stored(node.dtype, f'{np_type(node.dtype)}({result})')}"]
    lines = body.views + ["w0 = out0[oo0:]"] + _nest(
        [(f"i{d}", full[d]) for d in kept], per_output,
        parallel=bool(kept) and total >= PARALLEL_MIN)
    return _compile("reduce", params(len(body.leaves), 1), lines, body, [r],
                    total >= PARALLEL_MIN)


def _nest(loops: list[tuple[str, int]], inner: list[str], parallel: bool) -> list[str]:
    """``inner`` inside one loop per ``(variable, count)``, the outermost a ``prange``."""
    lines = list(inner)
    for depth, (var, n) in reversed(list(enumerate(loops))):
        rng = "prange" if parallel and depth == 0 else "range"
        lines = [f"for {var} in {rng}({n}):"] + ["    " + line for line in lines]
    return lines


def _compile(kind: str, params: str, lines: list[str], body: Body, roots: list[int],
             parallel: bool) -> Kernel:
    name = kernel_name(kind, params, lines, body.namespace)
    text = "\n".join("    " + line for line in lines)
    source = f"def {name}({params}):\n{text}\n"
    namespace = {"__name__": __name__, "prange": prange, **body.namespace}
    exec(compile(source, __file__, "exec"), namespace)  # noqa: S102 - generated kernel source
    fn = njit(parallel=parallel, **_JIT)(namespace[name])
    return Kernel(PlannedCall(fn), body.leaves, roots, source)


def scalar_fn(op: str, compute: dtype, arity: int) -> Callable:
    """The compiled scalar body of elementwise ``op`` for ``compute`` inputs.

    Example:
        >>> from gtensor import float32
        >>> scalar_fn("add", float32, 2)(1.0, 2.0)
        3.0
    """
    fn = scalar_body(op, compute, arity)
    jitted = _scalar_fns.get(fn)
    if jitted is None:
        jitted = _scalar_fns[fn] = njit(**_JIT)(fn)
    return jitted


# Ops whose scalar body is a libm call per element in a Numba loop, where NumPy's own loop is
# vectorized (SIMD): on large tensors they run as NumPy's loop between fused loops.
NUMPY_SIMD = ("exp", "exp2", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan",
              "asin", "acos", "atan", "sinh", "cosh", "tanh")


def use_numpy_loops(trace: Trace) -> None:
    """Turn large transcendental elementwise nodes of a cpu ``trace`` into library calls.

    A fused loop calling ``tanh`` per element (a libm call; Numba's pip build has no SVML)
    runs slower than NumPy's SIMD loop, even counting the extra pass through memory.
    """
    for node in trace.nodes:
        count = int(np.prod(node.shape)) if node.shape else 1
        if node.kind == "elementwise" and node.op in NUMPY_SIMD and count >= PARALLEL_MIN:
            node.kind, node.fn = "external", functools.partial(unary_same_dtype, node.op)
            for a in node.args:
                if not isinstance(a, tuple) and trace.nodes[a].kind == "elementwise":
                    trace.nodes[a].materialize = True
