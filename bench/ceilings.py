"""The machine's ceilings, measured at start: copy bandwidth and a large matmul.

On the CPU: the best of NumPy's ``copyto`` and a parallel Numba copy over
arrays far larger than the caches, and NumPy's BLAS float32 matmul. On CUDA:
a device-to-device copy and cuBLAS float32 matmul through CuPy (or PyTorch
when CuPy is absent). A copy moves each byte twice (read and write); both
are counted, as in the cases' byte counts.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

SIZES = {
    "tiny": {"copy_mib": 8, "matmul_n": 128, "repeats": 2},
    "quick": {"copy_mib": 256, "matmul_n": 2048, "repeats": 4},
    "full": {"copy_mib": 1024, "matmul_n": 4096, "repeats": 10},
}


def _best(fn: Callable[[], Any], sync: Callable[[], None], repeats: int) -> float:
    fn()
    sync()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        sync()
        best = min(best, time.perf_counter() - start)
    return best


def _parallel_copy() -> Callable[[np.ndarray, np.ndarray], None]:
    import numba

    @numba.njit(parallel=True, cache=True)
    def bench_parallel_copy(dst: np.ndarray, src: np.ndarray) -> None:
        for i in numba.prange(src.size):
            dst[i] = src[i]

    return bench_parallel_copy


def _cpu(sizes: dict[str, int]) -> dict[str, Any]:
    n = sizes["copy_mib"] * (1 << 20) // 4
    src = np.ones(n, np.float32)
    dst = np.empty_like(src)
    reps = sizes["repeats"]
    copies = {"numpy.copyto": _best(lambda: np.copyto(dst, src), lambda: None, reps)}
    try:
        par = _parallel_copy()
        copies["numba.prange"] = _best(lambda: par(dst, src), lambda: None, reps)
    except Exception:  # Numba is a dependency of gtensor, but a ceiling must not stop the run
        pass
    how, t_copy = min(copies.items(), key=lambda kv: kv[1])
    m = sizes["matmul_n"]
    a = np.ones((m, m), np.float32)
    t_mm = _best(lambda: a @ a, lambda: None, reps)
    return {"copy_gbps": 2 * src.nbytes / t_copy / 1e9, "copy_how": how,
            "copy_bytes": 2 * src.nbytes,
            "matmul_gflops": 2 * m**3 / t_mm / 1e9, "matmul_how": f"numpy float32 {m}^3",
            "matmul_n": m}


def _cuda(sizes: dict[str, int]) -> dict[str, Any]:
    n = sizes["copy_mib"] * (1 << 20) // 4
    m = sizes["matmul_n"] * 2
    reps = sizes["repeats"]
    try:
        import cupy as cp

        src = cp.ones(n, cp.float32)
        dst = cp.empty_like(src)
        sync = cp.cuda.Device().synchronize
        t_copy = _best(lambda: cp.copyto(dst, src), sync, reps)
        a = cp.ones((m, m), cp.float32)
        t_mm = _best(lambda: a @ a, sync, reps)
        how = "cupy"
    except ImportError:
        import torch

        src = torch.ones(n, device="cuda")
        dst = torch.empty_like(src)
        sync = torch.cuda.synchronize
        t_copy = _best(lambda: dst.copy_(src), sync, reps)
        a = torch.ones((m, m), device="cuda")
        t_mm = _best(lambda: a @ a, sync, reps)
        how = "torch"
    return {"copy_gbps": 2 * n * 4 / t_copy / 1e9, "copy_how": f"{how} device copy",
            "copy_bytes": 2 * n * 4,
            "matmul_gflops": 2 * m**3 / t_mm / 1e9, "matmul_how": f"{how} float32 {m}^3",
            "matmul_n": m}


def measure(device: str, preset: str) -> dict[str, Any]:
    """Measure the copy-bandwidth and matmul ceilings of ``device``.

    Args:
        device: ``cpu`` or ``cuda``.
        preset: ``tiny``, ``quick`` or ``full`` (sets the sizes and repeats).

    Returns:
        ``copy_gbps`` and ``matmul_gflops`` with how each was measured; on failure,
        ``error`` says why and the rates are ``None``.

    Example:
        >>> measure("cpu", "tiny")["copy_gbps"] > 0
        True
    """
    sizes = SIZES[preset]
    try:
        return _cuda(sizes) if device == "cuda" else _cpu(sizes)
    except Exception as exc:
        return {"copy_gbps": None, "matmul_gflops": None, "error": f"{type(exc).__name__}: {exc}"}
