"""Source templates for reduction kernels (one or two passes), for the CPU and CUDA.

Generated names bind, in the namespace of ``codegen.build``: ``line`` and
``eoff`` (``offsets.line_offsets`` / ``element_offset``, compiled), ``c1, m1, f1`` (the
centering pass, when the op has one) and ``c2, m2, f2`` (the main pass), the
compiled ``combine``/``merge``/``final`` bodies of ``scalar_reduce``. Operands
are flat buffers with element offsets and stride tuples: ``kshape``/``kxs``/``kos``
walk the kept dims of the input and the output, ``rshape``/``rxs`` the reduced
dims, and ``n`` is the number of reduced elements.
"""

from __future__ import annotations

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
    """Return CPU source defining ``{name}_by_output`` and ``{name}_split``.

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
    return src + f'''

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


def _cuda_pass(comb: str, merge: str, shared: str, start: str, center: str) -> str:
    return f"""
        acc = {start}
        j = t
        while j < n:
            acc = {comb}(acc, x[eoff(j, rshape, rxs, px)], {center}, p)
            j += THREADS
        {shared}[t] = acc
        cuda.syncthreads()
        s = THREADS // 2
        while s > 0:
            if t < s:
                {shared}[t] = {merge}({shared}[t], {shared}[t + s], p)
            cuda.syncthreads()
            s //= 2"""


def cuda_reduce_source(name: str, two_pass: bool) -> str:
    """Return CUDA source for ``{name}_kernel``: one block per output, a shared-memory tree.

    Binds ``THREADS`` (block size, a power of two), ``ACC1``/``ACC2`` (shared
    accumulator types) and ``cuda`` in the namespace.

    Example:
        >>> "cuda.shared.array" in cuda_reduce_source("gtensor_sum", False)
        True
    """
    first = ""
    if two_pass:
        first = _cuda_pass("c1", "m1", "sh1", "a01", "0.0") + """
        c = f1(sh1[0], n, 0.0, p)
        cuda.syncthreads()"""
    return f'''
def {name}_kernel(kshape, x, xo, kxs, out, oo, kos, rshape, rxs, n, a01, a02, p):
    sh1 = cuda.shared.array(THREADS, ACC1)
    sh2 = cuda.shared.array(THREADS, ACC2)
    t = cuda.threadIdx.x
    total = 1
    for q in range(len(kshape)):
        total *= kshape[q]
    k = cuda.blockIdx.x
    while k < total:{_UNRAVEL_K}
        c = 0.0{first}{_cuda_pass("c2", "m2", "sh2", "a02", "c")}
        if t == 0:
            out[po] = f2(sh2[0], n, c, p)
        cuda.syncthreads()
        k += cuda.gridDim.x
'''
