"""Source templates for elementwise kernels of any arity, shared by the CPU and CUDA backends.

A kernel is generated per op and arity from one template, then compiled by the
backend (``njit`` or ``cuda.jit``). The generated code is compiled with the
scalar body's file as its file name, so Numba's on-disk cache works for it and
is invalidated when that file changes. Each operand may be an array (indexed)
or a scalar (used as is): the ``item`` helper, bound by the backend, decides per
compiled signature.

Two shapes of loop exist per target: ``flat`` (all operands contiguous over the
same index; on the CPU each with an element offset into its buffer, sliced off
before the loop so the loop index stays non-negative and the loop vectorizes) and
``strided`` (flat buffers with element offsets and stride tuples, any rank; the
innermost dim is a plain loop).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any


def _args(arity: int, suffix: str = "") -> str:
    return ", ".join(f"a{k}{suffix}" for k in range(arity))


def _pieces(arity: int) -> tuple[str, str, str]:
    strided_args = ", ".join(f"a{k}, o{k}, s{k}" for k in range(arity))
    init = "; ".join(f"p{k} = o{k}" for k in range(arity))
    step = "; ".join(f"p{k} += idx * s{k}[d]" for k in range(arity))
    return strided_args, init, step


def cpu_source(name: str, arity: int, parallel: bool) -> str:
    """Return CPU source defining ``{name}_flat`` and ``{name}_strided``.

    Example:
        >>> "def gtensor_add_flat(n, a0, o0, a1, o1, out, oo)" in cpu_source("gtensor_add", 2,
        ...                                                                     False)
        True
    """
    loop = "prange" if parallel else "range"
    call = ", ".join(f"item(v{k}, i)" for k in range(arity))
    views = "\n    ".join(f"v{k} = window(a{k}, o{k}, n)" for k in range(arity))
    flat_args = ", ".join(f"a{k}, o{k}" for k in range(arity))
    strided_args, init, step = _pieces(arity)
    inner = "; ".join(f"t{k} = s{k}[nd - 1]" for k in range(arity))
    scall = ", ".join(f"item(a{k}, p{k} + j * t{k})" for k in range(arity))
    return f'''
def {name}_flat(n, {flat_args}, out, oo):
    {views}
    w = out[oo:oo + n]
    for i in {loop}(n):
        w[i] = f({call})


def {name}_strided(shape, {strided_args}, out, oo, so):
    nd = len(shape)
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
            po += idx * so[d]
        for j in range(inner):
            out[po + j * tout] = f({scall})
'''


def cuda_source(name: str, arity: int) -> str:
    """Return CUDA source defining grid-stride kernels ``{name}_flat`` and ``{name}_strided``.

    Example:
        >>> "cuda.grid(1)" in cuda_source("gtensor_add", 2)
        True
    """
    call = ", ".join(f"item(a{k}, i)" for k in range(arity))
    strided_args, init, step = _pieces(arity)
    scall = ", ".join(f"item(a{k}, p{k})" for k in range(arity))
    return f'''
def {name}_flat({_args(arity)}, out):
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < out.shape[0]:
        out[i] = f({call})
        i += step


def {name}_strided(n, shape, {strided_args}, out, oo, so):
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < n:
        rem = i
        {init}
        po = oo
        for d in range(len(shape) - 1, -1, -1):
            idx = rem % shape[d]
            rem //= shape[d]
            {step}
            po += idx * so[d]
        out[po] = f({scall})
        i += step
'''


def kernel_name(op: str, scalar_fn: Callable) -> str:
    """Stable kernel name: ``gtensor_<op>``, plus the body's name when it differs from ``op``.

    Example:
        >>> kernel_name("floor", lambda x: x)
        'gtensor_floor_lambda'
    """
    body = re.sub(r"\W", "", getattr(scalar_fn, "__name__", "fn")).strip("_") or "fn"
    return f"gtensor_{op}" if body == op else f"gtensor_{op}_{body}"


def has_source_file(fn: Callable) -> bool:
    """True when ``fn`` comes from a file, so kernels built from it can be cached on disk."""
    try:
        return inspect.getsourcefile(fn) is not None
    except TypeError:
        return False


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
