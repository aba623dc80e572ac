"""Random inputs in the layouts kernels must handle: contiguous, transposed, reversed, broadcast.

Kernel tests build their operands as NumPy arrays. ``lookup`` returns the
registered kernel; on a real GPU a cuda kernel comes wrapped so that each
NumPy operand is uploaded with its strides (views of one buffer stay views of
one device buffer, so aliasing and broadcasting survive) and copied back after
the call. On the simulator the kernel takes the NumPy arrays as they are.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numba.core.config
import numpy as np

try:
    from gtensor.kernels import lookup as _registry_lookup
except ImportError:
    from kernels import lookup as _registry_lookup

BACKENDS = ("cpu", "cuda")
# Each CPU signature costs a Numba compile (0.2-1 s on a cold cache); the CPU tier
# checks these dtypes, the simulated CUDA tier (no compile) every registered one.
CPU_DTYPES = ("bool", "uint8", "int32", "float32", "float64")
TOL = {"float32": (2e-5, 1e-6), "float64": (1e-12, 1e-14), "complex64": (2e-5, 1e-6),
       "complex128": (1e-12, 1e-14)}


def op_cases(ops: dict[str, list[str]]) -> list:
    """pytest params ``(backend, op, dtype, all_layouts)`` for ``{op: registered dtypes}``.

    The first float32 (else int32, else first) dtype of each op also runs every
    layout; the CPU runs the ``CPU_DTYPES`` subset (at least one dtype per op).
    """
    import pytest

    cases = []
    for op, dtypes in ops.items():
        first = next((d for d in dtypes if d in ("float32", "int32")), dtypes[0])
        for backend in BACKENDS:
            chosen = [d for d in dtypes if backend == "cuda" or d in CPU_DTYPES] or [first]
            cases += [pytest.param(backend, op, d, d == first, id=f"{op}-{d}-{backend}")
                      for d in chosen]
    return cases


def draw(rng: np.random.Generator, shape: tuple[int, ...], dtype: str,
         low: float = -3.0, high: float = 3.0) -> np.ndarray:
    """Random values of ``dtype`` in ``[low, high]`` (never all zeros)."""
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = max(int(low), info.min), min(int(high), info.max)
        return rng.integers(lo, hi + 1, size=shape).astype(dtype)
    if np.dtype(dtype).kind == "c":
        parts = rng.uniform(low, high, size=(2, *shape))
        return (parts[0] + 1j * parts[1]).astype(dtype)
    return rng.uniform(low, high, size=shape).astype(dtype)


def layouts(x: np.ndarray, kind: str) -> np.ndarray:
    """Return ``x``'s values in a ``kind`` layout (same values, different strides)."""
    if kind == "contiguous":
        return x
    if kind == "transposed":
        return np.ascontiguousarray(x.T).T
    if kind == "reversed":
        return np.ascontiguousarray(x[::-1, ::-1])[::-1, ::-1]
    raise ValueError(kind)


def poisoned(shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """An output buffer filled with a sentinel that no kernel result equals by accident."""
    out = np.empty(shape, dtype)
    out[...] = np.nan if np.dtype(dtype).kind in "fc" else (1 if dtype == "bool" else 77)
    return out


def check(got: np.ndarray, want: np.ndarray, dtype: str) -> None:
    """Assert results agree: exactly for integers and booleans, with tolerances for floats."""
    want = np.asarray(want)
    if np.dtype(dtype).kind in "fc" and got.dtype.kind in "fc":
        rtol, atol = TOL[dtype]
        np.testing.assert_allclose(got, want.astype(got.dtype), rtol=rtol, atol=atol)
    else:
        np.testing.assert_array_equal(got, want.astype(got.dtype))


def _root(x: np.ndarray) -> np.ndarray:
    while isinstance(x.base, np.ndarray):
        x = x.base
    return x


class _DeviceOperands:
    """Uploads each distinct host buffer once and hands out device views into it."""

    def __init__(self) -> None:
        from numba import cuda

        self.cuda = cuda
        self.buffers: dict[int, tuple[np.ndarray, Any]] = {}

    def view(self, x: Any) -> Any:
        if isinstance(x, tuple | list):
            return type(x)(self.view(v) for v in x)
        if not isinstance(x, np.ndarray):
            return x
        if x.size == 0:
            return self.cuda.device_array(x.shape, x.dtype)
        root = _root(x)
        if not root.flags.c_contiguous:
            root = x = np.ascontiguousarray(x)
        if id(root) not in self.buffers:
            flat = root.reshape(-1).view(np.uint8)
            self.buffers[id(root)] = (root, self.cuda.to_device(flat))
        _, device = self.buffers[id(root)]
        offset = x.__array_interface__["data"][0] - root.__array_interface__["data"][0]
        desc = {"shape": x.shape, "strides": x.strides, "typestr": x.dtype.str,
                "data": (device.__cuda_array_interface__["data"][0] + offset, False),
                "version": 3}
        return self.cuda.from_cuda_array_interface(desc, owner=device)

    def copy_back(self) -> None:
        self.cuda.synchronize()
        for root, device in self.buffers.values():
            if root.flags.writeable:
                device.copy_to_host(root.reshape(-1).view(np.uint8))


def _on_device(kernel: Callable) -> Callable:
    @functools.wraps(kernel)
    def call(*args: Any, **kwargs: Any) -> Any:
        ops = _DeviceOperands()
        dev_args = [ops.view(a) for a in args]
        dev_kwargs = {k: ops.view(v) for k, v in kwargs.items()}
        try:
            return kernel(*dev_args, **dev_kwargs)
        finally:
            ops.copy_back()

    return call


def lookup(op: str, backend: str, dtypes: tuple[str, ...]) -> Callable:
    """The registered kernel; on a real GPU, a cuda kernel that takes NumPy operands."""
    kernel = _registry_lookup(op, backend, dtypes)
    if backend == "cpu" or numba.core.config.ENABLE_CUDASIM:
        return kernel
    return _on_device(kernel)
