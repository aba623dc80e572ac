"""Time to first result in a fresh process, with an empty and with a warm kernel cache.

Each sample starts a new Python that imports the library, makes a random
matrix on the device, computes one result and copies it to the host. The
kernel cache is the library's on-disk cache of compiled kernels
(``NUMBA_CACHE_DIR`` for gtensor, ``CUPY_CACHE_DIR`` for CuPy; NumPy and
PyTorch ship precompiled kernels and have none): "empty" points it at a fresh
directory for every sample, "warm" at one filled by an untimed first run.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import weakref
from typing import Any

from ..libraries import Library
from ..registry import Workload, case
from ..sessions import child_env

CACHE_VARIABLE = {"gtensor": "NUMBA_CACHE_DIR", "cupy": "CUPY_CACHE_DIR"}

_PROGRAMS = {
    "gtensor": ("import gtensor as gt", """
x = gt.randn({n}, {n}, device="{device}")
result = x.T.contiguous().cpu().numpy()
"""),
    "numpy": ("import numpy as np", """
x = np.random.default_rng(0).standard_normal(({n}, {n}), dtype=np.float32)
result = np.ascontiguousarray(x.T)
"""),
    "torch": ("import torch", """
x = torch.randn({n}, {n}, device="{device}")
result = x.T.contiguous().cpu().numpy()
"""),
    "cupy": ("import cupy as cp", """
x = cp.random.standard_normal(({n}, {n}), dtype=cp.float32)
result = cp.asnumpy(cp.ascontiguousarray(x.T))
"""),
}

_CLOCK = """
import json, time
start = time.perf_counter()
{imports}
imported = time.perf_counter()
{body}
end = time.perf_counter()
print(json.dumps({{"total_s": end - start, "import_s": imported - start}}))
"""


def program(lib: Library, n: int) -> str:
    """Return the timed child program of ``lib``; it prints ``{"total_s", "import_s"}``.

    Example:
        >>> "ascontiguousarray" in program(Library("numpy", "cpu"), 8)
        True
    """
    imports, body = _PROGRAMS[lib.name]
    return _CLOCK.format(imports=imports, body=body.format(n=n, device=lib.device))


def _run_child(code: str, env: dict[str, str]) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"[startup] child failed: {done.stderr.strip()[-800:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


class _FirstResult:
    """Runs the child program, with a fresh or a reused cache directory per sample."""

    def __init__(self, lib: Library, n: int, warm: bool) -> None:
        self.code = program(lib, n)
        self.variable = CACHE_VARIABLE.get(lib.name)
        self.warm = warm
        self.root = tempfile.mkdtemp(prefix="gtensor-bench-cache-")
        weakref.finalize(self, shutil.rmtree, self.root, True)
        self.count = 0
        self.import_s: list[float] = []
        if warm:
            _run_child(self.code, self._env("warm"))

    def _env(self, label: str) -> dict[str, str]:
        cache_dir = os.path.join(self.root, label)
        return child_env({self.variable: cache_dir} if self.variable else {})

    def __call__(self) -> float:
        self.count += 1
        label = "warm" if self.warm else f"empty-{self.count}"
        timed = _run_child(self.code, self._env(label))
        self.import_s.append(timed["import_s"])
        return timed["total_s"]

    def extra(self) -> dict[str, Any]:
        shutil.rmtree(self.root, ignore_errors=True)
        return {"cache_variable": self.variable, "samples": self.count,
                "import_s_median": statistics.median(self.import_s) if self.import_s else None}


def _workload(lib: Library, n: int, warm: bool) -> Workload:
    runner = _FirstResult(lib, n, warm)
    return Workload(runner, self_timed=True, extra=runner.extra)


_SIZES: dict[str, dict[str, Any]] = {"tiny": {"n": 8}, "quick": {"n": 256}, "full": {"n": 1024}}


@case("startup.first_result_empty_cache", sizes=_SIZES, in_process=True, max_rounds=3)
def first_result_empty_cache(lib: Library, n: int) -> Workload:
    """New process: import, randn(n, n), transpose-copy, to host; empty kernel cache."""
    return _workload(lib, n, warm=False)


@case("startup.first_result_warm_cache", sizes=_SIZES, in_process=True, max_rounds=3)
def first_result_warm_cache(lib: Library, n: int) -> Workload:
    """New process: import, randn(n, n), transpose-copy, to host; warm kernel cache."""
    return _workload(lib, n, warm=True)
