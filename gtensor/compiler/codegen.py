"""The pieces every fused-kernel generator shares: loading leaves, computing nodes, reducing.

A generator (``fusion_cpu``, ``fusion_cuda``) writes Python source for one
loop; :class:`Body` emits the lines that compute elementwise nodes from the
loaded leaves (each node once, its operands converted to its computation dtype
and its result to its own dtype, as the eager ops do). Half types live in
float32 registers: loads widen their bits, each half result is rounded to the
half type's precision (as an eager op stores it) and stores write the bits.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..dtypes import bool_, dtype
from ..errors import Untraceable
from ..kernels.common.scalar_binary import BINARY, TERNARY, TERNARY_SCALAR
from ..kernels.common.scalar_complex import COMPLEX_BINARY, COMPLEX_UNARY
from ..kernels.common.scalar_unary import UNARY
from ..ops.tracing import Trace, TraceNode
from ..tensor_base import contiguous_strides


@dataclass
class Kernel:
    """One generated loop, ready to call: reads ``leaves`` (node indices), writes ``roots``.

    ``fn`` takes each leaf's flat buffer and element offset, then each root's.
    """

    fn: Callable[..., None]
    leaves: list[int]
    roots: list[int]
    source: str
    dests: list[int | None] | None = None  # per root: the node whose memory it is written into


def leaf_strides(node: TraceNode) -> tuple[int, ...]:
    """The element strides a materialized node is read with (reductions: contiguous)."""
    if node.kind in ("input", "capture", "view"):
        return node.strides
    return contiguous_strides(node.shape)


class Body:
    """Source lines computing elementwise nodes from loaded leaves, each node once."""

    def __init__(self, trace: Trace, scalar: Callable[[str, dtype, int], Callable],
                 roots: list[int] | None = None, bits: Any = None,
                 scalars_in_memory: bool = False) -> None:
        self.trace = trace
        self.scalars_in_memory = scalars_in_memory  # per-call scalars read from a buffer
        self.scalar = scalar
        self.roots = roots or []  # computed here even when another loop reads them from memory
        self.lines: list[str] = []
        self.views: list[str] = []  # lines before the loops
        self.names: dict[int, str] = {}
        self.leaves: list[int] = []
        self.namespace: dict[str, Any] = {"np": np}
        if bits is not None:  # the backend's half-precision loads and stores
            self.namespace.update({
                "ld_float16": bits.load_f16, "st_float16": bits.store_f16,
                "ld_bfloat16": bits.load_bf16, "st_bfloat16": bits.store_bf16})

    def value(self, i: int, index: Callable[[int], str]) -> str:
        """Return the name holding node ``i`` at the current point (emitting its lines)."""
        if i in self.names:
            return self.names[i]
        node = self.trace.nodes[i]
        if node.kind == "broadcast":  # the loop's indices already broadcast every leaf
            name = self.names[i] = self.value(node.args[0], index)
            return name
        if node.kind != "elementwise" or node.materialize and i not in self.roots:
            if i not in self.leaves:
                self.leaves.append(i)
            k = self.leaves.index(i)
            name = self.names[i] = f"x{k}"
            if node.kind == "scalar":  # a number passed as the leaf's buffer argument, or in it
                number = f"b{k}[o{k}]" if self.scalars_in_memory else f"b{k}"
                self.views.append(f"{name} = {np_type(node.dtype)}({number})")
                return name
            at = index(i)
            if min(leaf_strides(node), default=0) >= 0:  # indices from 0: no wraparound test
                self.views.append(f"v{k} = b{k}[o{k}:]")
                load = f"v{k}[{unsigned(at[3:])}]"
            else:
                load = f"b{k}[o{k}{at}]"
            if node.dtype.is_half:
                load = f"ld_{node.dtype.name}({load})"
            self.lines.append(f"{name} = {load}")
            return name
        compute = np_type(node.compute)
        args = []
        for k, a in enumerate(node.args):
            value = _literal(a[1]) if isinstance(a, tuple) else self.value(a, index)
            keep = node.op == "cast" or (node.op == "where" and k == 0)  # no computation dtype
            args.append(value if keep else f"{compute}({value})")
        if node.op == "cast":
            expr = _cast(args[0], node.args[0], node.dtype, self.trace)
        elif node.op in ("real", "imag"):  # the parts of a complex value
            expr = f"{args[0]}.{node.op}"
        elif node.op == "where":
            expr = f"{args[1]} if {args[0]} else {args[2]}"
        else:
            fn = f"f{i}"
            self.namespace[fn] = self.scalar(node.op, node.compute, len(args))
            expr = f"{fn}({', '.join(args)})"
        name = self.names[i] = f"t{i}"
        value = f"{np_type(node.dtype)}({expr})"
        if node.dtype.is_half:  # rounded to the half type, in a float32 register
            value = f"ld_{node.dtype.name}({stored(node.dtype, value)})"
        self.lines.append(f"{name} = {value}")
        return name


def _literal(value: Any) -> str:
    """A Python number as source (``nan`` and infinities through NumPy's names)."""
    if isinstance(value, complex):
        return f"complex({_literal(value.real)}, {_literal(value.imag)})"
    if isinstance(value, float) and not math.isfinite(value):
        return "np.nan" if math.isnan(value) else "np.inf" if value > 0 else "-np.inf"
    return repr(value)


def _cast(value: str, arg: Any, to: dtype, trace: Trace) -> str:
    """Source converting ``value`` (node or number ``arg``) for a cast to ``to``: a complex
    value gives its real part to a real dtype (as the eager cast) and ``!= 0`` to bool."""
    source = complex if isinstance(arg, tuple) and isinstance(arg[1], complex) else (
        None if isinstance(arg, tuple) else trace.nodes[arg].dtype)
    if to.is_complex or not (source is complex or source is not None and source.is_complex):
        return value
    return f"{value} != 0" if to is bool_ else f"{value}.real"


def accumulate(node: TraceNode, value: str) -> tuple[str, str, list[str]]:
    """The accumulator's type and start, and the lines folding ``value`` into ``acc``."""
    compute = node.compute
    assert compute is not None
    if node.op in ("sum", "mean"):
        acc = ("np.int64", "np.int64", "np.float64", "np.complex128")[compute.category]
        return acc, "0", [f"acc += {acc}({value})"]
    if compute is bool_:
        raise Untraceable(f"[compile] {node.op} of bool tensors is not fused yet")
    start = "-np.inf" if node.op == "amax" else "np.inf"
    if compute.category < 2:
        info = np.iinfo(compute.numpy)
        start = str(info.min if node.op == "amax" else info.max)
    better = ">" if node.op == "amax" else "<"
    nan = f" or {value} != {value}" if compute.category == 2 else ""
    return np_type(compute), start, [f"if {value} {better} acc{nan}:", f"    acc = {value}"]


def unsigned(index: str) -> str:
    """An index known to be >= 0, typed so that Numba skips its negative-index test.

    That test (``a[i]`` wraps a negative ``i`` around) keeps LLVM from
    vectorizing a loop unless the index is a bare loop variable.
    """
    if not index:
        return "0"
    if index.endswith(" * 1") and " + " not in index:
        return index[:-4]
    return f"np.uint64({index})"


def broadcast(strides: tuple[int, ...], shape: tuple[int, ...],
               to: tuple[int, ...]) -> tuple[int, ...]:
    """Strides reading a ``shape`` operand at every index of ``to`` (0 where broadcast)."""
    lead = len(to) - len(shape)
    return (0,) * lead + tuple(0 if n == 1 and m != 1 else s
                               for s, n, m in zip(strides, shape, to[lead:], strict=True))


def root_strides(trace: Trace, roots: list[int], dests: list[int | None] | None
                 ) -> list[tuple[int, ...]]:
    """The element strides each root is written at: its destination's, else contiguous."""
    return [contiguous_strides(trace.nodes[r].shape) if dests is None or dests[j] is None
            else trace.nodes[dests[j]].strides for j, r in enumerate(roots)]


def params(leaves: int, outputs: int) -> str:
    """A kernel's parameter list: buffer and offset of each leaf, then of each output."""
    return ", ".join([f"b{k}, o{k}" for k in range(leaves)] +
                     [f"out{j}, oo{j}" for j in range(outputs)])


def np_type(dt: dtype) -> str:
    """The NumPy scalar type of ``dt``'s values as generated source names it (a half type's
    values are float32 in registers)."""
    if dt.is_half:
        return "np.float32"
    return f"np.{dt.numpy.name}" if dt is not bool_ else "np.bool_"


def stored(dt: dtype, value: str) -> str:
    """Source of ``value`` as written into a buffer of ``dt`` (a half type: its bits).

    Example:
        >>> from gtensor import bfloat16
        >>> stored(bfloat16, "t3")
        'st_bfloat16(np.float32(t3))'
    """
    return f"st_{dt.name}(np.float32({value}))" if dt.is_half else value


def scalar_body(op: str, compute: dtype, arity: int) -> Callable:
    """The plain-Python scalar body of elementwise ``op`` for ``compute`` inputs.

    Example:
        >>> from gtensor import float32
        >>> scalar_body("add", float32, 2)(1.0, 2.0)
        3.0
    """
    table = {1: UNARY, 2: BINARY, 3: TERNARY, 4: TERNARY_SCALAR}.get(arity, {})
    extra = {1: COMPLEX_UNARY, 2: COMPLEX_BINARY}.get(arity, {})
    name = "float32" if compute.is_half else compute.name  # half types compute in float32
    for fn, dtypes, _ in (*table.get(op, ()), *extra.get(op, ())):
        if name in dtypes:
            return fn  # type: ignore[return-value]
    raise Untraceable(f"[compile] {op} on {compute.name} is not fused yet")


def kernel_name(kind: str, params: str, lines: list[str], namespace: dict[str, Any]) -> str:
    """A name unique to the kernel's source, so kernels cached on disk never collide."""
    text = "\n".join(lines)
    digest = hashlib.sha1(f"{params}\n{text}\n{sorted(namespace)}".encode()).hexdigest()
    return f"gtensor_fused_{kind}_{digest[:16]}"


def indexer(trace: Trace, shape: tuple[int, ...], dims: list[int]) -> Callable[[int], str]:
    """Return ``index(i)``: the terms adding up leaf ``i``'s element at loop indices ``i{d}``."""
    def index(i: int) -> str:
        strides = broadcast(leaf_strides(trace.nodes[i]), trace.nodes[i].shape, shape)
        return "".join(f" + i{d} * {strides[d]}" for d in dims if strides[d])
    return index


def reduction_body(trace: Trace, r: int, scalar: Callable[[str, dtype, int], Callable],
                   bits: Any = None, scalars_in_memory: bool = False
                   ) -> tuple[TraceNode, tuple[int, ...], Body, list[int], list[int], str]:
    """Start the kernel of reduction node ``r``: its node, the reduced input's shape, the
    body computing that input, the kept and reduced dims (size-1 dims dropped) and the
    name of the input's value."""
    node = trace.nodes[r]
    x = node.args[0]
    full = trace.nodes[x].shape
    body = Body(trace, scalar, bits=bits, scalars_in_memory=scalars_in_memory)
    kept = [d for d, n in enumerate(full) if d not in node.dims and n != 1]
    reduced = [d for d, n in enumerate(full) if d in node.dims and n != 1]
    value = body.value(x, indexer(trace, full, kept + reduced))
    return node, full, body, kept, reduced, value
