"""Fused CPU kernels for a trace: one loop per reduction, one per group of same-shape outputs.

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

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit, prange

from ..dtypes import bool_, dtype, float16
from ..errors import Untraceable
from ..kernels.common.scalar_binary import BINARY
from ..kernels.common.scalar_unary import UNARY
from ..ops.tracing import Trace, TraceNode
from ..tensor_base import contiguous_strides

PARALLEL_MIN = 1 << 15  # elements (map) or outputs x length (reduce) from which loops run parallel
_JIT = {"cache": True, "error_model": "numpy", "nogil": True}
_scalar_fns: dict[Any, Callable] = {}


@dataclass
class Kernel:
    """One generated loop: reads ``leaves`` (node indices), writes ``roots``."""

    fn: Callable[..., None]
    leaves: list[int]
    roots: list[int]
    source: str


def leaf_strides(node: TraceNode) -> tuple[int, ...]:
    """The element strides a materialized node is read with (reductions: contiguous)."""
    return node.strides if node.kind in ("input", "capture") else contiguous_strides(node.shape)


def plan(trace: Trace, outputs: list[int]) -> list[Kernel]:
    """Return the kernels computing every reduction of ``trace`` and its ``outputs``, in order.

    Example:
        >>> plan(trace, [3])  # doctest: +SKIP
    """
    for node in trace.nodes:
        if node.dtype is float16 or node.compute is float16:
            raise Untraceable("[compile] float16 is not fused yet")
    kernels = [_reduction(trace, i) for i, n in enumerate(trace.nodes) if n.kind == "reduce"]
    groups: dict[tuple[int, ...], list[int]] = {}
    for i in dict.fromkeys(outputs):
        if trace.nodes[i].kind == "elementwise":
            groups.setdefault(trace.nodes[i].shape, []).append(i)
    kernels += [_map(trace, roots, shape) for shape, roots in groups.items()]
    return kernels


class _Body:
    """Source lines computing elementwise nodes from loaded leaves, each node once."""

    def __init__(self, trace: Trace) -> None:
        self.trace = trace
        self.lines: list[str] = []
        self.views: list[str] = []  # lines before the loops
        self.names: dict[int, str] = {}
        self.leaves: list[int] = []
        self.namespace: dict[str, Any] = {"np": np, "prange": prange}

    def value(self, i: int, index: Callable[[int], str]) -> str:
        """Return the name holding node ``i`` at the current point (emitting its lines)."""
        if i in self.names:
            return self.names[i]
        node = self.trace.nodes[i]
        if node.kind != "elementwise":
            if i not in self.leaves:
                self.leaves.append(i)
            k = self.leaves.index(i)
            name = self.names[i] = f"x{k}"
            at = index(i)
            if min(leaf_strides(node), default=0) >= 0:  # indices from 0: no wraparound test
                self.views.append(f"v{k} = b{k}[o{k}:]")
                self.lines.append(f"{name} = v{k}[{_unsigned(at[3:])}]")
            else:
                self.lines.append(f"{name} = b{k}[o{k}{at}]")
            return name
        compute = _np_type(node.compute)
        args = []
        for a in node.args:
            if isinstance(a, tuple):
                args.append(f"{compute}({a[1]!r})")
            else:
                args.append(f"{compute}({self.value(a, index)})")
        fn = f"f{i}"
        self.namespace[fn] = scalar_fn(node.op, node.compute, len(args))
        name = self.names[i] = f"t{i}"
        self.lines.append(f"{name} = {_np_type(node.dtype)}({fn}({', '.join(args)}))")
        return name


def _map(trace: Trace, roots: list[int], shape: tuple[int, ...]) -> Kernel:
    body = _Body(trace)
    dims = [d for d, n in enumerate(shape) if n != 1]
    out_strides = contiguous_strides(shape)
    loop = [f"i{d}" for d in dims]

    def index(i: int) -> str:
        strides = _broadcast(leaf_strides(trace.nodes[i]), trace.nodes[i].shape, shape)
        return "".join(f" + i{d} * {strides[d]}" for d in dims if strides[d])

    for r in roots:
        body.value(r, index)
    at = _unsigned(" + ".join(f"i{d} * {out_strides[d]}" for d in dims))
    stores = [f"w{j}[{at}] = {body.names[r]}" for j, r in enumerate(roots)]
    body.views += [f"w{j} = out{j}[oo{j}:]" for j in range(len(roots))]
    count = int(np.prod(shape)) if shape else 1
    header = _params(len(body.leaves), len(roots))
    lines = body.views + _nest([(v, shape[d]) for v, d in zip(loop, dims, strict=True)],
                               body.lines + stores, count >= PARALLEL_MIN)
    return _compile("map", header, lines, body, roots, count >= PARALLEL_MIN)


def _reduction(trace: Trace, r: int) -> Kernel:
    node = trace.nodes[r]
    x = node.args[0]
    full = trace.nodes[x].shape
    body = _Body(trace)
    kept = [d for d, n in enumerate(full) if d not in node.dims and n != 1]
    reduced = [d for d, n in enumerate(full) if d in node.dims and n != 1]

    def index(i: int) -> str:
        strides = _broadcast(leaf_strides(trace.nodes[i]), trace.nodes[i].shape, full)
        return "".join(f" + i{d} * {strides[d]}" for d in kept + reduced if strides[d])

    value = body.value(x, index)
    kept_shape = tuple(full[d] for d in kept)
    out_strides = contiguous_strides(kept_shape)
    store = _unsigned(" + ".join(f"i{d} * {s}" for d, s in zip(kept, out_strides, strict=True)))
    count = int(np.prod([full[d] for d in node.dims])) if node.dims else 1
    acc_type, init, update = _accumulate(node, value)
    result = f"acc / {count}" if node.op == "mean" else "acc"
    outputs = int(np.prod(kept_shape)) if kept_shape else 1
    total = outputs * count
    inner = _nest([(f"i{d}", full[d]) for d in reduced], body.lines + update,
                  parallel=not kept and total >= PARALLEL_MIN and node.op in ("sum", "mean"))
    per_output = [f"acc = {acc_type}({init})", *inner,
                  f"w0[{store}] = {_np_type(node.dtype)}({result})"]
    lines = body.views + ["w0 = out0[oo0:]"] + _nest(
        [(f"i{d}", full[d]) for d in kept], per_output,
        parallel=bool(kept) and total >= PARALLEL_MIN)
    return _compile("reduce", _params(len(body.leaves), 1), lines, body, [r],
                    total >= PARALLEL_MIN)


def _accumulate(node: TraceNode, value: str) -> tuple[str, str, list[str]]:
    """The accumulator's type and start, and the lines folding ``value`` into ``acc``."""
    compute = node.compute
    assert compute is not None
    if node.op in ("sum", "mean"):
        acc = "np.float64" if compute.category == 2 else "np.int64"
        return acc, "0", [f"acc += {acc}({value})"]
    if compute is bool_:
        raise Untraceable(f"[compile] {node.op} of bool tensors is not fused yet")
    start = "-np.inf" if node.op == "amax" else "np.inf"
    if compute.category < 2:
        info = np.iinfo(compute.numpy)
        start = str(info.min if node.op == "amax" else info.max)
    better = ">" if node.op == "amax" else "<"
    nan = f" or {value} != {value}" if compute.category == 2 else ""
    return _np_type(compute), start, [f"if {value} {better} acc{nan}:", f"    acc = {value}"]


def _unsigned(index: str) -> str:
    """An index known to be >= 0, typed so that Numba skips its negative-index test.

    That test (``a[i]`` wraps a negative ``i`` around) keeps LLVM from
    vectorizing a loop unless the index is a bare loop variable.
    """
    if not index:
        return "0"
    if index.endswith(" * 1") and " + " not in index:
        return index[:-4]
    return f"np.uint64({index})"


def _broadcast(strides: tuple[int, ...], shape: tuple[int, ...],
               to: tuple[int, ...]) -> tuple[int, ...]:
    """Strides reading a ``shape`` operand at every index of ``to`` (0 where broadcast)."""
    lead = len(to) - len(shape)
    return (0,) * lead + tuple(0 if n == 1 and m != 1 else s
                               for s, n, m in zip(strides, shape, to[lead:], strict=True))


def _params(leaves: int, outputs: int) -> str:
    return ", ".join([f"b{k}, o{k}" for k in range(leaves)] +
                     [f"out{j}, oo{j}" for j in range(outputs)])


def _nest(loops: list[tuple[str, int]], inner: list[str], parallel: bool) -> list[str]:
    lines = list(inner)
    for depth, (var, n) in reversed(list(enumerate(loops))):
        rng = "prange" if parallel and depth == 0 else "range"
        lines = [f"for {var} in {rng}({n}):"] + ["    " + line for line in lines]
    return lines


def _compile(kind: str, params: str, lines: list[str], body: _Body, roots: list[int],
             parallel: bool) -> Kernel:
    text = "\n".join("    " + line for line in lines)
    digest = hashlib.sha1(f"{params}\n{text}\n{sorted(body.namespace)}".encode()).hexdigest()
    name = f"gtensor_fused_{kind}_{digest[:16]}"
    source = f"def {name}({params}):\n{text}\n"
    namespace = {"__name__": __name__, **body.namespace}
    exec(compile(source, __file__, "exec"), namespace)  # noqa: S102 - generated kernel source
    fn = njit(parallel=parallel, **_JIT)(namespace[name])
    return Kernel(fn, body.leaves, roots, source)


def scalar_fn(op: str, compute: dtype, arity: int) -> Callable:
    """The compiled scalar body of elementwise ``op`` for ``compute`` inputs.

    Example:
        >>> from gtensor import float32
        >>> scalar_fn("add", float32, 2)(1.0, 2.0)
        3.0
    """
    table = UNARY if arity == 1 else BINARY if arity == 2 else {}
    for fn, dtypes, _ in table.get(op, ()):
        if compute.name in dtypes:
            jitted = _scalar_fns.get(fn)
            if jitted is None:
                jitted = _scalar_fns[fn] = njit(**_JIT)(fn)
            return jitted
    raise Untraceable(f"[compile] {op} on {compute.name} is not fused yet")


def _np_type(dt: dtype) -> str:
    return f"np.{dt.numpy.name}" if dt is not bool_ else "np.bool_"
