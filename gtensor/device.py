"""Device descriptors: ``cpu``, ``cuda`` and ``cuda:N``."""

from __future__ import annotations

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

    __slots__ = ("_type", "_index")

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


def resolve(spec: DeviceLike | None, op: str = "device") -> device:
    """Return a concrete device: ``None`` means cpu, bare ``cuda`` the current CUDA device.

    Args:
        spec: what the caller passed as ``device=``.
        op: the op named in the error when ``spec`` names a CUDA device that does not exist.

    Example:
        >>> resolve("cpu")
        device(type='cpu')
    """
    if spec is None:
        return CPU
    d = spec if isinstance(spec, device) else device(spec)
    if d.type == "cuda":
        if d.index is None:
            from .cuda import runtime

            runtime.require(op)
            return device("cuda", runtime.current_device())
        check_device_index(d, op)
    return d


def check_device_index(dev: device, op: str) -> None:
    """Raise unless ``dev`` is cpu, an unindexed cuda, or a CUDA device that exists.

    Raises:
        DeviceUnavailableError: ``[op] invalid device ordinal: cuda:N ...`` (or no CUDA at all).

    Example:
        >>> check_device_index(CPU, "empty")
    """
    if dev.type != "cuda" or dev.index is None:
        return
    from .cuda import runtime

    runtime.require(op)
    count = runtime.device_count()
    check(dev.index < count, op, lambda: f"invalid device ordinal: {dev} (CUDA device "
          f"count is {count})", DeviceUnavailableError)

