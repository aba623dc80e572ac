"""The CUDA runtime: device selection, allocator hooks, synchronization, CuPy and Numba.

Whether CUDA is simulated, how many devices exist and which one is current
are kept in :mod:`gtensor.device`, below the allocator, and re-exported here.
This module adds what needs the allocator or the CUDA libraries. Nothing here
imports Numba or CuPy at module import; each function loads them on first call.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from ..device import DeviceLike, set_current_cuda_device
from ..device import cuda_device_count as device_count
from ..device import cuda_is_available as is_available
from ..device import cuda_is_simulated as is_simulated
from ..device import current_cuda_device as current_device
from ..device import device as _device
from ..device import require_cuda as require
from ..errors import DeviceUnavailableError
from ..memory import install_cuda_hooks
from .device_errors import raise_pending

__all__ = [
    "check_index", "cupy", "current_device", "device_count", "ensure_initialized",
    "is_available", "is_simulated", "numba_cuda", "prepare", "require", "set_device",
    "synchronize",
]


def numba_cuda() -> ModuleType:
    """Return ``numba.cuda`` (the simulator's when it is on)."""
    from numba import cuda  # optional GPU stack, loaded on first use

    return cuda


def cupy() -> ModuleType:
    """Return CuPy, raising a clear error when it is missing on a real GPU."""
    try:
        import cupy as cp  # optional GPU stack, loaded on first use
    except ImportError as exc:
        raise DeviceUnavailableError(
            "[cuda] CuPy is not installed: install gtensor with the cuda12 or cuda13 extra"
        ) from exc
    return cp


def check_index(index: int, op: str = "cuda") -> None:
    """Raise :class:`DeviceUnavailableError` unless ``index`` names an existing CUDA device."""
    require(op)
    count = device_count()
    if not 0 <= index < count:
        raise DeviceUnavailableError(
            f"[{op}] invalid CUDA device index {index}; {count} device(s) present")


def set_device(index: DeviceLike) -> None:
    """Make ``index`` (an int, ``"cuda:N"`` or a device) the current CUDA device.

    Example:
        >>> set_device("cuda:0"); gt.cuda.current_device()
        0
    """
    idx = index if isinstance(index, int) else _device(index).index or 0
    check_index(idx, "set_device")
    ensure_initialized("set_device")
    if not is_simulated():
        cupy().cuda.Device(idx).use()
        numba_cuda().select_device(idx)
    set_current_cuda_device(idx)


_hooks_installed = False


def ensure_initialized(op: str = "cuda") -> None:
    """Check availability and, on a real GPU, route CuPy and Numba through gtensor's allocator.

    Raises:
        DeviceUnavailableError: ``[op] no CUDA device is available ...``.
    """
    global _hooks_installed
    require(op)
    if not _hooks_installed:
        _hooks_installed = True
        if not is_simulated():
            install_cuda_hooks()  # before Numba creates its context


def prepare(dev: Any, op: str) -> None:
    """Ready ``dev`` for ``op`` before it allocates: a cuda device must exist and be initialized.

    Creation ops call this first, so a missing GPU is reported under the
    user's op (``[randn] no CUDA device is available ...``).

    Raises:
        DeviceUnavailableError: ``dev`` is a cuda device and no CUDA device is available.

    Example:
        >>> from gtensor.device import CPU
        >>> prepare(CPU, "empty")
    """
    if dev.type == "cuda":
        ensure_initialized(op)


def synchronize(device: DeviceLike | None = None) -> None:
    """Wait for all work queued on a CUDA device (the simulator runs eagerly).

    Raises:
        IndexError: a kernel found a bad index since the last synchronizing call
            (see :mod:`gtensor.cuda.device_errors`).

    Example:
        >>> y = gt.ones(2, device="cuda") * 2
        >>> synchronize(); y.tolist()
        [2.0, 2.0]
    """
    require("synchronize")
    if not is_simulated():
        cp = cupy()
        idx = current_device() if device is None else _device(device).index or 0
        with cp.cuda.Device(idx):
            cp.cuda.runtime.deviceSynchronize()
    raise_pending()

