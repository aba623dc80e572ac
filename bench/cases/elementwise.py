"""Elementwise throughput: unary math, a multiply-add, an expression with a temporary, and
the same in float16/bfloat16 (half types computed in float32 registers)."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from ..libraries import Library
from ..registry import Unsupported, Workload, case

_N: dict[str, dict[str, Any]] = {"tiny": {"n": 1000}, "quick": {"n": 1 << 22},
                                 "full": {"n": 1 << 24}}
_BIG: dict[str, dict[str, Any]] = {"tiny": {"n": 1000}, "quick": {"n": 1 << 24},
                                   "full": {"n": 1 << 26}}


@case("elementwise.exp", threaded=True, sizes=_N)
def exp(lib: Library, n: int) -> Workload:
    """exp of n float32 values (bytes: one read, one write).

    Example:
        >>> exp(Library("numpy", "cpu"), 10).bytes
        80
    """
    x = lib.randn(n)
    return Workload(lambda: lib.ns.exp(x), bytes=8 * n)


@case("elementwise.tanh", threaded=True, sizes=_N)
def tanh(lib: Library, n: int) -> Workload:
    """tanh of n float32 values (bytes: one read, one write)."""
    x = lib.randn(n)
    return Workload(lambda: lib.ns.tanh(x), bytes=8 * n)


@case("elementwise.mul_add", threaded=True, sizes=_N)
def mul_add(lib: Library, n: int) -> Workload:
    """a * b + c on n float32 values (bytes: three reads, one write; temporaries not counted)."""
    a, b, c = lib.randn(n, seed=1), lib.randn(n, seed=2), lib.randn(n, seed=3)
    return Workload(lambda: a * b + c, bytes=16 * n)


@case("elementwise.scaled_add_temporaries", threaded=True, sizes=_BIG)
def scaled_add_temporaries(lib: Library, n: int) -> Workload:
    """b + s * c with a Python scalar s (bytes: two reads, one write; temporary not counted).

    The s * c temporary costs a write and a read that the byte count leaves
    out, so its cost shows as a lower share of the copy ceiling.
    """
    b, c = lib.randn(n, seed=1), lib.randn(n, seed=2)
    s = 0.5
    return Workload(lambda: b + s * c, bytes=12 * n)


@case("elementwise.scaled_add_inplace", threaded=True, sizes=_N)
def scaled_add_inplace(lib: Library, n: int) -> Workload:
    """b = s * b + c in place: b.mul_(s).add_(c) (bytes: b and c read, b written once).

    NumPy and CuPy use ``out=b``. Two passes over b, of which the byte count
    credits one, so the second shows as a lower share of the copy ceiling.
    """
    b, c = lib.randn(n, seed=1), lib.randn(n, seed=2)
    s = 0.5
    if lib.name in ("gtensor", "torch"):
        return Workload(lambda: b.mul_(s).add_(c), bytes=12 * n)

    def step() -> None:
        lib.ns.multiply(b, s, out=b)
        lib.ns.add(b, c, out=b)

    return Workload(step, bytes=12 * n)


@case("elementwise.add_large", threaded=True, sizes={
    "tiny": {"n": 1000}, "quick": {"n": 1 << 24}, "full": {"n": 1 << 26}})
def add_large(lib: Library, n: int) -> Workload:
    """a + b on n float32 values, 64M in the full run (bytes: two reads, one write)."""
    a, b = lib.randn(n, seed=1), lib.randn(n, seed=2)
    return Workload(lambda: a + b, bytes=12 * n)


def half(lib: Library, x: Any, dtype: str) -> Any:
    """``x`` (float32) rounded to the half type ``dtype`` on the library's device.

    Example:
        >>> half(Library("numpy", "cpu"), np.ones(2, np.float32), "bfloat16").dtype.name
        'bfloat16'
    """
    if lib.name == "numpy":
        return x.astype(ml_dtypes.bfloat16 if dtype == "bfloat16" else np.float16)
    if lib.name == "cupy":
        if dtype == "bfloat16":
            raise Unsupported("CuPy has no bfloat16 elementwise kernels")
        return x.astype(np.float16)
    return x.to(getattr(lib.ns, dtype))


def _half_case(name: str, dtype: str, unary: bool) -> None:
    def build(lib: Library, n: int) -> Workload:
        a = half(lib, lib.randn(n, seed=1), dtype)
        if unary:
            return Workload(lambda: lib.ns.exp(a), bytes=4 * n)
        b = half(lib, lib.randn(n, seed=2), dtype)
        return Workload(lambda: a * b + a, bytes=6 * n)

    build.__name__ = name.replace(".", "_")
    build.__doc__ = (f"{'exp(a)' if unary else 'a * b + a'} on n {dtype} values (bytes: "
                     f"{'one read, one write' if unary else 'two reads, one write'} of 2 bytes"
                     "; the temporary not counted).")
    case(name, threaded=True, sizes=_BIG)(build)


for _dt in ("float16", "bfloat16"):
    _half_case(f"elementwise.exp_{_dt}", _dt, True)
    _half_case(f"elementwise.mul_add_{_dt}", _dt, False)
