"""What machine a run happened on: CPU, cores, memory, GPU, library versions."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from typing import Any

from .libraries import Availability


def cpu_name() -> str:
    """Return the CPU model name (``platform.processor()`` when ``/proc`` has none).

    Example:
        >>> isinstance(cpu_name(), str)
        True
    """
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def usable_cores() -> int:
    """Return the number of cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def memory_gib() -> float | None:
    """Return the total physical memory in GiB, or ``None`` when unknown."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    except (ValueError, OSError, AttributeError):
        return None


def gpu_names() -> list[str]:
    """Return the names of the NVIDIA GPUs ``nvidia-smi`` lists (empty without one)."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                              "--format=csv,noheader"], capture_output=True, text=True,
                             timeout=20, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return [line.strip() for line in out.splitlines() if line.strip()]


def _version(module: str) -> str | None:
    try:
        from importlib.metadata import version

        return version(module)
    except Exception:
        return None


def describe(libraries: dict[str, Availability]) -> dict[str, Any]:
    """Return the machine description stored in every result file.

    Args:
        libraries: the probed libraries (their versions are included).

    Example:
        >>> sorted(describe({}))[:3]
        ['cores', 'cpu', 'gpus']
    """
    versions = {name: a.version for name, a in libraries.items()}
    for extra in ("numba", "numba-cuda", "cupy-cuda12x", "cupy-cuda13x"):
        v = _version(extra)
        if v is not None:
            versions.setdefault(extra, v)
    return {
        "cpu": cpu_name(),
        "cores": usable_cores(),
        "memory_gib": memory_gib(),
        "gpus": gpu_names(),
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "versions": versions,
    }
