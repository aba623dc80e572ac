"""CUDA runtime state: availability, the simulator, the current device.

Nothing here imports Numba or CuPy at module import; each function loads them
on first call.
"""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any

from ..errors import DeviceUnavailableError
from .device_errors import raise_pending

_current_device = 0


@functools.cache
def is_simulated() -> bool:
    """True when Numba's CUDA simulator is on (``NUMBA_ENABLE_CUDASIM=1``).

    Example:
        >>> isinstance(is_simulated(), bool)
        True
    """
    from numba.core import config

    return bool(config.ENABLE_CUDASIM)


def numba_cuda() -> ModuleType:
    """Return ``numba.cuda`` (the simulator's when it is on)."""
    from numba import cuda

    return cuda


def cupy() -> ModuleType:
    """Return CuPy, raising a clear error when it is missing on a real GPU."""
    try:
        import cupy as cp
    except ImportError as exc:
        raise DeviceUnavailableError(
            "[cuda] CuPy is not installed: install gtensor with the cuda12 or cuda13 extra"
        ) from exc
    return cp


@functools.cache
def _probe() -> tuple[bool, int]:
    if is_simulated():
        return True, 1
    try:
        cuda = numba_cuda()
        if not cuda.is_available():
            return False, 0
        cp = cupy()
        return True, int(cp.cuda.runtime.getDeviceCount())
    except Exception:
        return False, 0


def is_available() -> bool:
    """True when a CUDA device (real or simulated) can run gtensor kernels.

    Example:
        >>> isinstance(is_available(), bool)
        True
    """
    return _probe()[0]


def device_count() -> int:
    """Return the number of CUDA devices (1 on the simulator, 0 without CUDA)."""
    return _probe()[1]


def require(op: str = "cuda") -> None:
    """Raise :class:`DeviceUnavailableError` naming ``op`` unless CUDA (real or simulated) works.

    Example:
        >>> require("randn")  # doctest: +SKIP
    """
    if not is_available():
        raise DeviceUnavailableError(
            f"[{op}] no CUDA device is available: install a GPU driver and gtensor's cuda12/"
            "cuda13 extra, or set NUMBA_ENABLE_CUDASIM=1 before importing Numba to simulate one"
        )


def current_device() -> int:
    """Return the index of the current CUDA device (0 at start).

    Example:
        >>> current_device()
        0
    """
    return _current_device


def check_index(index: int, op: str = "cuda") -> None:
    """Raise :class:`DeviceUnavailableError` unless ``index`` names an existing CUDA device."""
    require(op)
    count = device_count()
    if not 0 <= index < count:
        raise DeviceUnavailableError(
            f"[{op}] invalid CUDA device index {index}; {count} device(s) present")


def set_device(index: int | object) -> None:
    """Make ``index`` (an int, ``"cuda:N"`` or a device) the current CUDA device.

    Example:
        >>> set_device(0)  # doctest: +SKIP
    """
    global _current_device
    from ..device import device

    idx = index if isinstance(index, int) else device(index).index or 0
    check_index(idx, "set_device")
    ensure_initialized("set_device")
    if not is_simulated():
        cupy().cuda.Device(idx).use()
        numba_cuda().select_device(idx)
    _current_device = idx


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
            from .. import memory

            memory.install_cuda_hooks()  # before Numba creates its context


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


def synchronize(device: object | None = None) -> None:
    """Wait for all work queued on a CUDA device (the simulator runs eagerly).

    Raises:
        IndexError: a kernel found a bad index since the last synchronizing call
            (see :mod:`gtensor.cuda.device_errors`).

    Example:
        >>> synchronize()  # doctest: +SKIP
    """
    require("synchronize")
    if not is_simulated():
        cp = cupy()
        from ..device import device as _device

        idx = _current_device if device is None else _device(device).index or 0
        with cp.cuda.Device(idx):
            cp.cuda.runtime.deviceSynchronize()
    raise_pending()
