"""``gt.accelerator``: the device-neutral accelerator API of ``torch.accelerator``.

gtensor has one accelerator type, ``cuda`` (a real GPU or Numba's simulator),
so each function answers for CUDA through :mod:`gtensor.cuda`. Without CUDA,
:func:`is_available` is false, :func:`current_accelerator` is None,
:func:`device_count` is 0, and the functions that need a device raise
:class:`~gtensor.errors.DeviceUnavailableError` (a ``RuntimeError``, as in PyTorch).

Example:
    >>> import gtensor as gt
    >>> dev = gt.accelerator.current_accelerator() or gt.device("cpu")
    >>> dev.type in ("cpu", "cuda")
    True
"""

from __future__ import annotations

from .cuda import Stream, runtime
from .cuda import current_stream as _cuda_stream
from .device import DeviceLike, device
from .errors import check

__all__ = ["current_accelerator", "current_device_index", "current_stream", "device_count",
           "is_available", "set_device_index", "synchronize"]

_CUDA = device("cuda")


def is_available() -> bool:
    """True when a CUDA device (real or simulated) can run gtensor's kernels.

    Example:
        >>> isinstance(is_available(), bool)
        True
    """
    return runtime.is_available()


def current_accelerator(check_available: bool = False) -> device | None:
    """Return ``device('cuda')`` when CUDA can be used, else None.

    Args:
        check_available: accepted for PyTorch compatibility: gtensor has no
            build-time accelerator, so the answer is always the run-time check.

    Example:
        >>> current_accelerator() in (None, device("cuda"))
        True
    """
    return _CUDA if runtime.is_available() else None


def device_count() -> int:
    """Return the number of CUDA devices (1 on the simulator, 0 without CUDA)."""
    return runtime.device_count()


def current_device_index() -> int:
    """Return the index of the current CUDA device.

    Raises:
        DeviceUnavailableError: no CUDA device is available.
    """
    runtime.require("current_device_index")
    return runtime.current_device()


def _index(spec: DeviceLike, op: str) -> int:
    """The CUDA ordinal ``spec`` names (the current one for a bare ``cuda``)."""
    if isinstance(spec, int) and not isinstance(spec, bool):
        return spec
    dev = device(spec)
    check(dev.type == "cuda", op, lambda: f"expected a cuda device, got {dev}", ValueError)
    runtime.require(op)
    return runtime.current_device() if dev.index is None else dev.index


def set_device_index(device: DeviceLike, /) -> None:
    """Make ``device`` (an int, ``"cuda:N"`` or a cuda device) the current one; negative: no-op.

    Raises:
        DeviceUnavailableError: no CUDA device, or no device with that index.
        ValueError: ``device`` is not a cuda device.

    Example:
        >>> set_device_index("cuda:0"); current_device_index()
        0
    """
    idx = _index(device, "set_device_index")
    if idx >= 0:
        runtime.check_index(idx, "set_device_index")
        runtime.set_device(idx)


def synchronize(device: DeviceLike | None = None, /) -> None:
    """Wait for the work queued on ``device`` (the current CUDA device by default).

    Raises:
        DeviceUnavailableError: no CUDA device is available.

    Example:
        >>> y = gt.ones(2, device="cuda") + 1
        >>> synchronize(); y.tolist()
        [2.0, 2.0]
    """
    idx = runtime.current_device() if device is None else _index(device, "synchronize")
    runtime.synchronize(idx)


def current_stream(device: DeviceLike | None = None, /) -> Stream:
    """Return the current stream of ``device`` (the current CUDA device by default)."""
    return _cuda_stream(None if device is None else _index(device, "current_stream"))
