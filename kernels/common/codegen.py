"""Source templates for elementwise kernels of any arity, shared by the CPU and CUDA backends.

A kernel is generated per op and arity from one template, then compiled by the
backend (``njit`` or ``cuda.jit``). The generated code is compiled with the
scalar body's file as its file name, so Numba's on-disk cache works for it and
is invalidated when that file changes. Each operand may be an array (indexed)
or a scalar (used as is): the ``item`` helper, bound by the backend, decides per
compiled signature.

On the CPU three shapes of loop exist: ``flat`` (all operands contiguous over
the same index, each with an element offset into its buffer, sliced off before
the loop so the loop index stays non-negative and the loop vectorizes),
``strided`` (flat buffers with element offsets and stride tuples, any rank; the
innermost dim is a plain loop) and ``rows`` (``strided`` where along the
innermost dim every operand is contiguous or stays put: slices and values read
once per row, so the inner loop vectorizes). CUDA kernels are unrolled grid-stride loops in
four layouts (``CUDA_LAYOUTS``: flat, and strided over 1, 2 or more collapsed
dims), each with a 32- and a 64-bit element index (see ``cuda_source``).
"""

from __future__ import annotations

import inspect
import os
import re
import textwrap
from collections.abc import Callable
from typing import Any


def _pieces(arity: int) -> tuple[str, str, str]:
    strided_args = ", ".join(f"a{k}, o{k}, s{k}" for k in range(arity))
    init = "; ".join(f"p{k} = o{k}" for k in range(arity))
    step = "; ".join(f"p{k} += idx * s{k}[d]" for k in range(arity))
    return strided_args, init, step


def _row_start(arity: int, parallel: bool) -> str:
    """The strided loops' common head: for each row of the collapsed shape, the element
    offset of its first element in every operand (``p{k}``) and in the output (``po``)."""
    _, init, step = _pieces(arity)
    loop = "prange" if parallel else "range"
    inner = "; ".join(f"t{k} = s{k}[nd - 1]" for k in range(arity))
    return f"""    nd = len(shape)
    inner = shape[nd - 1]
    rows = 1
    for q in range(nd - 1):
        rows *= shape[q]
    {inner}
    tout = so[nd - 1]
    for row in {loop}(rows):
        rem = row + 0
        {init}
        po = oo
        for d in range(nd - 2, -1, -1):
            idx = rem % shape[d]
            rem = rem // shape[d]
            {step}
            po += idx * so[d]"""


def cpu_source(name: str, arity: int, parallel: bool) -> str:
    """Return CPU source defining ``{name}_flat``, ``{name}_pointers`` and ``{name}_strided``.

    ``pointers`` (serial source only) is ``flat`` over contiguous operands given
    by address (see ``kernels.cpu._call.pointer_entry``), without offsets or numbers.

    Example:
        >>> "def gtensor_add_flat(n, a0, o0, a1, o1, out, oo)" in cpu_source("gtensor_add", 2,
        ...                                                                     False)
        True
    """
    loop = "prange" if parallel else "range"
    call = ", ".join(f"item(v{k}, i)" for k in range(arity))
    views = "\n    ".join(f"v{k} = window(a{k}, o{k}, n)" for k in range(arity))
    flat_args = ", ".join(f"a{k}, o{k}" for k in range(arity))
    strided_args = _pieces(arity)[0]
    scall = ", ".join(f"item(a{k}, p{k} + j * t{k})" for k in range(arity))
    types = ", ".join(f"t{k}" for k in range(arity))
    addresses = ", ".join(f"p{k}" for k in range(arity))
    arrays = "\n    ".join(f"v{k} = carray(address(p{k}), n, t{k})" for k in range(arity))
    pcall = ", ".join(f"v{k}[i]" for k in range(arity))
    # serial only: Numba's parallel pass takes stores into a carray of an address for
    # stores into a local array and drops them
    pointers = "" if parallel else f'''

def {name}_pointers(n, {types}, tout, {addresses}, pout):
    {arrays}
    w = carray(address(pout), n, tout)
    for i in range(n):
        w[i] = f({pcall})
'''
    return f'''
def {name}_flat(n, {flat_args}, out, oo):
    {views}
    w = out[oo:oo + n]
    for i in {loop}(n):
        w[i] = f({call})
{pointers}


def {name}_strided(shape, {strided_args}, out, oo, so):
{_row_start(arity, parallel)}
        for j in range(inner):
            out[po + j * tout] = f({scall})
'''


def row_pattern(strides: tuple[tuple[int, ...], ...], out_strides: tuple[int, ...]) -> int | None:
    """The pattern of a strided call that :func:`cpu_rows_source` runs, or None.

    Bit ``k`` is set when operand ``k`` steps by one element along the innermost
    dim and clear when it stays put (a broadcast column, a number); a pattern
    exists when the output steps by one and every operand by one or zero.

    Example:
        >>> row_pattern(((512, 1), (0, 1)), (512, 1)), row_pattern(((1, 3),), (3, 1))
        (3, None)
    """
    if out_strides[-1] != 1:
        return None
    pattern = 0
    for k, s in enumerate(strides):
        if s[-1] == 1:
            pattern |= 1 << k
        elif s[-1] != 0:
            return None
    return pattern


def cpu_rows_source(name: str, arity: int, parallel: bool, pattern: int) -> str:
    """Return CPU source of ``{name}_rows{pattern}``: the strided loop over contiguous rows.

    Called as ``{name}_strided``, for calls of one :func:`row_pattern`: an
    operand that steps along the row is sliced, one that stays put is read once
    per row, so the inner loop runs over plain slices and LLVM vectorizes it
    (the generic strided loop, with a stride per operand, runs about ten times
    slower on a bias row or a per-row scale). One kernel per pattern a call
    uses, compiled when first needed.

    Example:
        >>> "x1 = item(a1, p1)" in cpu_rows_source("gtensor_add", 2, False, 1)
        True
    """
    steps = [bool(pattern >> k & 1) for k in range(arity)]
    reads = "\n        ".join(f"v{k} = window(a{k}, p{k}, inner)" if step
                               else f"x{k} = item(a{k}, p{k})" for k, step in enumerate(steps))
    args = ", ".join(f"item(v{k}, j)" if step else f"x{k}" for k, step in enumerate(steps))
    return f'''
def {name}_rows{pattern}(shape, {_pieces(arity)[0]}, out, oo, so):
{_row_start(arity, parallel)}
        w = out[po:po + inner]
        {reads}
        for j in range(inner):
            w[j] = f({args})
'''


UNROLL = 4
"""Elements each CUDA thread loads before computing any, per grid-stride step."""

CUDA_LAYOUTS = ("flat", "strided1", "strided2", "strided")
"""CUDA loop shapes: all operands contiguous, else strided over 1, 2 or more collapsed dims."""

INDEX_TYPES = {32: "uint32", 64: "uint64"}
"""The element index type of each CUDA kernel variant, by bit width."""


def _offsets(layout: str, arity: int, j: str, u: str, ix: str) -> list[str]:
    """Lines setting ``p{k}{u}`` and ``po{u}``, element ``j``'s offsets in each buffer.

    Offsets are int64 (strides may be negative). ``strided2`` reads element
    ``j``'s row and column from ``r{u}`` and ``c{u}``; ``strided`` unravels
    ``j`` with one division per dim but the outermost, in the index type ``ix``.
    """
    names = [*(f"p{k}{u}" for k in range(arity)), f"po{u}"]
    bases = [*(f"o{k}" for k in range(arity)), "oo"]
    strides = [*(f"s{k}" for k in range(arity)), "so"]
    terms = list(zip(names, bases, strides, strict=True))
    if layout == "flat":
        return []
    if layout == "strided1":
        return [f"q{u} = int64({j})", *(f"{p} = {o} + q{u} * {s}[0]" for p, o, s in terms)]
    if layout == "strided2":
        return [f"q{u} = int64(r{u})", f"e{u} = int64(c{u})",
                *(f"{p} = {o} + q{u} * {s}[0] + e{u} * {s}[1]" for p, o, s in terms)]
    return [f"rest{u} = {j}",
            *(f"{p} = {o}" for p, o, _ in terms),
            "for d in range(len(shape) - 1, 0, -1):",
            f"    size = max({ix}(shape[d]), {ix}(1))",  # as ``inner`` in cuda_source
            f"    quot = {ix}(rest{u} // size)",
            f"    at = int64({ix}(rest{u} - {ix}(quot * size)))",
            *(f"    {p} += at * {s}[d]" for p, _, s in terms),
            f"    rest{u} = quot",
            f"at = int64(rest{u})",
            *(f"{p} += at * {s}[0]" for p, _, s in terms)]


def _split(r: str, c: str, j: str, ix: str) -> list[str]:
    """Lines setting row ``r`` and column ``c`` of flat index ``j`` over ``inner`` columns."""
    return [f"{r} = {ix}({j} // inner)", f"{c} = {ix}({j} - {ix}({r} * inner))"]


def _carry(to: str, start: str, by: str, ix: str) -> list[str]:
    """Lines setting ``(r{to}, c{to})`` to ``(r{start}, c{start})`` moved on by
    ``({by}r, {by}c)`` rows and columns (``{by}c < inner``, so at most one carry)."""
    return [f"c{to} = {ix}(c{start} + {by}c)", f"r{to} = {ix}(r{start} + {by}r)",
            f"if c{to} >= inner:",
            f"    c{to} = {ix}(c{to} - inner)", f"    r{to} = {ix}(r{to} + {ix}(1))"]


def _loads(layout: str, arity: int, j: str, u: str) -> tuple[list[str], str]:
    """Element ``j``'s loads into ``x{k}{u}``, and the slot its result goes to."""
    if layout == "flat":
        return [f"x{k}{u} = item(v{k}, {j})" for k in range(arity)], f"w[{j}]"
    return [f"x{k}{u} = item(a{k}, uint64(p{k}{u}))" for k in range(arity)], f"out[uint64(po{u})]"


def _call(arity: int, u: str) -> str:
    return f"f({', '.join(f'x{k}{u}' for k in range(arity))})"


def _indent(lines: list[str]) -> list[str]:
    return [f"    {line}" for line in lines]


def cuda_source(name: str, arity: int, layout: str, bits: int) -> str:
    """Return CUDA kernel ``{name}_{layout}{bits}``, a grid-stride loop of ``UNROLL``-wide steps.

    Thread ``t`` of block ``b`` starts at element ``b * blockDim * UNROLL + t``
    and takes ``UNROLL`` elements ``blockDim`` apart (a warp reads adjacent
    elements), loading all of them before computing any; the grid then strides
    by ``gridDim * blockDim * UNROLL``. The elements left after the last whole
    step go one at a time. ``strided2`` divides only for each thread's first
    row and column and for the rows and columns of its two strides; it then
    moves its row and column on with a carry. Flat kernels take
    ``(n, a0, o0, ..., out, oo)``, strided ones
    ``(n, shape, a0, o0, s0, ..., out, oo, so)``; ``n`` must be below
    ``2 ** (bits - 1)``.

    Example:
        >>> "def gtensor_add_flat32(n, a0, o0, a1, o1, out, oo)" in cuda_source(
        ...     "gtensor_add", 2, "flat", 32)
        True
    """
    ix = INDEX_TYPES[bits]
    if layout == "flat":
        args = f"n, {', '.join(f'a{k}, o{k}' for k in range(arity))}, out, oo"
        head = [*(f"v{k} = window(a{k}, o{k})" for k in range(arity)), "w = out[oo:]"]
    else:
        args = f"n, shape, {', '.join(f'a{k}, o{k}, s{k}' for k in range(arity))}, out, oo, so"
        head = []
    head += [f"m = {ix}(n)",
             f"t = {ix}(cuda.blockDim.x)",
             f"tile = {ix}(t * {ix}({UNROLL}))",
             f"i = {ix}({ix}(cuda.blockIdx.x) * tile + {ix}(cuda.threadIdx.x))",
             f"step = {ix}({ix}(cuda.gridDim.x) * tile)",
             f"last = {ix}(tile - t)"]
    elements = [("i" if u == 0 else f"j{u}", f"_{u}") for u in range(UNROLL)]
    if layout == "strided2":
        # Dims are never 0 here; max(., 1) lets the compiler drop its divide-by-zero check.
        head = [f"inner = max({ix}(shape[1]), {ix}(1))", *head, *_split("tr", "tc", "t", ix),
                *_split("sr", "sc", "step", ix), *_split("r", "c", "i", ix)]
        spread = ["r_0 = r", "c_0 = c"]
        for u in range(1, UNROLL):
            spread += _carry(f"_{u}", f"_{u - 1}", "t", ix)
        next_step, next_one = _carry("", "", "s", ix), _carry("", "", "t", ix)
    else:
        spread = [f"j{u} = {ix}({elements[u - 1][0]} + t)" for u in range(1, UNROLL)]
        next_step, next_one = [], []
    unrolled = [*spread, *(line for j, u in elements for line in _offsets(layout, arity, j, u, ix))]
    results = []
    for j, u in elements:
        loads, slot = _loads(layout, arity, j, u)
        unrolled += loads
        results.append(f"{slot} = {_call(arity, u)}")
    loads, slot = _loads(layout, arity, "i", "")
    one = [*_offsets(layout, arity, "i", "", ix), *loads, f"{slot} = {_call(arity, '')}"]
    lines = [*head,
             f"while {ix}(i + last) < m:",
             *_indent([*unrolled, *results, f"i = {ix}(i + step)", *next_step]),
             "while i < m:",
             *_indent([*one, f"i = {ix}(i + t)", *next_one])]
    body = "\n    ".join(lines)
    return f"\n\ndef {name}_{layout}{bits}({args}):\n    {body}\n"


HALF_SUFFIX = {"float16": "f16", "bfloat16": "bf16"}
"""Kernel-name suffix of each half-precision type."""


def half_source(name: str, arity: int) -> str:
    """Return scalar body ``name``: ``f`` between loads (``ld``) and a store (``st``).

    Half-precision kernels run the float32 body of an op between a load that
    widens each operand's bits and a store that rounds the result back.

    Example:
        >>> print(half_source("g", 2).strip())
        def g(x0, x1):
            return st(f(ld(x0), ld(x1)))
    """
    args = ", ".join(f"x{k}" for k in range(arity))
    loads = ", ".join(f"ld(x{k})" for k in range(arity))
    return f"\n\ndef {name}({args}):\n    return st(f({loads}))\n"


def kernel_name(op: str, scalar_fn: Callable) -> str:
    """Stable kernel name: ``gtensor_<op>``, plus the body's name when it differs from ``op``.

    Example:
        >>> kernel_name("floor", lambda x: x)
        'gtensor_floor_lambda'
    """
    body = re.sub(r"\W", "", getattr(scalar_fn, "__name__", "fn")).strip("_") or "fn"
    return f"gtensor_{op}" if body == op else f"gtensor_{op}_{body}"


def has_source_file(fn: Callable) -> bool:
    """True when ``fn`` comes from a file, so kernels built from it can be cached on disk.

    The file must exist (or be a notebook cell, which Numba caches too): code run
    by ``exec`` or doctest in a module's namespace reports a placeholder name.

    Example:
        >>> has_source_file(has_source_file), has_source_file(lambda x: x)
        (True, False)
    """
    try:
        path = inspect.getsourcefile(fn)
    except TypeError:
        return False
    return path is not None and (os.path.isfile(path) or path.startswith("<ipython-")
                                 or os.path.basename(os.path.dirname(path))
                                 .startswith("ipykernel_"))


def rebound(fn: Callable, suffix: str, namespace: dict[str, Any]) -> Callable:
    """``fn`` defined again as ``{name}_{suffix}`` with some of its global names rebound.

    Lets one written body serve several element types: a half-precision kernel
    rebinds a row body's ``ld``/``st`` to its bit conversions.

    Example:
        >>> def f(v):
        ...     return g(v)
        >>> rebound(f, "twice", {"g": lambda v: 2 * v})(3)
        6
    """
    name = f"{fn.__name__}_{suffix}"
    source = textwrap.dedent(inspect.getsource(fn)).replace(f"def {fn.__name__}(",
                                                            f"def {name}(", 1)
    return build(source, fn, {**fn.__globals__, **namespace})[name]


def build(source: str, scalar_fn: Callable, namespace: dict[str, Any]) -> dict[str, Any]:
    """Execute generated ``source`` as if it lived in ``scalar_fn``'s file; return its names.

    Example:
        >>> ns = build("def g(x):\\n    return x\\n", build, {})
        >>> ns["g"](3)
        3
    """
    filename = inspect.getsourcefile(scalar_fn) or "<gtensor-kernel>"
    namespace = {"__name__": scalar_fn.__module__, **namespace}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - generated kernel source
    return namespace
