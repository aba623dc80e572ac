"""Device descriptors (``cpu``, ``cuda``, ``cuda:N``) and the CUDA devices this process has.

The bottom of gtensor's device stack: it imports no other gtensor layer, so
:mod:`gtensor.memory` and :mod:`gtensor.cuda` both build on it. Whether CUDA
is simulated, how many CUDA devices exist and which one is current are
decided here; :mod:`gtensor.cuda.runtime` offers them as ``gt.cuda.*``.
"""

from __future__ import annotations

import functools
from typing import Union

from .errors import DeviceUnavailableError, check

_TYPES = ("cpu", "cuda")


class device:  # noqa: N801 - PyTorch's spelling, users write gt.device("cuda")
    """Where a tensor's memory lives and where its kernels run.

    Args:
        spec: ``"cpu"``, ``"cuda"``, ``"cuda:N"``, an int N (``cuda:N``) or a ``device``.
        index: optional device index (``cuda`` only).

    Example:
        >>> d = device("cuda:1")
        >>> d.type, d.index
        ('cuda', 1)
    """

    __slots__ = ("_type", "_index", "_route")

    def __init__(self, spec: str | int | device, index: int | None = None) -> None:
        if isinstance(spec, device):
            kind, idx = spec.type, spec.index
        elif isinstance(spec, int) and not isinstance(spec, bool):
            kind, idx = "cuda", spec
        elif isinstance(spec, str):
            kind, _, rest = spec.strip().partition(":")
            idx = None
            if rest:
                if not rest.isdigit():
                    raise ValueError(f"[device] invalid device string {spec!r}")
                idx = int(rest)
        else:
            raise TypeError(f"[device] expected a str or device, got {type(spec).__name__}")
        if index is not None:
            if idx is not None:
                raise ValueError(f"[device] index given twice in {spec!r} and index={index}")
            idx = index
        if kind not in _TYPES:
            raise ValueError(f"[device] unknown device type {kind!r}; expected one of {_TYPES}")
        if kind == "cpu" and idx not in (None, 0):
            raise ValueError(f"[device] cpu has no index {idx}")
        if idx is not None and idx < 0:
            raise ValueError(f"[device] device index must be >= 0, got {idx}")
        self._type = kind
        self._index = None if kind == "cpu" else idx
        self._route: object = None  # where its memory comes from, set by the storage layer

    def __reduce__(self) -> tuple[type[device], tuple[str]]:
        return device, (str(self),)

    @property
    def type(self) -> str:
        """``"cpu"`` or ``"cuda"``."""
        return self._type

    @property
    def index(self) -> int | None:
        """The device ordinal, ``None`` for cpu and for an unindexed ``cuda``."""
        return self._index

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            try:
                other = device(other)
            except (TypeError, ValueError):
                return False
        if not isinstance(other, device):
            return NotImplemented
        return self._type == other._type and self._index == other._index

    def __hash__(self) -> int:
        return hash((self._type, self._index))

    def __str__(self) -> str:
        return self._type if self._index is None else f"{self._type}:{self._index}"

    def __repr__(self) -> str:
        if self._index is None:
            return f"device(type='{self._type}')"
        return f"device(type='{self._type}', index={self._index})"


DeviceLike = Union[str, int, device]  # noqa: UP007 - a runtime alias

CPU = device("cpu")


@functools.cache
def cuda_is_simulated() -> bool:
    """True when ``cuda`` devices run on Numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``).

    The one switch gtensor reads to tell the simulator from a real GPU. Numba
    fixes it when it is first imported; the answer is kept from the first call.

    Example:
        >>> isinstance(cuda_is_simulated(), bool)
        True
    """
    # The kernels' flag imports Numba, which takes about half a second to load: read it on
    # first use, so that `import gtensor` stays light and the simulator can still be
    # switched on before Numba loads.
    from .kernels.simulator import SIMULATED

    return SIMULATED


@functools.cache
def _probe_cuda() -> tuple[bool, int]:
    if cuda_is_simulated():
        return True, 1
    try:
        from numba import cuda  # optional GPU stack: numba-cuda and CuPy

        if not cuda.is_available():
            return False, 0
        import cupy

        return True, int(cupy.cuda.runtime.getDeviceCount())
    except Exception:
        return False, 0


def cuda_is_available() -> bool:
    """True when a CUDA device (real or simulated) can run gtensor kernels.

    Example:
        >>> isinstance(cuda_is_available(), bool)
        True
    """
    return _probe_cuda()[0]


def cuda_device_count() -> int:
    """Return the number of CUDA devices (1 on the simulator, 0 without CUDA)."""
    return _probe_cuda()[1]


def require_cuda(op: str = "cuda") -> None:
    """Raise :class:`DeviceUnavailableError` naming ``op`` unless CUDA (real or simulated) works.

    Example:
        >>> require_cuda("randn")  # returns: a GPU (or the simulator) is there
    """
    if not cuda_is_available():
        raise DeviceUnavailableError(
            f"[{op}] no CUDA device is available: install a GPU driver and gtensor's cuda12/"
            "cuda13 extra, or set NUMBA_ENABLE_CUDASIM=1 before importing Numba to simulate one"
        )


_current_cuda = 0


def current_cuda_device() -> int:
    """Return the index of the current CUDA device (0 at start; bare ``cuda`` means it).

    Example:
        >>> current_cuda_device()
        0
    """
    return _current_cuda


def set_current_cuda_device(index: int) -> None:
    """Record ``index`` as the current CUDA device.

    :func:`gtensor.cuda.set_device` checks the index and selects the device in
    CuPy and Numba before it records it here.
    """
    global _current_cuda
    _current_cuda = index


_default_device = CPU


def set_default_device(spec: DeviceLike | None) -> None:
    """Make ``spec`` the device factories (``zeros``, ``tensor``...) use when given none.

    ``None`` restores the cpu. A bare ``"cuda"`` means the CUDA device current at each call.

    Example:
        >>> set_default_device("cpu"); get_default_device()
        device(type='cpu')
    """
    global _default_device
    new = CPU if spec is None else spec if isinstance(spec, device) else device(spec)
    if new.type == "cuda":
        require_cuda("set_default_device")
        if new.index is not None:
            check_device_index(new, "set_default_device")
    _default_device = new


def get_default_device() -> device:
    """The device factories use when given none (see :func:`set_default_device`).

    Example:
        >>> get_default_device()
        device(type='cpu')
    """
    d = _default_device
    return device("cuda", _current_cuda) if d.type == "cuda" and d.index is None else d


def resolve(spec: DeviceLike | None, op: str = "device") -> device:
    """Return a concrete device: ``None`` means the default device (cpu unless
    :func:`set_default_device` changed it), bare ``cuda`` the current CUDA device.

    Args:
        spec: what the caller passed as ``device=``.
        op: the op named in the error when ``spec`` names a CUDA device that does not exist.

    Example:
        >>> resolve("cpu")
        device(type='cpu')
    """
    if spec is None:
        if _default_device is CPU:
            return CPU
        spec = _default_device
    d = spec if isinstance(spec, device) else device(spec)
    if d._type == "cuda":
        if d._index is None:
            require_cuda(op)
            d = device("cuda", _current_cuda)
        else:
            check_device_index(d, op)
    # one object per device: ops compare devices by identity first, and the
    # storage layer keeps each device's allocator route on the object
    return _canonical.setdefault((d._type, d._index), d)


_canonical: dict[tuple[str, int | None], device] = {("cpu", None): CPU}


def check_device_index(dev: device, op: str) -> None:
    """Raise unless ``dev`` is cpu, an unindexed cuda, or a CUDA device that exists.

    Raises:
        DeviceUnavailableError: ``[op] invalid device ordinal: cuda:N ...`` (or no CUDA at all).

    Example:
        >>> check_device_index(CPU, "empty")
    """
    if dev.type != "cuda" or dev.index is None:
        return
    require_cuda(op)
    count = cuda_device_count()
    check(dev.index < count, op, lambda: f"invalid device ordinal: {dev} (CUDA device "
          f"count is {count})", DeviceUnavailableError)

