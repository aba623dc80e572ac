"""Source templates for reduction kernels (one or two passes), for the CPU and CUDA.

Generated names bind, in the namespace of ``codegen.build``: ``line`` and
``eoff`` (``offsets.line_offsets`` / ``element_offset``, compiled), ``c1, m1, f1`` (the
centering pass, when the op has one) and ``c2, m2, f2`` (the main pass), the
compiled ``combine``/``merge``/``final`` bodies of ``scalar_reduce``. Operands
are flat buffers with element offsets and stride tuples: ``kshape``/``kxs``/``kos``
walk the kept dims of the input and the output, ``rshape``/``rxs`` the reduced
dims, and ``n`` is the number of reduced elements. The CUDA sources also bind
the names their functions' docstrings list.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

from .codegen import build

_UNRAVEL_K = """
        px, po = line(k, kshape, xo, kxs, oo, kos)"""


def _range_source(fname: str, comb: str) -> str:
    return f'''
def {fname}(x, base, rshape, rxs, lo, hi, acc, c, p):
    nd = len(rshape)
    inner = rshape[nd - 1]
    s = rxs[nd - 1]
    j = lo
    while j < hi:
        row = j // inner
        col = j - row * inner
        off = eoff(row * inner, rshape, rxs, base)
        stop = min(hi, (row + 1) * inner)
        for q in range(col, stop - row * inner):
            acc = {comb}(acc, x[off + q * s], c, p)
        j = stop
    return acc
'''


def cpu_reduce_source(name: str, two_pass: bool, parallel: bool) -> str:
    """Return CPU source defining ``{name}_by_output``, ``{name}_rows`` and ``{name}_split``.

    ``rows`` reduces each of ``rows`` contiguous runs of ``n`` elements of a
    buffer given by address into a contiguous output (see
    ``kernels.cpu._call.pointer_entry``).

    ``by_output`` gives each output element to one iteration (``prange`` when
    ``parallel``); ``split`` cuts each output's reduced range into chunks reduced
    in parallel and merged, for few outputs over many elements.

    Example:
        >>> "def gtensor_sum_split(" in cpu_reduce_source("gtensor_sum", False, True)
        True
    """
    loop = "prange" if parallel else "range"
    src = _range_source(f"{name}_range2", "c2")
    center = "c = 0.0"
    split_center = "c = 0.0"
    if two_pass:
        src += _range_source(f"{name}_range1", "c1")
        center = f"c = f1({name}_range1(x, px, rshape, rxs, 0, n, a01, 0.0, p), n, 0.0, p)"
        split_center = f"""for t in prange(chunks):
            part1[t] = {name}_range1(x, px, rshape, rxs, min(n, t * size),
                                     min(n, t * size + size), a01, 0.0, p)
        a = part1[0]
        for t in range(1, chunks):
            a = m1(a, part1[t], p)
        c = f1(a, n, 0.0, p)"""
    rows_center = "c = 0.0"
    if two_pass:
        rows_center = """b = a01
        for q in range(n):
            b = c1(b, x[base + q], 0.0, p)
        c = f1(b, n, 0.0, p)"""
    return src + f'''

def {name}_rows(rows, n, a01, a02, tx, tout, xp, op, p):
    x = carray(address(xp), rows * n, tx)
    out = carray(address(op), rows, tout)
    for k in range(rows):  # serial: see cpu_source on carrays in parallel loops
        base = k * n
        {rows_center}
        a = a02
        for q in range(n):
            a = c2(a, x[base + q], c, p)
        out[k] = f2(a, n, c, p)


def {name}_by_output(kshape, x, xo, kxs, out, oo, kos, rshape, rxs, n, a01, a02, p):
    total = 1
    for q in range(len(kshape)):
        total *= kshape[q]
    for k in {loop}(total):{_UNRAVEL_K}
        {center}
        out[po] = f2({name}_range2(x, px, rshape, rxs, 0, n, a02, c, p), n, c, p)


def {name}_split(kshape, x, xo, kxs, out, oo, kos, rshape, rxs, n, a01, a02, p, part1, part2):
    total = 1
    for q in range(len(kshape)):
        total *= kshape[q]
    chunks = part2.shape[0]
    size = (n + chunks - 1) // chunks
    for k in range(total):{_UNRAVEL_K}
        {split_center}
        for t in prange(chunks):
            part2[t] = {name}_range2(x, px, rshape, rxs, min(n, t * size),
                                     min(n, t * size + size), a02, c, p)
        a = part2[0]
        for t in range(1, chunks):
            a = m2(a, part2[t], p)
        out[po] = f2(a, n, c, p)
'''


def half_fold_source(name: str) -> str:
    """Return ``{name}_combine`` and ``{name}_final``: a fold over half-precision bits.

    The combine widens each element with ``ld`` before ``combine``; the final
    rounds the result with ``st`` after ``final`` (all bound in the namespace).

    Example:
        >>> "def g_combine(acc, v, c, p)" in half_fold_source("g")
        True
    """
    return f'''
def {name}_combine(acc, v, c, p):
    return combine(acc, ld(v), c, p)


def {name}_final(a, n, c, p):
    return st(final(a, n, c, p))
'''


def fold_functions(red: Any, name: str, jit: Callable[[Callable], Any], half: str | None,
                   bits: Any) -> dict[str, Any]:
    """The compiled ``c``/``m``/``f`` (combine, merge, final) of each pass of reduction ``red``.

    Keys ``c1, m1, f1`` (the centering pass, when ``red`` has one) and ``c2, m2,
    f2``, as the kernel sources bind them. For a ``half`` type the combines widen
    each element with the load of the backend's ``bits.half_io(half)`` and the
    main pass's final rounds the result with its store.

    Example:
        >>> from gtensor.kernels.common.scalar_reduce import REDUCTIONS
        >>> sorted(fold_functions(REDUCTIONS["var"], "g", lambda f: f, None, None))
        ['c1', 'c2', 'f1', 'f2', 'm1', 'm2']
    """
    out: dict[str, Any] = {}
    for tag, fold in (("1", red.center), ("2", red.main)):
        if fold is None:
            continue
        combine, final = jit(fold.combine), jit(fold.final)
        if half is not None:
            ld, st = bits.half_io(half)
            wrapped = build(half_fold_source(f"{name}{tag}"), fold.combine, {
                "combine": combine, "final": final, "ld": ld, "st": st})
            combine = jit(wrapped[f"{name}{tag}_combine"])
            if tag == "2":
                final = jit(wrapped[f"{name}{tag}_final"])
        out.update({"c" + tag: combine, "m" + tag: jit(fold.merge), "f" + tag: final})
    return out


# CUDA kernels (see ``kernels.cuda.reduction``): each block's threads form groups of
# ``lanes`` threads (``group`` gives a thread's slot, lane and the thread step between
# lanes), one output per group; blocks grid-stride over (output group, chunk) tiles.
_CUDA_GROUPS = """
    t = cuda.threadIdx.x
    slot, lane, ls = group(t, lanes, cols)
    width = THREADS // lanes
    groups = (total + width - 1) // width
    b = cuda.blockIdx.x"""

_CUDA_CHUNKS = """
    while b < groups * chunks:
        g = b // chunks
        ch = b - g * chunks
        k = g * width + slot
        live = k < total
        px, po = line(min(k, total - 1), kshape, xo, kxs, oo, kos)
        lo = min(n, ch * size)
        hi = min(n, lo + size)"""

_CUDA_OUTPUTS = """
    while b < groups:
        k = b * width + slot
        live = k < total"""

_CUDA_NEXT = """
        cuda.syncthreads()
        b += cuda.gridDim.x
"""


def _indent(code: str, spaces: int) -> str:
    return textwrap.indent(code, " " * spaces)


def _cuda_tree(sh: str, tag: str, spaces: int = 8) -> str:
    # each thread stores its acc; a group's lanes merge into its lane 0 (thread t - lane * ls)
    return _indent(f"""
{sh}[t] = acc{tag}
cuda.syncthreads()
s = lanes // 2
while s > 0:
    if lane < s:
        {sh}[t] = m{tag}({sh}[t], {sh}[t + s * ls], p)
    cuda.syncthreads()
    s //= 2""", spaces)


def _cuda_lanes_source(fname: str, state: str, update: Callable[[str, str], str],
                       result: str) -> str:
    # A lane strides over [j, hi) by step. Over one strided run, four loads are issued
    # before they are used (then used in order, as one at a time): more bytes in flight.
    def body(*pairs: tuple[str, str]) -> str:
        return _indent("".join(update(v, j) for v, j in pairs).rstrip("\n"), 12)

    return f'''
def {fname}(x, px, rshape, rxs, n, j, hi, step, {state}):
    nd = len(rshape)
    if rshape[nd - 1] == n:
        s = rxs[nd - 1]
        while j + 3 * step < hi:
            v0 = x[px + j * s]
            v1 = x[px + (j + step) * s]
            v2 = x[px + (j + 2 * step) * s]
            v3 = x[px + (j + 3 * step) * s]
{body(("v0", "j"), ("v1", "j + step"), ("v2", "j + 2 * step"), ("v3", "j + 3 * step"))}
            j += 4 * step
        while j < hi:
            v = x[px + j * s]
{body(("v", "j"))}
            j += step
    else:
        while j < hi:
            v = x[eoff(j, rshape, rxs, px)]
{body(("v", "j"))}
            j += step
    return {result}
'''


def _cuda_fold_source(name: str, tag: str) -> str:
    lanes = _cuda_lanes_source(f"{name}_lanes{tag}", "acc, c, p",
                               lambda v, j: f"acc = c{tag}(acc, {v}, c, p)\n", "acc")
    return lanes + f'''

def {name}_parts{tag}(part, k, total, chunks, j, step, acc, p):
    while j < chunks:
        acc = m{tag}(acc, part[j * total + k], p)
        j += step
    return acc
'''


def cuda_reduce_source(name: str, two_pass: bool) -> str:
    """Return CUDA source for ``{name}_kernel`` and ``{name}_merge`` (see ``cuda.reduction``).

    ``{name}_kernel(stage, ...)`` reduces chunk ``ch`` of each output's reduced
    range with a group of ``lanes`` threads and a shared-memory tree: stage 1
    writes the centering pass's partials to ``part1``, stage 2 the main pass's
    to ``part2`` (or the result to ``out`` when ``chunks == 1``, the center then
    computed in the same block). ``{name}_merge`` merges each output's
    ``chunks`` partials in a fixed order and writes the result. Device functions
    ``{name}_lanes1/2`` and ``{name}_parts1/2`` must be compiled by the caller;
    binds ``THREADS`` (block size, a power of two), ``ACC1``/``ACC2`` (accumulator
    types), ``group`` (thread -> slot, lane, lane step) and ``cuda`` in the
    namespace.

    Example:
        >>> "def gtensor_sum_merge(" in cuda_reduce_source("gtensor_sum", False)
        True
    """
    src = _cuda_fold_source(name, "2")
    tree1, tree2 = _cuda_tree("sh1", "1"), _cuda_tree("sh2", "2")
    shared = "sh2 = cuda.shared.array(THREADS, ACC2)"
    center = merge_center = ""
    if two_pass:
        src += _cuda_fold_source(name, "1")
        shared = "sh1 = cuda.shared.array(THREADS, ACC1)\n    " + shared
        center = f"""
        acc1 = a01
        if live:
            if stage == 1 or chunks == 1:
                acc1 = {name}_lanes1(x, px, rshape, rxs, n, lo + lane, hi, lanes, acc1, 0.0, p)
            else:
                acc1 = {name}_parts1(part1, k, total, chunks, lane, lanes, acc1, p){tree1}
        if stage == 1:
            if lane == 0 and live:
                part1[ch * total + k] = sh1[t]
        else:
            c = f1(sh1[t - lane * ls], n, 0.0, p)
        cuda.syncthreads()"""
        merge_center = f"""
        acc1 = a01
        if live:
            acc1 = {name}_parts1(part1, k, total, chunks, lane, lanes, acc1, p){tree1}
        c = f1(sh1[t - lane * ls], n, 0.0, p)
        cuda.syncthreads()"""
    return src + f'''

def {name}_kernel(stage, total, kshape, x, xo, kxs, out, oo, kos, rshape, rxs, n, a01, a02, p,
                  part1, part2, lanes, cols, chunks, size):
    {shared}{_CUDA_GROUPS}{_CUDA_CHUNKS}
        c = 0.0{center}
        if stage == 2:
            acc2 = a02
            if live:
                acc2 = {name}_lanes2(x, px, rshape, rxs, n, lo + lane, hi, lanes, acc2, c, p)\
{_cuda_tree("sh2", "2", 12)}
            if lane == 0 and live:
                if chunks == 1:
                    out[po] = f2(sh2[t], n, c, p)
                else:
                    part2[ch * total + k] = sh2[t]{_CUDA_NEXT}

def {name}_merge(total, kshape, out, oo, kos, n, a01, a02, p, part1, part2, lanes, cols, chunks):
    {shared}{_CUDA_GROUPS}{_CUDA_OUTPUTS}
        po = line(min(k, total - 1), kshape, oo, kos, oo, kos)[1]
        c = 0.0{merge_center}
        acc2 = a02
        if live:
            acc2 = {name}_parts2(part2, k, total, chunks, lane, lanes, acc2, p){tree2}
        if lane == 0 and live:
            out[po] = f2(sh2[t], n, c, p){_CUDA_NEXT}'''


def cuda_argext_source(name: str) -> str:
    """Return CUDA source for ``argmax``/``argmin``: ``{name}_kernel`` and ``{name}_merge``.

    The layouts of :func:`cuda_reduce_source` with (value, index) pairs:
    ``takes(v, j, bv, bj, is_max)`` (bound in the namespace, with ``VALUE``, the
    value type) says whether a candidate replaces the best so far. With one
    chunk the kernel writes indices to ``out`` and values to ``vals``; else
    partial pairs to ``pv``/``pj`` for ``{name}_merge``. ``{name}_lanes`` must
    be compiled by the caller.

    Example:
        >>> "def gtensor_argext_merge(" in cuda_argext_source("gtensor_argext")
        True
    """
    lanes = _cuda_lanes_source(
        f"{name}_lanes", "bv, bj, is_max",
        lambda v, j: f"if takes({v}, {j}, bv, bj, is_max):\n    bv, bj = {v}, {j}\n", "bv, bj")
    tree = _indent("""
sv[t] = bv
sj[t] = bj
cuda.syncthreads()
s = lanes // 2
while s > 0:
    if lane < s and takes(sv[t + s * ls], sj[t + s * ls], sv[t], sj[t], is_max):
        sv[t] = sv[t + s * ls]
        sj[t] = sj[t + s * ls]
    cuda.syncthreads()
    s //= 2""", 8)
    shared = "sv = cuda.shared.array(THREADS, VALUE)\n    sj = cuda.shared.array(THREADS, INDEX)"
    return lanes + f'''

def {name}_kernel(total, kshape, x, xo, kxs, out, oo, kos, vals, vo, vos, rshape, rxs, n,
                  is_max, pv, pj, lanes, cols, chunks, size):
    {shared}{_CUDA_GROUPS}{_CUDA_CHUNKS}
        bv, bj = x[px], -1
        if live:
            bv, bj = {name}_lanes(x, px, rshape, rxs, n, lo + lane, hi, lanes, bv, bj, is_max)\
{tree}
        if lane == 0 and live:
            if chunks == 1:
                out[po] = sj[t]
                vals[line(k, kshape, xo, kxs, vo, vos)[1]] = sv[t]
            else:
                pv[ch * total + k] = sv[t]
                pj[ch * total + k] = sj[t]{_CUDA_NEXT}

def {name}_merge(total, kshape, out, oo, kos, vals, vo, vos, is_max, pv, pj, lanes, cols,
                 chunks):
    {shared}{_CUDA_GROUPS}{_CUDA_OUTPUTS}
        bv, bj = pv[0], -1
        q = lane
        while live and q < chunks:
            if takes(pv[q * total + k], pj[q * total + k], bv, bj, is_max):
                bv, bj = pv[q * total + k], pj[q * total + k]
            q += lanes{tree}
        if lane == 0 and live:
            po, pw = line(k, kshape, oo, kos, vo, vos)
            out[po] = sj[t]
            vals[pw] = sv[t]{_CUDA_NEXT}'''
