"""Typed errors and the one check helper every op uses.

Every message starts with the op in brackets:
``[view] shape (3, 5) is invalid for input of size 16``.
"""

from __future__ import annotations

from collections.abc import Callable


class GTensorError(RuntimeError):
    """Base class of gtensor's own runtime errors."""


class DeviceMismatchError(GTensorError):
    """Operands live on different devices."""


class ShapeError(GTensorError, ValueError):
    """Shapes are incompatible for the op."""


class DTypeError(GTensorError, TypeError):
    """A dtype is not supported by the op."""


class UnsupportedDTypeError(DTypeError, NotImplementedError):
    """The op has no kernel for these dtypes (also a ``NotImplementedError``, as in PyTorch)."""


class OutOfMemoryError(GTensorError, MemoryError):
    """A device ran out of memory after the allocator flushed its cache and retried."""


class DeviceUnavailableError(GTensorError):
    """The requested device does not exist here (no CUDA, or no device with that index)."""


class SizeOverflowError(GTensorError, OverflowError):
    """A shape's element count or byte size does not fit in a signed 64-bit integer."""


class Untraceable(GTensorError):
    """``gt.compile`` met something it cannot trace (the call then runs eagerly)."""


class NotYetTraceable(Untraceable):
    """``gt.compile`` cannot trace this call yet (it runs eagerly; a later call is traced).

    Raised, for example, by an optimizer whose state its first step creates.
    """


class DivisionByZeroError(GTensorError, ZeroDivisionError):
    """An integer division or remainder by zero (checked where the divisor is on the host)."""


class SerializationError(GTensorError, ValueError):
    """A file is not a valid gtensor save file (corrupt, truncated or another format).

    Raised by :func:`gtensor.load` for every malformed input, so callers catch
    one class; it is also a ``ValueError`` (bad data) and, as every gtensor
    error, a ``RuntimeError``.
    """


def check(
    cond: object,
    op: str,
    message: Callable[[], str] | str,
    exc: type[BaseException] = GTensorError,
) -> None:
    """Raise ``exc("[op] message")`` unless ``cond`` is true.

    Args:
        cond: the condition that must hold.
        op: op name that starts the message.
        message: the text, or a zero-argument callable building it (only
            called on failure, so the happy path formats nothing).
        exc: the exception type to raise.

    Example:
        >>> check(2 > 1, "add", lambda: "unreachable")
    """
    if not cond:
        text = message() if callable(message) else message
        raise exc(f"[{op}] {text}")


def check_same_device(op: str, *devices: object) -> None:
    """Raise :class:`DeviceMismatchError` unless all ``devices`` are equal.

    Example:
        >>> from gtensor import device
        >>> check_same_device("add", device("cpu"), device("cpu"))
    """
    first = devices[0]
    for other in devices[1:]:
        if other != first:
            raise DeviceMismatchError(
                f"[{op}] expected all tensors on the same device, got {first} and {other}"
            )
